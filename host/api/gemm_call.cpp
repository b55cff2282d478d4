#include "api/gemm_call.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "api/library_device.hpp"
#include "opencl/cl_check.hpp"
#include "problem/gemm_shape.hpp"
#include "registry/kernels.hpp"
#include "registry/param_lookup.hpp"
#include "run/kernel_plan.hpp"

namespace clgemm {
namespace {

// The kernel the library runs: best takes every shape, offset and precision in the kernel, so a
// call is one launch (plus padding copies at large sizes that divide no tile).
const Variant& libraryVariant() {
  static const Variant& best = *parseVariantList("best").front();
  return best;
}

// One operand as the caller stores it, in 64 bits until it is known to fit the kernels' ints.
struct Stored {
  std::uint64_t rows, cols, ld, offset;
  bool column_major;
  std::uint64_t lineLength() const { return column_major ? rows : cols; }
  std::uint64_t lines() const { return column_major ? cols : rows; }
  // Elements from the buffer's start to the matrix's last one, plus one.
  std::uint64_t span() const {
    if (rows == 0 || cols == 0) return offset;
    return offset + (lines() - 1) * ld + lineLength();
  }
};

void checkLeadingDim(const Stored& s, const char* name, clgemmStatus status) {
  const std::uint64_t least = std::max<std::uint64_t>(1, s.lineLength());
  if (s.ld < least)
    throw ApiError(status, std::string(name) + " = " + std::to_string(s.ld) + " is less than " +
                               std::to_string(least) + ", the length of the matrix's " +
                               (s.column_major ? "columns" : "rows") + " as stored");
}

// The buffer exists in the queue's context and holds the matrix past its offset.
void checkBuffer(cl_mem buffer, const Stored& s, std::size_t element_bytes, cl_context context,
                 const char* name, clgemmStatus status) {
  if (!buffer) throw ApiError(status, std::string(name) + " is null");
  cl_context owner = nullptr;
  std::size_t bytes = 0;
  if (clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, nullptr) != CL_SUCCESS ||
      clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr) != CL_SUCCESS)
    throw ApiError(status, std::string(name) + " is not a valid buffer");
  if (owner != context)
    throw ApiError(status, std::string(name) + " belongs to another context than the queue");
  if (s.span() > bytes / element_bytes)
    throw ApiError(status, std::string(name) + " holds " + std::to_string(bytes / element_bytes) +
                               " elements; the matrix at its offset and leading dimension needs " +
                               std::to_string(s.span()));
}

void checkFitsInt(const Stored& s, const char* name) {
  if (s.span() > std::uint64_t(INT_MAX) || s.ld > std::uint64_t(INT_MAX))
    throw ApiError(clgemmTooLarge, std::string(name) +
                                       ": the matrix reaches past element 2^31 - 1 of its buffer, "
                                       "and the kernels index in int");
}

Trans transOf(clgemmTranspose t) { return t == clgemmTransposeNo ? Trans::kN : Trans::kT; }

// Scratch matrices (padding copies) as plain buffers of the call's context, released when the
// call's commands have finished (OpenCL keeps a released buffer alive until then). A zeroed one
// is initialised from the host at creation, so that no command on the caller's queue (which may
// be out of order) has to come before the call's first launch.
ScratchAllocator plainScratch(const cl::Context& context, std::size_t element_bytes) {
  return [context, element_bytes](std::size_t count, const std::string&, bool zeroed) {
    if (!zeroed) return cl::Buffer(context, CL_MEM_READ_WRITE, count * element_bytes);
    std::vector<unsigned char> zeros(count * element_bytes, 0);
    return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, zeros.size(),
                      zeros.data());
  };
}

}  // namespace

