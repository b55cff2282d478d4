// The registry of GEMM variants: the OpenCL kernels, the CPU paths and the library baselines. Each
// entry says how it runs, its parameters with defaults and its constraints; an OpenCL entry also
// names its kernel in kernels.cl and how the NDRange follows from the parameters and M, N, K.
// Adding a kernel is adding one kernel to kernels.cl and one entry in its family's file
// (ladder.cpp, best.cpp, tensor_cores.cpp, cpu_paths.cpp, baselines.cpp; kernels.cpp lists them).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu/cpu_gemm.hpp"
#include "problem/gemm_shape.hpp"
#include "registry/defines.hpp"
#include "util/int_math.hpp"

namespace clgemm {

struct DeviceInfo;

// What a variant's multiply-adds compute in: reported beside every result, and it decides the
// error threshold the result is judged by (errorThresholdFor).
enum class Arithmetic {
  kFp32,   // FP32 multiply-adds
  kTf32,   // products of TF32-rounded operands (10 mantissa bits), FP32 sums
  k3xTf32  // three TF32 products per FP32 one (big*big + big*small + small*big), FP32 accuracy
};

// "fp32", "tf32", "3xtf32": the precision column of the reports.
std::string arithmeticName(Arithmetic arithmetic);

// The largest error ratio (verify.hpp) a result of this arithmetic may reach.
double errorThresholdFor(Arithmetic arithmetic);

// A variant's byte count that follows the kernel's element type (kernels.cl's REAL: 4 bytes in
// FP32, 8 in FP64, elementBytes(precision)): set from a callable that takes the element size as
// its last argument, so no family can forget it, and called with it. Called without it, it counts
// FP32 elements: the tensor cores, FP32 only, and the FP32 tests call it that way.
class LocalMemBytesFn {
 public:
  using Fn = std::function<std::size_t(const ResolvedDefines&, std::size_t element_bytes)>;
  LocalMemBytesFn() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, LocalMemBytesFn> &&
                                              std::is_constructible_v<Fn, F>>>
  LocalMemBytesFn(F fn) : fn_(std::move(fn)) {}  // NOLINT: assigned from lambdas
  std::size_t operator()(const ResolvedDefines& d,
                         std::size_t element_bytes = sizeof(float)) const {
    return fn_(d, element_bytes);
  }
  explicit operator bool() const { return bool(fn_); }

 private:
  Fn fn_;
};

class GlobalBytesFn {
 public:
  using Fn =
      std::function<double(const ResolvedDefines&, int m, int n, int k, std::size_t element_bytes)>;
  GlobalBytesFn() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, GlobalBytesFn> &&
                                              std::is_constructible_v<Fn, F>>>
  GlobalBytesFn(F fn) : fn_(std::move(fn)) {}  // NOLINT: assigned from lambdas
  double operator()(const ResolvedDefines& d, int m, int n, int k,
                    std::size_t element_bytes = sizeof(float)) const {
    return fn_(d, m, n, k, element_bytes);
  }
  explicit operator bool() const { return bool(fn_); }

