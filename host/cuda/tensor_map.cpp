#include "cuda/tensor_map.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>
#include <type_traits>

#include "cuda/cuda_library.hpp"

namespace clgemm {
namespace {

// The CUDA driver API's C ABI (cuda.h): CUresult is an int, CUdevice an int, contexts opaque.
using CuResult = int;
using CuContext = struct CUctx_st*;
// cuda.h's enums: CU_TENSOR_MAP_DATA_TYPE_FLOAT32, _INTERLEAVE_NONE, _L2_PROMOTION_L2_256B,
// _FLOAT_OOB_FILL_NONE; CU_TENSOR_MAP_SWIZZLE_32B, _64B and _128B are 1, 2 and 3.
constexpr int kFloat32 = 7, kInterleaveNone = 0, kL2Promotion256 = 3, kOobZero = 0;

struct Driver {
  std::string problem;  // empty when every function below was found and cuInit succeeded
  CuResult (*cuInit)(unsigned) = nullptr;
  CuResult (*cuDeviceGet)(int*, int) = nullptr;
  CuResult (*cuDeviceGetByPCIBusId)(int*, const char*) = nullptr;
  CuResult (*cuDevicePrimaryCtxRetain)(CuContext*, int) = nullptr;
  CuResult (*cuCtxPushCurrent)(CuContext) = nullptr;
  CuResult (*cuCtxPopCurrent)(CuContext*) = nullptr;
  CuResult (*cuGetErrorName)(CuResult, const char**) = nullptr;
  CuResult (*cuTensorMapEncodeTiled)(void* map, int type, unsigned rank, void* address,
                                     const std::uint64_t* dims, const std::uint64_t* strides,
                                     const unsigned* box, const unsigned* element_strides,
                                     int interleave, int swizzle, int l2_promotion,
                                     int oob_fill) = nullptr;

  std::string errorName(CuResult r) const {
    const char* name = nullptr;
    if (cuGetErrorName && cuGetErrorName(r, &name) == 0 && name)
      return std::string(name) + " (" + std::to_string(r) + ")";
    return "CUresult " + std::to_string(r);
  }
};

Driver load() {
  Driver d;
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    d.problem = std::string("libcuda.so.1 (NVIDIA's CUDA driver) could not be loaded (dlopen: ") +
                (why ? why : "unknown error") + ")";
    return d;
  }
  auto resolve = [&](auto& pointer, const char* symbol) {
    if (!d.problem.empty()) return;
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(dlsym(handle, symbol));
    if (!pointer) d.problem = std::string("libcuda.so.1 has no ") + symbol + " (CUDA 12 or newer)";
  };
  resolve(d.cuInit, "cuInit");
  resolve(d.cuDeviceGet, "cuDeviceGet");
  resolve(d.cuDeviceGetByPCIBusId, "cuDeviceGetByPCIBusId");
  resolve(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  resolve(d.cuCtxPushCurrent, "cuCtxPushCurrent_v2");
  resolve(d.cuCtxPopCurrent, "cuCtxPopCurrent_v2");
  resolve(d.cuGetErrorName, "cuGetErrorName");
  resolve(d.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  if (d.problem.empty()) {
    if (const CuResult r = d.cuInit(0); r != 0) d.problem = "cuInit failed: " + d.errorName(r);
  }
  return d;
}

const Driver& driver() {
  static const Driver d = load();
  return d;
}

}  // namespace

TensorMapBytes encodeSwizzledFloatTiles(const DeviceInfo& device, int rows, int cols, int ld,
                                        int box_rows, int box_cols) {
  const Driver& d = driver();
  const std::string what = "tensor map of a " + std::to_string(rows) + " x " +
                           std::to_string(cols) + " matrix in " + std::to_string(box_rows) + " x " +
                           std::to_string(box_cols) + " boxes";
  const int swizzle = box_cols == 8 ? 1 : box_cols == 16 ? 2 : box_cols == 32 ? 3 : 0;
  if (swizzle == 0)
    throw CudaError(what + ": a box row of " + std::to_string(box_cols) +
                    " floats has no swizzle (8, 16 or 32 floats: 32, 64 or 128 bytes)");
  if (!d.problem.empty()) throw CudaError(what + ": " + d.problem);
  // The driver encodes within a context: the device's primary one (the same GPU, by its PCI
  // address where OpenCL gives it), made current around the call only.
  int cu_device = 0;
  CuResult r = device.pci ? d.cuDeviceGetByPCIBusId(&cu_device, pciBusId(*device.pci).c_str())
                          : d.cuDeviceGet(&cu_device, 0);
  if (r != 0) throw CudaError(what + ": no CUDA device for " + device.name + ": " + d.errorName(r));
  // The primary context is one per device: retaining it again only counts, and it is never
  // released (CUDA tears it down at exit), so a second map costs no new context.
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  CuContext context = nullptr;
  if ((r = d.cuDevicePrimaryCtxRetain(&context, cu_device)) != 0 ||
      (r = d.cuCtxPushCurrent(context)) != 0)
    throw CudaError(what + ": no CUDA context: " + d.errorName(r));
  TensorMapBytes map{};
  const std::uint64_t dims[2] = {std::uint64_t(cols), std::uint64_t(rows)};
  const std::uint64_t strides[1] = {std::uint64_t(ld) * sizeof(float)};
  const unsigned box[2] = {unsigned(box_cols), unsigned(box_rows)};
  const unsigned element_strides[2] = {1, 1};
  // A placeholder address, aligned as the driver requires; set_tensor_map_address replaces it.
  void* const placeholder = reinterpret_cast<void*>(std::uintptr_t(1) << 20);
  r = d.cuTensorMapEncodeTiled(map.data(), kFloat32, 2, placeholder, dims, strides, box,
                               element_strides, kInterleaveNone, swizzle, kL2Promotion256,
                               kOobZero);
  CuContext popped = nullptr;
  d.cuCtxPopCurrent(&popped);
  if (r != 0)
    throw CudaError(what + " (row pitch " + std::to_string(strides[0]) +
                    " bytes): cuTensorMapEncodeTiled refused it: " + d.errorName(r));
  return map;
}

}  // namespace clgemm
