// Build kernels.cl for the first GPU with the given options and write its binary (PTX on NVIDIA).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: dump kernels.cl out.ptx 'options'\n"); return 2; }
  FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
  char* src = malloc(n + 1); fread(src, 1, n, f); src[n] = 0; fclose(f);
  cl_platform_id p[8]; cl_uint np; clGetPlatformIDs(8, p, &np);
  cl_device_id d = 0; for (cl_uint i = 0; i < np && !d; ++i) if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, 0) != CL_SUCCESS) d = 0;
  if (!d) { fprintf(stderr, "no GPU\n"); return 1; }
  cl_int e; cl_context c = clCreateContext(0, 1, &d, 0, 0, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, (const char**)&src, 0, &e);
  e = clBuildProgram(pr, 1, &d, argv[3], 0, 0);
  size_t ls; clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, 0, 0, &ls);
  char* log = malloc(ls + 1); clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, ls, log, 0); log[ls] = 0;
  fprintf(stderr, "%s\n", log);
  if (e != CL_SUCCESS) { fprintf(stderr, "build failed %d\n", e); return 1; }
  size_t bs; clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, 0);
  unsigned char* b = malloc(bs); clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof b, &b, 0);
  FILE* o = fopen(argv[2], "wb"); fwrite(b, 1, bs, o); fclose(o);
  return 0;
}