 private:
  Fn fn_;
};

struct Param {
  std::string name;
  int default_value;
  std::string help;
  // The values `clgemm tune` tries, smallest first; the variant's constraints and the device's
  // limits prune their combinations. Empty: the tuner leaves the parameter at its value.
  std::vector<int> candidates = {};
  // A rule the host applies across problem sizes (a size threshold, how edges or a last round are
  // run), which the kernel's code never reads. One tuned size cannot judge it: at a tile multiple
  // every value runs the same launches, so a search picked one by noise, and the entry then
  // applied it to the odd sizes around it. `clgemm tune` holds it at the value a run would use
  // unless --space or -D names it; the candidates are the values worth a sweep over sizes.
  bool size_rule = false;
};

struct LaunchShape {
  std::array<std::size_t, 2> global{};  // dimension 0 runs along N (columns), 1 along M (rows)
  std::array<std::size_t, 2> local{};
  std::string local_from;  // the defines the work-group shape follows from, for error messages
};

enum class Backend {
  kOpenCl,    // a kernel from kernels.cl, timed with profiling events
  kCpu,       // one of clgemm's OpenMP paths, timed with a host clock
  kClblast,   // CLBlast's SGEMM on the same OpenCL queue, host clock around call and clFinish
  kOpenblas,  // OpenBLAS cblas_sgemm on the host, host clock
  kCublas     // cuBLAS SGEMM on the OpenCL device's NVIDIA GPU (loaded at run time), CUDA events
};

// The padded problem a variant runs in place of the user's: A is m x k, B k x n, C m x n.
struct PaddedSizes {
  int m, n, k;
};

// How a GEMM's last, partly filled round of work-groups is split (Variant::wave_split): the
// first `whole` work-groups compute whole tiles; the `split_tiles` tiles after them are each
// split along K into `parts` ranges of K-steps, a work-group each, whose sums meet in a scratch
// slot of `slot_floats` per part. `apart`: the whole tiles in a launch of their own before the
// split ones, in the plain build.
struct WaveSplit {
  int whole = 0;
  int split_tiles = 0;
  int parts = 1;
  std::size_t slot_floats = 0;
  bool apart = false;
  bool operator==(const WaveSplit& o) const {
    return whole == o.whole && split_tiles == o.split_tiles && parts == o.parts &&
           slot_floats == o.slot_floats && apart == o.apart;
  }
  // The work-groups of the split's launch: the parts', after the whole tiles' unless apart.
  int groups() const { return (apart ? 0 : whole) + split_tiles * parts; }
  // Whether that launch on `places` (of `units` compute units) ends in a round of fewer
  // work-groups than units: one runs alone on its unit there, at well under the speed of one that
  // shares it (KernelPlan: a build of more places than the split was counted for).
  bool endsWithOneAlonePerUnit(long long places, long long units) const {
    if (places <= 0 || units <= 0) return false;
    const long long last_round = groups() % places;
    return last_round > 0 && last_round < units;
  }
};

// The block of C a GEMM's tiles cover whole (Variant::edge_strips), where the rows from m0 on and
// the columns from n0 on, each fewer than a tile, are left to a helper kernel.
struct EdgeStrips {
  int m0 = 0, n0 = 0;
  bool operator==(const EdgeStrips& o) const { return m0 == o.m0 && n0 == o.n0; }
  // The groups the helper (kernels.cl's es_groups) takes the strips of an m x n C in: 16 lines
  // across a strip (columns of the rows below m0, rows of the columns right of n0) by up to 8 of
  // its rows or columns.
  long long groups(int m, int n) const {
    return ceilDiv(n, 16) * ceilDiv(m - m0, 8) + ceilDiv(m0, 16) * ceilDiv(n - n0, 8);
  }
  // The deeper strip's rows or columns, of an m x n C.
  int depth(int m, int n) const { return std::max(m - m0, n - n0); }
};

// How a variant's build is held to the work-groups per compute unit of its plain build
// (Variant::occupancy_hold): ptxas may give a build for edges, strips or a split fewer registers
// than the plain one, to fit one more work-group per compute unit, and that code can be slower.
struct OccupancyHold {
  std::string define;  // floats added to the kernel's local memory, a multiple of `step`
  int step = 32;
  // The local bytes one float of `define` adds to a work-group, in the problem's element type.
  std::function<std::size_t(const ResolvedDefines&, std::size_t element_bytes)> bytes_per_float;
  // The plain build's problem for `problem`: a packed one of tile multiples, A stored as
  // problem's is (transposed or not), so that the plain build reads A in the same form.
  std::function<RowMajorGemm(const ResolvedDefines&, const RowMajorGemm& problem)> plain_problem;
  // Where the edge strips' own work-groups (Variant::strips_in_gemm), asked again for the hold's
  // fewer places, are fewer than before, the hold stays only if they are still at least this many
  // (by default none: any fewer drop it).
  int strips_own_kept = std::numeric_limits<int>::max();
};

struct Variant {
  std::string name;  // what --kernel takes
  Backend backend;
  std::string summary;  // one line for --help and the README
  // The ladder (--explain): the variant this one is a step from, and what the step adds.
  std::string builds_on;
  std::string adds;
  std::vector<Param> params;
  Arithmetic arithmetic = Arithmetic::kFp32;
  // Optional: why this variant cannot run on a device (its kernel needs hardware or a compiler
  // the device lacks), or nothing when it can. A variant that cannot is reported as skipped.
  std::function<std::optional<std::string>(const DeviceInfo&)> unsupported;
  // Whether it computes only the default shape (row-major, NN, packed): such a variant is skipped,
  // with its reason (defaultShapeOnlyReason), for any other (--layout, --trans-a/b, --ld*).
  bool default_shape_only = false;
  // Whether it computes FP64 problems (--precision fp64): the ladder's kernels and best
  // (kernels.cl's REAL), and the libraries' DGEMMs. The others (tensor cores, the CPU paths' FP32
  // micro-kernels) are skipped with the reason for FP64 problems; an OpenCL variant also needs
  // cl_khr_fp64.
  bool fp64 = false;
  // One message per violated constraint, each naming the define(s) to change.
  std::function<std::vector<std::string>(const ResolvedDefines&)> constraints;

