/* sgemm_example: one clgemmSgemm call on OpenCL buffers, checked element by element.
 *
 *   sgemm_example [PLATFORM [DEVICE]]     indices as `clgemm --list` shows them; default 0 0
 *
 * C = alpha * A^T * B + beta * C on column-major matrices (as BLAS and Fortran store them), with A
 * stored K x M and read transposed, A starting 5 elements into its buffer, and C's columns padded
 * (ldc > M): the arguments a BLAS caller passes. The same call with CLBlast is CLBlastSgemm with
 * the same arguments. Exit status 0 when every element of C matches a plain triple loop. */
#include <clgemm/clgemm.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_CL(call)                                                     \
  do {                                                                     \
    cl_int err_ = (call);                                                  \
    if (err_ != CL_SUCCESS) {                                              \
      fprintf(stderr, "sgemm_example: %s failed: %d\n", #call, (int)err_); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

static float uniform(unsigned* state) { /* in [-1, 1), the same on every machine */
  *state = *state * 1664525u + 1013904223u;
  return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

int main(int argc, char** argv) {
  const cl_uint platform_index = argc > 1 ? (cl_uint)atoi(argv[1]) : 0;
  const cl_uint device_index = argc > 2 ? (cl_uint)atoi(argv[2]) : 0;
  const size_t m = 70, n = 45, k = 33; /* sizes that divide no tile */
  const size_t a_offset = 5, a_ld = k + 3, b_ld = k, c_ld = m + 2;
  const float alpha = 1.5f, beta = -0.5f;
  const size_t a_size = a_offset + m * a_ld, b_size = n * b_ld, c_size = n * c_ld;

  /* The device: the platform's and device's indices as clinfo and clgemm --list count them. */
  cl_platform_id platforms[16];
  cl_uint num_platforms = 0;
  CHECK_CL(clGetPlatformIDs(16, platforms, &num_platforms));
  if (platform_index >= num_platforms) {
    fprintf(stderr, "sgemm_example: no platform %u (%u found)\n", platform_index, num_platforms);
    return 1;
  }
  cl_device_id devices[16];
  cl_uint num_devices = 0;
  CHECK_CL(
      clGetDeviceIDs(platforms[platform_index], CL_DEVICE_TYPE_ALL, 16, devices, &num_devices));
  if (device_index >= num_devices) {
    fprintf(stderr, "sgemm_example: no device %u on platform %u\n", device_index, platform_index);
    return 1;
  }
  cl_device_id device = devices[device_index];
  char name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK_CL(err);

  /* The matrices on the host, column-major: element (i, j) of a matrix is at [j * ld + i]. */
  float* a = malloc(a_size * sizeof *a);
  float* b = malloc(b_size * sizeof *b);
  float* c = malloc(c_size * sizeof *c);
  float* result = malloc(c_size * sizeof *result);
  if (!a || !b || !c || !result) return 1;
  unsigned seed = 1;
  for (size_t i = 0; i < a_size; ++i) a[i] = uniform(&seed);
  for (size_t i = 0; i < b_size; ++i) b[i] = uniform(&seed);
  for (size_t i = 0; i < c_size; ++i) c[i] = uniform(&seed);

  cl_mem a_buffer =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a_size * sizeof *a, a, &err);
  CHECK_CL(err);
  cl_mem b_buffer =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b_size * sizeof *b, b, &err);
  CHECK_CL(err);
  cl_mem c_buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   c_size * sizeof *c, c, &err);
  CHECK_CL(err);

  /* The call: it enqueues and returns; the event says when C is ready. */
  cl_event done = NULL;
  clgemmStatus status = clgemmSgemm(clgemmLayoutColMajor, clgemmTransposeYes, clgemmTransposeNo, m,
                                    n, k, alpha, a_buffer, a_offset, a_ld, b_buffer, 0, b_ld, beta,
                                    c_buffer, 0, c_ld, &queue, &done);
  if (status != clgemmSuccess) {
    fprintf(stderr, "sgemm_example: clgemmSgemm failed: %s\n%s\n", clgemmStatusString(status),
            clgemmLastMessage());
    return 1;
  }
  if (done) {
    CHECK_CL(clWaitForEvents(1, &done));
    clReleaseEvent(done);
  }
  CHECK_CL(clEnqueueReadBuffer(queue, c_buffer, CL_TRUE, 0, c_size * sizeof *result, result, 0,
                               NULL, NULL));

  /* Every element against a triple loop in double precision. A float result may differ from it
   * by rounding errors that grow with k; a wrong one is off by far more. */
  size_t wrong = 0;
  double worst = 0;
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < m; ++i) {
      double sum = 0, magnitude = 0;
      for (size_t p = 0; p < k; ++p) {
        const double product = (double)a[a_offset + i * a_ld + p] * b[j * b_ld + p]; /* A^T */
        sum += product;
        magnitude += fabs(product);
      }
      const double expected = alpha * sum + beta * (double)c[j * c_ld + i];
      const double bound =
          2.0 * k * FLT_EPSILON * (fabs(alpha) * magnitude + fabs(beta * c[j * c_ld + i]));
      const double error = fabs(result[j * c_ld + i] - expected);
      if (error > worst) worst = error;
      if (!(error <= bound) && wrong++ < 5)
        fprintf(stderr, "sgemm_example: C(%zu, %zu) = %g, expected %g\n", i, j,
                result[j * c_ld + i], expected);
    }
  }
  /* The gaps between C's columns (rows m to c_ld - 1) belong to the caller: never written. */
  for (size_t j = 0; j < n; ++j)
    for (size_t i = m; i < c_ld; ++i)
      if (result[j * c_ld + i] != c[j * c_ld + i] && wrong++ < 5)
        fprintf(stderr, "sgemm_example: C's padding at (%zu, %zu) was written\n", i, j);

  printf(
      "sgemm_example: %s: C = %g * A^T * B + %g * C, column-major, M=%zu N=%zu K=%zu, "
      "a_offset=%zu a_ld=%zu c_ld=%zu: %s (%zu of %zu elements wrong, max error %.3g)\n",
      name, alpha, beta, m, n, k, a_offset, a_ld, c_ld, wrong ? "FAILED" : "verified", wrong, m * n,
      worst);

  clReleaseMemObject(a_buffer);
  clReleaseMemObject(b_buffer);
  clReleaseMemObject(c_buffer);
  clReleaseCommandQueue(queue);
  clgemmClearCache(); /* the cache holds a reference to the context */
  clReleaseContext(context);
  free(a);
  free(b);
  free(c);
  free(result);
  return wrong ? 1 : 0;
}
