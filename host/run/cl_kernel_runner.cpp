// Runner for the kernels in kernels.cl.
#include <array>
#include <utility>

#include "opencl/cl_check.hpp"
#include "report/kernel_figures.hpp"
#include "run/launch.hpp"
#include "run/variant_runner.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

// The kernel `entry` of a built program; a kernels file without it is a usage error.
cl::Kernel kernelNamed(const BuiltProgram& built, const Variant& variant, const std::string& entry,
                       const std::string& origin) {
  try {
    return cl::Kernel(built.program, entry.c_str());
  } catch (const cl::Error& e) {
    if (e.err() == CL_INVALID_KERNEL_NAME)
      throw UsageError(variant.name + ": the kernels file (" + origin + ") has no kernel '" +
                       entry + "'");
    rethrowClError(e);
  }
}

class ClKernelRunner : public ClGemmRunner {
  // The padding copies: A and B into padded scratch matrices, C in (where beta != 0) and C back.
  enum Copy { kAIn, kBIn, kCIn, kCOut };

 public:
  ClKernelRunner(const Variant& variant, const ResolvedDefines& defines, ClSession& session,
                 const Problem& problem, const std::string& extra_options, std::ostream* log,
                 std::optional<ClOperands> operands)
      : session_(session), problem_(problem), operands_(std::move(operands)) {
    if (const auto why = unsupportedOn(variant, session.info())) throw UsageError(*why);
    checkConstraints(variant, defines);
    if (variant.padding) padded_ = variant.padding(defines, problem.m, problem.n, problem.k);
    gemm_.shape = variant.shape(defines, gemmSize().m, gemmSize().n);
    checkVariantConfig(session.info(), variant, defines, gemm_.shape);
    LaunchShape transpose_shape;
    if (!variant.transpose_b_entry.empty()) {
      transpose_shape = variant.transpose_b_shape(defines, problem.k, problem.n);
      checkVariantConfig(session.info(), variant, defines, transpose_shape);
    }
    if (padded_) {
      for (const Copy c : {kAIn, kBIn, kCIn, kCOut}) {
        const auto [rows, cols] = copySize(c);
        checkVariantConfig(session.info(), variant, defines, variant.pad_shape(rows, cols));
      }
    }
    if (!variant.pack_entry.empty()) {
      for (const int operand : {0, 1})
        checkVariantConfig(session.info(), variant, defines, packShape(variant, operand));
    }
    const std::string options =
        clKernelBuildOptions(variant, defines, problem, session.info(), extra_options, &derived_);
    const BuiltProgram& built = session.programs().get(options);
    if (log)
      *log << "clgemm: build log of " << variant.name << " (" << options << "):\n"
           << built.log << "\n";
    gemm_.kernel = kernelNamed(built, variant, variant.entry, session.programs().origin());
    figures_ = kernelFigures(gemm_.kernel, session.device(), session.info(), gemm_.shape,
                             variant.entry, built.log);
    checkBuiltKernel(session.info(), variant, gemm_.shape, figures_);
    if (!variant.transpose_b_entry.empty()) {
      Launch transpose{
          kernelNamed(built, variant, variant.transpose_b_entry, session.programs().origin()),
          transpose_shape};
      checkBuiltKernel(session.info(), variant, transpose.shape,
                       kernelFigures(transpose.kernel, session.device(), session.info(),
                                     transpose.shape, variant.transpose_b_entry, built.log));
      transpose_ = std::move(transpose);
    }
    if (!variant.pack_entry.empty()) {
      pack_planes_ = variant.pack_planes;
      for (const int operand : {0, 1}) {
        Launch pack{kernelNamed(built, variant, variant.pack_entry, session.programs().origin()),
                    packShape(variant, operand)};
        checkBuiltKernel(session.info(), variant, pack.shape,
                         kernelFigures(pack.kernel, session.device(), session.info(), pack.shape,
                                       variant.pack_entry, built.log));
        packs_.push_back(std::move(pack));
      }
    }
    if (padded_) {
      for (const Copy c : {kAIn, kBIn, kCIn, kCOut}) {
        const auto [rows, cols] = copySize(c);
        Launch& copy = copies_[c];
        copy = {kernelNamed(built, variant, variant.pad_entry, session.programs().origin()),
                variant.pad_shape(rows, cols)};
        checkBuiltKernel(session.info(), variant, copy.shape,
                         kernelFigures(copy.kernel, session.device(), session.info(), copy.shape,
                                       variant.pad_entry, built.log));
      }
    }
  }

  Timings run(int warmup, int reps, std::vector<float>& result) override {
    const std::vector<Launch> launches = bindLaunches();
    const Timings t =
        timeKernels(session_.queue(), launches, warmup, reps, [&] { session_.resetC(); });
    session_.readC(result);
    return t;
  }