  // kOpenCl only.
  std::string entry;  // the __kernel function in kernels.cl
  std::function<LaunchShape(const ResolvedDefines&, int m, int n)> shape;
  // __local bytes the kernel declares with these parameters and element size, checked before
  // building (an FP64 build needs twice an FP32 one's).
  LocalMemBytesFn local_mem_bytes;
  // Optional: defines the host derives from the problem (e.g. whether edges need checks), passed
  // to the compiler after the parameters and reported with source "problem". It sees the problem
  // as the kernel does (problem.rowMajor(): sizes, and the operands' transposes and leading
  // dimensions, which only a variant with shapes_in_kernel receives as they are stored; the
  // others get packed row-major copies of rowMajor's sizes).
  std::function<std::vector<ResolvedDefine>(const ResolvedDefines&, const RowMajorGemm&)>
      problem_defines;
  // Whether the kernel takes the problem's shape itself: the stored operands as rowMajorGemm
  // describes them (A and B maybe transposed, lines lda, ldb, ldc apart, passed as three int
  // arguments after C), with no copy. Otherwise (the default) the runner gives it packed row-major
  // matrices, through copy_matrix (pad_entry) where the stored ones are not, timed with the GEMM.
  // Where `padding` asks for copies, the copies take the shape in both cases (the kernel then
  // gets packed NN matrices and, with shapes_in_kernel, the padded sizes as lda, ldb, ldc).
  bool shapes_in_kernel = false;
  // Bytes the kernel's own access pattern loads from global memory for A and B (and C where it
  // accumulates there), counting every load as written, as if no cache helped: the basis of its
  // arithmetic intensity (2*M*N*K flops per byte). Reading C0 when beta != 0 is added by the
  // caller. In bytes of the given element size.
  GlobalBytesFn global_bytes;
  // Optional helper kernel run before the GEMM in every repetition and timed with it: it takes
  // (K, N, B, Bt) and writes B transposed (N x K) into a scratch buffer, which the GEMM then reads
  // in B's place. Its launch follows from the parameters and K, N.
  std::string transpose_b_entry;
  std::function<LaunchShape(const ResolvedDefines&, int k, int n)> transpose_b_shape;

  // Optional helper kernel that packs A and B, in every repetition and timed with the GEMM, into
  // scratch buffers in the layout the GEMM reads, padded to its tiles; the GEMM then reads them
  // in A's and B's place (and padding copies, where `padding` asks for them, are made for C
  // only). It takes (operand: 0 for A, 1 for B, source rows, source cols, source ld, source
  // transposed, source, rows, K, destination): the source is the operand as stored (rowMajorGemm's
  // a or b: element (r, c) at transposed ? c * ld + r : r * ld + c), A packed as M x K, B
  // transposed as N x K, each M, N, K padded where the problem is; `pack_shape` launches it for
  // that rows x K.
  std::string pack_entry;
  std::function<LaunchShape(int rows, int cols)> pack_shape;
  // Floats the packing writes per element of padded A and of padded B: 1, or 2 where it splits
  // each value into two planes (3xTF32's big and small parts), or 0 where the operand is not
  // packed (A read through a tensor map, below).
  std::array<int, 2> pack_planes = {1, 1};

