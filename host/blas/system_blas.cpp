#include "blas/system_blas.hpp"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // RTLD_NEXT, dladdr
#endif
#include <dlfcn.h>
#include <stdlib.h>

#include <mutex>

namespace clgemm::blas {

namespace {

// The object (executable or library) that holds `address`.
const void* objectOf(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) ? info.dli_fbase : nullptr;
}

std::string realFile(const void* address) {
  Dl_info info{};
  if (!dladdr(address, &info) || !info.dli_fname) return "";
  char* real = realpath(info.dli_fname, nullptr);
  std::string file = real ? real : info.dli_fname;
  free(real);
  return file;
}

// dlsym(RTLD_NEXT) finds the next definition after this object; one in this object itself (when
// it exports the name, as the shim does) would be a call to ourselves.
void* nextSymbol(const char* name) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (symbol && objectOf(symbol) == objectOf(reinterpret_cast<const void*>(&systemBlas)))
    return nullptr;
  return symbol;
}

SystemBlas lookUp() {
  SystemBlas s;
  s.sgemm = reinterpret_cast<SgemmFn>(nextSymbol("sgemm_"));
  s.dgemm = reinterpret_cast<DgemmFn>(nextSymbol("dgemm_"));
  if (!s.sgemm || !s.dgemm) {
    // A process that loads its BLAS later (NumPy through dlopen, RTLD_LOCAL) or not at all.
    void* lib = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = dlerror();
      s.error = std::string("no sgemm_/dgemm_ after the shim and libblas.so.3 does not load: ") +
                (why ? why : "unknown error");
      s.sgemm = nullptr;
      s.dgemm = nullptr;
      return s;
    }
    s.sgemm = reinterpret_cast<SgemmFn>(dlsym(lib, "sgemm_"));
    s.dgemm = reinterpret_cast<DgemmFn>(dlsym(lib, "dgemm_"));
    if (!s.sgemm || !s.dgemm) {
      s.error = "libblas.so.3 has no sgemm_/dgemm_";
      s.sgemm = nullptr;
      s.dgemm = nullptr;
      return s;
    }
  }
  s.library = realFile(reinterpret_cast<const void*>(s.sgemm));
  return s;
}

}  // namespace

const SystemBlas& systemBlas() {
  static const SystemBlas s = lookUp();  // C++11: initialised once, thread-safely
  return s;
}

}  // namespace clgemm::blas
