// A program that calls BLAS as any other does, for the shim's tests (tests/blas_shim_env.sh): it
// finds sgemm_, dgemm_, cblas_sgemm and cblas_dgemm in the process (the shim when preloaded), else
// in libblas.so.3, and checks each result against a double-precision reference computed here:
// shapes that divide no tile, both transposes, leading dimensions with gaps that must stay
// untouched, beta = 0 over NaN, alpha = 0 over NaN, row-major CBLAS, an illegal argument (this
// program's xerbla_ must get it), and calls from four threads at once.
// Prints "blas_shim_client: N checks passed" and exits 0, else the failures and 1.
#include <dlfcn.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using Sgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*,
                       const float*, const int*, const float*, const int*, const float*, float*,
                       const int*, std::size_t, std::size_t);
using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*, std::size_t, std::size_t);
using CblasS = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                        float, float*, int);
using CblasD = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                        int, double, double*, int);

Sgemm sgemm;
Dgemm dgemm;
CblasS cblas_sgemm_p;
CblasD cblas_dgemm_p;

std::atomic<int> failures{0}, checks{0};

void fail(const std::string& what) {
  if (++failures <= 20) std::printf("FAIL: %s\n", what.c_str());
}

void fortran(float alpha, char ta, char tb, int m, int n, int k, const float* a, int lda,
             const float* b, int ldb, float beta, float* c, int ldc) {
  sgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
}
void fortran(double alpha, char ta, char tb, int m, int n, int k, const double* a, int lda,
             const double* b, int ldb, double beta, double* c, int ldc) {
  dgemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
}
void cblas(int layout, int ta, int tb, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm_p(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void cblas(int layout, int ta, int tb, int m, int n, int k, double alpha, const double* a, int lda,
           const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm_p(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// One GEMM through one entry point, checked: C's m x n against the reference, C's gaps against
// their sentinel. `row` picks row-major CBLAS, `use_cblas` CBLAS at all.
template <typename T>
void check(bool use_cblas, bool row, bool ta, bool tb, int m, int n, int k, T alpha, T beta,
           int gap, unsigned seed, bool nan_in_c = false, bool nan_in_ab = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  // Stored shapes in the layout: lines x len, ld = len + gap.
  const int a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
  const int a_len = row ? a_cols : a_rows, a_lines = row ? a_rows : a_cols;
  const int b_len = row ? b_cols : b_rows, b_lines = row ? b_rows : b_cols;
  const int c_len = row ? n : m, c_lines = row ? m : n;
  const int lda = std::max(1, a_len + gap), ldb = std::max(1, b_len + gap),
            ldc = std::max(1, c_len + gap);
  const T sentinel = T(12345);
  std::vector<T> a(std::size_t(lda) * a_lines + 1), b(std::size_t(ldb) * b_lines + 1),
      c(std::size_t(ldc) * c_lines + 1, sentinel);
  for (auto& x : a) x = nan_in_ab ? std::numeric_limits<T>::quiet_NaN() : T(u(rng));
  for (auto& x : b) x = nan_in_ab ? std::numeric_limits<T>::quiet_NaN() : T(u(rng));
  auto at = [&](int i, int j, int ld) {
    return row ? std::size_t(i) * ld + j : std::size_t(j) * ld + i;
  };
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      c[at(i, j, ldc)] = nan_in_c ? std::numeric_limits<T>::quiet_NaN() : T(u(rng));
  const std::vector<T> c0 = c;
  if (use_cblas)
    cblas(row ? 101 : 102, ta ? 112 : 111, tb ? 112 : 111, m, n, k, alpha, a.data(), lda, b.data(),
          ldb, beta, c.data(), ldc);
  else
    fortran(alpha, ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, a.data(), lda, b.data(), ldb, beta,
            c.data(), ldc);
  const double eps = std::numeric_limits<T>::epsilon();
  const std::string name =
      std::string(use_cblas ? (row ? "cblas row " : "cblas col ") : "fortran ") +
      (sizeof(T) == 4 ? "s" : "d") + (ta ? "T" : "N") + (tb ? "T" : "N") + " " + std::to_string(m) +
      "x" + std::to_string(n) + "x" + std::to_string(k) + " gap " + std::to_string(gap);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      if (alpha != T(0))
        for (int p = 0; p < k; ++p) {
          const double av = ta ? a[at(p, i, lda)] : a[at(i, p, lda)];
          const double bv = tb ? b[at(j, p, ldb)] : b[at(p, j, ldb)];
          ref += av * bv;
        }
      ref *= double(alpha);
      if (beta != T(0)) ref += double(beta) * double(c0[at(i, j, ldc)]);
      const double got = c[at(i, j, ldc)];
      const double bound = 16 * eps * (std::abs(double(alpha)) * k + std::abs(double(beta)) + 1);
      ++checks;
      if (!(std::abs(got - ref) <= bound)) {
        fail(name + ": C(" + std::to_string(i) + "," + std::to_string(j) +
             ") = " + std::to_string(got) + ", expected " + std::to_string(ref));
        return;
      }
    }
  for (std::size_t e = 0; e < c.size(); ++e) {
    const bool inside = row ? (e / ldc < std::size_t(m) && e % ldc < std::size_t(n))
                            : (e / ldc < std::size_t(n) && e % ldc < std::size_t(m));
    if (!inside && c[e] != sentinel) {
      fail(name + ": element " + std::to_string(e) + " outside C's m x n was written");
      return;
    }
  }
}

template <typename T>
void allShapes(unsigned seed) {
  const int shapes[][3] = {{70, 90, 50}, {33, 17, 9}, {1, 1, 1}, {5, 1, 7}, {1, 40, 3}};
  for (const auto& s : shapes)
    for (int t = 0; t < 4; ++t)
      for (int api = 0; api < 3; ++api)
        check<T>(api > 0, api == 2, t & 1, t & 2, s[0], s[1], s[2], T(1.5), T(-0.5), (t + api) % 3,
                 seed++);
  check<T>(false, false, false, false, 20, 30, 10, T(1), T(0), 2, seed++, /*nan_in_c=*/true);
  check<T>(true, true, true, false, 20, 30, 10, T(1), T(0), 1, seed++, /*nan_in_c=*/true);
  check<T>(false, false, false, true, 20, 30, 10, T(0), T(2), 1, seed++, false, /*nan_in_ab=*/true);
  check<T>(true, false, false, false, 20, 30, 0, T(1), T(-1), 0, seed++);  // k = 0: C = beta C
  // alpha = 0, beta = 1: netlib's quick return, C untouched and NaN in A and B never read.
  check<T>(false, false, true, true, 20, 30, 10, T(0), T(1), 2, seed++, false, /*nan_in_ab=*/true);
}

int g_xerbla_info = 0;
std::string g_xerbla_name;

}  // namespace

// Exported too, as netlib's CBLAS tests have it: the shim must prefer it for cblas_* (without a
// RowMajorStrg in the process, with the parameter's own number).
extern "C" void cblas_xerbla(int info, const char* routine, const char*, ...) {
  g_xerbla_name = routine;
  g_xerbla_info = info;
}

// Exported (ENABLE_EXPORTS), as a Fortran program's XERBLA would be: the shim must call it.
extern "C" void xerbla_(const char* name, const int* info, std::size_t len) {
  // The first six characters: OpenBLAS passes sizeof("SGEMM "), its terminating NUL included.
  g_xerbla_name.assign(name, len < 6 ? len : 6);
  g_xerbla_info = *info;
}

int main() {
  void* lib = dlopen("libblas.so.3", RTLD_NOW | RTLD_GLOBAL);
  auto find = [&](const char* name) {
    void* s = dlsym(RTLD_DEFAULT, name);  // the shim first when preloaded
    return s ? s : (lib ? dlsym(lib, name) : nullptr);
  };
  sgemm = reinterpret_cast<Sgemm>(find("sgemm_"));
  dgemm = reinterpret_cast<Dgemm>(find("dgemm_"));
  cblas_sgemm_p = reinterpret_cast<CblasS>(find("cblas_sgemm"));
  cblas_dgemm_p = reinterpret_cast<CblasD>(find("cblas_dgemm"));
  if (!sgemm || !dgemm || !cblas_sgemm_p || !cblas_dgemm_p) {
    std::printf("blas_shim_client: no BLAS in the process nor libblas.so.3\n");
    return 1;
  }
  allShapes<float>(1);
  allShapes<double>(1000);

  // Illegal arguments reach this program's xerbla_, with netlib's numbers.
  {
    float x[4] = {}, y[4] = {}, z[4] = {};
    int m = 2, n = 2, k = 2, one = 1, two = 2;
    float alpha = 1, beta = 0;
    sgemm("N", "N", &m, &n, &k, &alpha, x, &one, y, &two, &beta, z, &two, 1, 1);
    ++checks;
    if (g_xerbla_info != 8 || g_xerbla_name != "SGEMM ")
      fail("sgemm_ with LDA 1 < M 2: xerbla_ got '" + g_xerbla_name + "' " +
           std::to_string(g_xerbla_info) + ", expected 'SGEMM ' 8");
    g_xerbla_info = 0;
    // cblas_xerbla with netlib CBLAS's number, 9 for a row-major lda below K. Only the shim's:
    // OpenBLAS 0.3.21 calls xerbla_ and numbers it 10.
    Dl_info where{};
    const bool shim = dladdr(reinterpret_cast<void*>(cblas_dgemm_p), &where) && where.dli_fname &&
                      std::strstr(where.dli_fname, "libclgemm_blas") != nullptr;
    cblas_dgemm_p(101, 111, 111, 2, 2, 3, 1.0, nullptr, 2, nullptr, 2, 0.0, nullptr, 2);
    ++checks;
    if (shim && (g_xerbla_info != 9 || g_xerbla_name != "cblas_dgemm"))
      fail("cblas_dgemm row-major with lda 2 < K 3: cblas_xerbla got '" + g_xerbla_name + "' " +
           std::to_string(g_xerbla_info) + ", expected 'cblas_dgemm' 9");
  }

  // Four threads at once, each its own shapes.
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 5; ++i) {
        check<float>(i % 2, false, i & 1, t & 1, 31 + int(t), 29 + i, 17, 1.f, 0.5f, 1,
                     5000 + 10 * t + i);
        check<double>(true, i % 2, t & 1, i & 1, 19 + i, 23 + int(t), 13, -1.0, 0.0, 0,
                      6000 + 10 * t + i);
      }
    });
  for (auto& th : threads) th.join();

  if (failures) {
    std::printf("blas_shim_client: %d of %d checks FAILED\n", failures.load(), checks.load());
    return 1;
  }
  std::printf("blas_shim_client: %d checks passed\n", checks.load());
  return 0;
}
