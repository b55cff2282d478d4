// cuBLAS's SGEMM as a baseline on the NVIDIA GPU that is the selected OpenCL device, through the
// CUDA runtime and cuBLAS loaded at run time (cuda_library.hpp): FP32 (CUBLAS_DEFAULT_MATH) or on
// the TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH). Its matrices are CUDA allocations of its own,
// each between canaries like the OpenCL ones, and each call is timed with CUDA events, the CUDA
// counterpart of the profiling events that time clgemm's kernels, recorded behind a gate that
// holds the stream until the call is enqueued (HostGate). It is called with the problem's
// layout, transposes and leading dimensions, on the stored matrices (gemm_shape.hpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "check/memory_check.hpp"
#include "cuda/cuda_library.hpp"
#include "opencl/device.hpp"
#include "run/cublas_call.hpp"
#include "run/variant_runner.hpp"

namespace clgemm {

CublasCall cublasCallFor(const Problem& problem) {
  const GemmShape& shape = problem.shape;
  const GemmStorage storage = problem.storage();
  const auto op = [](Trans t) { return t == Trans::kT ? cuda::kBlasOpT : cuda::kBlasOpN; };
  CublasCall call;
  call.k = problem.k;
  call.ldc = storage.c.ld;
  if (shape.layout == Layout::kCol) {
    // C = op(A) op(B) as the caller wrote it.
    call.op_first = op(shape.trans_a);
    call.op_second = op(shape.trans_b);
    call.m = problem.m;
    call.n = problem.n;
    call.ld_first = storage.a.ld;
    call.ld_second = storage.b.ld;
  } else {
    // C^T (n x m, column-major: C's row-major memory) = op(B)^T op(A)^T.
    call.b_first = true;
    call.op_first = op(shape.trans_b);
    call.op_second = op(shape.trans_a);
    call.m = problem.n;
    call.n = problem.m;
    call.ld_first = storage.b.ld;
    call.ld_second = storage.a.ld;
  }
  return call;
}

namespace {

// `count` elements of `precision` on the device with kGuardBytes of canaries (the float pattern)
// on each side (memory_check.hpp): one cudaMalloc, the matrix in the middle.
class CudaMatrix {
 public:
  CudaMatrix(const CudaLibrary& cuda, std::string name, std::size_t count, Precision precision)
      : cuda_(cuda),
        name_(std::move(name)),
        count_(count),
        bytes_(count * elementBytes(precision)),
        precision_(precision) {
    void* base = nullptr;
    cuda_.check(cuda_.cudaMalloc(&base, bytes_ + 2 * kGuardBytes),
                ("cudaMalloc (" + name_ + ")").c_str());
    base_ = static_cast<unsigned char*>(base);
    const std::vector<float> canaries(kGuardFloats, canaryValue());
    copyIn(base_, canaries.data(), kGuardBytes);
    copyIn(data() + bytes_, canaries.data(), kGuardBytes);
  }
  ~CudaMatrix() {
    if (base_) cuda_.cudaFree(base_);  // an error here has nowhere to go
  }
  CudaMatrix(const CudaMatrix&) = delete;
  CudaMatrix& operator=(const CudaMatrix&) = delete;

  unsigned char* data() { return base_ + kGuardBytes; }

  void upload(const HostMatrix& from) { copyIn(data(), from.data(), bytes_); }
  void download(HostMatrix& to) {
    to = HostMatrix(precision_, count_);
    copyOut(to.data(), data(), bytes_);
  }
  // C before a run: NaN in every element when C0 is not read (all bits set is a NaN).
  void fillNan() {
    cuda_.check(cuda_.cudaMemset(data(), 0xFF, bytes_), ("cudaMemset (" + name_ + ")").c_str());
  }

  void checkGuards(MemoryCheck& out) {
    std::vector<float> guard(kGuardFloats);
    copyOut(guard.data(), base_, kGuardBytes);
    checkGuard(guard.data(), kGuardFloats, GuardSide::kBefore, name_, out);
    copyOut(guard.data(), data() + bytes_, kGuardBytes);
    checkGuard(guard.data(), kGuardFloats, GuardSide::kAfter, name_, out);
  }
  // Compares the matrix with `original`, a slice at a time so no second full copy is made.
  void checkUnchanged(const HostMatrix& original, std::size_t cols, MemoryCheck& out) {
    const std::size_t size = elementBytes(precision_);
    const std::size_t slice = std::min((std::size_t(16) << 20) / size, count_);  // 16 MiB
    std::vector<unsigned char> now(slice * size);
    const auto* originals = static_cast<const unsigned char*>(original.data());
    ChangedElements changed;
    for (std::size_t offset = 0; offset < count_; offset += slice) {
      const std::size_t n = std::min(slice, count_ - offset);
      copyOut(now.data(), data() + offset * size, n * size);
      changed.scan(now.data(), originals + offset * size, n, offset, precision_);
    }
    changed.report(name_, cols, out);
  }

