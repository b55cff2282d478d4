#include "run/kernel_plan.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

#include "cuda/tensor_map.hpp"
#include "opencl/cl_check.hpp"
#include "report/occupancy.hpp"
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

bool allocated(const cl::Buffer& b) { return b() != nullptr; }

// The program built with `options` (through the cache), its build log to `log` where given.
const BuiltProgram& buildLogged(const PlanTarget& target, const Variant& variant,
                                const std::string& options, std::ostream* log) {
  const BuiltProgram& built = target.programs.get(options);
  if (log)
    *log << "clgemm: build log of " << variant.name << " (" << options << "):\n"
         << built.log << "\n";
  return built;
}

}  // namespace

std::string kernelBuildOptions(const Variant& variant, const ResolvedDefines& defines,
                               Precision precision, const RowMajorGemm& rm,
                               const DeviceInfo& device, const std::string& extra_options,
                               std::vector<ResolvedDefine>* derived) {
  // Only this variant's section of kernels.cl is compiled (see the file's header).
  std::string options =
      "-D CLGEMM_ONE_KERNEL -D KERNEL_" + variant.entry + " " + defines.compilerOptions();
  // The element type: every kernel, and its helpers, in double (kernels.cl's REAL).
  if (precision == Precision::kFp64) {
    options += " -D FP64=1";
    if (derived) derived->push_back({"FP64", "1", "problem"});
  }
  if (variant.problem_defines) {
    for (const auto& d : variant.problem_defines(defines, rm)) {
      options += " -D " + d.name + "=" + d.value;
      if (derived) derived->push_back(d);
    }
  }
  const std::string report = registerReportOption(device);
  if (!report.empty()) options += " " + report;
  if (!extra_options.empty()) options += " " + extra_options;
  return options;
}

KernelPlan::KernelPlan(const Variant& variant, const ResolvedDefines& defines,
                       const PlanTarget& target, Precision precision, const RowMajorGemm& rm,
                       const std::string& extra_options, std::ostream* log)
    : KernelPlan(planned(variant, defines, target, precision, rm, extra_options, log)) {}

// The plan for `defines`, or, where the variant pads this problem only on the condition that the
// plan without that padding leaves its last round unsplit (Variant::padding_unless_split), that
// plan where it splits (the variant's rule says why: simt-async's simtAsyncWithoutPaddingToPeel).
// A problem whose plan without the padding is refused keeps it. The plan made first is returned
// where it is kept, not made again; its log goes to `log` only then.
KernelPlan KernelPlan::planned(const Variant& variant, const ResolvedDefines& defines,
                               const PlanTarget& target, Precision precision,
                               const RowMajorGemm& rm, const std::string& extra_options,
                               std::ostream* log) {
  const std::optional<ResolvedDefines> without =
      variant.padding_unless_split ? variant.padding_unless_split(defines, rm) : std::nullopt;
  if (without) {
    std::ostringstream first_log;
    try {
      KernelPlan unpadded(Chosen{}, variant, *without, target, precision, rm, extra_options,
                          log ? &first_log : nullptr);
      if (unpadded.splitsLastRound()) {
        if (log) *log << first_log.str();
        return unpadded;
      }
    } catch (const UsageError&) {
    }
  }
  return KernelPlan(Chosen{}, variant, defines, target, precision, rm, extra_options, log);
}

