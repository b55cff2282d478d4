// libclgemm_blas.so: sgemm_, dgemm_, cblas_sgemm and cblas_dgemm on the OpenCL device through
// clgemm, for programs that call BLAS (Fortran, NumPy, anything linked to libblas.so.3) without
// changing them: LD_PRELOAD=libclgemm_blas.so program. Only these four are exported (the version
// script blas_shim.map); everything else of clgemm inside stays private.
//
// Each call: netlib's argument checks (an illegal one goes to the process's xerbla_ or
// cblas_xerbla, as netlib's own routines do), netlib's quick return, then the device when
// m * n * k reaches the threshold (blas_threshold.hpp), else the system BLAS (system_blas.hpp),
// which also takes any call the device fails, with one warning per distinct message.
// CLGEMM_BLAS_VERBOSE=1 prints where the calls went when the process exits.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // RTLD_DEFAULT
#endif
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "blas/blas_args.hpp"
#include "blas/blas_device.hpp"
#include "blas/blas_threshold.hpp"
#include "blas/system_blas.hpp"
#include "store/param_store.hpp"

namespace {

using namespace clgemm;
using namespace clgemm::blas;

// --- Counting ---------------------------------------------------------------------------------

enum Routine { kSgemm, kDgemm, kCblasSgemm, kCblasDgemm, kRoutines };
const char* const kRoutineNames[kRoutines] = {"sgemm_", "dgemm_", "cblas_sgemm", "cblas_dgemm"};

struct Counters {
  std::atomic<std::uint64_t> device{0}, quick{0}, rejected{0};
  // On the system BLAS: below the threshold, after a device failure, FP64 on a device without it,
  // and with no device at all (a bad CLGEMM_DEVICE, no OpenCL).
  std::atomic<std::uint64_t> by_threshold{0}, by_failure{0}, no_fp64{0}, no_device{0};
};
Counters g_counters[kRoutines];

// --- Messages ---------------------------------------------------------------------------------

std::mutex g_message_mutex;

// Prints `line` on stderr the first time it comes; a failing call repeated a million times says
// so once.
void warnOnce(const std::string& line) {
  static std::set<std::string>* seen = new std::set<std::string>;  // never freed: see State
  std::lock_guard<std::mutex> lock(g_message_mutex);
  if (seen->insert(line).second) std::fprintf(stderr, "clgemm_blas: %s\n", line.c_str());
}

// --- The device, opened once ------------------------------------------------------------------

struct State {
  std::unique_ptr<BlasDevice> device;  // null: every call goes to the system BLAS
  std::string device_name;
  Threshold threshold[2];  // by precision: [0] FP32, [1] FP64
};

std::once_flag g_once;
// Allocated once and never freed: the OpenCL context and queue must outlive every call, and
// releasing them from a static destructor at exit races the OpenCL runtime's own teardown.
State* g_state = nullptr;

void initState() {
  auto* s = new State;
  const ThresholdEnv env = parseThresholdEnv(std::getenv("CLGEMM_BLAS_THRESHOLD"));
  if (!env.warning.empty()) warnOnce("warning: " + env.warning);
  const char* device_env = std::getenv("CLGEMM_DEVICE");
  const DeviceSpec spec = parseDeviceSpec(device_env);
  try {
    if (!spec.error.empty()) {
      std::fprintf(stderr,
                   "clgemm_blas: error: CLGEMM_DEVICE=%s: %s; every call goes to the system "
                   "BLAS\n",
                   device_env, spec.error.c_str());
    } else {
      s->device = std::make_unique<BlasDevice>(openBlasDevice(spec.indices));
      s->device_name = s->device->info.name;
      const auto dirs = storeThenDataDirs("", "", "blas").dirs;
      s->threshold[0] = chooseThreshold(env, dirs, s->device->info, Precision::kFp32);
      s->threshold[1] = chooseThreshold(env, dirs, s->device->info, Precision::kFp64);
    }
  } catch (const std::exception& e) {
    s->device.reset();
    std::string what = e.what();
    while (!what.empty() && what.back() == '\n') what.pop_back();
    if (device_env && *device_env)
      std::fprintf(stderr,
                   "clgemm_blas: error: CLGEMM_DEVICE=%s: %s\nclgemm_blas: every call goes to "
                   "the system BLAS\n",
                   device_env, what.c_str());
    else
      std::fprintf(stderr,
                   "clgemm_blas: error: no OpenCL device: %s; every call goes to the system "
                   "BLAS\n",
                   what.c_str());
  }
  g_state = s;
}

State& state() {
  std::call_once(g_once, initState);
  return *g_state;
}

// --- Errors: netlib's xerbla protocol ---------------------------------------------------------

using XerblaFn = void (*)(const char*, const int*, std::size_t);
using CblasXerblaFn = void (*)(int, const char*, const char*, ...);

// Reference BLAS calls XERBLA(SRNAME, INFO) and returns; a program may provide its own (netlib's
// test programs do, to check the number), so it is looked up in the process, not linked.
void fortranXerbla(const char* name6, int info) {
  if (auto fn = reinterpret_cast<XerblaFn>(dlsym(RTLD_DEFAULT, "xerbla_"))) {
    fn(name6, &info, 6);
    return;
  }
  std::fprintf(stderr, " ** On entry to %s parameter number %d had an illegal value\n", name6,
               info);
}

// netlib's CBLAS calls cblas_xerbla(info, "cblas_sgemm", format, ...) with its global RowMajorStrg
// set in row-major, where the number is SGEMM's for the swapped call (blas_args.hpp); its tests
// provide both. Without a cblas_xerbla, xerbla_ with the Fortran name, as OpenBLAS does.
void cblasXerbla(const char* routine, const char* name6, int info, bool row_major) {
  if (auto fn = reinterpret_cast<CblasXerblaFn>(dlsym(RTLD_DEFAULT, "cblas_xerbla"))) {
    int* row_major_strg = static_cast<int*>(dlsym(RTLD_DEFAULT, "RowMajorStrg"));
    if (row_major_strg) {
      *row_major_strg = row_major ? 1 : 0;
      fn(cblasXerblaInfo(info, row_major), routine, "");
      *row_major_strg = 0;
    } else {
      fn(info, routine, "");
    }
    return;
  }
  fortranXerbla(name6, info);
}

// --- One call ---------------------------------------------------------------------------------

// Per element type: the precision's index, the names netlib reports, the system BLAS's routine.
template <typename T>
struct Types;
template <>
struct Types<float> {
  static constexpr int precision = 0;
  static constexpr const char* name6 = "SGEMM ";
  static constexpr const char* cblas_name = "cblas_sgemm";
  static constexpr SgemmFn SystemBlas::*system = &SystemBlas::sgemm;
};
template <>
struct Types<double> {
  static constexpr int precision = 1;
  static constexpr const char* name6 = "DGEMM ";
  static constexpr const char* cblas_name = "cblas_dgemm";
  static constexpr DgemmFn SystemBlas::*system = &SystemBlas::dgemm;
};

template <typename T>
bool haveSystem() {
  return systemBlas().*Types<T>::system != nullptr;
}

clgemmTranspose apiTrans(bool transposed) {
  return transposed ? clgemmTransposeYes : clgemmTransposeNo;
}

// A legal, non-trivial call, as the caller made it: the device takes it in its own layout; the
// system BLAS, Fortran's column-major interface, takes a row-major one as its transpose.
template <typename T>
struct Call {
  Routine routine;
  clgemmLayout layout;
  bool ta, tb;
  int m, n, k;
  T alpha;
  const T* a;
  int lda;
  const T* b;
  int ldb;
  T beta;
  T* c;
  int ldc;
};

template <typename T>
void runSystem(const Call<T>& x) {
  if (!haveSystem<T>()) {
    warnOnce("error: no system BLAS for a call the device did not take (" + systemBlas().error +
             "); C is left as it was");
    return;
  }
  const auto gemm = systemBlas().*Types<T>::system;
  const char ta = x.ta ? 'T' : 'N', tb = x.tb ? 'T' : 'N';
  if (x.layout == clgemmLayoutColMajor) {
    gemm(&ta, &tb, &x.m, &x.n, &x.k, &x.alpha, x.a, &x.lda, x.b, &x.ldb, &x.beta, x.c, &x.ldc, 1,
         1);
  } else {
    // Row-major C is column-major C^T = op(B)^T op(A)^T: B and A swapped, N for M.
    gemm(&tb, &ta, &x.n, &x.m, &x.k, &x.alpha, x.b, &x.ldb, x.a, &x.lda, &x.beta, x.c, &x.ldc, 1,
         1);
  }
}

template <typename T>
void dispatch(const Call<T>& x) {
  Counters& count = g_counters[x.routine];
  State& s = state();
  if (!s.device) {
    ++count.no_device;
    return runSystem(x);
  }
  if (Types<T>::precision == 1 && !s.device->info.has_fp64) {
    ++count.no_fp64;  // silently: the device cannot, and the system BLAS can
    return runSystem(x);
  }
  const std::uint64_t mnk = std::uint64_t(x.m) * std::uint64_t(x.n) * std::uint64_t(x.k);
  if (!s.threshold[Types<T>::precision].onDevice(mnk) && haveSystem<T>()) {
    ++count.by_threshold;
    return runSystem(x);
  }
  const DeviceGemmResult r =
      deviceGemm<T>(*s.device, x.layout, apiTrans(x.ta), apiTrans(x.tb), std::size_t(x.m),
                    std::size_t(x.n), std::size_t(x.k), x.alpha, x.a, std::size_t(x.lda), x.b,
                    std::size_t(x.ldb), x.beta, x.c, std::size_t(x.ldc));
  if (r.ok()) {
    ++count.device;
    return;
  }
  ++count.by_failure;
  warnOnce("warning: " + std::string(kRoutineNames[x.routine]) + " on " + s.device_name +
           " failed, the system BLAS took it: " + r.message);
  runSystem(x);
}

template <typename T>
void fortranGemm(Routine routine, const char* transa, const char* transb, const int* m,
                 const int* n, const int* k, const T* alpha, const T* a, const int* lda, const T* b,
                 const int* ldb, const T* beta, T* c, const int* ldc) {
  if (const int info = gemmInfo(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc)) {
    ++g_counters[routine].rejected;
    return fortranXerbla(Types<T>::name6, info);
  }
  if (isQuickReturn<T>(*m, *n, *k, *alpha, *beta)) {
    ++g_counters[routine].quick;
    return;
  }
  dispatch(Call<T>{routine, clgemmLayoutColMajor, isTransposed(*transa), isTransposed(*transb), *m,
                   *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc});
}

template <typename T>
void cblasGemm(Routine routine, int layout, int transa, int transb, int m, int n, int k, T alpha,
               const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  if (const int info = cblasGemmInfo(layout, transa, transb, m, n, k, lda, ldb, ldc)) {
    ++g_counters[routine].rejected;
    return cblasXerbla(Types<T>::cblas_name, Types<T>::name6, info, layout == kCblasRowMajor);
  }
  if (isQuickReturn<T>(m, n, k, alpha, beta)) {
    ++g_counters[routine].quick;
    return;
  }
  dispatch(Call<T>{routine, layout == kCblasColMajor ? clgemmLayoutColMajor : clgemmLayoutRowMajor,
                   transa != kCblasNoTrans, transb != kCblasNoTrans, m, n, k, alpha, a, lda, b, ldb,
                   beta, c, ldc});
}

// --- CLGEMM_BLAS_VERBOSE=1: the counts at exit ------------------------------------------------

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct ExitReport {
  ~ExitReport() {
    const char* verbose = std::getenv("CLGEMM_BLAS_VERBOSE");
    if (!verbose || std::strcmp(verbose, "1") != 0) return;
    const std::string where =
        g_state && g_state->device ? g_state->device_name + " (clgemm)" : "the device (none)";
    for (int r = 0; r < kRoutines; ++r) {
      const Counters& c = g_counters[r];
      const std::uint64_t system = c.by_threshold + c.by_failure + c.no_fp64 + c.no_device;
      const std::uint64_t calls = c.device + c.quick + system;
      if (calls + c.rejected == 0) continue;
      std::string line = "clgemm_blas: " + std::string(kRoutineNames[r]) + ": " +
                         plural(calls, "call", "calls") + ": " + std::to_string(c.device) + " on " +
                         where + ", " + plural(c.quick, "quick return", "quick returns") + ", " +
                         std::to_string(system) + " on the system BLAS";
      if (system) {
        std::string why;
        const auto add = [&](std::uint64_t n, const char* what) {
          if (n) why += (why.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        add(c.by_threshold, "below the threshold");
        add(c.by_failure, "after a device failure");
        add(c.no_fp64, "FP64 without cl_khr_fp64");
        add(c.no_device, "without a device");
        line += " (" + why + ")";
      }
      line += ", " + std::to_string(c.rejected) + " rejected";
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  }
} g_exit_report;

}  // namespace

// The exported entry points (blas_shim.map). Fortran's hidden CHARACTER lengths are accepted and
// unused: TRANSA and TRANSB are read by their first character, as reference BLAS does.
extern "C" {

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, std::size_t, std::size_t) {
  fortranGemm<float>(kSgemm, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, std::size_t, std::size_t) {
  fortranGemm<double>(kDgemm, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc) {
  cblasGemm<float>(kCblasSgemm, layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                   ldc);
}

void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c,
                 int ldc) {
  cblasGemm<double>(kCblasDgemm, layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                    ldc);
}

}  // extern "C"
