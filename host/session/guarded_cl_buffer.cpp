#include "session/guarded_cl_buffer.hpp"

#include <algorithm>

#include "opencl/cl_check.hpp"
#include "util/int_math.hpp"

namespace clgemm {

namespace {

bool isOclgrind(const DeviceInfo& device) { return device.platform_name == "Oclgrind"; }

}  // namespace

std::size_t GuardedClBuffer::guardBytes(const DeviceInfo& device) {
  // oclgrind checks every access against the bounds of its buffer: guards would put small overruns
  // inside the allocation and hide them from it, and it reports them all itself.
  if (isOclgrind(device)) return 0;
  const std::size_t align = std::max<std::size_t>(device.base_align_bytes, sizeof(float));
  return roundUp(kGuardBytes, align);
}

GuardedClBuffer::GuardedClBuffer(cl::Context& context, cl::CommandQueue& queue,
                                 const DeviceInfo& device, cl_mem_flags view_flags,
                                 std::size_t count, std::string name, Precision precision)
    : name_(std::move(name)),
      on_oclgrind_(isOclgrind(device)),
      count_(count),
      precision_(precision),
      guard_bytes_(guardBytes(device)),
      view_flags_(view_flags) {
  try {
    if (guard_bytes_ == 0) {
      view_ = whole_ = cl::Buffer(context, view_flags, bytes());
      return;
    }
    whole_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes() + 2 * guard_bytes_);
    const cl_buffer_region region{guard_bytes_, bytes()};
    view_ = whole_.createSubBuffer(view_flags, CL_BUFFER_CREATE_TYPE_REGION, &region);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  fillGuard(queue, 0);
  fillGuard(queue, guard_bytes_ + bytes());
}

cl::Buffer GuardedClBuffer::part(std::size_t offset, std::size_t count) {
  const std::size_t size = elementBytes(precision_);
  const cl_buffer_region region{guard_bytes_ + offset * size, count * size};
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

void GuardedClBuffer::fill(cl::CommandQueue& queue, double value) {
  try {
    if (on_oclgrind_) {
      const HostMatrix values(precision_, count_, value);
      queue.enqueueWriteBuffer(view_, CL_TRUE, 0, bytes(), values.data());
    } else if (precision_ == Precision::kFp64) {
      queue.enqueueFillBuffer(view_, value, 0, bytes());
    } else {
      queue.enqueueFillBuffer(view_, float(value), 0, bytes());
    }
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void GuardedClBuffer::checkGuards(cl::CommandQueue& queue, MemoryCheck& out) {
  if (guard_bytes_ == 0) return;
  std::vector<float> guard(guard_bytes_ / sizeof(float));
  const std::size_t after = guard_bytes_ + bytes();
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

void GuardedClBuffer::checkUnchanged(cl::CommandQueue& queue, const HostMatrix& original,
                                     std::size_t cols, MemoryCheck& out) {
  // 16 MiB at a time: a full copy of an 8192^2 matrix would be another 256 MiB of host memory.
  const std::size_t size = elementBytes(precision_);
  const std::size_t slice_elements = std::min((std::size_t(16) << 20) / size, count_);
  std::vector<unsigned char> slice(slice_elements * size);
  const auto* originals = static_cast<const unsigned char*>(original.data());
  ChangedElements changed;
  try {
    for (std::size_t at = 0; at < count_; at += slice_elements) {
      const std::size_t n = std::min(slice_elements, count_ - at);
      queue.enqueueReadBuffer(view_, CL_TRUE, at * size, n * size, slice.data());
      changed.scan(slice.data(), originals + at * size, n, at, precision_);
    }
    if (changed.count() > 0) queue.enqueueWriteBuffer(view_, CL_TRUE, 0, bytes(), original.data());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  changed.report(name_, cols, out);
}

}  // namespace clgemm
