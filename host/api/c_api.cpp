// The C functions of include/clgemm/clgemm.h: each turns its arguments into a GemmCall and every
// failure into a status, with the full story in clgemmLastMessage(). No exception leaves here.
#include <clgemm/clgemm.h>

#include <new>
#include <string>

#include "api/gemm_call.hpp"
#include "api/library_device.hpp"
#include "opencl/cl_check.hpp"
#include "util/errors.hpp"

namespace {

thread_local std::string last_message;

clgemmStatus fail(clgemmStatus status, const std::string& message) {
  last_message = message;
  return status;
}

clgemmStatus run(const clgemm::GemmCall& call) {
  using namespace clgemm;
  try {
    enqueueGemmCall(call);
    last_message.clear();
    return clgemmSuccess;
  } catch (const ApiError& e) {
    return fail(e.status(), e.what());
  } catch (const ClError& e) {
    return fail(clgemmStatus(e.clCode()), e.what());
  } catch (const cl::Error& e) {
    return fail(clgemmStatus(e.err()),
                std::string(e.what()) + " failed with " + clErrorName(e.err()));
  } catch (const BuildError& e) {
    return fail(clgemmBuildFailed, e.what());
  } catch (const UsageError& e) {
    // The tuned or default parameters break a limit of this device (work-group size, local
    // memory): the message names the defines, and `clgemm tune` finds ones that fit.
    return fail(clgemmInvalidParameters, e.what());
  } catch (const std::bad_alloc&) {
    return fail(clgemmStatus(CL_OUT_OF_HOST_MEMORY), "out of host memory");
  } catch (const std::exception& e) {
    return fail(clgemmInternalError, e.what());
  }
}

clgemm::GemmCall makeCall(clgemm::Precision precision, clgemmLayout layout, clgemmTranspose ta,
                          clgemmTranspose tb, size_t m, size_t n, size_t k, double alpha, cl_mem a,
                          size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset, size_t b_ld,
                          double beta, cl_mem c, size_t c_offset, size_t c_ld,
                          cl_command_queue* queue, cl_event* event) {
  clgemm::GemmCall call;
  call.precision = precision;
  call.layout = layout;
  call.a_transpose = ta;
  call.b_transpose = tb;
  call.m = m;
  call.n = n;
  call.k = k;
  call.alpha = alpha;
  call.beta = beta;
  call.a = a;
  call.a_offset = a_offset;
  call.a_ld = a_ld;
  call.b = b;
  call.b_offset = b_offset;
  call.b_ld = b_ld;
  call.c = c;
  call.c_offset = c_offset;
  call.c_ld = c_ld;
  call.queue = queue;
  call.event = event;
  return call;
}

}  // namespace

extern "C" {

clgemmStatus clgemmSgemm(clgemmLayout layout, clgemmTranspose a_transpose,
                         clgemmTranspose b_transpose, size_t m, size_t n, size_t k, float alpha,
                         cl_mem a_buffer, size_t a_offset, size_t a_ld, cl_mem b_buffer,
                         size_t b_offset, size_t b_ld, float beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event) {
  return run(makeCall(clgemm::Precision::kFp32, layout, a_transpose, b_transpose, m, n, k, alpha,
                      a_buffer, a_offset, a_ld, b_buffer, b_offset, b_ld, beta, c_buffer, c_offset,
                      c_ld, queue, event));
}

clgemmStatus clgemmDgemm(clgemmLayout layout, clgemmTranspose a_transpose,
                         clgemmTranspose b_transpose, size_t m, size_t n, size_t k, double alpha,
                         cl_mem a_buffer, size_t a_offset, size_t a_ld, cl_mem b_buffer,
                         size_t b_offset, size_t b_ld, double beta, cl_mem c_buffer,
                         size_t c_offset, size_t c_ld, cl_command_queue* queue, cl_event* event) {
  return run(makeCall(clgemm::Precision::kFp64, layout, a_transpose, b_transpose, m, n, k, alpha,
                      a_buffer, a_offset, a_ld, b_buffer, b_offset, b_ld, beta, c_buffer, c_offset,
                      c_ld, queue, event));
}

const char* clgemmStatusString(clgemmStatus status) {
  switch (status) {
    case clgemmSuccess:
      return "clgemmSuccess";
    case clgemmInvalidLayout:
      return "clgemmInvalidLayout: the layout is neither row- nor column-major";
    case clgemmInvalidTranspose:
      return "clgemmInvalidTranspose: a transpose is not No, Yes or Conjugate";
    case clgemmInvalidLeadingDimA:
      return "clgemmInvalidLeadingDimA: a_ld is below the length of A's stored lines";
    case clgemmInvalidLeadingDimB:
      return "clgemmInvalidLeadingDimB: b_ld is below the length of B's stored lines";
    case clgemmInvalidLeadingDimC:
      return "clgemmInvalidLeadingDimC: c_ld is below the length of C's stored lines";
    case clgemmInvalidBufferA:
      return "clgemmInvalidBufferA: a_buffer is null, of another context or too small";
    case clgemmInvalidBufferB:
      return "clgemmInvalidBufferB: b_buffer is null, of another context or too small";
    case clgemmInvalidBufferC:
      return "clgemmInvalidBufferC: c_buffer is null, of another context or too small";
    case clgemmInvalidQueue:
      return "clgemmInvalidQueue: the queue is null or not a command queue";
    case clgemmNoDoublePrecision:
      return "clgemmNoDoublePrecision: the device has no cl_khr_fp64";
    case clgemmTooLarge:
      return "clgemmTooLarge: a matrix reaches past element 2^31 - 1 of its buffer";
    case clgemmBuildFailed:
      return "clgemmBuildFailed: the kernel did not compile (clgemmLastMessage has the log)";
    case clgemmInvalidParameters:
      return "clgemmInvalidParameters: the kernel's parameters do not fit this device";
    case clgemmInternalError:
      return "clgemmInternalError";
  }
  // OpenCL's own codes: their names, kept for the life of the process.
  static thread_local std::string name;
  name = clgemm::clErrorName(int(status));
  return name.c_str();
}

const char* clgemmLastMessage(void) { return last_message.c_str(); }

void clgemmClearCache(void) { clgemm::clearLibraryDevices(); }

}  // extern "C"
