#include "opencl/program.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "opencl/cl_check.hpp"
#include "opencl/program_save.hpp"
#include "opencl/ptx_arch.hpp"
#include "util/errors.hpp"

namespace clgemm {

ProgramCache::ProgramCache(cl::Context context, cl::Device device, std::string source,
                           std::string origin)
    : context_(std::move(context)),
      device_(std::move(device)),
      source_(std::move(source)),
      origin_(std::move(origin)) {}

const BuiltProgram& ProgramCache::get(const std::string& options) {
  const auto found = built_.find(options);
  if (found != built_.end()) return found->second;
  if (const auto failed = failed_.find(options); failed != failed_.end())
    std::rethrow_exception(failed->second);
  const BuiltProgram& built = built_.emplace(options, build(options)).first->second;
  if (!save_dir_.empty()) saveBuiltProgram(built, device_, save_dir_);
  return built;
}

void ProgramCache::prebuild(const std::vector<std::string>& options, unsigned threads) {
  std::vector<std::string> wanted;
  for (const auto& o : options)
    if (!built_.count(o) && !failed_.count(o) &&
        std::find(wanted.begin(), wanted.end(), o) == wanted.end())
      wanted.push_back(o);
  std::vector<BuiltProgram> built(wanted.size());
  std::vector<std::exception_ptr> errors(wanted.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < wanted.size();) {
      try {
        built[i] = build(wanted[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const std::size_t count = std::min<std::size_t>(std::max(threads, 1u), wanted.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < count; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (errors[i])
      failed_.emplace(wanted[i], errors[i]);
    else if (const auto at = built_.emplace(wanted[i], std::move(built[i])).first;
             !save_dir_.empty())
      saveBuiltProgram(at->second, device_, save_dir_);
  }
}

BuiltProgram ProgramCache::build(const std::string& options) const {
  BuiltProgram built;
  built.options = options;
  try {
    built.program = cl::Program(context_, source_);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  int status = CL_SUCCESS;
  try {
    status = built.program.build({device_}, options.c_str());
  } catch (const cl::Error& e) {
    status = e.err();
  }
  try {
    built.log = built.program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
  } catch (const cl::Error&) {
    built.log.clear();  // some drivers have no log for a program that failed early
  }
  if (status == CL_BUILD_PROGRAM_FAILURE || status == CL_INVALID_BUILD_OPTIONS ||
      status == CL_COMPILE_PROGRAM_FAILURE) {
    throw BuildError("building " + origin_ + " failed (" + clErrorName(status) +
                     ") with options '" + options + "'; compiler log:\n" + built.log);
  }
  if (status != CL_SUCCESS) throw ClError("clBuildProgram", status);
  if (source_.find(kArchSpecificMarker) != std::string::npos ||
      source_.find(kOccupancyMarker) != std::string::npos)
    rebuildFromMarkedPtx(built);
  return built;
}

// See ptx_arch.hpp. Only programs whose PTX still holds a marker (the kernel that needs the
// instructions, or asks for an occupancy, was compiled in) are built again.
void ProgramCache::rebuildFromMarkedPtx(BuiltProgram& built) const {
  std::string ptx;
  try {
    const auto binaries = built.program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty()) return;
    ptx.assign(binaries.front().begin(), binaries.front().end());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  const bool arch_specific = hasArchSpecificPtx(ptx), occupancy = hasOccupancyMarker(ptx);
  if (!arch_specific && !occupancy) return;
  auto unmasked = arch_specific ? unmaskArchSpecificPtx(ptx) : std::optional<std::string>(ptx);
  if (unmasked && occupancy) unmasked = applyOccupancyMarkers(*unmasked);
  if (!unmasked)
    throw BuildError("building " + origin_ + " with options '" + built.options +
                     (arch_specific ? "': the kernel needs architecture-specific PTX instructions"
                                    : "': the kernel asks for work-groups per compute unit "
                                      "(MIN_WG_PER_CU) through its PTX") +
                     ", and this device's compiler does not return PTX");
  int status = CL_SUCCESS;
  try {
    std::vector<unsigned char> bytes(unmasked->begin(), unmasked->end());
    bytes.push_back('\0');  // NVIDIA's driver reads the PTX as a C string
    built.program = cl::Program(context_, {device_}, cl::Program::Binaries{bytes});
    status = built.program.build({device_}, built.options.c_str());
  } catch (const cl::Error& e) {
    status = e.err();
  }
  std::string log;
  try {
    log = built.program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
  } catch (const cl::Error&) {
  }
  // The first build's log describes code without the masked instructions (its register counts
  // are not this kernel's); the binary build's, often empty, is the one that applies.
  built.log = log;
  if (status != CL_SUCCESS)
    throw BuildError("building " + origin_ + " with options '" + built.options +
                     "' for the architecture-specific target failed (" + clErrorName(status) +
                     "); compiler log:\n" + log);
}

}  // namespace clgemm
