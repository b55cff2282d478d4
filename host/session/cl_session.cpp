#include "session/cl_session.hpp"

#include <limits>

#include "opencl/cl_check.hpp"

namespace clgemm {

ClSession::ClSession(const SelectedDevice& device, const KernelSource& source)
    : device_(device.device), info_(device.info) {
  try {
    context_ = cl::Context(device_);
    queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  programs_.emplace(context_, device_, source.text, source.origin);
}

void ClSession::upload(const Problem& problem) {
  problem_ = &problem;
  const std::size_t c_bytes = std::size_t(problem.m) * std::size_t(problem.n) * sizeof(float);
  // The previous size's buffers go first, so two sizes never hold device memory together.
  a_ = b_ = c_ = GuardedClBuffer();
  a_ = GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_ONLY, problem.a.size(), "A");
  b_ = GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_ONLY, problem.b.size(), "B");
  c_ = GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_WRITE, c_bytes / sizeof(float), "C");
  try {
    queue_.enqueueWriteBuffer(a(), CL_TRUE, 0, problem.a.size() * sizeof(float), problem.a.data());
    queue_.enqueueWriteBuffer(b(), CL_TRUE, 0, problem.b.size() * sizeof(float), problem.b.data());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

cl::Buffer ClSession::aRows(int first, int rows) {
  const auto k = std::size_t(problem_->k);
  return a_.part(std::size_t(first) * k, std::size_t(rows) * k);
}

cl::Buffer ClSession::cRows(int first, int rows) {
  const auto n = std::size_t(problem_->n);
  return c_.part(std::size_t(first) * n, std::size_t(rows) * n);
}

void ClSession::resetC() {
  const std::size_t bytes = std::size_t(problem_->m) * std::size_t(problem_->n) * sizeof(float);
  try {
    if (problem_->beta != 0.0f) {
      queue_.enqueueWriteBuffer(c(), CL_FALSE, 0, bytes, problem_->c0.data());
    } else {
      c_.fill(queue_, std::numeric_limits<float>::quiet_NaN());
    }
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void ClSession::readC(std::vector<float>& result) {
  result.resize(std::size_t(problem_->m) * std::size_t(problem_->n));
  try {
    queue_.enqueueReadBuffer(c(), CL_TRUE, 0, result.size() * sizeof(float), result.data());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

GuardedClBuffer ClSession::scratch(std::size_t count, const std::string& name) {
  return GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_WRITE, count, name);
}

MemoryCheck ClSession::checkMemory() {
  MemoryCheck out;
  a_.checkGuards(queue_, out);
  b_.checkGuards(queue_, out);
  c_.checkGuards(queue_, out);
  a_.checkUnchanged(queue_, problem_->a, std::size_t(problem_->k), out);
  b_.checkUnchanged(queue_, problem_->b, std::size_t(problem_->n), out);
  return out;
}

}  // namespace clgemm
