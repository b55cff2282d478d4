/* gemm_bench: times clgemmSgemm or clgemmDgemm on one device, the way the clgemm command line
 * times its `best` row, so the two can be compared.
 *
 *   gemm_bench [SIZE [fp32|fp64 [REPS [PLATFORM DEVICE]]]]    default: 1024 fp32 10, first GPU
 *                                                              (else the first device)
 *
 * C = A * B (alpha = 1, beta = 0), row-major, N x N, packed: the command line's default problem.
 * Two warm-up calls (the first builds the kernel), then REPS timed ones, each waited for. Per call:
 * the device time of the command the call returned as its event (OpenCL profiling, as the command
 * line's rows: the GEMM kernel, or the copy of C back where the library pads a size that divides
 * no tile, when only the host time covers the whole call), and the host time from the call to clFinish (everything,
 * copies and enqueue included). Before any figure is printed, 64 sampled elements of C from the
 * last timed call are checked against a double-precision dot product: a wrong result is never
 * reported as a speed. Exit status 0 when they match. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <clgemm/clgemm.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_CL(call)                                                  \
  do {                                                                  \
    cl_int err_ = (call);                                               \
    if (err_ != CL_SUCCESS) {                                           \
      fprintf(stderr, "gemm_bench: %s failed: %d\n", #call, (int)err_); \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int compare(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static double median(double* v, int count) {
  qsort(v, count, sizeof *v, compare);
  return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

static double uniform(unsigned long long* state) { /* in [-1, 1) */
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*state >> 11) / 4503599627370496.0 - 1.0;
}

