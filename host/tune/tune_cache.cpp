#include "tune/tune_cache.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "store/user_store.hpp"
#include "util/errors.hpp"
#include "util/json_or_null.hpp"

namespace clgemm {
namespace {

std::optional<double> numberOrNothing(const nlohmann::json& doc, const char* key) {
  if (!doc.contains(key) || doc.at(key).is_null()) return std::nullopt;
  return doc.at(key).get<double>();
}

std::optional<CandidateResult> parseLine(const std::string& line,
                                         const std::vector<std::string>& names) {
  try {
    const nlohmann::json doc = nlohmann::json::parse(line);
    const auto& defines = doc.at("defines");
    if (defines.size() != names.size()) return std::nullopt;
    CandidateResult r;
    for (const auto& name : names) r.config.push_back(defines.at(name).get<int>());
    r.status = doc.at("status").get<std::string>();
    if (r.status != "ok" && r.status != "FAIL" && r.status != "invalid") return std::nullopt;
    r.gflops = numberOrNothing(doc, "gflops");
    r.ms_median = numberOrNothing(doc, "ms_median");
    r.ms_min = numberOrNothing(doc, "ms_min");
    r.err_ratio = numberOrNothing(doc, "err_ratio");
    if (const auto regs = numberOrNothing(doc, "registers")) r.registers = int(*regs);
    r.reason = doc.value("reason", "");
    if (r.status == "ok" && !r.gflops) return std::nullopt;
    r.from_cache = true;
    return r;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

TuneCache::TuneCache(std::string path, std::vector<std::string> names)
    : path_(std::move(path)), names_(std::move(names)) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  needs_newline_ = !text.empty() && text.back() != '\n';
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (auto r = parseLine(text.substr(start, end - start), names_)) results_[r->config] = *r;
    start = end + 1;
  }
}

const CandidateResult* TuneCache::find(const Config& config) const {
  const auto it = results_.find(config);
  return it == results_.end() ? nullptr : &it->second;
}

void TuneCache::append(const CandidateResult& result) {
  const nlohmann::json doc = {
      {"defines", namedConfig(names_, result.config)}, {"status", result.status},
      {"gflops", jsonOrNull(result.gflops)},           {"ms_median", jsonOrNull(result.ms_median)},
      {"ms_min", jsonOrNull(result.ms_min)},           {"err_ratio", jsonOrNull(result.err_ratio)},
      {"registers", jsonOrNull(result.registers)},     {"reason", result.reason}};
  // A line cut short by an earlier kill is ended first, so it stays one bad line.
  const std::string line = (needs_newline_ ? "\n" : "") + doc.dump() + "\n";
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  const int open_errno = errno;
  if (ok) {
    ok = ::write(fd, line.data(), line.size()) == ssize_t(line.size());
    ok = ::fsync(fd) == 0 && ok;
    ok = ::close(fd) == 0 && ok;
  }
  if (!ok)
    throw UsageError("--store: cannot append to the tuning cache '" + path_ +
                     "': " + std::strerror(fd < 0 ? open_errno : errno));
  needs_newline_ = false;
  CandidateResult stored = result;
  stored.from_cache = true;
  results_[result.config] = stored;
}

std::string tuneCacheFileName(const std::string& device, const std::string& kernel,
                              const Shape& size, const std::string& key) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (const unsigned char c : key) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  static const char* digits = "0123456789abcdef";
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) hex[std::size_t(i)] = digits[hash & 0xf];
  return fileSlug(device) + "-" + kernel + "-" + shapeText(size) + "-" + hex + ".jsonl";
}

}  // namespace clgemm
