// One OpenCL kernel of kernels.cl planned for one problem shape on one device: its parameters
// checked against the device, its program built (through the program cache), the helper kernels
// the shape needs chosen (copies that take the shape or pad to tiles, B transposed, operand
// packing) and, at each call, their arguments bound to the caller's buffers. The command line's
// runner times these launches (cl_kernel_runner.cpp); the library enqueues them on its caller's
// queue (api/): one code path from the defines to the enqueued kernels.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cuda/tensor_map.hpp"
#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "opencl/program.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/precision.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "report/kernel_figures.hpp"
#include "report/line_schedule.hpp"
#include "run/launch.hpp"

namespace clgemm {

// Where a plan builds and launches: a device, its limits and the program cache of its context.
struct PlanTarget {
  const DeviceInfo& info;
  const cl::Device& device;
  ProgramCache& programs;
};

// A scratch matrix of `count` elements of the problem's precision (`name` for messages, e.g.
// "A padded"), all bits zero where `zeroed` asks: the command line's are between canaries, the
// library's plain buffers.
using ScratchAllocator =
    std::function<cl::Buffer(std::size_t count, const std::string& name, bool zeroed)>;

// The caller's A, B and C, as the problem stores them (MatrixStorage, offsets included).
struct PlanOperands {
  cl::Buffer a, b, c;
};

// The compiler options `variant` builds with for this problem: its defines, those derived from
// the problem (which go to `derived` where given), FP64, the register report, `extra_options`.
std::string kernelBuildOptions(const Variant& variant, const ResolvedDefines& defines,
                               Precision precision, const RowMajorGemm& rm,
                               const DeviceInfo& device, const std::string& extra_options,
                               std::vector<ResolvedDefine>* derived);

class KernelPlan {
 public:
  // Checks the variant's constraints and every launch against the device before building (usage
  // errors naming the defines), builds the program (a failed build is a usage error with the
  // compiler's log, which also goes to `log` where given) and checks the built kernels.
  KernelPlan(const Variant& variant, const ResolvedDefines& defines, const PlanTarget& target,
             Precision precision, const RowMajorGemm& rm, const std::string& extra_options,
             std::ostream* log);

  // Sets every kernel's arguments for these operands and scalars, allocating the scratch matrices
  // through `scratch` at the first call, and returns one GEMM's launches in order: copies and
  // helpers, the GEMM, C's copy back. C is copied in only where beta != 0 reads it.
  std::vector<Launch> bind(const PlanOperands& operands, double alpha, double beta,
                           const ScratchAllocator& scratch);

  const KernelFigures& figures() const { return figures_; }
  // Whether the plan splits its last round along K (Variant::wave_split).
  bool splitsLastRound() const { return split_.has_value(); }
  const std::vector<ResolvedDefine>& derived() const { return derived_; }
  // What the plan decided, as space-separated key=value words: the GEMM's work-groups and the
  // device's places, padding, copies, the split, the edges.
  std::string summary() const;

 private:
  // The plan the public constructor moves from (kernel_plan.cpp says which).
  static KernelPlan planned(const Variant& variant, const ResolvedDefines& defines,
                            const PlanTarget& target, Precision precision, const RowMajorGemm& rm,
                            const std::string& extra_options, std::ostream* log);
  // The plan for these very defines.
  struct Chosen {};
  KernelPlan(Chosen, const Variant& variant, const ResolvedDefines& defines,
             const PlanTarget& target, Precision precision, const RowMajorGemm& rm,
             const std::string& extra_options, std::ostream* log);

  // The copies (copy_matrix): A and B into packed (and padded) scratch matrices, C in (where beta
  // != 0) and C back into its stored lines.
  enum Copy { kAIn, kBIn, kCIn, kCOut };