KernelPlan::KernelPlan(Chosen, const Variant& variant, const ResolvedDefines& defines,
                       const PlanTarget& target, Precision precision, const RowMajorGemm& rm,
                       const std::string& extra_options, std::ostream* log)
    : info_(target.info),
      device_(target.device),
      origin_(target.programs.origin()),
      precision_(precision),
      rm_(rm),
      shapes_in_kernel_(variant.shapes_in_kernel) {
  if (const auto why = unsupportedOn(variant, info_)) throw UsageError(*why);
  checkConstraints(variant, defines);
  if (variant.padding) padded_ = variant.padding(defines, rm_.m, rm_.n, rm_.k);
  a_k_major_ = variant.a_k_major && variant.a_k_major(defines, rm_);
  c_in_place_ = padded_ && variant.c_in_place && variant.c_in_place(defines, rm_);
  if (!padded_ && variant.b_lines) b_lines_ = variant.b_lines(defines, rm_);
  packing_ = !variant.pack_entry.empty();
  if (packing_) pack_planes_ = variant.pack_planes;
  if (packing_ && variant.gemm_packs_b)
    gemm_packs_b_ = variant.gemm_packs_b(defines, gemmSize().n, gemmSize().k);
  // Only kernels that take shapes read offsets; the packing helper reads none.
  if (packing_ && (rm_.a.offset != 0 || rm_.b.offset != 0 || rm_.c.offset != 0))
    throw UsageError(variant.name + " takes no matrix offsets");
  chooseCopies();
  if (variant.edge_strips) strips_ = variant.edge_strips(defines, rm_);
  gemm_.shape = variant.shape(defines, tiledSize().m, tiledSize().n);
  // Local memory in the problem's element type (kernels.cl's REAL), before building.
  const std::size_t element_bytes = elementBytes(precision);
  checkVariantConfig(info_, variant, defines, gemm_.shape, element_bytes);
  LaunchShape transpose_shape;
  if (!variant.transpose_b_entry.empty()) {
    transpose_shape = variant.transpose_b_shape(defines, rm_.k, rm_.n);
    checkVariantConfig(info_, variant, defines, transpose_shape, element_bytes);
  }
  for (const Copy c : {kAIn, kBIn, kCIn, kCOut})
    if (copy_needed_[c])
      checkVariantConfig(info_, variant, defines, copyShape(variant, c), element_bytes);
  if (pairsCopies(variant))
    checkVariantConfig(info_, variant, defines, copyPairShape(variant), element_bytes);
  for (const int operand : {0, 1})
    if (launchesPack(operand))
      checkVariantConfig(info_, variant, defines, packShape(variant, operand), element_bytes);
  if (!variant.line_scale_entry.empty())
    checkVariantConfig(info_, variant, defines, lineScaleShape(), element_bytes);
  if (strips_) {
    // One launch for both strips: a group per work-group of 16 x 32 (kernels.cl's
    // gemm_edge_strip), the rows below m0 (every column), then the columns right of n0, of the
    // caller's C (not of its padding).
    const std::size_t count = std::size_t(strips_->groups(rm_.m, rm_.n));
    const LaunchShape shape{{count * 16, 32}, {16, 32}, "gemm_edge_strip's fixed 16 x 32"};
    checkVariantConfig(info_, variant, defines, shape, element_bytes);
    strip_ = Launch{{}, shape, true};
  }
  gemm_options_ =
      kernelBuildOptions(variant, defines, precision, rm_, info_, extra_options, &derived_);
  const BuiltProgram& built = buildLogged(target, variant, gemm_options_, log);
  gemm_.kernel = kernelNamed(built, variant, variant.entry, origin_);
  figures_ = kernelFigures(gemm_.kernel, device_, info_, gemm_.shape, variant.entry, built.log);
  checkBuiltKernel(info_, variant, gemm_.shape, figures_);
  if (strips_ && variant.edges_moved_back && variant.edges_moved_back(defines, rm_, places()))
    moveEdgesBack(variant, defines, target, extra_options, log);
  if (variant.wave_split) chooseWaveSplit(variant, defines, target, log);
  if (strip_ && variant.strips_in_gemm) chooseStripsInGemm(variant, defines, target, log);
  holdPlainOccupancy(variant, defines, target, extra_options, log);
  if (strip_) strip_ = helperLaunch(built, variant, variant.strip_entry, strip_->shape);
  if (!variant.transpose_b_entry.empty())
    transpose_ = helperLaunch(built, variant, variant.transpose_b_entry, transpose_shape);
  for (const int operand : {0, 1})
    if (launchesPack(operand))
      packs_[std::size_t(operand)] =
          helperLaunch(built, variant, variant.pack_entry, packShape(variant, operand));
  if (!variant.line_scale_entry.empty())
    line_scale_ = helperLaunch(built, variant, variant.line_scale_entry, lineScaleShape());
  if (!variant.tensor_map_entry.empty()) {
    a_box_ = variant.a_box(defines);
    tensor_map_ = helperLaunch(built, variant, variant.tensor_map_entry,
                               LaunchShape{{1, 1}, {1, 1}, "one work-item"});
  }
  // A's and B's copies in one launch where both are made (no launch of their own then).
  const bool paired = pairsCopies(variant);
  if (paired)
    copy_pair_ = helperLaunch(built, variant, variant.pad_pair_entry, copyPairShape(variant));
  for (const Copy c : {kAIn, kBIn, kCIn, kCOut})
    if (copy_needed_[c] && !(paired && (c == kAIn || c == kBIn)))
      copies_[c] = helperLaunch(built, variant, variant.pad_entry, copyShape(variant, c));
}

// The edge blocks moved back inside C (or padded) instead of the strips, where the variant finds
// that better for the places of the build before (Variant::edges_moved_back): no strips, and the
// GEMM over the whole (padded) problem, built again as with PEEL_MAX = 0, and C copied in and out
// where it is padded. Its derived defines (PEEL_M = PEEL_N = 0) say so in every report. Not where
// the variant, asked again with that build's places (ptxas may give it other registers), says no:
// more tiles on fewer places could take a round more.
void KernelPlan::moveEdgesBack(const Variant& variant, const ResolvedDefines& defines,
                               const PlanTarget& target, const std::string& extra_options,
                               std::ostream* log) {
  const ResolvedDefines whole = defines.withParam("PEEL_MAX", 0, "problem");
  const std::size_t element_bytes = elementBytes(precision_);
  const LaunchShape shape = variant.shape(whole, gemmSize().m, gemmSize().n);
  checkVariantConfig(info_, variant, whole, shape, element_bytes);
  std::vector<ResolvedDefine> derived;
  const std::string options =
      kernelBuildOptions(variant, whole, precision_, rm_, info_, extra_options, &derived);
  GemmBuild build = buildGemm(variant, target, options, shape, log);
  if (!variant.edges_moved_back(defines, rm_, placesOf(build.figures))) return;
  checkBuiltKernel(info_, variant, shape, build.figures);
  strips_.reset();
  strip_.reset();
  edges_moved_back_ = true;
  // A padded GEMM writes C in its lines only where the strips took the padded rows and columns.
  c_in_place_ = padded_ && variant.c_in_place && variant.c_in_place(whole, rm_);
  chooseCopies();
  for (const Copy c : {kCIn, kCOut})
    if (copy_needed_[c])
      checkVariantConfig(info_, variant, whole, copyShape(variant, c), element_bytes);
  gemm_ = std::move(build.launch);
  figures_ = build.figures;
  gemm_options_ = options;
  derived_ = derived;
}