/* The device: PLATFORM DEVICE when given, else the first GPU, else the first device. */
static cl_device_id pick_device(int argc, char** argv) {
  cl_platform_id platforms[16];
  cl_uint num_platforms = 0;
  CHECK_CL(clGetPlatformIDs(16, platforms, &num_platforms));
  if (argc > 5) {
    const cl_uint p = (cl_uint)atoi(argv[4]), d = (cl_uint)atoi(argv[5]);
    cl_device_id devices[16];
    cl_uint num_devices = 0;
    if (p < num_platforms &&
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &num_devices) == CL_SUCCESS &&
        d < num_devices)
      return devices[d];
    fprintf(stderr, "gemm_bench: no device %u on platform %u\n", d, p);
    exit(2);
  }
  const cl_device_type types[2] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL};
  for (int t = 0; t < 2; ++t)
    for (cl_uint p = 0; p < num_platforms; ++p) {
      cl_device_id device;
      if (clGetDeviceIDs(platforms[p], types[t], 1, &device, NULL) == CL_SUCCESS) return device;
    }
  fprintf(stderr, "gemm_bench: no OpenCL device\n");
  exit(1);
}

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
  const int fp64 = argc > 2 && strcmp(argv[2], "fp64") == 0;
  const int reps = argc > 3 ? atoi(argv[3]) : 10;
  if (n == 0 || reps < 1 || (argc > 2 && !fp64 && strcmp(argv[2], "fp32") != 0)) {
    fprintf(stderr, "usage: gemm_bench [SIZE [fp32|fp64 [REPS [PLATFORM DEVICE]]]]\n");
    return 2;
  }
  const size_t elem = fp64 ? sizeof(double) : sizeof(float), count = n * n;

  cl_device_id device = pick_device(argc, argv);
  char name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK_CL(err);

  /* A and B uniform in [-1, 1), kept in double for the check whatever the precision. */
  double* a = malloc(count * sizeof *a);
  double* b = malloc(count * sizeof *b);
  void* staging = malloc(count * elem);
  if (!a || !b || !staging) {
    fprintf(stderr, "gemm_bench: out of host memory\n");
    return 1;
  }
  unsigned long long seed = 1;
  for (size_t i = 0; i < count; ++i) a[i] = uniform(&seed);
  for (size_t i = 0; i < count; ++i) b[i] = uniform(&seed);
  cl_mem buffers[3];
  for (int m = 0; m < 3; ++m) {
    buffers[m] = clCreateBuffer(context, CL_MEM_READ_WRITE, count * elem, NULL, &err);
    CHECK_CL(err);
  }
  for (int m = 0; m < 2; ++m) { /* A, B in the run's precision */
    const double* src = m == 0 ? a : b;
    for (size_t i = 0; i < count; ++i) {
      if (fp64)
        ((double*)staging)[i] = src[i];
      else
        ((float*)staging)[i] = (float)src[i];
    }
    CHECK_CL(
        clEnqueueWriteBuffer(queue, buffers[m], CL_TRUE, 0, count * elem, staging, 0, NULL, NULL));
  }

  const int warmup = 2;
  double* device_ms = malloc(reps * sizeof *device_ms);
  double* host_ms = malloc(reps * sizeof *host_ms);
  int device_times = 1; /* whether every call returned an event to time */
  for (int r = -warmup; r < reps; ++r) {
    cl_event event = NULL;
    const double start = now_ms();
    const clgemmStatus status =
        fp64
            ? clgemmDgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, n, n, n, 1.0,
                          buffers[0], 0, n, buffers[1], 0, n, 0.0, buffers[2], 0, n, &queue, &event)
            : clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, n, n, n, 1.0f,
                          buffers[0], 0, n, buffers[1], 0, n, 0.0f, buffers[2], 0, n, &queue,
                          &event);
    if (status != clgemmSuccess) {
      fprintf(stderr, "gemm_bench: %s failed: %s\n%s\n", fp64 ? "clgemmDgemm" : "clgemmSgemm",
              clgemmStatusString(status), clgemmLastMessage());
      return 1;
    }
    CHECK_CL(clFinish(queue));
    const double stop = now_ms();
    if (r >= 0) {
      host_ms[r] = stop - start;
      cl_ulong begin = 0, end = 0;
      if (event &&
          clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof begin, &begin, NULL) ==
              CL_SUCCESS &&
          clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) ==
              CL_SUCCESS)
        device_ms[r] = (end - begin) * 1e-6;
      else
        device_times = 0;
    }
    if (event) clReleaseEvent(event);
  }

  /* 64 sampled elements of the last C (the corners among them), each against a dot product in
   * double. A rounding error grows at most with n * eps times the sum of |products|. */
  CHECK_CL(
      clEnqueueReadBuffer(queue, buffers[2], CL_TRUE, 0, count * elem, staging, 0, NULL, NULL));
  const double eps = fp64 ? DBL_EPSILON : FLT_EPSILON;
  int wrong = 0;
  unsigned long long pick = 7;
  for (int s = 0; s < 64; ++s) {
    size_t i = s < 4 ? (s & 1) * (n - 1) : (size_t)((uniform(&pick) + 1) * 0.5 * n);
    size_t j = s < 4 ? (s >> 1) * (n - 1) : (size_t)((uniform(&pick) + 1) * 0.5 * n);
    if (i >= n) i = n - 1;
    if (j >= n) j = n - 1;
    double sum = 0, magnitude = 0;
    for (size_t p = 0; p < n; ++p) {
      const double x = fp64 ? a[i * n + p] : (double)(float)a[i * n + p];
      const double y = fp64 ? b[p * n + j] : (double)(float)b[p * n + j];
      sum += x * y;
      magnitude += fabs(x * y);
    }
    const double got = fp64 ? ((double*)staging)[i * n + j] : ((float*)staging)[i * n + j];
    if (!(fabs(got - sum) <= 2.0 * n * eps * magnitude) && wrong++ < 5)
      fprintf(stderr, "gemm_bench: C(%zu, %zu) = %.9g, expected %.9g\n", i, j, got, sum);
  }
  if (wrong) {
    printf(
        "gemm_bench: %s %s N=%zu: FAILED verification (%d of 64 sampled elements wrong), "
        "no timings reported\n",
        name, fp64 ? "fp64" : "fp32", n, wrong);
    return 1;
  }

  const double flops = 2.0 * n * n * n;
  printf(
      "gemm_bench: %s, %s, M=N=K=%zu row-major NN, alpha=1 beta=0, %d warm-up + %d timed "
      "calls, 64 sampled elements verified\n",
      name, fp64 ? "fp64 (clgemmDgemm)" : "fp32 (clgemmSgemm)", n, warmup, reps);
  printf("%-28s %10s %10s %10s\n", "time", "median ms", "min ms", "GFLOP/s");
  if (device_times) {
    const double med = median(device_ms, reps);
    printf("%-28s %10.3f %10.3f %10.1f\n", "device (last command)", med, device_ms[0],
           flops / med * 1e-6);
  }
  const double med = median(host_ms, reps);
  printf("%-28s %10.3f %10.3f %10.1f\n", "host (call to clFinish)", med, host_ms[0],
         flops / med * 1e-6);

  for (int m = 0; m < 3; ++m) clReleaseMemObject(buffers[m]);
  clReleaseCommandQueue(queue);
  clgemmClearCache();
  clReleaseContext(context);
  free(a);
  free(b);
  free(staging);
  free(device_ms);
  free(host_ms);
  return 0;
}
