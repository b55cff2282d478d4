#include "cuda/cuda_library.hpp"

#include <dlfcn.h>

#include <type_traits>
#include <vector>

namespace clgemm {
namespace {

// A library opened under the first of its names that loads: the unversioned name a toolkit
// installs first (it matches the toolkit's other libraries), then the SONAMEs of CUDA 13, 12 and
// 11, which a runtime-only install has alone.
struct Opened {
  void* handle = nullptr;
  std::string name;   // the name that loaded
  std::string error;  // why none did: dlopen's most telling message
};

Opened openFirst(const std::vector<std::string>& names) {
  Opened out;
  std::string not_found, other;
  for (const auto& name : names) {
    // RTLD_LOCAL: CUDA's symbols stay out of the global namespace, where nothing else wants them.
    if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      out.handle = handle;
      out.name = name;
      return out;
    }
    const char* why = dlerror();
    const std::string message = why ? why : name + ": unknown dlopen error";
    // A file that exists but does not load (a missing dependency, a wrong architecture) says more
    // than the names that are simply absent.
    std::string& into = message.find("No such file") == std::string::npos ? other : not_found;
    if (into.empty()) into = message;
  }
  out.error = "dlopen: " + (other.empty() ? not_found : other);
  if (names.size() > 1) {
    out.error += "; also tried";
    for (std::size_t i = 1; i < names.size(); ++i) out.error += (i > 1 ? ", " : " ") + names[i];
  }
  return out;
}

}  // namespace

const CudaLibrary& CudaLibrary::get() {
  static const CudaLibrary library;
  return library;
}

CudaLibrary::CudaLibrary() {
  const Opened cudart =
      openFirst({"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"});
  if (!cudart.handle) {
    problem_ = "libcudart.so could not be loaded (" + cudart.error +
               "): install the CUDA toolkit's runtime and cuBLAS";
    return;
  }
  const Opened cublas =
      openFirst({"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11"});
  if (!cublas.handle) {
    problem_ = "libcublas.so could not be loaded (" + cublas.error +
               "): install the CUDA toolkit's cuBLAS";
    return;
  }
  loaded_files_ = cudart.name + ", " + cublas.name;

  // Resolves one function into `pointer`; the first one missing is the problem.
  auto resolve = [&](auto& pointer, const Opened& from, const char* symbol) {
    if (problem_) return;
    dlerror();
    void* address = dlsym(from.handle, symbol);
    if (!address) {
      const char* why = dlerror();
      problem_ = from.name + " has no " + symbol + " (dlsym: " + (why ? why : "null") +
                 "): install a CUDA toolkit of version 11 or newer";
      return;
    }
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(address);
  };
  resolve(cudaGetDeviceCount, cudart, "cudaGetDeviceCount");
  resolve(cudaDeviceGetByPCIBusId, cudart, "cudaDeviceGetByPCIBusId");
  resolve(cudaSetDevice, cudart, "cudaSetDevice");
  resolve(cudaMalloc, cudart, "cudaMalloc");
  resolve(cudaFree, cudart, "cudaFree");
  resolve(cudaMemcpy, cudart, "cudaMemcpy");
  resolve(cudaMemset, cudart, "cudaMemset");
  resolve(cudaDeviceSynchronize, cudart, "cudaDeviceSynchronize");
  resolve(cudaEventCreate, cudart, "cudaEventCreate");
  resolve(cudaEventRecord, cudart, "cudaEventRecord");
  resolve(cudaEventSynchronize, cudart, "cudaEventSynchronize");
  resolve(cudaEventElapsedTime, cudart, "cudaEventElapsedTime");
  resolve(cudaEventDestroy, cudart, "cudaEventDestroy");
  resolve(cudaLaunchHostFunc, cudart, "cudaLaunchHostFunc");
  resolve(cudaGetErrorString, cudart, "cudaGetErrorString");
  resolve(cublasCreate, cublas, "cublasCreate_v2");
  resolve(cublasDestroy, cublas, "cublasDestroy_v2");
  resolve(cublasGetVersion, cublas, "cublasGetVersion_v2");
  resolve(cublasSetMathMode, cublas, "cublasSetMathMode");
  resolve(cublasSgemm, cublas, "cublasSgemm_v2");
  resolve(cublasDgemm, cublas, "cublasDgemm_v2");
  // The handles stay open for the rest of the process, even when a symbol was missing: nothing
  // else would use them, and unloading CUDA is never worth the risk.
}

void CudaLibrary::check(cuda::Error error, const char* call) const {
  if (error == cuda::kSuccess) return;
  const char* text = cudaGetErrorString ? cudaGetErrorString(error) : nullptr;
  throw CudaError(std::string(call) + " failed: " + (text ? text : "unknown error") +
                  " (cudaError_t " + std::to_string(error) + ")");
}

void CudaLibrary::checkBlas(cuda::BlasStatus status, const char* call) const {
  if (status == cuda::kBlasSuccess) return;
  throw CudaError(std::string(call) + " failed: " + cublasStatusName(status));
}

std::string cublasStatusName(cuda::BlasStatus status) {
  // cublas_api.h's cublasStatus_t, the same values since CUDA 6.
  static const struct {
    cuda::BlasStatus status;
    const char* name;
  } kNames[] = {{0, "CUBLAS_STATUS_SUCCESS"},           {1, "CUBLAS_STATUS_NOT_INITIALIZED"},
                {3, "CUBLAS_STATUS_ALLOC_FAILED"},      {7, "CUBLAS_STATUS_INVALID_VALUE"},
                {8, "CUBLAS_STATUS_ARCH_MISMATCH"},     {11, "CUBLAS_STATUS_MAPPING_ERROR"},
                {13, "CUBLAS_STATUS_EXECUTION_FAILED"}, {14, "CUBLAS_STATUS_INTERNAL_ERROR"},
                {15, "CUBLAS_STATUS_NOT_SUPPORTED"},    {16, "CUBLAS_STATUS_LICENSE_ERROR"}};
  std::string name = "cublasStatus_t";
  for (const auto& known : kNames)
    if (known.status == status) name = known.name;
  return name + " (" + std::to_string(status) + ")";
}

}  // namespace clgemm