// The split of the last round of tiles (Variant::wave_split) for the places the built kernel has
// (places()), its build taken by rebuildAsLine. Where that holds fewer work-groups per compute
// unit than the plain one, the build that stores the parts' sums float by float (SK_FLOAT_SUMS,
// fewer registers: kernels.cl) is tried; where that holds fewer too, the split is dropped and the
// plain build kept. A split `apart` launches its whole tiles first, in the plain build as a line
// (WHOLE_LINE), and the split build's line holds only the parts (SK_APART); where that line of
// whole tiles would hold fewer work-groups per unit, they stay in the split's launch.
void KernelPlan::chooseWaveSplit(const Variant& variant, const ResolvedDefines& defines,
                                 const PlanTarget& target, std::ostream* log) {
  const PaddedSizes g = tiledSize();
  std::optional<WaveSplit> split =
      variant.wave_split(defines, rm_, g.m, g.n, g.k, places(), info_.compute_units);
  if (!split) return;
  std::optional<GemmBuild> whole;
  if (split->apart) {
    whole = buildLine(variant, target, gemm_options_ + " -D WHOLE_LINE=1", split->whole, log);
    split->apart = whole.has_value();
  }
  std::vector<ResolvedDefine> split_defines = {
      {"SPLIT", "1", "problem"},
      {"SK_WHOLE", std::to_string(split->whole), "problem"},
      {"SK_PARTS", std::to_string(split->parts), "problem"}};
  if (split->apart) split_defines.push_back({"SK_APART", "1", "problem"});
  bool taken = rebuildAsLine(variant, target, split_defines, split->groups(), log);
  if (!taken) {
    split_defines.push_back({"SK_FLOAT_SUMS", "1", "problem"});
    taken = rebuildAsLine(variant, target, split_defines, split->groups(), log);
  }
  if (!taken) return;
  split_ = split;
  if (whole) whole_ = whole->launch;
}

// The edge strips in the GEMM's own launch (Variant::strips_in_gemm), where the variant takes
// them: the GEMM built again with STRIPS_IN_GEMM, launched as a line of the strips' own
// work-groups (if any), then the GEMM's (its grid's blocks, or its split's line), and no launch
// of strip_entry after it. As with the split, a build that holds fewer work-groups per compute
// unit than the one before is dropped, and the strips keep their launch; so is a split's build
// that holds more but leaves a part alone on its unit (leavesPartsAlone). One that holds more
// (ptxas gave 1668^3's fewer registers on the H100: four work-groups per SM, not three) has more
// places than the variant was told of: it is asked again, and a number it gives then sets the
// line (the build does not depend on it).
void KernelPlan::chooseStripsInGemm(const Variant& variant, const ResolvedDefines& defines,
                                    const PlanTarget& target, std::ostream* log) {
  const long long gemm_groups = gemmGroups();
  const int parts = split_ ? split_->parts : 1;
  const auto ask = [&] {
    return variant.strips_in_gemm(defines, *strips_, rm_.m, rm_.n, rm_.k, gemm_groups, places(),
                                  info_.compute_units, parts);
  };
  std::optional<int> own = ask();
  if (!own) return;
  const long long places_before = places();
  const auto parts_alone = [this](const KernelFigures& f) { return leavesPartsAlone(f); };
  if (!rebuildAsLine(variant, target, {{"STRIPS_IN_GEMM", "1", "problem"}}, gemm_groups + *own, log,
                     parts_alone))
    return;
  if (places() > places_before) {
    if (const std::optional<int> again = ask(); again && *again != *own) {
      own = again;
      gemm_.shape.global[0] = std::size_t(gemm_groups + *own) * gemm_.shape.local[0];
    }
  }
  strips_in_gemm_ = own;
  strip_.reset();
}

