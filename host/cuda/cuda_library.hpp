// The CUDA runtime (libcudart) and cuBLAS (libcublas), loaded with dlopen when the cuBLAS baseline
// first asks for them. The machines clgemm is built on need have no CUDA at all, and the GPU
// machines it runs on may have the libraries but no compiler, so nothing of CUDA is needed at build
// time: the few C functions and constants clgemm calls are declared here, from the CUDA runtime's
// and the cuBLAS v2 API's C ABI, which has stayed the same from CUDA 11 to 13. Only
// cuda_library.cpp and tensor_map.cpp (libcuda, its own) know dlopen.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "util/errors.hpp"

namespace clgemm {

namespace cuda {

// The types, as the C ABI passes them: enums are ints, handles are pointers to opaque structs.
using Error = int;  // cudaError_t; cudaSuccess is 0
inline constexpr Error kSuccess = 0;
using Event = struct CUevent_st*;    // cudaEvent_t
using Stream = struct CUstream_st*;  // cudaStream_t; null is the default stream
using BlasHandle = struct cublasContext*;
using BlasStatus = int;  // cublasStatus_t; CUBLAS_STATUS_SUCCESS is 0
inline constexpr BlasStatus kBlasSuccess = 0;

// cudaMemcpyKind
inline constexpr int kMemcpyHostToDevice = 1;
inline constexpr int kMemcpyDeviceToHost = 2;
// cublasOperation_t
inline constexpr int kBlasOpN = 0;
inline constexpr int kBlasOpT = 1;
// cublasMath_t: FP32 SGEMM, and SGEMM on TF32 tensor cores.
inline constexpr int kBlasDefaultMath = 0;
inline constexpr int kBlasTf32TensorOpMath = 3;

}  // namespace cuda

// A CUDA runtime or cuBLAS call failed while the cuBLAS baseline ran (its row says "error"). Its
// message names the call and CUDA's error string, or the cublasStatus_t with its number.
class CudaError : public RuntimeError {
 public:
  explicit CudaError(const std::string& message) : RuntimeError(message) {}
};

class CudaLibrary {
 public:
  // The libraries, loaded (or not) on the first call and kept for the rest of the process: they
  // are never unloaded, since CUDA tears itself down at exit.
  static const CudaLibrary& get();

  // Why the libraries could not be used, e.g. "libcublas.so could not be loaded (dlopen: ...):
  // install the CUDA toolkit's cuBLAS"; nothing when every function below was found.
  const std::optional<std::string>& problem() const { return problem_; }
  // The files loaded, e.g. "libcudart.so.13, libcublas.so.13", for notes and errors.
  const std::string& loadedFiles() const { return loaded_files_; }

  // Throw CudaError naming `call` when `error` is not cudaSuccess / `status` is not
  // CUBLAS_STATUS_SUCCESS.
  void check(cuda::Error error, const char* call) const;
  void checkBlas(cuda::BlasStatus status, const char* call) const;

  // The CUDA runtime API (cuda_runtime_api.h).
  cuda::Error (*cudaGetDeviceCount)(int* count) = nullptr;
  cuda::Error (*cudaDeviceGetByPCIBusId)(int* device, const char* pci_bus_id) = nullptr;
  cuda::Error (*cudaSetDevice)(int device) = nullptr;
  cuda::Error (*cudaMalloc)(void** pointer, std::size_t bytes) = nullptr;
  cuda::Error (*cudaFree)(void* pointer) = nullptr;
  cuda::Error (*cudaMemcpy)(void* to, const void* from, std::size_t bytes, int kind) = nullptr;
  cuda::Error (*cudaMemset)(void* pointer, int value, std::size_t bytes) = nullptr;
  cuda::Error (*cudaDeviceSynchronize)() = nullptr;
  cuda::Error (*cudaEventCreate)(cuda::Event* event) = nullptr;
  cuda::Error (*cudaEventRecord)(cuda::Event event, cuda::Stream stream) = nullptr;
  cuda::Error (*cudaEventSynchronize)(cuda::Event event) = nullptr;
  cuda::Error (*cudaEventElapsedTime)(float* ms, cuda::Event start, cuda::Event end) = nullptr;
  cuda::Error (*cudaEventDestroy)(cuda::Event event) = nullptr;
  cuda::Error (*cudaLaunchHostFunc)(cuda::Stream stream, void (*fn)(void* data),
                                    void* data) = nullptr;
  const char* (*cudaGetErrorString)(cuda::Error error) = nullptr;

  // The cuBLAS v2 API (cublas_v2.h maps cublasCreate to cublasCreate_v2 and so on).
  cuda::BlasStatus (*cublasCreate)(cuda::BlasHandle* handle) = nullptr;
  cuda::BlasStatus (*cublasDestroy)(cuda::BlasHandle handle) = nullptr;
  cuda::BlasStatus (*cublasGetVersion)(cuda::BlasHandle handle, int* version) = nullptr;
  cuda::BlasStatus (*cublasSetMathMode)(cuda::BlasHandle handle, int mode) = nullptr;
  cuda::BlasStatus (*cublasSgemm)(cuda::BlasHandle handle, int transa, int transb, int m, int n,
                                  int k, const float* alpha, const float* a, int lda,
                                  const float* b, int ldb, const float* beta, float* c,
                                  int ldc) = nullptr;
  cuda::BlasStatus (*cublasDgemm)(cuda::BlasHandle handle, int transa, int transb, int m, int n,
                                  int k, const double* alpha, const double* a, int lda,
                                  const double* b, int ldb, const double* beta, double* c,
                                  int ldc) = nullptr;

 private:
  CudaLibrary();

  std::optional<std::string> problem_;
  std::string loaded_files_;
};

// "CUBLAS_STATUS_NOT_SUPPORTED (15)": a cublasStatus_t's name, where it is one clgemm knows.
std::string cublasStatusName(cuda::BlasStatus status);

}  // namespace clgemm
