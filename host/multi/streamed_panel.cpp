#include "multi/streamed_panel.hpp"

#include <algorithm>

#include "multi/row_split.hpp"
#include "opencl/cl_check.hpp"
#include "run/launch.hpp"

namespace clgemm {
namespace {

double busyMs(const std::vector<cl::Event>& events) {
  double ms = 0.0;
  for (const auto& e : events) ms += eventSpanMs(e, e);
  return ms;
}

}  // namespace

std::vector<int> chunkRows(int rows, int n, int k, std::uint64_t align) {
  const int granules = rows / kSplitGranule;
  const int chunks = std::min(granules, kStreamChunks);
  if (chunks < 2) return {0};
  const int step = granules / chunks * kSplitGranule;
  std::vector<int> first;
  for (int c = 0; c < chunks; ++c) {
    const std::uint64_t row = std::uint64_t(c) * std::uint64_t(step);
    if ((row * std::uint64_t(k) * sizeof(float)) % align != 0 ||
        (row * std::uint64_t(n) * sizeof(float)) % align != 0)
      return {0};
    first.push_back(int(row));
  }
  return first;
}

StreamedPanel::StreamedPanel(ClSession& session, ClGemmRunner& runner, const Variant& variant,
                             const ResolvedDefines& defines, const Problem& panel,
                             const std::string& cl_options)
    : session_(session), runner_(runner), panel_(panel) {
  const Problem& p = panel;
  const std::size_t floats = p.a.size() + p.b.size() + std::size_t(p.m) * std::size_t(p.n);
  try {
    pinned_ = cl::Buffer(session.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE,
                         floats * sizeof(float));
    host_ = static_cast<float*>(session.queue().enqueueMapBuffer(
        pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, floats * sizeof(float)));
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  std::copy(p.a.begin(), p.a.end(), host_);
  std::copy(p.b.begin(), p.b.end(), host_ + p.a.size());
  std::copy(p.c0.begin(), p.c0.end(), host_ + p.a.size() + p.b.size());

  first_ = chunkRows(p.m, p.n, p.k, session.info().base_align_bytes);
  if (first_.size() < 2) return;
  chunk_problems_.reserve(first_.size());  // the runners keep references to them
  for (std::size_t c = 0; c < first_.size(); ++c) {
    const int end = c + 1 < first_.size() ? first_[c + 1] : p.m;
    Problem chunk;
    chunk.m = end - first_[c];
    chunk.n = p.n;
    chunk.k = p.k;
    chunk.alpha = p.alpha;
    chunk.beta = p.beta;
    chunk_problems_.push_back(chunk);
    ClOperands operands{session.aRows(first_[c], chunk.m), session.b(),
                        session.cRows(first_[c], chunk.m), session.queue()};
    runners_.push_back(makeClKernelRunner(variant, defines, session, chunk_problems_.back(),
                                          cl_options, nullptr, std::move(operands)));
  }
}

StreamedPanel::~StreamedPanel() {
  runners_.clear();  // before the problems they refer to, and before the session's buffers change
  if (!host_) return;
  try {
    session_.queue().enqueueUnmapMemObject(pinned_, host_);
    session_.queue().finish();
  } catch (const cl::Error&) {
    // Nothing to do in a destructor; the context goes with the session.
  }
}

void StreamedPanel::run() {
  const Problem& p = panel_;
  const auto n = std::size_t(p.n), k = std::size_t(p.k);
  float* c_host = host_ + p.a.size() + p.b.size();
  try {
    cl::CommandQueue writes(session_.context(), session_.device(), CL_QUEUE_PROFILING_ENABLE);
    cl::CommandQueue reads(session_.context(), session_.device(), CL_QUEUE_PROFILING_ENABLE);
    cl::CommandQueue& compute = session_.queue();
    if (p.c0.empty()) session_.resetC();  // poison C: an element no GEMM writes shows
    in_.emplace_back();
    writes.enqueueWriteBuffer(session_.b(), CL_FALSE, 0, p.b.size() * sizeof(float),
                              host_ + p.a.size(), nullptr, &in_.back());
    const cl::Event b_written = in_.back();
    const std::size_t chunks = std::size_t(this->chunks());
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t first = std::size_t(first_[c]);
      const std::size_t end = c + 1 < chunks ? std::size_t(first_[c + 1]) : std::size_t(p.m);
      std::vector<cl::Event> ready = {b_written, cl::Event()};
      writes.enqueueWriteBuffer(session_.a(), CL_FALSE, first * k * sizeof(float),
                                (end - first) * k * sizeof(float), host_ + first * k, nullptr,
                                &ready[1]);
      in_.push_back(ready[1]);
      if (!p.c0.empty()) {
        ready.emplace_back();
        writes.enqueueWriteBuffer(session_.c(), CL_FALSE, first * n * sizeof(float),
                                  (end - first) * n * sizeof(float), c_host + first * n, nullptr,
                                  &ready.back());
        in_.push_back(ready.back());
      }
      writes.flush();
      ClGemmRunner& runner = runners_.empty() ? runner_ : *runners_[c];
      const std::vector<cl::Event> computed = {runner.enqueueGemm(&ready).second};
      compute.flush();
      out_.emplace_back();
      reads.enqueueReadBuffer(session_.c(), CL_FALSE, first * n * sizeof(float),
                              (end - first) * n * sizeof(float), c_host + first * n, &computed,
                              &out_.back());
      reads.flush();
    }
    reads.finish();
    compute.finish();
    writes.finish();
  } catch (const cl::Error& e) {
    error_ = std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

double StreamedPanel::inMs() const { return busyMs(in_); }
double StreamedPanel::outMs() const { return busyMs(out_); }
double StreamedPanel::e2eMs() const { return eventSpanMs(in_.front(), out_.back()); }

}  // namespace clgemm