// The hold on occupancy (Variant::occupancy_hold): a build for edges, strips or a split that
// ptxas fitted into fewer registers, so that a compute unit holds one more of its work-groups than
// of the plain build's, built again with local memory that holds it to the plain build's count.
// Measured on the H200 (session 28, docs/performance.md): ptxas gave simt-async's 64 x 128 builds
// for edges or strips 116-128 registers and four work-groups per SM where the plain build takes
// 144-155 and three. Held to three by local memory (ptxas then gave them 139-152 registers),
// 1028^3 ran 9% faster, 1024 x 1028 x 1024 12%, 1668^3 8%, 1800^3 16%, 1025^3-1031^3 about 5%:
// there the line's work-groups all had a place in the fewer places too. Where the fewer places
// make the line end later, they cost more than the registers give (1537^3 and 1540^3, 1440 parts
// of tiles: three rounds at four per SM, four at three, 3-7% slower; 2113^3, 528 whole tiles in
// the first round at four per SM and 132 quarters after them, 22%), so the hold is only where
// they do not: also 1601^3-1605^3 (650 halves, two rounds either way; session 29: 4-10% faster)
// and 2305^3 (648 tiles, 3%), not where the strips' own work-groups asked again are fewer
// (2499^3).
void KernelPlan::holdPlainOccupancy(const Variant& variant, const ResolvedDefines& defines,
                                    const PlanTarget& target, const std::string& extra_options,
                                    std::ostream* log) {
  const auto& hold = variant.occupancy_hold;
  if (!hold || !figures_.occupancy || !info_.nv_cc_major || !info_.nv_cc_minor) return;
  const auto limits = nvidiaComputeUnitLimits(*info_.nv_cc_major, *info_.nv_cc_minor);
  if (!limits) return;
  // The line's work-groups, the strips' own left out (they are short, and wait for a place). The
  // hold must not make the line end later on the fewer places (lineMakespan); it leaves at least
  // one work-group fewer per unit, so where one fewer would, there is no hold, and no plain build
  // is needed to know it (a line of many rounds, as at 8192^3).
  const long long line = gemmGroups() - strips_in_gemm_.value_or(0);
  const std::vector<LineRun> runs = lineRuns(line);
  const long long units = info_.compute_units;
  const int squeezed = figures_.occupancy->groups_per_unit;
  const double ends = lineMakespan(runs, squeezed * units);
  const auto later = [&](int per_unit) {
    return lineMakespan(runs, per_unit * units) > ends + 1e-9;
  };
  if (squeezed < 2 || later(squeezed - 1)) return;
  const std::string plain_options =
      kernelBuildOptions(variant, defines, precision_, hold->plain_problem(defines, rm_), info_,
                         extra_options, nullptr);
  if (plain_options == gemm_options_) return;  // this build is the plain one
  const KernelFigures plain_figures =
      buildGemm(variant, target, plain_options, gemm_.shape, log).figures;
  if (!plain_figures.occupancy) return;
  const int groups = plain_figures.occupancy->groups_per_unit;
  if (groups < 1 || squeezed <= groups || later(groups)) return;
  const std::optional<int> floats =
      spareLocalFloatsToHold(*limits, figures_.local_bytes, groups,
                             hold->bytes_per_float(defines, elementBytes(precision_)), hold->step,
                             groupLocalMemLimit(info_));
  if (!floats || *floats == 0) return;
  const ResolvedDefine spare{hold->define, std::to_string(*floats), "problem"};
  const std::string options = gemm_options_ + " -D " + spare.name + "=" + spare.value;
  GemmBuild held = buildGemm(variant, target, options, gemm_.shape, log);
  const KernelFigures& figures = held.figures;
  // ptxas may take so many registers now that fewer still fit: then the build before stays.
  if (!figures.occupancy || figures.occupancy->groups_per_unit != groups) return;
  // The strips' own work-groups were counted for the places before (at 1800^3, 64 of them on the
  // places the tiles left took 0.358 ms against 0.269 with a group each): asked again for these.
  std::optional<int> own = strips_in_gemm_;
  if (own && variant.strips_in_gemm) {
    own = variant.strips_in_gemm(defines, *strips_, rm_.m, rm_.n, rm_.k, line, groups * units,
                                 units, split_ ? split_->parts : 1);
    if (!own) return;  // they would go to a launch after: not this build, which computes them
    // Fewer of them make each one's chain longer, and first in the line they hold places that the
    // tiles' rounds need: at 2499^3 (780 tiles, two rounds either way) 64 became 12 and the launch
    // took 0.877 ms against 0.705 (2497^3 +5%), as if the 12 tiles that had no place in the first
    // round waited for chains longer than a round. Fewer, but still hold->strips_own_kept or more,
    // keep the hold: at 2305^3 on the H100 (648 tiles of 64 x 128) the hold with 64 of them ran
    // 2% faster than no hold with 256 (session 45, docs/performance.md), where the hold's places
    // leave 144 idle.
    if (*own < std::min(*strips_in_gemm_, hold->strips_own_kept)) return;
  }
  checkBuiltKernel(info_, variant, gemm_.shape, figures);
  if (own && *own != *strips_in_gemm_) {
    strips_in_gemm_ = own;
    held.launch.shape.global[0] = std::size_t(line + *own) * held.launch.shape.local[0];
  }
  gemm_ = std::move(held.launch);
  figures_ = held.figures;
  gemm_options_ = options;
  derived_.push_back(spare);
}

// The GEMM launch's `line` of work-groups as runs of equal length: a split's whole tiles (unless
// they run apart, in a launch of their own) and its parts of tiles, else `line` tiles.
std::vector<LineRun> KernelPlan::lineRuns(long long line) const {
  if (!split_) return {{line, 1.0}};
  const long long parts = 1LL * split_->split_tiles * split_->parts;
  const long long whole = split_->apart ? 0 : split_->whole;
  return {{whole, 1.0}, {parts, 1.0 / split_->parts}};
}

// The work-groups of the GEMM's launch: its grid's blocks, or its line's.
long long KernelPlan::gemmGroups() const {
  const std::size_t local = gemm_.shape.local[0] * gemm_.shape.local[1];
  return (long long)(gemm_.shape.global[0] * gemm_.shape.global[1] / local);
}

// The work-groups the device runs at once, for the built GEMM: compute units x the work-groups
// one holds, where its registers are known (figures_.occupancy); 0: unknown.
long long KernelPlan::places() const { return placesOf(figures_); }

// The same for a build of `figures`.
long long KernelPlan::placesOf(const KernelFigures& figures) const {
  return figures.occupancy ? 1LL * info_.compute_units * figures.occupancy->groups_per_unit : 0;
}

// The GEMM built again with `extra` defines and launched as a line of `groups` work-groups (the
// kernel finds its tile from its group's index), where that build holds as many work-groups per
// compute unit as the one before: ptxas may give it more registers (145-156 for 124-144 at some
// tilings on the H100, where NVIDIA's OpenCL takes no register limit), and that `refuse` (if
// given) does not refuse. Whether it was taken.
bool KernelPlan::rebuildAsLine(const Variant& variant, const PlanTarget& target,
                               const std::vector<ResolvedDefine>& extra, long long groups,
                               std::ostream* log,
                               const std::function<bool(const KernelFigures&)>& refuse) {
  std::string options = gemm_options_;
  for (const auto& d : extra) options += " -D " + d.name + "=" + d.value;
  std::optional<GemmBuild> line = buildLine(variant, target, options, groups, log);
  if (!line || (refuse && refuse(line->figures))) return false;
  gemm_ = line->launch;
  figures_ = line->figures;
  gemm_options_ = options;
  derived_.insert(derived_.end(), extra.begin(), extra.end());
  return true;
}

