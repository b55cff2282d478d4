/* blas_bench: times the BLAS shim's sgemm_ or dgemm_ on host pointers, the way a program calling
 * BLAS sees it: the copies of A and B in and of C out are part of every call.
 *
 *   blas_bench [SIZE [fp32|fp64 [REPS]]]    default: 1024 fp32 5
 *
 * C = A * B (alpha = 1, beta = 0), column-major, N x N, packed, on the device the shim picks
 * (CLGEMM_DEVICE, else the first GPU) when N^3 reaches its threshold (CLGEMM_BLAS_THRESHOLD, the
 * measured record, the default), else on the system BLAS: set CLGEMM_BLAS_VERBOSE=1 to see which.
 * One warm-up call (the first builds the kernel), then REPS timed ones by the host clock. 64
 * sampled elements of C are checked against a double-precision dot product before any time is
 * printed; exit status 0 when they match. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The Fortran BLAS interface the shim exports (by reference, hidden string lengths last). */
void sgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t);
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b,
            const int* ldb, const double* beta, double* c, const int* ldc, size_t, size_t);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int compare(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static double uniform(unsigned long long* state) { /* in [-1, 1) */
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*state >> 11) / 4503599627370496.0 - 1.0;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1024;
  const int fp64 = argc > 2 && strcmp(argv[2], "fp64") == 0;
  const int reps = argc > 3 ? atoi(argv[3]) : 5;
  if (n < 1 || reps < 1 || (argc > 2 && !fp64 && strcmp(argv[2], "fp32") != 0)) {
    fprintf(stderr, "usage: blas_bench [SIZE [fp32|fp64 [REPS]]]\n");
    return 2;
  }
  const size_t count = (size_t)n * (size_t)n, bytes = fp64 ? sizeof(double) : sizeof(float);
  void* a = malloc(count * bytes);
  void* b = malloc(count * bytes);
  void* c = malloc(count * bytes);
  double* times = malloc((size_t)reps * sizeof *times);
  if (!a || !b || !c || !times) {
    fprintf(stderr, "blas_bench: out of host memory\n");
    return 1;
  }
  unsigned long long state = 42;
  for (size_t i = 0; i < count; ++i) {
    const double x = uniform(&state), y = uniform(&state);
    if (fp64) {
      ((double*)a)[i] = x;
      ((double*)b)[i] = y;
    } else {
      ((float*)a)[i] = (float)x;
      ((float*)b)[i] = (float)y;
    }
  }
  const float one_f = 1.0f, zero_f = 0.0f;
  const double one_d = 1.0, zero_d = 0.0;
  for (int r = -1; r < reps; ++r) {
    const double start = now_ms();
    if (fp64)
      dgemm_("N", "N", &n, &n, &n, &one_d, a, &n, b, &n, &zero_d, c, &n, 1, 1);
    else
      sgemm_("N", "N", &n, &n, &n, &one_f, a, &n, b, &n, &zero_f, c, &n, 1, 1);
    if (r >= 0) times[r] = now_ms() - start;
  }
  /* Column-major: C(i, j) = sum_p A(i, p) B(p, j), A(i, p) at p * n + i. */
  int wrong = 0;
  for (int s = 0; s < 64; ++s) {
    const size_t i = (size_t)(uniform(&state) * 0.5 * n + 0.5 * n) % (size_t)n;
    const size_t j = (size_t)(uniform(&state) * 0.5 * n + 0.5 * n) % (size_t)n;
    double want = 0, mag = 0;
    for (size_t p = 0; p < (size_t)n; ++p) {
      const double x = fp64 ? ((double*)a)[p * n + i] : ((float*)a)[p * n + i];
      const double y = fp64 ? ((double*)b)[j * n + p] : ((float*)b)[j * n + p];
      want += x * y;
      mag += fabs(x * y);
    }
    const double got = fp64 ? ((double*)c)[j * n + i] : ((float*)c)[j * n + i];
    const double eps = fp64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
    if (!(fabs(got - want) <= 16 * eps * mag + 1e-30)) ++wrong;
  }
  if (wrong) {
    fprintf(stderr, "blas_bench: %d of 64 sampled elements of C are wrong; no time reported\n",
            wrong);
    return 1;
  }
  qsort(times, (size_t)reps, sizeof *times, compare);
  const double med = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
  printf("blas_bench: %s, N=%d column-major NN, 1 warm-up + %d timed calls, 64 sampled elements "
         "verified\n",
         fp64 ? "dgemm_" : "sgemm_", n, reps);
  printf("%-28s %10s %10s %10s\n", "time", "median ms", "min ms", "GFLOP/s");
  printf("%-28s %10.3f %10.3f %10.1f\n", "host (the whole call)", med, times[0],
         2.0 * n * (double)n * n / med * 1e-6);
  free(a);
  free(b);
  free(c);
  free(times);
  return 0;
}
