#include "session/guarded_cl_buffer.hpp"

#include <algorithm>

#include "opencl/cl_check.hpp"

namespace clgemm {

namespace {

bool isOclgrind(const DeviceInfo& device) { return device.platform_name == "Oclgrind"; }

}  // namespace

std::size_t GuardedClBuffer::guardBytes(const DeviceInfo& device) {
  // oclgrind checks every access against the bounds of its buffer: guards would put small overruns
  // inside the allocation and hide them from it, and it reports them all itself.
  if (isOclgrind(device)) return 0;
  const std::size_t align = std::max<std::size_t>(device.base_align_bytes, sizeof(float));
  return (kGuardBytes + align - 1) / align * align;
}

GuardedClBuffer::GuardedClBuffer(cl::Context& context, cl::CommandQueue& queue,
                                 const DeviceInfo& device, cl_mem_flags view_flags,
                                 std::size_t count, std::string name)
    : name_(std::move(name)),
      on_oclgrind_(isOclgrind(device)),
      count_(count),
      guard_bytes_(guardBytes(device)),
      view_flags_(view_flags) {
  try {
    if (guard_bytes_ == 0) {
      view_ = whole_ = cl::Buffer(context, view_flags, count * sizeof(float));
      return;
    }
    whole_ = cl::Buffer(context, CL_MEM_READ_WRITE, count * sizeof(float) + 2 * guard_bytes_);
    const cl_buffer_region region{guard_bytes_, count * sizeof(float)};
    view_ = whole_.createSubBuffer(view_flags, CL_BUFFER_CREATE_TYPE_REGION, &region);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  fillGuard(queue, 0);
  fillGuard(queue, guard_bytes_ + count_ * sizeof(float));
}

cl::Buffer GuardedClBuffer::part(std::size_t offset, std::size_t count) {
  const cl_buffer_region region{guard_bytes_ + offset * sizeof(float), count * sizeof(float)};
  try {
    return whole_.createSubBuffer(view_flags_, CL_BUFFER_CREATE_TYPE_REGION, &region);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void GuardedClBuffer::fillGuard(cl::CommandQueue& queue, std::size_t offset_bytes) {
  try {
    queue.enqueueFillBuffer(whole_, canaryValue(), offset_bytes, guard_bytes_);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void GuardedClBuffer::fill(cl::CommandQueue& queue, float value) {
  try {
    if (on_oclgrind_) {
      const std::vector<float> values(count_, value);
      queue.enqueueWriteBuffer(view_, CL_TRUE, 0, count_ * sizeof(float), values.data());
    } else {
      queue.enqueueFillBuffer(view_, value, 0, count_ * sizeof(float));
    }
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void GuardedClBuffer::checkGuards(cl::CommandQueue& queue, MemoryCheck& out) {
  if (guard_bytes_ == 0) return;
  std::vector<float> guard(guard_bytes_ / sizeof(float));
  const std::size_t after = guard_bytes_ + count_ * sizeof(float);
  for (const auto& [side, offset] :
       {std::pair{GuardSide::kBefore, std::size_t(0)}, std::pair{GuardSide::kAfter, after}}) {
    try {
      queue.enqueueReadBuffer(whole_, CL_TRUE, offset, guard_bytes_, guard.data());
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
    const std::size_t before = out.findings.size();
    checkGuard(guard.data(), guard.size(), side, name_, out);
    if (out.findings.size() != before) fillGuard(queue, offset);
  }
}

void GuardedClBuffer::checkUnchanged(cl::CommandQueue& queue, const std::vector<float>& original,
                                     std::size_t cols, MemoryCheck& out) {
  // 16 MiB at a time: a full copy of an 8192^2 matrix would be another 256 MiB of host memory.
  constexpr std::size_t kSliceFloats = std::size_t(4) << 20;
  std::vector<float> slice(std::min(kSliceFloats, count_));
  ChangedElements changed;
  try {
    for (std::size_t at = 0; at < count_; at += slice.size()) {
      const std::size_t n = std::min(slice.size(), count_ - at);
      queue.enqueueReadBuffer(view_, CL_TRUE, at * sizeof(float), n * sizeof(float), slice.data());
      changed.scan(slice.data(), original.data() + at, n, at);
    }
    if (changed.count() > 0)
      queue.enqueueWriteBuffer(view_, CL_TRUE, 0, count_ * sizeof(float), original.data());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  changed.report(name_, cols, out);
}

}  // namespace clgemm
