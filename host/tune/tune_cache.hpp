// The tuner's per-candidate cache: one JSON line per evaluated configuration, appended as soon as
// the candidate is done, so a search that is interrupted (Ctrl-C, a crash, a lost machine) resumes
// where it stopped instead of repeating finished candidates. One file per search key (device,
// driver, kernel, size and everything else that changes a candidate's result), under
// <store>/tune-cache/.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "problem/size_list.hpp"
#include "tune/tune_space.hpp"

namespace clgemm {

struct CandidateResult {
  Config config;
  std::string status;  // ok | FAIL (wrong result) | invalid (did not build or launch)
  std::optional<double> gflops, ms_median, ms_min, err_ratio;
  std::optional<int> registers;  // where the compiler reports them
  std::string reason;            // why it failed or was invalid
  bool from_cache = false;       // read back, not evaluated in this run
};

class TuneCache {
 public:
  // Reads the results already in `path` (none when it does not exist). Lines that do not parse, or
  // do not name exactly the parameters in `names`, are skipped: a line cut short by a kill is lost,
  // the rest stay.
  TuneCache(std::string path, std::vector<std::string> names);

  const CandidateResult* find(const Config& config) const;
  std::size_t size() const { return results_.size(); }
  const std::string& path() const { return path_; }

  // Appends one line with a single write() and syncs it to disk. A cache that cannot be written
  // is a usage error naming --store.
  void append(const CandidateResult& result);

 private:
  std::string path_;
  std::vector<std::string> names_;
  std::map<Config, CandidateResult> results_;
  bool needs_newline_ = false;  // the file ends in a line cut short
};

// "<device>-<kernel>-<size>-<16 hex digits>.jsonl", the digits hashing `key` (driver, kernels
// source, compiler options, alpha, beta, the user's other defines: whatever changes a result).
std::string tuneCacheFileName(const std::string& device, const std::string& kernel,
                              const Shape& size, const std::string& key);

}  // namespace clgemm