void enqueueGemmCall(const GemmCall& call) {
  if (call.event) *call.event = nullptr;
  if (!call.queue || !*call.queue) throw ApiError(clgemmInvalidQueue, "the queue is null");
  if (call.layout != clgemmLayoutRowMajor && call.layout != clgemmLayoutColMajor)
    throw ApiError(clgemmInvalidLayout, "layout " + std::to_string(int(call.layout)) +
                                            " is neither clgemmLayoutRowMajor (101) nor "
                                            "clgemmLayoutColMajor (102)");
  for (const clgemmTranspose t : {call.a_transpose, call.b_transpose})
    if (t != clgemmTransposeNo && t != clgemmTransposeYes && t != clgemmTransposeConjugate)
      throw ApiError(clgemmInvalidTranspose,
                     std::string(t == call.a_transpose ? "a_transpose " : "b_transpose ") +
                         std::to_string(int(t)) + " is not 111, 112 or 113");
  const bool col = call.layout == clgemmLayoutColMajor;
  const bool ta = call.a_transpose != clgemmTransposeNo, tb = call.b_transpose != clgemmTransposeNo;
  const Stored a{ta ? call.k : call.m, ta ? call.m : call.k, call.a_ld, call.a_offset, col};
  const Stored b{tb ? call.n : call.k, tb ? call.k : call.n, call.b_ld, call.b_offset, col};
  const Stored c{call.m, call.n, call.c_ld, call.c_offset, col};
  checkLeadingDim(a, "a_ld", clgemmInvalidLeadingDimA);
  checkLeadingDim(b, "b_ld", clgemmInvalidLeadingDimB);
  checkLeadingDim(c, "c_ld", clgemmInvalidLeadingDimC);
  // Nothing to compute, and nothing read or written: BLAS's quick return.
  if (call.m == 0 || call.n == 0) return;

  cl::CommandQueue queue(*call.queue, /*retainObject=*/true);
  cl_context context_id = nullptr;
  cl_device_id device_id = nullptr;
  if (clGetCommandQueueInfo(*call.queue, CL_QUEUE_CONTEXT, sizeof context_id, &context_id,
                            nullptr) != CL_SUCCESS ||
      clGetCommandQueueInfo(*call.queue, CL_QUEUE_DEVICE, sizeof device_id, &device_id, nullptr) !=
          CL_SUCCESS)
    throw ApiError(clgemmInvalidQueue, "the queue is not a valid command queue");

  // alpha == 0 or k == 0: C = beta * C, run as the kernel with K = 0, which reads neither A nor B.
  const bool reads_ab = call.alpha != 0.0 && call.k > 0;
  const std::size_t element_bytes = elementBytes(call.precision);
  if (reads_ab) {
    checkBuffer(call.a, a, element_bytes, context_id, "a_buffer", clgemmInvalidBufferA);
    checkBuffer(call.b, b, element_bytes, context_id, "b_buffer", clgemmInvalidBufferB);
  }
  checkBuffer(call.c, c, element_bytes, context_id, "c_buffer", clgemmInvalidBufferC);
  for (const auto& [stored, name] : {std::pair{&a, "A"}, {&b, "B"}, {&c, "C"}})
    checkFitsInt(*stored, name);
  if (call.m > std::size_t(INT_MAX) || call.n > std::size_t(INT_MAX) ||
      call.k > std::size_t(INT_MAX))
    throw ApiError(clgemmTooLarge, "m, n or k is past 2^31 - 1");

  const std::shared_ptr<LibraryDevice> device = libraryDevice(context_id, device_id);
  if (call.precision == Precision::kFp64 && !device->info.has_fp64)
    throw ApiError(clgemmNoDoublePrecision,
                   device->info.name + " has no double precision (cl_khr_fp64)");

  const int m = int(call.m), n = int(call.n), k = int(call.k);
  const int kernel_k = reads_ab ? k : 0;
  GemmShape shape;
  shape.layout = col ? Layout::kCol : Layout::kRow;
  shape.trans_a = transOf(call.a_transpose);
  shape.trans_b = transOf(call.b_transpose);
  shape.lda = int(call.a_ld);
  shape.ldb = int(call.b_ld);
  shape.ldc = int(call.c_ld);
  GemmStorage storage = gemmStorage(m, n, kernel_k, shape);
  storage.a.offset = int(call.a_offset);
  storage.b.offset = int(call.b_offset);
  storage.c.offset = int(call.c_offset);
  const RowMajorGemm rm = rowMajorGemm(m, n, kernel_k, storage);

  const Variant& variant = libraryVariant();
  std::optional<KernelPlan> plan;
  {
    std::lock_guard<std::mutex> lock(device->mutex);
    // The parameters for the caller's problem (its k, also where alpha = 0 skips the product),
    // found once per problem: the user's store, the shipped entries, the defaults.
    const std::string trans = tuningTransposes(variant, m, n, k, shape);
    const LibraryDevice::ParamKey key{m, n, k, trans, call.precision};
    auto found = device->found_params.find(key);
    if (found == device->found_params.end()) {
      // Bounded: a program calling with ever new sizes must not grow the cache without end.
      if (device->found_params.size() >= 4096) device->found_params.clear();
      std::vector<std::string> warnings;  // an unreadable entry is skipped, as in the CLI
      found = device->found_params
                  .emplace(key, resolveVariantParams(variant, {}, device->param_dirs, device->info,
                                                     Shape{m, n, k}, &warnings, trans,
                                                     call.precision, rm.swapped)
                                    .defines)
                  .first;
    }
    plan.emplace(variant, found->second, PlanTarget{device->info, device->device, device->programs},
                 call.precision, rm, "", nullptr);
  }
  // A and B are null where not read (K = 0): OpenCL takes a null buffer argument.
  const auto wrap = [](cl_mem m) {
    return m ? cl::Buffer(m, /*retainObject=*/true) : cl::Buffer();
  };
  const PlanOperands operands{wrap(reads_ab ? call.a : nullptr), wrap(reads_ab ? call.b : nullptr),
                              wrap(call.c)};
  try {
    const std::vector<Launch> launches =
        plan->bind(operands, call.alpha, call.beta, plainScratch(device->context, element_bytes));
    const auto events = enqueueLaunches(queue, launches);
    if (call.event) {
      cl_event last = events.second();
      clRetainEvent(last);
      *call.event = last;
    }
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

}  // namespace clgemm
