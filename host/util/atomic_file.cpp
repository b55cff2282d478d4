#include "util/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string temporaryFor(const std::string& path) {
  return path + ".tmp-clgemm-" + std::to_string(::getpid());
}

[[noreturn]] void cannotWrite(const std::string& path, const std::string& option, int err) {
  throw UsageError(option + ": cannot write '" + path + "': " + std::strerror(err));
}

}  // namespace

void checkWritable(const std::string& path, const std::string& option) {
  if (std::filesystem::is_directory(path)) cannotWrite(path, option, EISDIR);
  const std::string tmp = temporaryFor(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) cannotWrite(path, option, errno);
  std::fclose(f);
  std::remove(tmp.c_str());
}

void writeFileAtomically(const std::string& path, const std::string& option,
                         const std::function<void(std::ostream&)>& write) {
  if (std::filesystem::is_directory(path)) cannotWrite(path, option, EISDIR);
  const std::string tmp = temporaryFor(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) cannotWrite(path, option, errno);
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out) {
      const int err = errno;
      out.close();
      std::remove(tmp.c_str());
      cannotWrite(path, option, err);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    cannotWrite(path, option, err);
  }
}

void writeReportTo(const std::string& path, std::ostream& out,
                   const std::function<void(std::ostream&)>& write) {
  if (path.empty())
    write(out);
  else
    writeFileAtomically(path, "--out", write);
}

}  // namespace clgemm
