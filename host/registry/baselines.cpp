// The baselines: the vendor libraries every kernel is compared with (CLBlast, OpenBLAS, cuBLAS).
#include "cuda/cuda_library.hpp"
#include "opencl/device.hpp"
#include "registry/families.hpp"

namespace clgemm {
namespace {

using namespace family;

Variant baseline(std::string name, Backend backend, std::string summary) {
  Variant v;
  v.name = std::move(name);
  v.backend = backend;
  v.summary = std::move(summary);
  v.constraints = [](const ResolvedDefines&) { return std::vector<std::string>{}; };
  v.fp64 = true;  // each has its DGEMM (cublas-tf32 clears this)
  return v;
}

// cuBLAS runs where the OpenCL device is an NVIDIA GPU and the CUDA libraries load (they are
// looked for only then).
std::optional<std::string> withoutCublas(const DeviceInfo& device) {
  if (device.vendor.find("NVIDIA") == std::string::npos)
    return "runs on NVIDIA GPUs only; " + device.name + " is from " +
           (device.vendor.empty() ? "an unnamed vendor" : device.vendor);
  return CudaLibrary::get().problem();
}

Variant cublas(std::string name, Arithmetic arithmetic, std::string summary) {
  Variant v = baseline(std::move(name), Backend::kCublas, std::move(summary));
  v.arithmetic = arithmetic;
  v.unsupported = withoutCublas;
  v.fp64 = arithmetic == Arithmetic::kFp32;  // DGEMM; TF32 is a single-precision mode
  return v;
}

}  // namespace

std::vector<Variant> baselineVariants() {
  return {
      baseline("clblast", Backend::kClblast,
               "CLBlast SGEMM (DGEMM in fp64) on the same OpenCL device and queue, with the run's "
               "layout, "
               "transposes and leading dimensions"),
      baseline("openblas", Backend::kOpenblas,
               "OpenBLAS cblas_sgemm (cblas_dgemm in fp64) on the host CPU"),
      cublas("cublas", Arithmetic::kFp32,
             "cuBLAS SGEMM on the same NVIDIA GPU (FP32, CUBLAS_DEFAULT_MATH), loaded at run time"),
      cublas("cublas-tf32", Arithmetic::kTf32,
             "cuBLAS SGEMM on the same NVIDIA GPU's TF32 tensor cores "
             "(CUBLAS_TF32_TENSOR_OP_MATH), loaded at run time"),
  };
}

}  // namespace clgemm