  // Optional: the GEMM reads A by bulk tensor copies (tc-tf32-tma) through a tensor map
  // (cuda/tensor_map.hpp) of the A it is given, packed row-major (copied so where it is not
  // stored so, or padded), in boxes of `a_box` (rows, columns). The map is encoded on the host
  // with a placeholder address; the helper `tensor_map_entry` (map, the 128 bytes as a ulong16,
  // A) writes it with A's address into a scratch buffer before each GEMM, which takes that buffer
  // as its argument after C.
  std::string tensor_map_entry;
  std::function<std::pair<int, int>(const ResolvedDefines&)> a_box;

  // Optional (tc-tf32-fused): the GEMM packs B itself while it multiplies, as the packing helper
  // would. The plan allocates packed B but launches no packing of B, and the GEMM takes, after the
  // tensor map, B as stored (buffer, rows, cols, ld, transposed) and a scratch of ints zeroed when
  // allocated, as many as this returns for the padded N and K (the GEMM's own bookkeeping).
  std::function<std::size_t(const ResolvedDefines&, int n, int k)> gemm_packs_b;

  // Optional (tc-3xtf32-f16): before the packing, the helper `line_scale_entry` writes, for each
  // line of A (its M rows) and of B (its N columns), the power of two that brings the line's
  // largest magnitude into FP16's range, in one launch (for A, then for B: source rows, cols, ld,
  // transposed, source, lines, destination; the source as the packing helper reads it, M and N
  // padded). The packing helper then takes B's powers after its destination, and the GEMM takes
  // A's and B's after the tensor map.
  std::string line_scale_entry;

  // Optional: the block of C (rows, columns) one work-group computes with these parameters, for a
  // kernel whose grid has one work-group per block. Where given, a size none of the device's
  // entries was tuned for may take another entry than the nearest size's, whose blocks spread
  // more evenly over the compute units there (registry/entry_fill.hpp).
  std::function<std::pair<int, int>(const ResolvedDefines&)> work_group_block;

  // Optional (simt-async): where the tiles leave the device's last round of work-groups partly
  // idle, the split of that round's tiles along K (the caller's problem in rowMajor's view; the
  // m x n x k its grid covers, padded or not) for a device that runs `slots` work-groups at
  // once (compute units x the work-groups one holds, from the built kernel's registers and local
  // memory; 0 where the driver does not say) on `units` compute units; nothing: no split. The plan
  // then builds the GEMM again with the problem defines SPLIT=1, SK_WHOLE (whole) and SK_PARTS
  // (parts), and SK_FLOAT_SUMS=1 where that build holds fewer work-groups per unit, launches
  // groups() work-groups along dimension 0, and passes it, after C, a scratch of split_tiles x
  // parts x slot_floats floats and one of split_tiles ints, zeroed when allocated (the kernel
  // leaves them zero). Where the split is `apart` that build has SK_APART=1 too, and the whole
  // tiles go before it in a launch of the plain build with WHOLE_LINE=1, `whole` work-groups
  // along dimension 0 (unless that build holds fewer work-groups per unit: then one launch).
  std::function<std::optional<WaveSplit>(const ResolvedDefines&, const RowMajorGemm& problem, int m,
                                         int n, int k, long long slots, long long units)>
      wave_split;