// Whether a build of `figures` would run the split's launch (split_) on more places than the
// GEMM's build so far, and end it with a round of fewer work-groups than compute units: there some
// part runs alone on its unit, at well under the speed of one that shares it, after the rounds the
// split was counted for (the places it had, chooseWaveSplit). On the H200 (session 22,
// docs/performance.md), 1601 x 1600 x 1600's 2 parts of 325 tiles, counted for 396 places (153
// registers), ran at 0.252 ms in the strips' build of 126 registers, 528 places and a last round of
// 122 halves, against 0.208 with the strips' launch after it (1604^3 0.256 against 0.222). Where
// the last round filled every unit (1028^3, 1032^3, 1540^3 and 1537 x 1536 x 1536: 384 or 1440
// parts), the build of more places was 0.8-6.5% faster.
bool KernelPlan::leavesPartsAlone(const KernelFigures& figures) const {
  if (!split_ || !figures.occupancy || !figures_.occupancy) return false;
  const long long more = placesOf(figures);
  return more > places() && split_->endsWithOneAlonePerUnit(more, info_.compute_units);
}

// The GEMM built with `options` and launched as a line of `groups` work-groups, checked against
// the device; nothing where that build holds fewer work-groups per compute unit than the GEMM's
// build so far.
std::optional<KernelPlan::GemmBuild> KernelPlan::buildLine(const Variant& variant,
                                                           const PlanTarget& target,
                                                           const std::string& options,
                                                           long long groups, std::ostream* log) {
  LaunchShape shape = gemm_.shape;
  shape.global = {std::size_t(groups) * shape.local[0], shape.local[1]};
  GemmBuild line = buildGemm(variant, target, options, shape, log);
  if (line.figures.occupancy && figures_.occupancy &&
      line.figures.occupancy->groups_per_unit < figures_.occupancy->groups_per_unit)
    return std::nullopt;
  checkBuiltKernel(info_, variant, shape, line.figures);
  return line;
}

// The GEMM built with `options` (through the cache) for a launch of `shape`, and its figures; not
// checked against the device (the caller checks the build it keeps).
KernelPlan::GemmBuild KernelPlan::buildGemm(const Variant& variant, const PlanTarget& target,
                                            const std::string& options, const LaunchShape& shape,
                                            std::ostream* log) {
  const BuiltProgram& built = buildLogged(target, variant, options, log);
  GemmBuild build{Launch{kernelNamed(built, variant, variant.entry, origin_), shape, false}, {}};
  build.figures =
      kernelFigures(build.launch.kernel, device_, info_, shape, variant.entry, built.log);
  return build;
}

// A helper kernel of the built program, its launch checked against the device.
Launch KernelPlan::helperLaunch(const BuiltProgram& built, const Variant& variant,
                                const std::string& entry, const LaunchShape& shape) {
  Launch launch{kernelNamed(built, variant, entry, origin_), shape, true};
  checkBuiltKernel(info_, variant, launch.shape,
                   kernelFigures(launch.kernel, device_, info_, launch.shape, entry, built.log));
  return launch;
}

// Whether A's and B's copies go in one launch (Variant::pad_pair_entry): where both are made.
bool KernelPlan::pairsCopies(const Variant& variant) const {
  return copy_needed_[kAIn] && copy_needed_[kBIn] && !variant.pad_pair_entry.empty();
}

// The pair's launch: A's copy's work-groups, then B's, in one row along dimension 0 (kernels.cl's
// copy_matrix_pair reads each copy's grid back from its sizes, as pad_shape lays it out).
LaunchShape KernelPlan::copyPairShape(const Variant& variant) const {
  const LaunchShape a = copyShape(variant, kAIn), b = copyShape(variant, kBIn);
  const auto groups = [](const LaunchShape& s) {
    return s.global[0] / s.local[0] * (s.global[1] / s.local[1]);
  };
  return LaunchShape{{(groups(a) + groups(b)) * a.local[0], a.local[1]},
                     a.local,
                     "copy_matrix_pair: copy_matrix's work-groups for A's copy and B's"};
}

// Which copies each call makes. The copies take the shape (an operand not stored packed row-major,
// or at an offset) unless the kernel takes it itself, and always with padding, whose copies hand
// the kernel packed NN matrices; they also pad where the GEMM's size differs. Packing copies A and
// B itself; C in is copied only where beta != 0 reads it (bind). A padded GEMM that writes C in
// place (c_in_place_) needs no copy of C.
void KernelPlan::chooseCopies() {
  const PaddedSizes g = gemmSize();
  const bool copies_shape = !shapes_in_kernel_ || padded_;
  const auto needed = [&](const MatrixStorage& stored, int rows, int cols) {
    return stored.rows != rows || stored.cols != cols ||
           (copies_shape && (!stored.packedRowMajor() || stored.offset != 0));
  };
  // A as the GEMM reads it (copySource: for A^T its transposed view, so an A stored transposed
  // and packed needs no copy).
  const auto [a_rows, a_cols] = copySize(kAIn);
  copy_needed_[kAIn] = !packs(0) && needed(copySource(kAIn), a_rows, a_cols);
  copy_needed_[kBIn] = !packs(1) && (b_lines_ > 0 || needed(rm_.b, g.k, g.n));
  copy_needed_[kCIn] = copy_needed_[kCOut] = !c_in_place_ && needed(rm_.c, g.m, g.n);
}