 private:
  void copyIn(void* to, const void* from, std::size_t bytes) {
    cuda_.check(cuda_.cudaMemcpy(to, from, bytes, cuda::kMemcpyHostToDevice),
                ("cudaMemcpy to the device (" + name_ + ")").c_str());
  }
  void copyOut(void* to, const void* from, std::size_t bytes) {
    cuda_.check(cuda_.cudaMemcpy(to, from, bytes, cuda::kMemcpyDeviceToHost),
                ("cudaMemcpy from the device (" + name_ + ")").c_str());
  }

  const CudaLibrary& cuda_;
  std::string name_;
  std::size_t count_, bytes_;
  Precision precision_;
  unsigned char* base_ = nullptr;
};

// A, B and C as stored (gaps included), with A and B uploaded.
struct CudaOperands {
  CudaOperands(const CudaLibrary& cuda, const Problem& problem)
      : a(cuda, "A", problem.storedA().size(), problem.precision),
        b(cuda, "B", problem.storedB().size(), problem.precision),
        c(cuda, "C", problem.storedCCount(), problem.precision) {
    a.upload(problem.storedA());
    b.upload(problem.storedB());
  }
  CudaMatrix a, b, c;
};

class CudaEvent {
 public:
  explicit CudaEvent(const CudaLibrary& cuda) : cuda_(cuda) {
    cuda_.check(cuda_.cudaEventCreate(&event_), "cudaEventCreate");
  }
  ~CudaEvent() {
    if (event_) cuda_.cudaEventDestroy(event_);
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cuda::Event get() const { return event_; }

 private:
  const CudaLibrary& cuda_;
  cuda::Event event_ = nullptr;
};

class CublasHandle {
 public:
  explicit CublasHandle(const CudaLibrary& cuda) : cuda_(cuda) {
    cuda_.checkBlas(cuda_.cublasCreate(&handle_), "cublasCreate_v2");
  }
  ~CublasHandle() {
    if (handle_) cuda_.cublasDestroy(handle_);
  }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cuda::BlasHandle get() const { return handle_; }