  Launch helperLaunch(const BuiltProgram& built, const Variant& variant, const std::string& entry,
                      const LaunchShape& shape);
  void chooseCopies();
  MatrixStorage copySource(Copy c) const;
  std::pair<int, int> copySize(Copy c) const;
  LaunchShape copyShape(const Variant& variant, Copy c) const;
  bool pairsCopies(const Variant& variant) const;
  LaunchShape copyPairShape(const Variant& variant) const;
  LaunchShape packShape(const Variant& variant, int operand) const;
  LaunchShape lineScaleShape() const;
  void moveEdgesBack(const Variant& variant, const ResolvedDefines& defines,
                     const PlanTarget& target, const std::string& extra_options, std::ostream* log);
  void chooseWaveSplit(const Variant& variant, const ResolvedDefines& defines,
                       const PlanTarget& target, std::ostream* log);
  void chooseStripsInGemm(const Variant& variant, const ResolvedDefines& defines,
                          const PlanTarget& target, std::ostream* log);
  void holdPlainOccupancy(const Variant& variant, const ResolvedDefines& defines,
                          const PlanTarget& target, const std::string& extra_options,
                          std::ostream* log);
  long long gemmGroups() const;
  std::vector<LineRun> lineRuns(long long line) const;
  long long places() const;
  long long placesOf(const KernelFigures& figures) const;
  // A build of the GEMM (its grid, or a line of work-groups), and its figures.
  struct GemmBuild {
    Launch launch;
    KernelFigures figures;
  };
  GemmBuild buildGemm(const Variant& variant, const PlanTarget& target, const std::string& options,
                      const LaunchShape& shape, std::ostream* log);
  std::optional<GemmBuild> buildLine(const Variant& variant, const PlanTarget& target,
                                     const std::string& options, long long groups,
                                     std::ostream* log);
  bool rebuildAsLine(const Variant& variant, const PlanTarget& target,
                     const std::vector<ResolvedDefine>& extra, long long groups, std::ostream* log,
                     const std::function<bool(const KernelFigures&)>& refuse = {});
  bool leavesPartsAlone(const KernelFigures& figures) const;
  void bindStrips(const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c, double alpha,
                  double beta);
  void allocateScratch(const ScratchAllocator& scratch);
  void bindCopies(const PlanOperands& operands);
  void bindPacks(const PlanOperands& operands);
  void bindLineScales(const PlanOperands& operands);
  // The problem the GEMM kernel runs: the padded one, or the caller's in the row-major view.
  PaddedSizes gemmSize() const { return padded_ ? *padded_ : PaddedSizes{rm_.m, rm_.n, rm_.k}; }
  // The block of it the GEMM's grid covers: all of it, or what edge strips leave (a dimension
  // they leave whole keeps the GEMM's size, padded or not).
  PaddedSizes tiledSize() const {
    const PaddedSizes g = gemmSize();
    if (!strips_) return g;
    return {strips_->m0 < rm_.m ? strips_->m0 : g.m, strips_->n0 < rm_.n ? strips_->n0 : g.n, g.k};
  }
  // The kernel's A and B as stored: for a column-major problem, the caller's B and A.
  const cl::Buffer& kernelA(const PlanOperands& o) const { return rm_.swapped ? o.b : o.a; }
  const cl::Buffer& kernelB(const PlanOperands& o) const { return rm_.swapped ? o.a : o.b; }

  const DeviceInfo& info_;
  const cl::Device& device_;
  std::string origin_;  // the kernels' source, for messages
  Precision precision_;
  // The problem as the kernel sees it: row-major, operands maybe swapped and transposed.
  RowMajorGemm rm_;
  bool shapes_in_kernel_ = false;
  Launch gemm_;
  std::optional<Launch> transpose_;
  // Packing: the helper's launches for A and B (none for an operand of 0 planes).
  bool packing_ = false;
  std::array<std::optional<Launch>, 2> packs_;
  std::array<int, 2> pack_planes_ = {1, 1};
  bool packs(int operand) const { return packing_ && pack_planes_[std::size_t(operand)] > 0; }
  // Whether the packing helper is launched for the operand: B's is not where the GEMM packs it.
  bool launchesPack(int operand) const {
    return packs(operand) && !(operand == 1 && gemm_packs_b_);
  }
  // The ints of the GEMM's own packing bookkeeping (Variant::gemm_packs_b); 0: it packs nothing.
  std::size_t gemm_packs_b_ = 0;
  // The lines' powers of two (Variant::line_scale_entry): the helper's launch, A's and B's.
  std::optional<Launch> line_scale_;
  // A's tensor map (variant.tensor_map_entry): the host's encoding and the helper that writes it,
  // with A's address, into a_map_ before each GEMM.
  std::optional<Launch> tensor_map_;
  std::pair<int, int> a_box_;  // the rows and columns of A each tensor copy moves
  TensorMapBytes a_map_bytes_{};
  // The last round's split along K (Variant::wave_split), where the GEMM is built with one, and
  // where it is apart the launch of its whole tiles before the GEMM's (the plain build as a line).
  std::optional<WaveSplit> split_;
  std::optional<Launch> whole_;
  // The last rows and columns left to a helper (Variant::edge_strips), and its launch: rows
  // m0 ... M - 1 (every column), then columns n0 ... N - 1 of the rows above.
  std::optional<EdgeStrips> strips_;
  std::optional<Launch> strip_;
  // Or the strips in the GEMM's own launch (Variant::strips_in_gemm): work-groups of their own
  // last in its line (> 0), or a share in every work-group (0).
  std::optional<int> strips_in_gemm_;
  bool edges_moved_back_ = false;  // edge strips given up for blocks moved back (moveEdgesBack)
  std::string gemm_options_;  // the GEMM's build options, with the split's and the strips' defines
  // Copies: the padded problem, which copies are made, their launches.
  std::optional<PaddedSizes> padded_;
  bool a_k_major_ = false;   // the GEMM reads A^T, K x M (Variant::a_k_major)
  bool c_in_place_ = false;  // padded, the GEMM writes the caller's C (Variant::c_in_place)
  int b_lines_ = 0;          // B's copy this many columns wide (Variant::b_lines); 0: N
  std::array<bool, 4> copy_needed_{};
  std::array<Launch, 4> copies_;     // each copy's own launch (A's and B's not where paired)
  std::optional<Launch> copy_pair_;  // A's and B's copies in one launch (pairsCopies)
  // The scratch matrices, allocated at the first bind: B transposed, the copies, the packed
  // operands (null where not needed).
  bool allocated_ = false;
  cl::Buffer bt_, a_copy_, b_copy_, c_copy_, a_packed_, b_packed_, a_map_, pack_state_;
  cl::Buffer a_scales_, b_scales_;        // line_scale's powers of A's rows and B's columns
  cl::Buffer split_sums_, split_counts_;  // the split's slots and its per-tile counts
  KernelFigures figures_;
  std::vector<ResolvedDefine> derived_;
};

}  // namespace clgemm