  // Optional (simt-async): where C's last rows or columns are too few for a block of their own
  // (the problem defines say so to the kernel), the block its tiles cover (m0 = M, n0 = N: that
  // way whole); nothing: the kernel covers C. Called with rowMajor's problem, before any padding.
  // The plan then launches the GEMM over m0 x n0 only (or its padded size, a way it is whole),
  // passes it M, N, K as ever (padded where they are), and after it `strip_entry` (the caller's
  // M, N, K, alpha, beta, A, lda, B, ldb, C, ldc, m0, n0, with A, B and C as the GEMM reads them,
  // padded copies included; work-groups of 16 x 32, a group each: EdgeStrips::groups) for rows m0
  // ... M - 1 of every column, then columns n0 ... N - 1 of the rows above, before C's copy back.
  std::function<std::optional<EdgeStrips>(const ResolvedDefines&, const RowMajorGemm&)> edge_strips;
  std::string strip_entry;
  // Optional, with edge_strips: where edge_strips gives strips, whether their edge blocks are
  // better computed whole, moved back inside C (or padded) as where it gives nothing, on a device
  // that runs `places` of the GEMM's work-groups at once (its first build's; 0: unknown). The plan
  // then builds again with PEEL_MAX = 0 (a parameter every such variant has), before its split.
  std::function<bool(const ResolvedDefines&, const RowMajorGemm&, long long places)>
      edges_moved_back;
  // Optional: where `padding` pads a problem only on the condition that the plan without that
  // padding leaves its last round unsplit (wave_split), the defines of the plan without it. The
  // plan is made with those first, and kept where it splits (KernelPlan).
  std::function<std::optional<ResolvedDefines>(const ResolvedDefines&, const RowMajorGemm&)>
      padding_unless_split;
  // Optional, with edge_strips: whether the GEMM's own launch computes the strips instead of
  // strip_entry's launch after it (nothing: that launch), and how: in `n` work-groups of their
  // own last in its line (n > 0), or a share in every work-group (0). Called with the strips
  // of the caller's m x n x k problem, the GEMM's `gemm_groups` work-groups (its grid's, or its
  // split's line), the `slots` places the device has for them (0: unknown) on `units` compute
  // units, and the `parts` of K of its split (1: none). The plan then builds the kernel with
  // STRIPS_IN_GEMM = 1, launches it as a line of n + gemm_groups work-groups, and passes it the
  // caller's M, N and K and n after its other arguments; a build that holds fewer work-groups per
  // compute unit than the one without keeps the launch after, and one that holds more is asked
  // again with its places (an answer of work-groups of their own, or a share, replaces n).
  std::function<std::optional<int>(const ResolvedDefines&, const EdgeStrips& strips, int m, int n,
                                   int k, long long gemm_groups, long long slots, long long units,
                                   int parts)>
      strips_in_gemm;

  // Optional (simt-async): where the problem's build (after the split and the strips) holds more
  // work-groups per compute unit than the plain build (plain_problem's, the same defines
  // otherwise) and its line of work-groups, the strips' own left out, fits in one round of the
  // plain build's places, the plan builds it again with occupancy_hold->define set to the least
  // multiple of `step` floats whose local memory holds it to the plain build's count
  // (KernelPlan::holdPlainOccupancy); where ptxas then gives it fewer, the build before stays.
  std::optional<OccupancyHold> occupancy_hold;

  // The copy helper (every OpenCL variant: copy_matrix, set by openClVariant) and, optionally,
  // padding copies, for sizes where the GEMM runs faster on tile multiples than with bounds
  // checks. `padding` (called with rowMajor's sizes) says whether to pad and to what (nothing: no
  // padding). Then, or where an operand is not stored packed row-major and the variant does not
  // take shapes itself, in every repetition and timed with the GEMM, the helper kernel `pad_entry`
  // copies A, B (and C where beta != 0) into packed, zero-padded scratch matrices, the GEMM runs on
  // those with the padded sizes as M, N, K, and the helper copies C back into C's stored lines. The
  // helper takes (source rows, source cols, source ld, source transposed, source, rows, cols, ld,
  // destination) and is launched as `pad_shape` says for the destination's size (rows and cols
  // swapped for a transposed source); problem_defines sees the unpadded problem and must derive
  // the padded problem's defines (packed NN, for a variant with shapes_in_kernel too).
  std::string pad_entry;
  std::function<std::optional<PaddedSizes>(const ResolvedDefines&, int m, int n, int k)> padding;
  // Optional: whether the GEMM reads A transposed, packed K x M (lines of M), for this problem
  // (rowMajorGemm as stored). Then A's copy, where one is made (as above, or because A is not
  // stored so), writes A^T; an A stored transposed and packed at the GEMM's size is read as it is.
  std::function<bool(const ResolvedDefines&, const RowMajorGemm&)> a_k_major;
  // Optional, with padding: whether the padded GEMM writes (and with beta != 0 reads) C in the
  // caller's C, its stored lines, for this problem (rowMajorGemm as stored): then C is neither
  // copied in nor out, the GEMM and strip_entry take the caller's C at its offset 0, and the
  // problem defines must tell the kernel C's lines. Only where no block of the padded GEMM lies
  // outside the caller's C (its edges left to the strips).
  std::function<bool(const ResolvedDefines&, const RowMajorGemm&)> c_in_place;
  // Optional, without padding: the width of B's copy for this problem (rowMajorGemm as stored),
  // 0 for none. Where above 0, B is copied (timed) into K x that many columns, zeros past N,
  // whatever its storage, and the GEMM and strip_entry read it there; the problem defines must
  // tell the kernel B's lines. For a kernel whose 16-byte copies need B's lines to start on 16
  // bytes where N is not a multiple of 4.
  std::function<int(const ResolvedDefines&, const RowMajorGemm&)> b_lines;
  std::function<LaunchShape(int rows, int cols)> pad_shape;
  // Optional: a helper that makes A's and B's copies in one launch where both are made (each
  // launch costs a few us besides its bytes): pad_entry's arguments for A's copy, then for B's,
  // launched over the two pad_shape grids' work-groups (same local size) in one row, A's first.
  std::string pad_pair_entry;

