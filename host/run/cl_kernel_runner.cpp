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
  // The copies (copy_matrix): A and B into packed (and padded) scratch matrices, C in (where beta
  // != 0) and C back into its stored lines.
  enum Copy { kAIn, kBIn, kCIn, kCOut };

 public:
  ClKernelRunner(const Variant& variant, const ResolvedDefines& defines, ClSession& session,
                 const Problem& problem, const std::string& extra_options, std::ostream* log,
                 std::optional<ClOperands> operands)
      : session_(session),
        problem_(problem),
        rm_(problem.rowMajor()),
        shapes_in_kernel_(variant.shapes_in_kernel),
        operands_(std::move(operands)) {
    if (const auto why = unsupportedOn(variant, session.info())) throw UsageError(*why);
    checkConstraints(variant, defines);
    if (variant.padding) padded_ = variant.padding(defines, rm_.m, rm_.n, rm_.k);
    packing_ = !variant.pack_entry.empty();
    chooseCopies();
    gemm_.shape = variant.shape(defines, gemmSize().m, gemmSize().n);
    // Local memory in the problem's element type (kernels.cl's REAL), before building.
    const std::size_t element_bytes = elementBytes(problem.precision);
    checkVariantConfig(session.info(), variant, defines, gemm_.shape, element_bytes);
    LaunchShape transpose_shape;
    if (!variant.transpose_b_entry.empty()) {
      transpose_shape = variant.transpose_b_shape(defines, rm_.k, rm_.n);
      checkVariantConfig(session.info(), variant, defines, transpose_shape, element_bytes);
    }
    for (const Copy c : {kAIn, kBIn, kCIn, kCOut})
      if (copy_needed_[c])
        checkVariantConfig(session.info(), variant, defines, copyShape(variant, c), element_bytes);
    if (packing_) {
      for (const int operand : {0, 1})
        checkVariantConfig(session.info(), variant, defines, packShape(variant, operand),
                           element_bytes);
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
      transpose_ = helperLaunch(built, variant, variant.transpose_b_entry, transpose_shape);
    }
    if (packing_) {
      pack_planes_ = variant.pack_planes;
      for (const int operand : {0, 1})
        packs_.push_back(
            helperLaunch(built, variant, variant.pack_entry, packShape(variant, operand)));
    }
    for (const Copy c : {kAIn, kBIn, kCIn, kCOut})
      if (copy_needed_[c])
        copies_[c] = helperLaunch(built, variant, variant.pad_entry, copyShape(variant, c));
  }

  Timings run(int warmup, int reps, std::vector<double>& result) override {
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
    for (GuardedClBuffer* scratch : {&bt_, &a_copy_, &b_copy_, &c_copy_, &a_packed_, &b_packed_})
      if (scratch->allocated()) scratch->checkGuards(session_.queue(), out);
    return out;
  }

  std::string deviceName() const override { return session_.info().name; }
  std::vector<ResolvedDefine> derivedDefines() const override { return derived_; }
  std::optional<KernelFigures> figures() const override { return figures_; }

 private:
  // A helper kernel of the built program, its launch checked against the device.
  Launch helperLaunch(const BuiltProgram& built, const Variant& variant, const std::string& entry,
                      const LaunchShape& shape) {
    Launch launch{kernelNamed(built, variant, entry, session_.programs().origin()), shape};
    checkBuiltKernel(session_.info(), variant, launch.shape,
                     kernelFigures(launch.kernel, session_.device(), session_.info(), launch.shape,
                                   entry, built.log));
    return launch;
  }

  // Which copies each repetition makes. The copies take the shape (an operand not stored packed
  // row-major) unless the kernel takes it itself, and always with padding, whose copies hand the
  // kernel packed NN matrices; they also pad where the GEMM's size differs. Packing copies A and B
  // itself; C in is copied only where beta != 0 reads it (bindLaunches).
  void chooseCopies() {
    const PaddedSizes g = gemmSize();
    const bool copies_shape = !shapes_in_kernel_ || padded_;
    const auto needed = [&](const MatrixStorage& stored, int rows, int cols) {
      return stored.rows != rows || stored.cols != cols ||
             (copies_shape && !stored.packedRowMajor());
    };
    copy_needed_[kAIn] = !packing_ && needed(rm_.a, g.m, g.k);
    copy_needed_[kBIn] = !packing_ && needed(rm_.b, g.k, g.n);
    copy_needed_[kCIn] = copy_needed_[kCOut] = needed(rm_.c, g.m, g.n);
  }

  // The stored matrix a copy reads, and the size it writes (packed, so its ld is its cols).
  MatrixStorage copySource(Copy c) const {
    const PaddedSizes g = gemmSize();
    switch (c) {
      case kAIn:
        return rm_.a;
      case kBIn:
        return rm_.b;
      case kCIn:
        return rm_.c;
      case kCOut:
        break;
    }
    return {g.m, g.n, g.n, false};
  }
  std::pair<int, int> copySize(Copy c) const {
    const PaddedSizes g = gemmSize();
    switch (c) {
      case kAIn:
        return {g.m, g.k};
      case kBIn:
        return {g.k, g.n};
      case kCIn:
        return {g.m, g.n};
      case kCOut:
        break;
    }
    return {rm_.m, rm_.n};
  }
  // copy_matrix's launch: along the destination's rows, or down its columns where the source is
  // stored transposed (so that the reads coalesce).
  LaunchShape copyShape(const Variant& variant, Copy c) const {
    const auto [rows, cols] = copySize(c);
    return copySource(c).transposed ? variant.pad_shape(cols, rows) : variant.pad_shape(rows, cols);
  }

  // Sets the kernels' arguments (allocating scratch matrices at the first call) and returns one
  // repetition's launches in order: helper kernels before the GEMM, C's copy back after it.
  std::vector<Launch> bindLaunches() {
    try {
      allocateCopies();
      if (packing_) allocatePacked();
      const PaddedSizes size = gemmSize();
      gemm_.kernel.setArg(0, size.m);
      gemm_.kernel.setArg(1, size.n);
      gemm_.kernel.setArg(2, size.k);
      // The scalars in the kernel's REAL (kernels.cl: float, or double with FP64=1).
      if (problem_.precision == Precision::kFp64) {
        gemm_.kernel.setArg(3, problem_.alpha);
        gemm_.kernel.setArg(4, problem_.beta);
      } else {
        gemm_.kernel.setArg(3, float(problem_.alpha));
        gemm_.kernel.setArg(4, float(problem_.beta));
      }
      gemm_.kernel.setArg(5, a_packed_.allocated() ? a_packed_.view()
                             : a_copy_.allocated() ? a_copy_.view()
                                                   : kernelA());
      gemm_.kernel.setArg(6, b_packed_.allocated() ? b_packed_.view()
                             : transpose_          ? transposedB()
                                                   : gemmB());
      gemm_.kernel.setArg(7, c_copy_.allocated() ? c_copy_.view() : c());
      if (shapes_in_kernel_) {
        // Copies are packed: a matrix the kernel reads as stored keeps its leading dimension.
        gemm_.kernel.setArg(8, a_copy_.allocated() ? size.k : rm_.a.ld);
        gemm_.kernel.setArg(9, b_copy_.allocated() ? size.n : rm_.b.ld);
        gemm_.kernel.setArg(10, c_copy_.allocated() ? size.n : rm_.c.ld);
      }
    } catch (const cl::Error& e) {
      rethrowClError(e);
    }
    std::vector<Launch> launches;
    // The copies that are needed: A and B in (before transpose_b, which reads B's copy), C in
    // where it is read, and C out.
    if (a_copy_.allocated()) launches.push_back(copies_[kAIn]);
    if (b_copy_.allocated()) launches.push_back(copies_[kBIn]);
    if (c_copy_.allocated() && problem_.beta != 0.0) launches.push_back(copies_[kCIn]);
    if (transpose_) launches.push_back(*transpose_);
    for (const Launch& pack : packs_) launches.push_back(pack);
    launches.push_back(gemm_);
    if (c_copy_.allocated()) launches.push_back(copies_[kCOut]);
    return launches;
  }

  // The scratch buffer for B transposed, allocated at the first run (after A, B and C, so a bad
  // define never waits for it) and filled by the helper kernel in every repetition from B (its
  // packed copy where B is stored otherwise).
  cl::Buffer& transposedB() {
    if (!bt_.allocated()) {
      bt_ = session_.scratch(std::size_t(rm_.k) * std::size_t(rm_.n), "B transposed");
      transpose_->kernel.setArg(0, rm_.k);
      transpose_->kernel.setArg(1, rm_.n);
      transpose_->kernel.setArg(2, gemmB());
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
  // arguments (operand, source rows, source cols, source ld, source transposed, source, rows, K,
  // destination): it reads A and B as stored, so no copy goes before it.
  void allocatePacked() {
    if (a_packed_.allocated()) return;
    const PaddedSizes size = gemmSize();
    const auto planes = [&](int operand) {
      return std::size_t(pack_planes_[std::size_t(operand)]);
    };
    a_packed_ = session_.scratch(planes(0) * std::size_t(size.m) * std::size_t(size.k), "A packed");
    b_packed_ = session_.scratch(planes(1) * std::size_t(size.n) * std::size_t(size.k), "B packed");
    const auto args = [&](int operand, const MatrixStorage& src_storage, const cl::Buffer& src,
                          int rows, const cl::Buffer& dst) {
      cl::Kernel& kernel = packs_[std::size_t(operand)].kernel;
      kernel.setArg(0, operand);
      kernel.setArg(1, src_storage.rows);
      kernel.setArg(2, src_storage.cols);
      kernel.setArg(3, src_storage.ld);
      kernel.setArg(4, src_storage.transposed ? 1 : 0);
      kernel.setArg(5, src);
      kernel.setArg(6, rows);
      kernel.setArg(7, size.k);
      kernel.setArg(8, dst);
    };
    args(0, rm_.a, kernelA(), size.m, a_packed_.view());
    args(1, rm_.b, kernelB(), size.n, b_packed_.view());
  }

  // The operands: the caller's (ClOperands) where given, else the session's.
  cl::Buffer a() { return operands_ ? operands_->a : session_.a(); }
  cl::Buffer b() { return operands_ ? operands_->b : session_.b(); }
  cl::Buffer c() { return operands_ ? operands_->c : session_.c(); }
  // The kernel's A and B as stored: for a column-major problem, the caller's B and A
  // (rowMajorGemm).
  cl::Buffer kernelA() { return rm_.swapped ? b() : a(); }
  cl::Buffer kernelB() { return rm_.swapped ? a() : b(); }
  // The B the GEMM (or transpose_b) reads: the copy where one is made.
  cl::Buffer gemmB() { return b_copy_.allocated() ? b_copy_.view() : kernelB(); }

  // The problem the GEMM kernel runs: the padded one, or the user's in the row-major view.
  PaddedSizes gemmSize() const { return padded_ ? *padded_ : PaddedSizes{rm_.m, rm_.n, rm_.k}; }

  // The scratch matrices of the needed copies, allocated at the first run like B transposed, and
  // the copies' arguments (source rows, source cols, source ld, source transposed, source, rows,
  // cols, ld, destination).
  void allocateCopies() {
    if (copies_allocated_) return;
    copies_allocated_ = true;
    const auto args = [](Launch& copy, const MatrixStorage& src_storage, const cl::Buffer& src,
                         int rows, int cols, int ld, const cl::Buffer& dst) {
      copy.kernel.setArg(0, src_storage.rows);
      copy.kernel.setArg(1, src_storage.cols);
      copy.kernel.setArg(2, src_storage.ld);
      copy.kernel.setArg(3, src_storage.transposed ? 1 : 0);
      copy.kernel.setArg(4, src);
      copy.kernel.setArg(5, rows);
      copy.kernel.setArg(6, cols);
      copy.kernel.setArg(7, ld);
      copy.kernel.setArg(8, dst);
    };
    const auto scratch = [&](Copy c, const char* matrix) {
      const auto [rows, cols] = copySize(c);
      const bool pads = copySource(c).rows != rows || copySource(c).cols != cols;
      return session_.scratch(std::size_t(rows) * std::size_t(cols),
                              std::string(matrix) + (pads ? " padded" : " copy"));
    };
    // Each scratch matrix is packed: its ld is its width.
    const PaddedSizes g = gemmSize();
    if (copy_needed_[kAIn]) {
      a_copy_ = scratch(kAIn, "A");
      args(copies_[kAIn], rm_.a, kernelA(), g.m, g.k, g.k, a_copy_.view());
    }
    if (copy_needed_[kBIn]) {
      b_copy_ = scratch(kBIn, "B");
      args(copies_[kBIn], rm_.b, kernelB(), g.k, g.n, g.n, b_copy_.view());
    }
    if (copy_needed_[kCIn]) {
      c_copy_ = scratch(kCIn, "C");
      args(copies_[kCIn], rm_.c, c(), g.m, g.n, g.n, c_copy_.view());
      args(copies_[kCOut], copySource(kCOut), c_copy_.view(), rm_.m, rm_.n, rm_.c.ld, c());
    }
  }

  ClSession& session_;
  const Problem& problem_;
  // The problem as the kernel sees it: row-major, operands maybe swapped and transposed.
  RowMajorGemm rm_;
  bool shapes_in_kernel_ = false;
  Launch gemm_;
  std::optional<Launch> transpose_;
  GuardedClBuffer bt_;
  // Packing: the helper's launches for A and B, and the packed operands.
  bool packing_ = false;
  std::vector<Launch> packs_;
  std::array<int, 2> pack_planes_ = {1, 1};
  GuardedClBuffer a_packed_, b_packed_;
  std::optional<ClOperands> operands_;
  // Copies: the padded problem, which copies are made (A, B and C into packed, padded scratch
  // matrices, C back), their launches and the scratch matrices.
  std::optional<PaddedSizes> padded_;
  std::array<bool, 4> copy_needed_{};
  std::array<Launch, 4> copies_;
  bool copies_allocated_ = false;
  GuardedClBuffer a_copy_, b_copy_, c_copy_;
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
  // The element type: every kernel, and its helpers, in double (kernels.cl's REAL).
  if (problem.precision == Precision::kFp64) {
    options += " -D FP64=1";
    if (derived) derived->push_back({"FP64", "1", "problem"});
  }
  if (variant.problem_defines) {
    for (const auto& d : variant.problem_defines(defines, problem.rowMajor())) {
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