 private:
  const CudaLibrary& cuda_;
  cuda::BlasHandle handle_ = nullptr;
};

// The CUDA device that is the OpenCL device: the one at the same PCI address. Without an address
// (a driver without the query) only a machine with one CUDA device leaves no doubt.
int cudaDeviceOf(const CudaLibrary& cuda, const DeviceInfo& device) {
  int count = 0;
  cuda.check(cuda.cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (device.pci) {
    const std::string pci = pciBusId(*device.pci);
    int index = -1;
    const cuda::Error error = cuda.cudaDeviceGetByPCIBusId(&index, pci.c_str());
    if (error == cuda::kSuccess) return index;
    const char* text = cuda.cudaGetErrorString(error);
    throw CudaError("no CUDA device is " + device.name + " at PCI " + pci +
                    ", where OpenCL finds it (cudaDeviceGetByPCIBusId: " +
                    (text ? text : "unknown error") + "; " + std::to_string(count) +
                    " CUDA devices visible; is CUDA_VISIBLE_DEVICES hiding it?)");
  }
  if (count == 1) return 0;
  throw CudaError(device.name +
                  " does not report its PCI address (cl_khr_pci_bus_info or "
                  "cl_nv_device_attribute_query), and with " +
                  std::to_string(count) + " CUDA devices clgemm cannot tell which one it is");
}

// cublasGetVersion's number as "13.1.0": major * 10000 + minor * 100 + patch since cuBLAS 12,
// major * 1000 + minor * 100 + patch before.
std::string cublasVersionText(int version) {
  const bool wide = version >= 100000;
  const int major = wide ? version / 10000 : version / 1000;
  const int minor = wide ? version / 100 % 100 : version / 100 % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(version % 100);
}

// A gate on the default stream: a host function that returns once open() is called (or the
// destructor: a call that throws opens it too), or after 100 ms, so that a stream that never gets
// there (cuBLAS waiting on the stream itself) costs a slower repetition, not a hang. Its state is
// shared with the host function, which CUDA may still be running when the gate goes out of scope.
class HostGate {
 public:
  explicit HostGate(const CudaLibrary& cuda) : state_(std::make_shared<State>()) {
    auto* held = new std::shared_ptr<State>(state_);
    const cuda::Error error = cuda.cudaLaunchHostFunc(nullptr, &waitUntilOpen, held);
    if (error != cuda::kSuccess) delete held;
    cuda.check(error, "cudaLaunchHostFunc");
  }
  ~HostGate() { open(); }
  HostGate(const HostGate&) = delete;
  HostGate& operator=(const HostGate&) = delete;
  void open() { state_->open.store(true, std::memory_order_release); }
  // Whether the stream went on by the timeout rather than open(): known once the stream has
  // passed the gate (after an event recorded behind it has completed).
  bool timedOut() const { return state_->timed_out.load(std::memory_order_acquire); }

 private:
  struct State {
    std::atomic<bool> open{false};
    std::atomic<bool> timed_out{false};
  };

  static void waitUntilOpen(void* data) {
    const std::unique_ptr<std::shared_ptr<State>> state(static_cast<std::shared_ptr<State>*>(data));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
    while (!(*state)->open.load(std::memory_order_acquire)) {
      if (std::chrono::steady_clock::now() >= deadline) {
        (*state)->timed_out.store(true, std::memory_order_release);
        return;
      }
      std::this_thread::yield();
    }
  }

  std::shared_ptr<State> state_;
};

class CublasRunner : public VariantRunner {
 public:
  CublasRunner(const DeviceInfo& device, const Problem& problem, bool tf32)
      : cuda_(CudaLibrary::get()), device_(device), problem_(problem), tf32_(tf32) {}

  Timings run(int warmup, int reps, std::vector<double>& result) override {
    setUp();
    operands_.reset();  // before the new ones, so two never hold device memory together
    CudaOperands& ops = operands_.emplace(cuda_, problem_);
    c_gaps_ = {};
    const CublasCall call = cublasCallFor(problem_);
    const void* first = call.b_first ? ops.b.data() : ops.a.data();
    const void* second = call.b_first ? ops.a.data() : ops.b.data();
    // C as each run starts it: stored C0 (beta != 0), or NaN with the canary in the gaps; empty
    // when a NaN fill does (no gaps, beta == 0).
    const HostMatrix initial_c = initialStoredC(problem_);
    const float alpha32 = float(problem_.alpha), beta32 = float(problem_.beta);
    Timings timings;
    ungated_runs_ = 0;
    timed_runs_ = reps;
    // The first call picks and loads its kernels: never timed, whatever --warmup says.
    warmup = std::max(warmup, 1);
    for (int i = 0; i < warmup + reps; ++i) {
      if (!initial_c.empty()) {
        ops.c.upload(initial_c);
      } else {
        ops.c.fillNan();
      }
      // The reset finished before the start event, so the events see the GEMM alone.
      cuda_.check(cuda_.cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      // The stream waits at a gate until the start event, the call and the stop event are all
      // enqueued, so that the events span cuBLAS's kernels and not the host's time in the call,
      // as a profiling event spans an OpenCL kernel from its start. Without it cuBLAS's spans held
      // 6-10 us of the host's: 1000^3-1536^3 9-20% and 2048^3 1-2% slower on an H100
      // (docs/performance.md, 2026-12-06, session 36).
      HostGate gate(cuda_);
      cuda_.check(cuda_.cudaEventRecord(start_->get(), nullptr), "cudaEventRecord");
      if (problem_.precision == Precision::kFp64) {
        cuda_.checkBlas(
            cuda_.cublasDgemm(handle_->get(), call.op_first, call.op_second, call.m, call.n, call.k,
                              &problem_.alpha, static_cast<const double*>(first), call.ld_first,
                              static_cast<const double*>(second), call.ld_second, &problem_.beta,
                              reinterpret_cast<double*>(ops.c.data()), call.ldc),
            "cublasDgemm_v2");
      } else {
        cuda_.checkBlas(
            cuda_.cublasSgemm(handle_->get(), call.op_first, call.op_second, call.m, call.n, call.k,
                              &alpha32, static_cast<const float*>(first), call.ld_first,
                              static_cast<const float*>(second), call.ld_second, &beta32,
                              reinterpret_cast<float*>(ops.c.data()), call.ldc),
            "cublasSgemm_v2");
      }
      cuda_.check(cuda_.cudaEventRecord(stop_->get(), nullptr), "cudaEventRecord");
      gate.open();
      cuda_.check(cuda_.cudaEventSynchronize(stop_->get()), "cudaEventSynchronize after the GEMM");
      float ms = 0.0f;
      cuda_.check(cuda_.cudaEventElapsedTime(&ms, start_->get(), stop_->get()),
                  "cudaEventElapsedTime");
      if (i >= warmup) {
        timings.ms.push_back(double(ms));
        if (gate.timedOut()) ++ungated_runs_;
      }
    }
    // The logical C back, and what was written into C's gaps for checkMemory.
    HostMatrix stored;
    ops.c.download(stored);
    gatherResult(stored, problem_.storage().c, result, c_gaps_);
    return timings;
  }

  // The guards of A, B and C, the stored inputs against the problem's and C's gaps; then the
  // matrices are freed, so the next variant has the GPU's memory.
  MemoryCheck checkMemory() override {
    if (!operands_) return {};
    MemoryCheck out;
    operands_->a.checkGuards(out);
    operands_->b.checkGuards(out);
    operands_->c.checkGuards(out);
    const GemmStorage storage = problem_.storage();
    operands_->a.checkUnchanged(problem_.storedA(), std::size_t(storage.a.ld), out);
    operands_->b.checkUnchanged(problem_.storedB(), std::size_t(storage.b.ld), out);
    for (auto& finding : c_gaps_.findings) out.findings.push_back(std::move(finding));
    c_gaps_ = {};
    operands_.reset();
    return out;
  }

  // The CUDA device's own name needs cudaGetDeviceProperties, whose struct changes between CUDA
  // versions; it is the OpenCL device's GPU anyway.
  std::string deviceName() const override { return device_.name; }

  std::vector<ResolvedDefine> derivedDefines() const override {
    if (!version_) return {};
    return {{"cublas", cublasVersionText(*version_), "library"},
            {"cuda_device", std::to_string(cuda_device_), "library"}};
  }

  std::string note() const override {
    std::string note = tf32OverrideNote();
    if (ungated_runs_ > 0)
      note += std::string(note.empty() ? "" : "; ") + "in " + std::to_string(ungated_runs_) +
              " of " + std::to_string(timed_runs_) +
              " timed runs the stream went on without waiting for the call (its gate's 100 ms "
              "timeout): their spans include the host's time in the call";
    return note;
  }

 private:
  // NVIDIA_TF32_OVERRIDE overrides the math mode a program asks for, in every NVIDIA library.
  std::string tf32OverrideNote() const {
    const char* value = std::getenv("NVIDIA_TF32_OVERRIDE");
    if (!value || !*value) return "";
    const bool off = std::strcmp(value, "0") == 0;
    if (!tf32_ && !off)
      return std::string("NVIDIA_TF32_OVERRIDE=") + value +
             " is set: cuBLAS may use TF32 tensor cores for this FP32 SGEMM; unset it for an FP32 "
             "baseline";
    if (tf32_ && off)
      return "NVIDIA_TF32_OVERRIDE=0 is set: cuBLAS ran this SGEMM in FP32, not on TF32 tensor "
             "cores";
    return "";
  }

  // The CUDA device, the cuBLAS handle and its math mode, and the events, once.
  void setUp() {
    if (handle_) return;
    if (cuda_.problem()) throw CudaError(*cuda_.problem());
    cuda_device_ = cudaDeviceOf(cuda_, device_);
    cuda_.check(cuda_.cudaSetDevice(cuda_device_), "cudaSetDevice");
    start_.emplace(cuda_);
    stop_.emplace(cuda_);
    handle_.emplace(cuda_);
    cuda_.checkBlas(cuda_.cublasSetMathMode(handle_->get(), tf32_ ? cuda::kBlasTf32TensorOpMath
                                                                  : cuda::kBlasDefaultMath),
                    "cublasSetMathMode");
    int version = 0;
    cuda_.checkBlas(cuda_.cublasGetVersion(handle_->get(), &version), "cublasGetVersion_v2");
    version_ = version;
  }

  const CudaLibrary& cuda_;
  DeviceInfo device_;
  const Problem& problem_;
  bool tf32_;
  int cuda_device_ = -1;
  std::optional<int> version_;
  // Destroyed in the reverse order: the matrices, the handle, then the events.
  std::optional<CudaEvent> start_, stop_;
  // Of the last run's timed repetitions, those whose gate opened by its timeout (HostGate).
  int ungated_runs_ = 0, timed_runs_ = 0;
  std::optional<CublasHandle> handle_;
  std::optional<CudaOperands> operands_;
  MemoryCheck c_gaps_;  // what run() found in C's gaps, for checkMemory
};

}  // namespace

std::unique_ptr<VariantRunner> makeCublasRunner(const DeviceInfo& device, const Problem& problem,
                                                bool tf32) {
  return std::make_unique<CublasRunner>(device, problem, tf32);
}

}  // namespace clgemm