  // kCpu only: one GEMM with the resolved parameters.
  std::function<void(const CpuGemm&, const ResolvedDefines&)> cpu;

  bool isBaseline() const {
    return backend == Backend::kClblast || backend == Backend::kOpenblas ||
           backend == Backend::kCublas;
  }
  // cuBLAS runs on CUDA, but on the GPU the OpenCL device selection picks.
  bool needsOpenCl() const {
    return backend == Backend::kOpenCl || backend == Backend::kClblast ||
           backend == Backend::kCublas;
  }
};

// "variant: first violation; second ...", or nothing when these defines keep every constraint.
std::optional<std::string> constraintViolations(const Variant& variant,
                                                const ResolvedDefines& defines);

// Why `variant` cannot run on `device`, or nothing when it can.
std::optional<std::string> unsupportedOn(const Variant& variant, const DeviceInfo& device);

// Why `variant` is skipped for an FP64 problem on `device` (null: no OpenCL device), or nothing
// when it runs one.
std::optional<std::string> fp64Refusal(const Variant& variant, const DeviceInfo* device);

// Why a default_shape_only variant is skipped for `shape`, naming what it takes.
std::string defaultShapeOnlyReason(const Variant& variant, const std::string& shape_label);

// Throws constraintViolations' message as a usage error.
void checkConstraints(const Variant& variant, const ResolvedDefines& defines);

// Every variant: the OpenCL kernels in ladder order (naive-global first, best last), the CPU paths,
// then the baselines.
const std::vector<Variant>& variants();

// Whether a baseline library was compiled in; when not, its rows say "not built" (status skipped).
// cuBLAS is always built: whether its library loads is found out at run time (the variant's
// `unsupported` says so).
bool backendBuilt(Backend backend);

// The variants named in a comma-separated list, in the order given, duplicates dropped. Besides
// names it takes the groups "cl" (every OpenCL kernel), "cpu" (every CPU path) and "all"
// (everything, baselines included). Unknown names are a usage error listing the known ones.
std::vector<const Variant*> parseVariantList(const std::string& list);

// --compare: baselines only ("clblast", "openblas", "cublas", "cublas-tf32"), appended after the
// --kernel variants.
std::vector<const Variant*> parseCompareList(const std::string& list);

// "clblast, openblas, cublas, cublas-tf32": every baseline, for messages.
std::string baselineNames();

// The default --kernel list: the ladder's first rungs and its end (best), so that a first run shows
// what clgemm can do on the device.
inline constexpr const char* kDefaultKernels = "naive,tiled,regtile2d,best";

// One line per variant in `chosen`: what it builds on and what it adds (--explain).
std::string explainVariants(const std::vector<const Variant*>& chosen);

// "naive, tiled, ..." and a help paragraph with every variant's parameters and defaults.
std::string variantNames();
std::string variantHelp();

}  // namespace clgemm
