#include "program.hpp"

#include "cl_check.hpp"
#include "errors.hpp"

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
    throw UsageError("building " + origin_ + " failed (" + clErrorName(status) +
                     ") with options '" + options + "'; compiler log:\n" + built.log);
  }
  if (status != CL_SUCCESS) throw ClError("clBuildProgram", status);
  return built_.emplace(options, std::move(built)).first->second;
}

}  // namespace clgemm
