// One repetition of a device's panel with its host-device transfers (--devices). The operands are
// staged in pinned host memory; then B and A's rows are written, the GEMM runs and C's rows are
// read back, streamed in chunks of rows on three queues chained by events, so that a chunk's GEMM
// runs while the next chunk's rows are written and the previous chunk of C is read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "problem/problem.hpp"
#include "registry/kernels.hpp"
#include "run/variant_runner.hpp"
#include "session/cl_session.hpp"

namespace clgemm {

// Up to this many chunks per panel.
inline constexpr int kStreamChunks = 4;

// The first rows of a panel's chunks: whole granules of kSplitGranule rows, at most
// kStreamChunks, the last taking the rest. A chunk's rows of A and C must start on the device's
// base address alignment to be buffers of their own; where they would not, or the panel is under
// two granules, one chunk.
std::vector<int> chunkRows(int rows, int n, int k, std::uint64_t align);

class StreamedPanel {
 public:
  // Untimed set-up: `panel`'s operands staged in pinned host memory (from pageable memory NVIDIA's
  // driver copies synchronously, and two devices' transfers took turns: 709 ms against 359 each
  // on two H200s), and where the panel has two chunks or more, a runner per chunk on its rows of
  // A and C; `runner` computes the whole panel otherwise. The session holds `panel` uploaded.
  StreamedPanel(ClSession& session, ClGemmRunner& runner, const Variant& variant,
                const ResolvedDefines& defines, const Problem& panel,
                const std::string& cl_options);
  // Releases the chunks' sub-buffers before anything replaces the buffers they are cut from: kept
  // until the next size of a sweep, they were released after their parents, and the sweep
  // segfaulted on NVIDIA's driver 580.159.04 (pocl did not mind).
  ~StreamedPanel();
  StreamedPanel(const StreamedPanel&) = delete;
  StreamedPanel& operator=(const StreamedPanel&) = delete;

  // The timed repetition, meant for a host thread of its own: it never throws, a failure is left
  // in error().
  void run();
  const std::string& error() const { return error_; }

  int chunks() const { return int(runners_.empty() ? 1 : runners_.size()); }
  // The transfers' own time (their events summed), and the repetition's, from the first write to
  // the end of the last read: less than in + GEMM + out where the chunks overlapped.
  double inMs() const;
  double outMs() const;
  double e2eMs() const;
  // The panel's C as read back.
  const float* c() const { return host_ + panel_.a.size() + panel_.b.size(); }

 private:
  ClSession& session_;
  ClGemmRunner& runner_;
  const Problem& panel_;
  cl::Buffer pinned_;
  float* host_ = nullptr;
  std::vector<int> first_;                              // each chunk's first row
  std::vector<Problem> chunk_problems_;                 // each chunk's size
  std::vector<std::unique_ptr<ClGemmRunner>> runners_;  // each chunk's, on its rows
  std::vector<cl::Event> in_, out_;
  std::string error_;
};

}  // namespace clgemm
