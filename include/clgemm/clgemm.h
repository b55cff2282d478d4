/* clgemm's C API: the verified, tuned GEMM kernels of clgemm on the caller's OpenCL queue and
 * buffers.
 *
 * C = alpha * op(A) * op(B) + beta * C, in the caller's layout, with op = N or T and any leading
 * dimensions and element offsets, as BLAS defines it. The arguments come in CLBlast's order
 * (CLBlastSgemm), so switching from CLBlast is a rename of the function and the enums; the enum
 * values are CLBlast's (and CBLAS's) too.
 *
 * Parameters come from the same lookup as the clgemm command line: the user's store of tuned
 * entries ($CLGEMM_STORE, else ~/.local/share/clgemm), the entries shipped with clgemm (the
 * device, else its driver, architecture or vendor class), else the kernel's defaults. Programs are
 * built once per context, device and options and cached; calls may come from several threads.
 * The cache keeps a reference to each context it has built for: clgemmClearCache() drops it.
 *
 * Semantics as BLAS: with m == 0 or n == 0 nothing is enqueued; with alpha == 0 or k == 0, A and
 * B are not read; with beta == 0, C is not read (NaN in C does not reach the result). Offsets and
 * leading dimensions count elements, as in CLBlast. */
#ifndef CLGEMM_CLGEMM_H
#define CLGEMM_CLGEMM_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum clgemmLayout_ { clgemmLayoutRowMajor = 101, clgemmLayoutColMajor = 102 } clgemmLayout;

typedef enum clgemmTranspose_ {
  clgemmTransposeNo = 111,
  clgemmTransposeYes = 112,
  clgemmTransposeConjugate = 113 /* the same as Yes for real matrices */
} clgemmTranspose;

/* Status codes: 0 on success; an OpenCL error code (negative, CL_OUT_OF_RESOURCES and so on) when
 * an OpenCL call failed; else one of clgemm's own, all at -2000 and below. */
typedef enum clgemmStatus_ {
  clgemmSuccess = 0,
  clgemmInvalidLayout = -2001,
  clgemmInvalidTranspose = -2002,
  clgemmInvalidLeadingDimA = -2003, /* a_ld below the least the layout and transpose allow */
  clgemmInvalidLeadingDimB = -2004,
  clgemmInvalidLeadingDimC = -2005,
  clgemmInvalidBufferA = -2006, /* null, or smaller than offset + the matrix */
  clgemmInvalidBufferB = -2007,
  clgemmInvalidBufferC = -2008,
  clgemmInvalidQueue = -2009,      /* null queue pointer or queue */
  clgemmNoDoublePrecision = -2010, /* clgemmDgemm on a device without cl_khr_fp64 */
  clgemmTooLarge = -2011,          /* a matrix past 2^31 - 1 elements: the kernels index in int */
  clgemmBuildFailed = -2012,       /* the kernel did not compile: see clgemmLastMessage() */
  clgemmInvalidParameters = -2013, /* the tuned or default parameters do not fit this device */
  clgemmInternalError = -2099
} clgemmStatus;

/* C = alpha * op(A) * op(B) + beta * C in single precision (float buffers). `queue` points to the
 * command queue to enqueue on (its context and device are the buffers'); `event`, when not null,
 * receives the event of the last command enqueued, which the caller releases (or NULL when the
 * call enqueued nothing). The call returns without waiting for the GEMM. */
clgemmStatus clgemmSgemm(clgemmLayout layout, clgemmTranspose a_transpose,
                         clgemmTranspose b_transpose, size_t m, size_t n, size_t k, float alpha,
                         cl_mem a_buffer, size_t a_offset, size_t a_ld, cl_mem b_buffer,
                         size_t b_offset, size_t b_ld, float beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event);

/* The same in double precision (double buffers); the device needs cl_khr_fp64. */
clgemmStatus clgemmDgemm(clgemmLayout layout, clgemmTranspose a_transpose,
                         clgemmTranspose b_transpose, size_t m, size_t n, size_t k, double alpha,
                         cl_mem a_buffer, size_t a_offset, size_t a_ld, cl_mem b_buffer,
                         size_t b_offset, size_t b_ld, double beta, cl_mem c_buffer,
                         size_t c_offset, size_t c_ld, cl_command_queue* queue, cl_event* event);

/* A short constant description of a status ("clgemmInvalidLeadingDimA: ..."), also for OpenCL's
 * codes; never null. */
const char* clgemmStatusString(clgemmStatus status);

/* What went wrong in this thread's last failed call, in full (the argument, the compiler's log),
 * or "" after a successful one. Valid until the thread's next call. */
const char* clgemmLastMessage(void);

/* Releases every cached program (and with it the cache's references to contexts). Calls already
 * enqueued are unaffected. */
void clgemmClearCache(void);

#ifdef __cplusplus
}
#endif

#endif /* CLGEMM_CLGEMM_H */