  std::pair<cl::Event, cl::Event> enqueueGemm(const std::vector<cl::Event>* wait) override {
    const std::vector<Launch> launches = bindLaunches();
    try {
      return enqueueLaunches(operands_ ? operands_->queue : session_.queue(), launches, wait);
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
  }

  MemoryCheck checkMemory() override {
    MemoryCheck out = session_.checkMemory();
    for (GuardedClBuffer* scratch :
         {&bt_, &a_padded_, &b_padded_, &c_padded_, &a_packed_, &b_packed_})
      if (scratch->allocated()) scratch->checkGuards(session_.queue(), out);
    return out;
  }

  std::string deviceName() const override { return session_.info().name; }
  std::vector<ResolvedDefine> derivedDefines() const override { return derived_; }
  std::optional<KernelFigures> figures() const override { return figures_; }

 private:
  // Sets the kernels' arguments (allocating scratch matrices at the first call) and returns one
  // repetition's launches in order: helper kernels before the GEMM, C's copy back after it.
  std::vector<Launch> bindLaunches() {
    try {
      if (padded_) allocatePadded();
      if (!packs_.empty()) allocatePacked();
      const PaddedSizes size = gemmSize();
      gemm_.kernel.setArg(0, size.m);
      gemm_.kernel.setArg(1, size.n);
      gemm_.kernel.setArg(2, size.k);
      gemm_.kernel.setArg(3, problem_.alpha);
      gemm_.kernel.setArg(4, problem_.beta);
      gemm_.kernel.setArg(5, a_packed_.allocated()   ? a_packed_.view()
                             : a_padded_.allocated() ? a_padded_.view()
                                                     : a());
      gemm_.kernel.setArg(6, b_packed_.allocated()   ? b_packed_.view()
                             : b_padded_.allocated() ? b_padded_.view()
                             : transpose_            ? transposedB()
                                                     : b());
      gemm_.kernel.setArg(7, c_padded_.allocated() ? c_padded_.view() : c());
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
    std::vector<Launch> launches;
    if (transpose_) launches.push_back(*transpose_);
    for (const Launch& pack : packs_) launches.push_back(pack);
    // The padding copies that are needed: A and B in, C in where it is read, and C out.
    if (a_padded_.allocated()) launches.push_back(copies_[kAIn]);
    if (b_padded_.allocated()) launches.push_back(copies_[kBIn]);
    if (c_padded_.allocated() && problem_.beta != 0.0f) launches.push_back(copies_[kCIn]);
    launches.push_back(gemm_);
    if (c_padded_.allocated()) launches.push_back(copies_[kCOut]);
    return launches;
  }

  // The scratch buffer for B transposed, allocated at the first run (after A, B and C, so a bad
  // define never waits for it) and filled by the helper kernel in every repetition.
  cl::Buffer& transposedB() {
    if (!bt_.allocated()) {
      bt_ = session_.scratch(std::size_t(problem_.k) * std::size_t(problem_.n), "B transposed");
      transpose_->kernel.setArg(0, problem_.k);
      transpose_->kernel.setArg(1, problem_.n);
      transpose_->kernel.setArg(2, b());
      transpose_->kernel.setArg(3, bt_.view());
    }
    return bt_.view();
  }

  // The launch of the packing helper for operand 0 (A, M x K) or 1 (B transposed, N x K), at the
  // GEMM's (padded) size.
  LaunchShape packShape(const Variant& variant, int operand) const {
    const PaddedSizes size = gemmSize();
    return variant.pack_shape(operand == 0 ? size.m : size.n, size.k);
  }

  // The packed operands, allocated at the first run like B transposed, and the helper's
  // arguments (operand, source rows, source cols, source, rows, K, destination).
  void allocatePacked() {
    if (a_packed_.allocated()) return;
    const PaddedSizes size = gemmSize();
    const auto planes = [&](int operand) {
      return std::size_t(pack_planes_[std::size_t(operand)]);
    };
    a_packed_ = session_.scratch(planes(0) * std::size_t(size.m) * std::size_t(size.k), "A packed");
    b_packed_ = session_.scratch(planes(1) * std::size_t(size.n) * std::size_t(size.k), "B packed");
    const auto args = [&](int operand, int src_rows, int src_cols, const cl::Buffer& src, int rows,
                          const cl::Buffer& dst) {
      cl::Kernel& kernel = packs_[std::size_t(operand)].kernel;
      kernel.setArg(0, operand);
      kernel.setArg(1, src_rows);
      kernel.setArg(2, src_cols);
      kernel.setArg(3, src);
      kernel.setArg(4, rows);
      kernel.setArg(5, size.k);
      kernel.setArg(6, dst);
    };
    args(0, problem_.m, problem_.k, a(), size.m, a_packed_.view());
    args(1, problem_.k, problem_.n, b(), size.n, b_packed_.view());
  }

  // The operands: the caller's (ClOperands) where given, else the session's.
  cl::Buffer a() { return operands_ ? operands_->a : session_.a(); }
  cl::Buffer b() { return operands_ ? operands_->b : session_.b(); }
  cl::Buffer c() { return operands_ ? operands_->c : session_.c(); }

  // The problem the GEMM kernel runs: the padded one, or the user's.
  PaddedSizes gemmSize() const {
    return padded_ ? *padded_ : PaddedSizes{problem_.m, problem_.n, problem_.k};
  }

  // The destination size (rows, cols) of a padding copy.
  std::pair<int, int> copySize(Copy c) const {
    switch (c) {
      case kAIn:
        return {padded_->m, padded_->k};
      case kBIn:
        return {padded_->k, padded_->n};
      case kCIn:
        return {padded_->m, padded_->n};
      case kCOut:
        break;
    }
    return {problem_.m, problem_.n};
  }

  // The padded scratch matrices, allocated at the first run like B transposed, and the copies'
  // arguments (source rows, source cols, source, rows, cols, destination). A matrix that already
  // has its padded size is used as it is.
  void allocatePadded() {
    if (padded_allocated_) return;
    padded_allocated_ = true;
    const PaddedSizes& p = *padded_;
    const int m = problem_.m, n = problem_.n, k = problem_.k;
    const auto args = [](Launch& copy, int src_rows, int src_cols, const cl::Buffer& src, int rows,
                         int cols, const cl::Buffer& dst) {
      copy.kernel.setArg(0, src_rows);
      copy.kernel.setArg(1, src_cols);
      copy.kernel.setArg(2, src);
      copy.kernel.setArg(3, rows);
      copy.kernel.setArg(4, cols);
      copy.kernel.setArg(5, dst);
    };
    // Packing pads A and B itself.
    if (packs_.empty() && (p.m != m || p.k != k)) {
      a_padded_ = session_.scratch(std::size_t(p.m) * std::size_t(p.k), "A padded");
      args(copies_[kAIn], m, k, a(), p.m, p.k, a_padded_.view());
    }
    if (packs_.empty() && (p.k != k || p.n != n)) {
      b_padded_ = session_.scratch(std::size_t(p.k) * std::size_t(p.n), "B padded");
      args(copies_[kBIn], k, n, b(), p.k, p.n, b_padded_.view());
    }
    if (p.m != m || p.n != n) {
      c_padded_ = session_.scratch(std::size_t(p.m) * std::size_t(p.n), "C padded");
      args(copies_[kCIn], m, n, c(), p.m, p.n, c_padded_.view());
      args(copies_[kCOut], p.m, p.n, c_padded_.view(), m, n, c());
    }
  }

  ClSession& session_;
  const Problem& problem_;
  Launch gemm_;
  std::optional<Launch> transpose_;
  GuardedClBuffer bt_;
  // Packing: the helper's launches for A and B, and the packed operands.
  std::vector<Launch> packs_;
  std::array<int, 2> pack_planes_ = {1, 1};
  GuardedClBuffer a_packed_, b_packed_;
  std::optional<ClOperands> operands_;
  // Padding: the padded problem, the copies (A, B and C into padded scratch matrices, C back)
  // and the scratch matrices, each allocated only where the padded size differs.
  std::optional<PaddedSizes> padded_;
  std::array<Launch, 4> copies_;
  bool padded_allocated_ = false;
  GuardedClBuffer a_padded_, b_padded_, c_padded_;
  KernelFigures figures_;
  std::vector<ResolvedDefine> derived_;
};

}  // namespace

std::string clKernelBuildOptions(const Variant& variant, const ResolvedDefines& defines,
                                 const Problem& problem, const DeviceInfo& device,
                                 const std::string& extra_options,
                                 std::vector<ResolvedDefine>* derived) {
  // Only this variant's section of kernels.cl is compiled (see the file's header).
  std::string options =
      "-D CLGEMM_ONE_KERNEL -D KERNEL_" + variant.entry + " " + defines.compilerOptions();
  if (variant.problem_defines) {
    for (const auto& d : variant.problem_defines(defines, problem.m, problem.n, problem.k)) {
      options += " -D " + d.name + "=" + d.value;
      if (derived) derived->push_back(d);
    }
  }
  const std::string report = registerReportOption(device);
  if (!report.empty()) options += " " + report;
  if (!extra_options.empty()) options += " " + extra_options;
  return options;
}

std::unique_ptr<ClGemmRunner> makeClKernelRunner(const Variant& variant,
                                                 const ResolvedDefines& defines, ClSession& session,
                                                 const Problem& problem,
                                                 const std::string& extra_options,
                                                 std::ostream* log,
                                                 std::optional<ClOperands> operands) {
  return std::make_unique<ClKernelRunner>(variant, defines, session, problem, extra_options, log,
                                          std::move(operands));
}

}  // namespace clgemm
