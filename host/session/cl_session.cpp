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
  c_storage_ = problem.storage().c;
  initial_c_ = initialStoredC(problem);
  const HostMatrix& a_stored = problem.storedA();
  const HostMatrix& b_stored = problem.storedB();
  const Precision precision = problem.precision;
  // The previous size's buffers go first, so two sizes never hold device memory together.
  a_ = b_ = c_ = GuardedClBuffer();
  a_ = GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_ONLY, a_stored.size(), "A", precision);
  b_ = GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_ONLY, b_stored.size(), "B", precision);
  c_ = GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_WRITE, c_storage_.count(), "C",
                       precision);
  try {
    queue_.enqueueWriteBuffer(a(), CL_TRUE, 0, a_stored.bytes(), a_stored.data());
    queue_.enqueueWriteBuffer(b(), CL_TRUE, 0, b_stored.bytes(), b_stored.data());
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
  try {
    if (!initial_c_.empty()) {
      queue_.enqueueWriteBuffer(c(), CL_FALSE, 0, initial_c_.bytes(), initial_c_.data());
    } else {
      c_.fill(queue_, std::numeric_limits<double>::quiet_NaN());
    }
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void ClSession::readC(std::vector<double>& result) {
  HostMatrix stored(problem_->precision, c_storage_.count());
  try {
    queue_.enqueueReadBuffer(c(), CL_TRUE, 0, stored.bytes(), stored.data());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  gatherResult(stored, c_storage_, result, c_gaps_);
}

GuardedClBuffer ClSession::scratch(std::size_t count, const std::string& name) {
  return GuardedClBuffer(context_, queue_, info_, CL_MEM_READ_WRITE, count, name,
                         problem_ ? problem_->precision : Precision::kFp32);
}

MemoryCheck ClSession::checkMemory() {
  MemoryCheck out;
  a_.checkGuards(queue_, out);
  b_.checkGuards(queue_, out);
  c_.checkGuards(queue_, out);
  const GemmStorage storage = problem_->storage();
  a_.checkUnchanged(queue_, problem_->storedA(), std::size_t(storage.a.ld), out);
  b_.checkUnchanged(queue_, problem_->storedB(), std::size_t(storage.b.ld), out);
  for (auto& finding : c_gaps_.findings) out.findings.push_back(std::move(finding));
  c_gaps_ = {};
  return out;
}

}  // namespace clgemm