// The stored matrix a copy reads, and the size it writes (packed, so its ld is its cols).
MatrixStorage KernelPlan::copySource(Copy c) const {
  const PaddedSizes g = gemmSize();
  switch (c) {
    case kAIn:
      // For A^T the copy reads A as its transpose: the same storage, seen the other way round.
      if (a_k_major_) return rm_.a.transposedView();
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

std::pair<int, int> KernelPlan::copySize(Copy c) const {
  const PaddedSizes g = gemmSize();
  switch (c) {
    case kAIn:
      if (a_k_major_) return {g.k, g.m};
      return {g.m, g.k};
    case kBIn:
      return {g.k, b_lines_ > 0 ? b_lines_ : g.n};
    case kCIn:
      return {g.m, g.n};
    case kCOut:
      break;
  }
  return {rm_.m, rm_.n};
}

// copy_matrix's launch: along the destination's rows, or down its columns where the source is
// stored transposed (so that the reads coalesce).
LaunchShape KernelPlan::copyShape(const Variant& variant, Copy c) const {
  const auto [rows, cols] = copySize(c);
  return copySource(c).transposed ? variant.pad_shape(cols, rows) : variant.pad_shape(rows, cols);
}

// The launch of the packing helper for operand 0 (A, M x K) or 1 (B transposed, N x K), at the
// GEMM's (padded) size.
LaunchShape KernelPlan::packShape(const Variant& variant, int operand) const {
  const PaddedSizes size = gemmSize();
  return variant.pack_shape(operand == 0 ? size.m : size.n, size.k);
}

// The launch of line_scale for A's M rows and B's N columns at the GEMM's (padded) size: a
// work-group of 32 x 8 per 8 lines of either (kernels.cl).
LaunchShape KernelPlan::lineScaleShape() const {
  const PaddedSizes size = gemmSize();
  const auto groups = [](int lines) { return (std::size_t(lines) + 7) / 8; };
  return LaunchShape{{32, (groups(size.m) + groups(size.n)) * 8},
                     {32, 8},
                     "line_scale's fixed 32 x 8, 8 lines each"};
}

// The scratch matrices, at the first bind (after A, B and C exist, so a bad define never waits
// for them): B transposed, the copies (each packed, its ld its width), the packed operands.
void KernelPlan::allocateScratch(const ScratchAllocator& scratch) {
  if (allocated_) return;
  const PaddedSizes g = gemmSize();
  const auto copy = [&](Copy c, const char* matrix) {
    const auto [rows, cols] = copySize(c);
    const bool pads = copySource(c).rows != rows || copySource(c).cols != cols;
    return scratch(std::size_t(rows) * std::size_t(cols),
                   std::string(matrix) + (pads ? " padded" : " copy"), false);
  };
  if (copy_needed_[kAIn]) a_copy_ = copy(kAIn, "A");
  if (copy_needed_[kBIn]) b_copy_ = copy(kBIn, "B");
  if (copy_needed_[kCIn]) c_copy_ = copy(kCIn, "C");
  if (transpose_) bt_ = scratch(std::size_t(rm_.k) * std::size_t(rm_.n), "B transposed", false);
  if (packing_) {
    const auto planes = [&](int operand) {
      return std::size_t(pack_planes_[std::size_t(operand)]);
    };
    if (packs(0))
      a_packed_ = scratch(planes(0) * std::size_t(g.m) * std::size_t(g.k), "A packed", false);
    if (packs(1))
      b_packed_ = scratch(planes(1) * std::size_t(g.n) * std::size_t(g.k), "B packed", false);
    // Ints, as many floats: packing variants are FP32 only.
    if (gemm_packs_b_) pack_state_ = scratch(gemm_packs_b_, "B's packing state", true);
  }
  if (line_scale_) {
    // Floats: the variants with line scales are FP32 only.
    a_scales_ = scratch(std::size_t(g.m), "A's line scales", false);
    b_scales_ = scratch(std::size_t(g.n), "B's line scales", false);
  }
  if (split_) {
    split_sums_ =
        scratch(std::size_t(split_->split_tiles) * std::size_t(split_->parts) * split_->slot_floats,
                "the split tiles' parts", false);
    // Ints, as many floats: simt-async is FP32 only.
    split_counts_ = scratch(std::size_t(split_->split_tiles), "the split tiles' counts", true);
  }
  if (tensor_map_) {
    // A as the GEMM reads it: the caller's, packed row-major, or its copy (chooseCopies). Encoded
    // here, at the first call, so that a driver that cannot (CudaError) fails the run, not the
    // plan.
    a_map_bytes_ = encodeSwizzledFloatTiles(info_, g.m, g.k, g.k, a_box_.first, a_box_.second);
    // 128 bytes, as many floats (this variant's element type) as a tensor map takes.
    a_map_ = scratch(sizeof(TensorMapBytes) / sizeof(float), "A's tensor map", false);
  }
  // Only once all is there: a call after a failed one tries again rather than run without it.
  allocated_ = true;
}

// The copies' arguments (source rows, cols, ld, transposed, buffer, offset; destination rows,
// cols, ld, buffer, offset).
// The pair's take A's copy's as its first 11 and B's as its next 11.
void KernelPlan::bindCopies(const PlanOperands& o) {
  constexpr cl_uint kCopyArgs = 11;
  const auto args = [](Launch& copy, const MatrixStorage& src_storage, const cl::Buffer& src,
                       int rows, int cols, int ld, const cl::Buffer& dst, int dst_offset,
                       cl_uint first = 0) {
    copy.kernel.setArg(first, src_storage.rows);
    copy.kernel.setArg(first + 1, src_storage.cols);
    copy.kernel.setArg(first + 2, src_storage.ld);
    copy.kernel.setArg(first + 3, src_storage.transposed ? 1 : 0);
    copy.kernel.setArg(first + 4, src);
    copy.kernel.setArg(first + 5, src_storage.offset);
    copy.kernel.setArg(first + 6, rows);
    copy.kernel.setArg(first + 7, cols);
    copy.kernel.setArg(first + 8, ld);
    copy.kernel.setArg(first + 9, dst);
    copy.kernel.setArg(first + 10, dst_offset);
  };
  const PaddedSizes g = gemmSize();
  if (allocated(a_copy_)) {
    const auto [rows, cols] = copySize(kAIn);  // M x K, or K x M for A^T (copySource)
    args(copy_pair_ ? *copy_pair_ : copies_[kAIn], copySource(kAIn), kernelA(o), rows, cols, cols,
         a_copy_, 0);
  }
  if (allocated(b_copy_)) {
    const auto [rows, cols] = copySize(kBIn);  // K x N, or wider lines (b_lines_)
    args(copy_pair_ ? *copy_pair_ : copies_[kBIn], rm_.b, kernelB(o), rows, cols, cols, b_copy_, 0,
         copy_pair_ ? kCopyArgs : 0);
  }
  if (allocated(c_copy_)) {
    args(copies_[kCIn], rm_.c, o.c, g.m, g.n, g.n, c_copy_, 0);
    args(copies_[kCOut], copySource(kCOut), c_copy_, rm_.m, rm_.n, rm_.c.ld, o.c, rm_.c.offset);
  }
}

// The edge strips' arguments: the caller's sizes, the scalars, A, B and C as the GEMM reads them
// (packed: the caller's or their copies, padded where the GEMM's problem is; A^T, K x M, where
// a_k_major_) with their leading dimensions, then the block the GEMM covers.
void KernelPlan::bindStrips(const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c,
                            double alpha, double beta) {
  if (!strip_) return;
  const PaddedSizes g = gemmSize();
  cl::Kernel& k = strip_->kernel;
  k.setArg(0, rm_.m);
  k.setArg(1, rm_.n);
  k.setArg(2, rm_.k);
  k.setArg(3, float(alpha));  // FP32 only (simt-async)
  k.setArg(4, float(beta));
  k.setArg(5, a);
  k.setArg(6, a_k_major_ ? g.m : g.k);
  k.setArg(7, b);
  k.setArg(8, copySize(kBIn).second);  // B's lines: its copy's, or the caller's packed B's
  k.setArg(9, c);
  // C's copy is packed; the caller's C, read in place, keeps its lines (packed where not padded).
  k.setArg(10, allocated(c_copy_) ? g.n : rm_.c.ld);
  k.setArg(11, strips_->m0);
  k.setArg(12, strips_->n0);
}

// The packing helper's arguments (operand, source rows, cols, ld, transposed, buffer; rows, K,
// destination): it reads A and B as stored, so no copy goes before it.
void KernelPlan::bindPacks(const PlanOperands& o) {
  const PaddedSizes size = gemmSize();
  const auto args = [&](int operand, const MatrixStorage& src_storage, const cl::Buffer& src,
                        int rows, const cl::Buffer& dst) {
    if (!launchesPack(operand)) return;
    cl::Kernel& kernel = packs_[std::size_t(operand)]->kernel;
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
  args(0, rm_.a, kernelA(o), size.m, a_packed_);
  args(1, rm_.b, kernelB(o), size.n, b_packed_);
}

// line_scale's arguments, A's then B's (source rows, cols, ld, transposed, buffer; lines,
// destination): each operand as the packing helper reads it. Packed B takes B's powers, the GEMM
// both.
void KernelPlan::bindLineScales(const PlanOperands& o) {
  const PaddedSizes size = gemmSize();
  cl::Kernel& kernel = line_scale_->kernel;
  const auto args = [&](cl_uint first, const MatrixStorage& src_storage, const cl::Buffer& src,
                        int lines, const cl::Buffer& dst) {
    kernel.setArg(first, src_storage.rows);
    kernel.setArg(first + 1, src_storage.cols);
    kernel.setArg(first + 2, src_storage.ld);
    kernel.setArg(first + 3, src_storage.transposed ? 1 : 0);
    kernel.setArg(first + 4, src);
    kernel.setArg(first + 5, lines);
    kernel.setArg(first + 6, dst);
  };
  args(0, rm_.a, kernelA(o), size.m, a_scales_);
  args(7, rm_.b, kernelB(o), size.n, b_scales_);
  if (launchesPack(1)) packs_[1]->kernel.setArg(9, b_scales_);
}

std::vector<Launch> KernelPlan::bind(const PlanOperands& o, double alpha, double beta,
                                     const ScratchAllocator& scratch) {
  try {
    allocateScratch(scratch);
    bindCopies(o);
    if (packing_) bindPacks(o);
    if (line_scale_) bindLineScales(o);
    // A, B and C as the GEMM (or transpose_b, or the edge strips) reads them where no packing
    // helper stands between: their copies where made.
    const cl::Buffer& gemm_a = allocated(a_copy_) ? a_copy_ : kernelA(o);
    const cl::Buffer& gemm_b = allocated(b_copy_) ? b_copy_ : kernelB(o);
    const cl::Buffer& gemm_c = allocated(c_copy_) ? c_copy_ : o.c;
    if (transpose_) {
      transpose_->kernel.setArg(0, rm_.k);
      transpose_->kernel.setArg(1, rm_.n);
      transpose_->kernel.setArg(2, gemm_b);
      transpose_->kernel.setArg(3, bt_);
    }
    const PaddedSizes size = gemmSize();
    cl::Kernel& k = gemm_.kernel;
    // The GEMM's sizes, scalars and operands; a split's whole tiles launched apart take the same.
    for (cl::Kernel* gemm : {&k, whole_ ? &whole_->kernel : nullptr}) {
      if (!gemm) continue;
      gemm->setArg(0, size.m);
      gemm->setArg(1, size.n);
      gemm->setArg(2, size.k);
      // The scalars in the kernel's REAL (kernels.cl: float, or double with FP64=1).
      if (precision_ == Precision::kFp64) {
        gemm->setArg(3, alpha);
        gemm->setArg(4, beta);
      } else {
        gemm->setArg(3, float(alpha));
        gemm->setArg(4, float(beta));
      }
      gemm->setArg(5, allocated(a_packed_) ? a_packed_ : gemm_a);
      gemm->setArg(6, allocated(b_packed_) ? b_packed_ : transpose_ ? bt_ : gemm_b);
      gemm->setArg(7, gemm_c);
    }
    if (tensor_map_) {
      tensor_map_->kernel.setArg(0, a_map_);
      tensor_map_->kernel.setArg(1, sizeof(a_map_bytes_), a_map_bytes_.data());
      tensor_map_->kernel.setArg(2, gemm_a);
      k.setArg(8, a_map_);
    }
    if (line_scale_) {
      k.setArg(9, a_scales_);
      k.setArg(10, b_scales_);
    }
    if (gemm_packs_b_) {
      // B as stored, as the packing helper would read it (bindPacks).
      k.setArg(9, kernelB(o));
      k.setArg(10, rm_.b.rows);
      k.setArg(11, rm_.b.cols);
      k.setArg(12, rm_.b.ld);
      k.setArg(13, rm_.b.transposed ? 1 : 0);
      k.setArg(14, pack_state_);
    }
    if (split_) {
      k.setArg(8, split_sums_);
      k.setArg(9, split_counts_);
    }
    if (strips_in_gemm_) {
      // The caller's sizes (the GEMM's may be padded) and the strips' own work-groups.
      const cl_uint first = split_ ? 10 : 8;
      k.setArg(first, rm_.m);
      k.setArg(first + 1, rm_.n);
      k.setArg(first + 2, rm_.k);
      k.setArg(first + 3, *strips_in_gemm_);
    }
    if (shapes_in_kernel_) {
      // Copies are packed and start at 0: a matrix the kernel reads as stored keeps its leading
      // dimension and offset.
      k.setArg(8, allocated(a_copy_) ? size.k : rm_.a.ld);
      k.setArg(9, allocated(b_copy_) ? size.n : rm_.b.ld);
      k.setArg(10, allocated(c_copy_) ? size.n : rm_.c.ld);
      k.setArg(11, allocated(a_copy_) ? 0 : rm_.a.offset);
      k.setArg(12, allocated(b_copy_) ? 0 : rm_.b.offset);
      k.setArg(13, allocated(c_copy_) ? 0 : rm_.c.offset);
    }
    bindStrips(gemm_a, gemm_b, gemm_c, alpha, beta);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  std::vector<Launch> launches;
  // The copies that are needed: A and B in (one launch where both are made; before transpose_b,
  // which reads B's copy), C in where it is read, and C out.
  if (copy_pair_) {
    launches.push_back(*copy_pair_);
  } else {
    if (allocated(a_copy_)) launches.push_back(copies_[kAIn]);
    if (allocated(b_copy_)) launches.push_back(copies_[kBIn]);
  }
  if (allocated(c_copy_) && beta != 0.0) launches.push_back(copies_[kCIn]);
  if (transpose_) launches.push_back(*transpose_);
  if (line_scale_) launches.push_back(*line_scale_);
  for (const auto& pack : packs_)
    if (pack) launches.push_back(*pack);
  if (tensor_map_) launches.push_back(*tensor_map_);
  if (whole_) launches.push_back(*whole_);
  launches.push_back(gemm_);
  if (strip_) launches.push_back(*strip_);
  if (allocated(c_copy_)) launches.push_back(copies_[kCOut]);
  return launches;
}

// What the plan decided, for the report's `plan` field: two runs (or two sizes) whose times differ
// can then be told apart by their plans, not only by their defines, which say that a split or
// strips were taken but not into how many parts, on how many places, or how many work-groups the
// strips own.
std::string KernelPlan::summary() const {
  std::ostringstream s;
  s << "gemm=" << gemmGroups();
  if (const long long p = places(); p > 0) s << " places=" << p;
  if (padded_) {
    s << " padded=" << padded_->m << "x" << padded_->n << "x" << padded_->k
      << (c_in_place_ ? " c=in-place" : " c=copied");
  }
  // A's and B's copies; "+" where they share one launch (copy_pair_).
  const bool a = copy_needed_[kAIn], b = copy_needed_[kBIn];
  if (a || b) s << " copies=";
  if (a) s << (a_k_major_ ? "A^T" : "A") << (b ? (copy_pair_ ? "+" : ",") : "");
  if (b) s << "B";
  if (b_lines_ > 0) s << " b_lines=" << b_lines_;
  if (split_) {
    s << " split=" << split_->whole << "+" << split_->split_tiles << "x" << split_->parts;
    if (whole_) s << ",apart";
  }
  if (edges_moved_back_) s << " edges=moved-back";
  if (strips_) {
    s << " strips=" << strips_->groups(rm_.m, rm_.n);
    if (!strips_in_gemm_)
      s << "@after";
    else if (*strips_in_gemm_ > 0)
      s << "@own:" << *strips_in_gemm_;
    else
      s << "@shares";
  }
  return s.str();
}

}  // namespace clgemm
