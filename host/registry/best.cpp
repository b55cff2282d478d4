// best: the fastest portable OpenCL kernel, for large sizes on GPUs, the top of the ladder; and
// simt-async, its arithmetic on NVIDIA's asynchronous copies.
#include <algorithm>
#include <limits>

#include "opencl/device.hpp"
#include "registry/families.hpp"

namespace clgemm {
namespace {

using namespace family;

constexpr int AT_FROM_DEFAULT = 3000;                // see simtAsyncReadsATransposed
constexpr int SA_PAD_FROM_DEFAULT = 4000;            // see simtAsyncPadding
constexpr int SA_PAD_FROM_UNALIGNED_DEFAULT = 2500;  // see simtAsyncPadding
constexpr int SA_ALIGN_B_FROM_DEFAULT = 2200;        // see simtAsyncAlignedBLines
constexpr int SA_PAD_PEELED_FROM_DEFAULT = 1400;     // see simtAsyncPadsToPeel

// best's launch, and simt-async's: a BM x BN block of C per work-group, TM x TN per work-item.
LaunchShape threadTileShape(const ResolvedDefines& d, int m, int n) {
  const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
  return blockShape(m, n, bm, bn, bn / std::size_t(d.param("TN")), bm / std::size_t(d.param("TM")),
                    "BN/TN x BM/TM");
}

// The work-items of a best or simt-async work-group: (BM/TM) x (BN/TN).
long long threadTileItems(const ResolvedDefines& d) {
  return 1LL * (d.param("BM") / d.param("TM")) * (d.param("BN") / d.param("TN"));
}

// Whether a float4 at every load start is 16-byte aligned: the matrix starting a multiple of 4
// elements into its buffer (whose start OpenCL aligns), lines `ld` apart, each float4 starting a
// multiple of 4 floats into its line, which holds with EDGE too when the length `along` the line
// the float4s run is a multiple of 4 (the K loop's shifted start K - tiles * BK, or the clamp of
// the last group to along - 4).
std::string alignedLoads(const MatrixStorage& m, int along) {
  return m.offset % 4 == 0 && m.ld % 4 == 0 && along % 4 == 0 ? "1" : "0";
}

// The problem defines of best, from the kernel's view of the problem: EDGE, the transposes, and
// which operands' float4 loads and stores are aligned. With padding copies the copies take the
// shape, so the kernel sees packed NN matrices of tile multiples.
std::vector<ResolvedDefine> bestProblemDefines(const ResolvedDefines& d, const RowMajorGemm& g) {
  if (const auto pad = tilePadding(d, g.m, g.n, g.k)) {
    // An exact problem, float4-aligned; the padded sizes are for the report.
    return withPaddedSizes({{"EDGE", "0", "problem"},
                            {"TRANS_A", "0", "problem"},
                            {"TRANS_B", "0", "problem"},
                            {"VEC_A", "1", "problem"},
                            {"VEC_B", "1", "problem"},
                            {"VEC_C", "1", "problem"}},
                           *pad);
  }
  const bool exact = isTileMultiple(d, g.m, g.n, g.k);
  // NN's A and TRANS_B's B run their float4s along K; NN's B along N, TRANS_A's A along M.
  std::vector<ResolvedDefine> defines = {
      {"EDGE", exact ? "0" : "1", "problem"},
      {"TRANS_A", g.a.transposed ? "1" : "0", "problem"},
      {"TRANS_B", g.b.transposed ? "1" : "0", "problem"},
      {"VEC_A", alignedLoads(g.a, g.a.transposed ? g.m : g.k), "problem"},
      {"VEC_B", alignedLoads(g.b, g.b.transposed ? g.k : g.n), "problem"},
      {"VEC_C", alignedLoads(g.c, g.n), "problem"}};
  // Only the library's calls have offsets or K = 0: the command line's builds (and rows) stay as
  // they were, the kernel's defaults 0 standing for both.
  if (g.a.offset != 0 || g.b.offset != 0 || g.c.offset != 0)
    defines.push_back({"OFFSETS", "1", "problem"});
  if (g.k == 0) defines.push_back({"EMPTY_K", "1", "problem"});
  return defines;
}

Variant best() {
  Variant v = openClVariant(
      "best", "gemm_best",
      "the fastest: BM x BN blocks, TM x TN per work-item, float4 loads, A transposed, double-"
      "buffered local memory with register prefetch, swizzled work-group order",
      {{"BM", 64, "rows of C per work-group", {32, 64, 128, 256}},
       {"BN", 64, "columns of C per work-group", {32, 64, 128, 256}},
       {"BK", 16, "K-step (a multiple of 4)", {8, 16, 32}},
       {"TM", 4, "rows of C per work-item (a multiple of 4)", {4, 8, 16}},
       {"TN", 4, "columns of C per work-item (a multiple of 4)", {4, 8, 16}},
       {"PADA", 4, "padding floats per row of the transposed A tile (a multiple of 4)", {0, 4, 8}},
       {"PADB", 4, "padding floats per row of the B tile (a multiple of 4)", {0, 4, 8}},
       {"GROUP_M", 8, "block rows per band of the swizzled work-group order", {1, 4, 8, 16}},
       {"PAD_FROM",
        4000,
        "sizes that are not tile multiples: padding copies (timed with the GEMM) from this size "
        "up, the harmonic mean of M, N and K; edge handling in the kernel below it (0: always "
        "copies)",
        {0, 4000},
        true}},
      "regtile2d",
      "float4 loads from global and local memory, double-buffered local memory with register "
      "prefetch (one barrier per tile), a work-group order swizzled for L2 reuse, and edges kept "
      "out of the loop (K shifted, clamped loads) or, for large sizes, padding copies");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"BM", "BN", "BK", "TM", "TN", "GROUP_M"}, 1);
    requireAtLeast(errors, d, {"PADA", "PADB", "PAD_FROM"}, 0);
    if (!errors.empty()) return errors;
    for (const char* name : {"BK", "TM", "TN", "PADA", "PADB"}) {
      if (d.param(name) % 4 != 0)
        errors.push_back(std::string(name) + "=" + std::to_string(d.param(name)) +
                         " must be a multiple of 4 (float4 loads)");
    }
    requireDivisible(errors, d, "BM", "TM");
    requireDivisible(errors, d, "BN", "TN");
    if (!errors.empty()) return errors;
    requireEvenShare(errors, d, threadTileItems(d), {{"BM", 4}, {"BN", 4}}, "float4 loads", "",
                     "TM or TN");
    return errors;
  };
  v.shape = threadTileShape;
  v.local_mem_bytes = [](const ResolvedDefines& d, std::size_t element_bytes) {
    return std::size_t(2 * d.param("BK") *
                       (d.param("BM") + d.param("PADA") + d.param("BN") + d.param("PADB"))) *
           element_bytes;
  };
  addTilePadding(v);
  v.shapes_in_kernel = true;
  v.problem_defines = bestProblemDefines;
  return v;
}

// The rows past the last whole block of a dimension of C (`size` long, blocks of `block`) that
// simt-async's strips take (simtAsyncEdgeStrips): up to PEEL_MAX, where the dimension holds more
// than a block; 0 where none (no such rows, more of them, or a dimension smaller than a block).
int peeledEdge(const ResolvedDefines& d, int size, int block) {
  const int rest = size % block;
  return size > block && rest > 0 && rest <= d.param("PEEL_MAX") ? rest : 0;
}

// Whether simt-async pads a problem below PAD_FROM_UNALIGNED (N not a multiple of 4) from
// PAD_PEELED_FROM (the harmonic mean of M, N and K) up, because the padded problem's every edge of
// M and N goes to the strips: C then stays in the caller's lines (simtAsyncWritesCInPlace), the
// copies are A's and B's alone, and they replace the edges path's four-byte copies of B (or B's
// aligned copy) with 16-byte copies of B and of A^T. Such a problem keeps its strips where the
// fill rule would move its edges back (simtAsyncEdgesMovedBack): that would pad a block row or
// column outside C and send C through copies. (A C at an offset goes through them anyway, as any
// padded C does: the kernel takes no offset.) Only where the plan without it leaves its last round
// unsplit (simtAsyncWithoutPaddingToPeel). From 1400 by default: 1409^3 is the smallest size it
// was measured to win at (3%, session 46); at 1025^3 the padding copies cost more than 0.90 of
// 1024^3 leaves (session 44), and 1153^3-1400^3 are not timed.
bool simtAsyncPadsToPeel(const ResolvedDefines& d, int m, int n, int k) {
  if (n % 4 == 0 || !harmonicMeanAtLeast(m, n, k, d.param("PAD_PEELED_FROM")) ||
      harmonicMeanAtLeast(m, n, k, d.param("PAD_FROM_UNALIGNED")))
    return false;
  const int bm = d.param("BM"), bn = d.param("BN");
  return (m % bm == 0 || peeledEdge(d, m, bm) > 0) && (n % bn == 0 || peeledEdge(d, n, bn) > 0);
}

// The defines of simt-async's plan without its padding to peel, where simtAsyncPadsToPeel pads
// (Variant::padding_unless_split): PAD_PEELED_FROM at PAD_FROM_UNALIGNED's size. That padding is
// taken only where the edges plan leaves its last round unsplit: where it splits, the padded split
// build ran 4.7% slower at 1281^3 and 6.8% at 2177^3 on the H100 (-0.5% at 1537^3), also held to
// the edges build's four work-groups per SM; where it does not, 1.6-5.1% faster at 1409^3,
// 1665^3, 1793^3, 1921^3 (moved back unpadded) and 2305^3, the same at 2049^3 (session 46,
// docs/performance.md).
std::optional<ResolvedDefines> simtAsyncWithoutPaddingToPeel(const ResolvedDefines& d,
                                                             const RowMajorGemm& g) {
  if (!simtAsyncPadsToPeel(d, g.m, g.n, g.k)) return std::nullopt;
  return d.withParam("PAD_PEELED_FROM", d.param("PAD_FROM_UNALIGNED"), "problem");
}

// simt-async's padding copies for sizes that are not tile multiples: from PAD_FROM (the harmonic
// mean of M, N and K) up, where A^T's 16-byte copies they allow win, or from PAD_FROM_UNALIGNED
// where B's lines do not start on 16 bytes (N not a multiple of 4: the edges copy B four bytes at
// a time, which needs every work-item at one column, threads a multiple of BN), and below it from
// PAD_PEELED_FROM where the strips take every padded edge (simtAsyncPadsToPeel); and for problems
// smaller than a block. Otherwise the kernel's edges (EDGE), which save the copies' launches and
// bytes: 1.4-1.6x at 1000^3 and 1023^3 on the H100 (docs/performance.md).
std::optional<PaddedSizes> simtAsyncPadding(const ResolvedDefines& d, int m, int n, int k) {
  if (isTileMultiple(d, m, n, k)) return std::nullopt;
  const bool aligned = n % 4 == 0;
  const bool edges =
      m >= d.param("BM") && n >= d.param("BN") &&
      (aligned || threadTileItems(d) % d.param("BN") == 0) &&
      !harmonicMeanAtLeast(m, n, k, d.param(aligned ? "PAD_FROM" : "PAD_FROM_UNALIGNED")) &&
      !simtAsyncPadsToPeel(d, m, n, k);
  if (edges) return std::nullopt;
  return exactTilesOrPadded(d, m, n, k);
}

// Whether simt-async reads A as A^T (K x M) for this problem (A_KM = 1): 16-byte copies of A^T's
// lines instead of 4-byte copies that transpose A on the way, which cost 2-3% at 2048^3-16384^3
// on the H100 (docs/performance.md). Free where A is stored transposed (read as it is, or through
// the copy its shape needs anyway) and where padding copies are made; a transposing copy (timed)
// otherwise, from AT_FROM (the harmonic mean of M, N and K) up. Only where A^T's float4s divide
// evenly among the work-items, and never with EDGE (the edge copies are A's 4-byte ones).
bool simtAsyncReadsATransposed(const ResolvedDefines& d, const RowMajorGemm& g) {
  const long long float4s = 1LL * d.param("BM") * d.param("BK") / 4;
  if (d.param("BM") % 4 != 0 || float4s % threadTileItems(d) != 0) return false;
  const bool padded = simtAsyncPadding(d, g.m, g.n, g.k).has_value();
  if (!padded && !isTileMultiple(d, g.m, g.n, g.k)) return false;
  return g.a.transposed || padded || harmonicMeanAtLeast(g.m, g.n, g.k, d.param("AT_FROM"));
}

// The width of B's copy in 128-byte lines (Variant::b_lines, B_LD) for simt-async's edges where N
// is not a multiple of 4, from ALIGN_B_FROM (the harmonic mean of M, N and K) up; 0 for none.
// There B's own lines do not start on 16 bytes, and the edges copy it four bytes at a time; a copy
// whose lines are a multiple of 32 floats lets the kernel's 16-byte copies read it, at the cost of
// B's bytes twice and a launch (on the H200 the copy's 8-18 us and about 4 us between it and the
// GEMM). Measured there against the four-byte copies (session 20, docs/performance.md): from
// 2201^3 to 2499^3 -0.5 to -6% at all eight sizes (2351^3 and 2401^3 -6%, their split then storing
// its sums float by float, as 2400^3's does); 2049^3 +0.5-3%, 1921^3 +2-4%, 1601^3 -4 to +10% (its
// two-part split unsteady; +5% unsplit), 1537^3 +6-8%, 1025^3-1031^3 +20-24% (there the four-byte
// copies cost nothing: 1024 x 1025 x 1024 and 1024 x 1028 x 1024 both 0.071 ms unsplit); above
// PAD_FROM_UNALIGNED the padded path stays faster (2817^3 by 4%, 4097^3 by 3%). Only where its
// indices stay within int, as the kernel's are.
int simtAsyncAlignedBLines(const ResolvedDefines& d, const RowMajorGemm& g) {
  if (g.n % 4 == 0 || simtAsyncPadding(d, g.m, g.n, g.k)) return 0;
  if (!harmonicMeanAtLeast(g.m, g.n, g.k, d.param("ALIGN_B_FROM"))) return 0;
  const std::size_t lines = roundUp(std::size_t(g.n), 32);
  if (double(lines) * double(g.k) > double(std::numeric_limits<int>::max())) return 0;
  return int(lines);
}

// Whether simt-async copies B four bytes at a time (VEC_N = 0): on the kernel's edges, where B's
// lines do not start on 16 bytes (N not a multiple of 4) and no aligned copy is made.
bool simtAsyncCopiesBByFloats(const ResolvedDefines& d, const RowMajorGemm& g) {
  return g.n % 4 != 0 && !simtAsyncPadding(d, g.m, g.n, g.k) && simtAsyncAlignedBLines(d, g) == 0;
}

// The BM x BN block of C each of simt-async's work-groups computes (Variant::work_group_block).
// Not given to best: its H100 entries' blocks differ too much in speed per element (32 x 128 for
// 1024^3, 256 x 64 above) for the share of the busiest SM alone to choose between them; taking
// the fuller one was 0.78-1.41x the nearest size's from 1152^3 to 3072^3 (docs/performance.md).
std::pair<int, int> simtAsyncBlock(const ResolvedDefines& d) {
  return {int(d.param("BM")), int(d.param("BN"))};
}

// simt-async's split of its last round of tiles along K (splitLastWave): the BM x BN blocks of
// the problem the kernel runs (padded or not) that its grid covers, m x n, BK-deep K-steps, on
// `slots` places of `units` compute units, or SPLIT_SLOTS places (a fuller round's model then
// off: it counts the device's units, which a number of places alone does not give). Where B is
// copied four bytes at a time, the busiest unit's model alone, whatever the round's fill: that
// GEMM gained nothing from a split that only fills idle places on the H100 (1024 x 1025 x 1024:
// 0.069-0.072 ms in 2, 3 or 4 parts, 0.068-0.070 unsplit; 1025^3-1029^3 0.072-0.074 unsplit
// against 0.075-0.084; the aligned one 0.066 -> 0.062). Its splits by the model, against none:
// 1233^3-1281^3 and 1441^3-1538^3 -7 to -15%, 2177^3 -6%, 1921^3 and 2401^3 -2 to -4%; 1601^3
// +8% (2 parts, where the model promised -11%; no split there gained more than 3%); the places'
// rule would have split 1233^3-1345^3 and 2301^3 for +0 to +6% (session 12; docs/performance.md).
// The whole tiles before a split (a multiple of the places), where they make SPLIT_APART rounds or
// more, run in a launch of their own in the plain build (KernelPlan): the split build's code cost
// them about 0.6% (128 registers against 124 at 128 x 128 on the H200), and the launch's end, where
// its work-groups finish unevenly and the split's cannot yet start, about 4% of a round: break-even
// near 7 rounds. Measured on the H200 against one launch (session 18, docs/performance.md): 15
// rounds (8191^3, 8192^3) -0.3 to -0.5%, 13 (7680^3) -0.6%, 8 (6144^3) -0.1%; 4 (4224^3) +0.4%, 2
// (2900^3-3216^3) +1.2 to +1.5%, 1 (2816^3) +2.2%; 8193^3 -2.0%, its edge strips then in the
// split's shorter launch. 16384^3 (62 rounds and 16 tiles, split by force) ran 0.25-0.45% faster
// than unsplit, where one launch's split had been 0.2-0.6% slower; the model's 2% bar still leaves
// it unsplit.
std::optional<WaveSplit> simtAsyncWaveSplit(const ResolvedDefines& d, const RowMajorGemm& g, int m,
                                            int n, int k, long long slots, long long units) {
  if (d.param("SPLIT_SLOTS") > 0) {
    slots = d.param("SPLIT_SLOTS");
    units = 0;
  }
  const int bm = d.param("BM"), bn = d.param("BN"), bk = d.param("BK");
  const long long tiles = ceilDiv(m, bm) * ceilDiv(n, bn);
  std::optional<WaveSplit> split =
      splitLastWave(tiles, int(ceilDiv(k, bk)), slots, units, std::size_t(bm) * std::size_t(bn),
                    simtAsyncCopiesBByFloats(d, g));
  const long long apart_rounds = d.param("SPLIT_APART");
  if (split && apart_rounds > 0 && slots > 0) split->apart = split->whole / slots >= apart_rounds;
  return split;
}

// simt-async's edges of at most PEEL_MAX rows or columns: such a last block row or column (moved
// back inside C on the kernel's edges path, or padded to a whole block) computes a whole block
// for those few rows, and at 2049^3 on the H100 the 33 of them made a second round of tiles, at
// 4097^3 (padded) a fifth (docs/performance.md). The GEMM then covers the blocks below m0 x n0,
// and gemm_edge_strip the rest, reading A, B and C as the GEMM does (their padded copies where
// made). A dimension smaller than a block keeps its (padded) block.
std::optional<EdgeStrips> simtAsyncEdgeStrips(const ResolvedDefines& d, const RowMajorGemm& g) {
  if (isTileMultiple(d, g.m, g.n, g.k)) return std::nullopt;
  const int rows = peeledEdge(d, g.m, d.param("BM")), cols = peeledEdge(d, g.n, d.param("BN"));
  if (rows == 0 && cols == 0) return std::nullopt;
  return EdgeStrips{g.m - rows, g.n - cols};
}

// Whether simt-async's edge blocks run better moved back inside C (or padded) than peeled into
// the strips, for the `places` the device has (SPLIT_SLOTS's where over 1; 0: unknown, peeled):
//  - where the tiles, moved back, make one round of the places and fill it to MOVE_BACK_FILL per
//    cent or more. There every place computes a whole tile and no strip runs; peeled, the GEMM
//    splits its round along K and the strips' chains of loads run beside it, which did not pay.
//    Measured on the H100 (session 40, docs/performance.md), moved back against peeled:
//    1921^3-1928^3 (256 tiles of 128 x 128 on 264 places, 97%) -0.7 to -13.5%, 1665^3 and 1672^3
//    (378 of 64 x 128 on 396, 95.5%) -0.5 to +0.5% (the plan's first build at 1665^3 holds four
//    per SM, 528 places, and keeps it peeled); the shapes around 1920 with one dimension off (240
//    tiles, 91%) -0.8 to +2.2%; a fill of 85% or less (1601^3, 1604^3, 1281^3-1537^3, 2305^3) -0.6
//    to +20%, and a round more than the peeled tiles' one (1025^3, 1028^3, 1793^3, 2049^3,
//    2052^3) +11 to +30%;
//  - where the peeled tiles already take several rounds, the moved-back ones at most
//    MOVE_BACK_ROUNDS, and an edge is MOVE_BACK_DEPTH rows or columns deep or more. The strips'
//    chains grow with their depth, the tiles moved back do not; and the last round, split along K,
//    takes the added tiles whether or not they make a round more. Measured on the H200 (session
//    41), moved back (-D PEEL_MAX=0) against peeled, at 2.2-3.6 rounds: edges of 4 to 8
//    (2564^3-2568^3, 3204^3-3208^3, 3460^3-3464^3, 3844^3-3848^3; 3461^3 padded) -1.7 to -12%; of
//    1 or 2 (3201^3, 3457^3, 3458^3) +0.5 to +2.3%, but 3073^3 -2.1%. At 2820^3-2824^3 PEEL_MAX=0
//    also took the 64 x 128 entry (entry_fill.cpp counts its tiles moved back), -0.9 to -6.6%;
//    this rule, asked after that choice, moves back the 128 x 128 entry's tiles there (not timed).
// Never for a problem padded because its edges are peeled (simtAsyncPadsToPeel).
bool simtAsyncEdgesMovedBack(const ResolvedDefines& d, const RowMajorGemm& g, long long places) {
  if (d.param("SPLIT_SLOTS") > 1) places = d.param("SPLIT_SLOTS");
  const auto strips = simtAsyncEdgeStrips(d, g);
  if (places <= 0 || !strips || simtAsyncPadsToPeel(d, g.m, g.n, g.k)) return false;
  const long long bm = d.param("BM"), bn = d.param("BN");
  const long long moved = ceilDiv(g.m, bm) * ceilDiv(g.n, bn);
  if (moved <= places) return 100 * moved >= d.param("MOVE_BACK_FILL") * places;
  const long long peeled = ceilDiv(strips->m0, bm) * ceilDiv(strips->n0, bn);
  return peeled > places && moved <= d.param("MOVE_BACK_ROUNDS") * places &&
         strips->depth(g.m, g.n) >= d.param("MOVE_BACK_DEPTH");
}

// Whether simt-async's padded GEMM writes C in the caller's lines (C_LD): where the padding adds
// rows or columns only beyond edges the strips take (PEEL_M, PEEL_N), no block lies outside the
// caller's C, and C's copies in and out (a read and a write of C each, and a launch: 0.06 ms of
// 2817^3's 1.0 on the H200, docs/performance.md) are not needed. Not at an offset (the kernel
// takes none); C's stores go element by element where its lines are off 16 bytes.
bool simtAsyncWritesCInPlace(const ResolvedDefines& d, const RowMajorGemm& g) {
  const auto pad = simtAsyncPadding(d, g.m, g.n, g.k);
  if (!pad || g.c.offset != 0) return false;
  const auto strips = simtAsyncEdgeStrips(d, g);
  const bool rows_inside = pad->m == g.m || (strips && strips->m0 < g.m);
  const bool cols_inside = pad->n == g.n || (strips && strips->n0 < g.n);
  return rows_inside && cols_inside;
}

// The fewest work-groups of their own the strips take on a last round's idle places; the floor
// of simtAsyncStripsInGemm's clamp, so STRIPS_OWN_MAX (its ceiling) may not go below it.
constexpr int kStripsOwnMin = 8;

// The strips' own work-groups at most until session 45 (STRIPS_OWN_MAX's default then), the count
// two rules were measured with and not timed above: a crowded round (simtAsyncStripsInGemm; 1409^3,
// 1665^3-1668^3, 1793^3-1796^3 on the H100, session 12), where more make the line longer, toward
// the crowding that rule avoids, takes at most this many; and the occupancy hold (sessions 28-29)
// stays where they are still this many on its fewer places (OccupancyHold::strips_own_kept).
// STRIPS_OWN_MAX (256 since session 45) was measured over several rounds only.
constexpr int kStripsOwnTimedCap = 64;

// simt-async's edge strips in the GEMM's launch (FUSE_STRIPS) rather than a launch after it
// (2049^3 on the H100: the GEMM 0.375 ms, the strips 0.026 after it; docs/performance.md). A
// group (16 lines by `depth` <= 8 rows or columns) x threads / 16 slices of K at a time, summed
// through A's local buffers: not where the threads are not a multiple of 16, or those buffers
// hold fewer than 8 floats per thread. Their loads are latency-bound: a round trip of 16 loads
// ~1.3 us at depth 1, ~1.9x that at depth 8, against ~2.9 us for a K-step of the GEMM at 2049^3.
// Measured on the H100:
//  - Where the GEMM's work-groups all run at once (one round), a group per work-group of their
//    own, last in the line, whatever the places left idle: those without a place wait, and take
//    the GEMM's as its work-groups end (an SM holds three of 1028^3's split work-groups), each a
//    chain of one group. Against a share of the groups in every split work-group, 8-64 own
//    work-groups on the idle places, or the launch after: 1028^3 -9%, 1032^3 -8%, 1025^3-1031^3
//    -0.5 to -3%, 2050^3-2056^3 -1.6 to -4%, 2049^3 the same (session 9, docs/performance.md).
//    Not where the GEMM's whole tiles leave every unit a place (ceil(tiles / units) below its
//    places) and that line holds more than one work-group per unit beyond the tiles' share
//    (ceil(tiles / units) + 1 per unit): there the GPU gave some units a tile more than their
//    share. 1409^3 on the H100 (242 tiles of 64 x 128 and 177 groups, 419 work-groups on 528
//    places): 8 SMs held three tiles (%smid; at most two with the strips' launch after), 0.21 ms
//    against 0.17; 1665^3-1668^3 and 1793^3-1796^3 (338 or 392 tiles, 209-225 groups): 0.32-0.34
//    against 0.25-0.28; but 1283^3, 1345^3, 1537^3 and 1601^3, within that bound, 3-10% faster
//    than the launch after (session 12). There, as over several rounds below, but at most 64
//    (kStripsOwnTimedCap).
//  - Over several rounds, own work-groups on the places the last round leaves idle (at least 8,
//    at most STRIPS_OWN_MAX, by default 256; see the end of this item), where each one's
//    chain (its groups x ceil(K / slices / 16) trips, weighted 1 + 0.135 (depth - 1)) is at
//    most 2.4 trips per K-step of the GEMM's work-groups over its rounds: 4097^3-4104^3 -2 to -3%,
//    8193^3 -1% (2050^3-2056^3, just over with 8, took 0.43-0.80 ms against 0.39-0.40). That was
//    measured with 128 x 128 blocks; a K-step of fewer elements ends sooner, so the budget shrinks
//    in proportion (BM x BN / 128^2): at 2500^3 the 1024 entry's 64 x 128 blocks with 12 own
//    work-groups took 0.914 ms, with the launch after 0.692 (session 11). Until session 45 they
//    were at most 64 (only 32 or fewer places were idle where that was timed). Every idle place
//    (up to 256) against 64, on the H100 (sessions 44 and 45, docs/performance.md): 2945^3 (248
//    against 64) -5.3%, 2177^3 (256 against a share in every work-group) -2.9%, 1153^3 (145)
//    -2.5%, 2113^3 (133) -1.1%, 1921^3-1923^3 padded and peeled (156) -0.4 to -4.7%; 1537^3 and
//    1601^3 within noise; 8193^3 (232 against shares) +0.2%, one round; 2305^3 +2%, where the
//    occupancy hold had been dropped for it (KernelPlan keeps it since).
//    The places that a round leaves idle are the device's, so no count is tied to one GPU.
//  - Otherwise, where the GEMM is split along K (its work-groups short, and more than its
//    tiles), every work-group takes a share before its tile. Unsplit, that share delays every
//    tile of a round (2050^3-2056^3 -1-2%): the launch after.
std::optional<int> simtAsyncStripsInGemm(const ResolvedDefines& d, const EdgeStrips& strips, int m,
                                         int n, int k, long long gemm_groups, long long slots,
                                         long long units, int parts) {
  const long long threads = threadTileItems(d);
  const long long a_floats =
      1LL * d.param("STAGES") * d.param("BK") * (d.param("BM") + d.param("PADA"));
  const long long groups = strips.groups(m, n);
  if (d.param("FUSE_STRIPS") == 0 || threads % 16 != 0 || a_floats < 8 * threads || groups < 1)
    return std::nullopt;
  // SPLIT_SLOTS = 1 says only "never split": the strips still have the device's places. More:
  // those places, on units not known.
  if (d.param("SPLIT_SLOTS") > 1) {
    slots = d.param("SPLIT_SLOTS");
    units = 0;
  }
  const bool one_round = slots > 0 && gemm_groups <= slots;
  const long long tiles_per_unit = units > 0 ? ceilDiv(gemm_groups, units) : 0;
  const bool crowded = one_round && units > 0 && parts <= 1 && tiles_per_unit < slots / units &&
                       gemm_groups + groups > (tiles_per_unit + 1) * units;
  if (one_round && !crowded) return int(groups);
  const long long rest = slots > 0 ? gemm_groups % slots : 0;
  const long long idle = rest > 0 ? slots - rest : 0;
  const long long cap = crowded ? std::min<long long>(d.param("STRIPS_OWN_MAX"), kStripsOwnTimedCap)
                                : d.param("STRIPS_OWN_MAX");
  const long long own = std::min(std::clamp(idle, (long long)kStripsOwnMin, cap), groups);
  const int depth = std::min(8, strips.depth(m, n));
  const double chain = double(ceilDiv(groups, own) * ceilDiv(ceilDiv(k, threads / 16), 16)) *
                       (1.0 + 0.135 * (depth - 1));
  const long long rounds = slots > 0 ? ceilDiv(gemm_groups, slots) : 1;
  const double k_steps = double(ceilDiv(k, d.param("BK")) / std::max(parts, 1)) * double(rounds);
  const double block_share = double(d.param("BM")) * double(d.param("BN")) / (128.0 * 128.0);
  if (chain <= 2.4 * block_share * k_steps) return int(own);
  if (parts > 1) return 0;
  return std::nullopt;
}

// simt-async's plain build's problem (Variant::occupancy_hold) for `problem`: two tiles each way,
// packed, A stored as problem's is, so that A is read in the same form (A_KM where transposed).
RowMajorGemm simtAsyncPlainProblem(const ResolvedDefines& d, const RowMajorGemm& problem) {
  const int m = 2 * d.param("BM"), n = 2 * d.param("BN"), k = 2 * d.param("BK");
  const MatrixStorage a =
      problem.a.transposed ? MatrixStorage{m, k, m, true} : MatrixStorage{m, k, k};
  return RowMajorGemm{m, n, k, a, {k, n, n}, {m, n, n}};
}

// simt-async: best's FP32 arithmetic on the CUDA cores, fed by cp.async (NVIDIA, compute
// capability 8.0 and up) STAGES buffers deep; packed problems (A as M x K or, above, K x M), the
// rest through copy_matrix; sizes that are not tile multiples by edge copies or padding copies.
Variant simtAsync() {
  Variant v = openClVariant(
      "simt-async", "gemm_simt_async",
      "NVIDIA only (inline PTX cp.async, compute capability 8.0 and up): best's FP32 arithmetic "
      "on the CUDA cores, A and B copied straight into a STAGES-deep ring of local buffers",
      {{"BM", 128, "rows of C per work-group", {64, 128, 256}},
       {"BN", 128, "columns of C per work-group", {64, 128, 256}},
       {"BK", 16, "K-step (even: the fragments alternate between two register sets)", {8, 16, 32}},
       {"TM", 8, "rows of C per work-item (a multiple of 4)", {4, 8, 16}},
       {"TN", 8, "columns of C per work-item (a multiple of 4)", {4, 8, 16}},
       {"STAGES", 2, "local buffers, STAGES - 1 tiles copied ahead: 2 to 8", {2, 3, 4}},
       {"PADA",
        4,
        "padding floats per row of the transposed A tile (a multiple of 4; BM + PADA = 4 mod 32 "
        "makes the copies of A conflict-free)",
        {4, 8}},
       {"PADB", 4, "padding floats per row of the B tile (a multiple of 4)", {0, 4, 8}},
       {"GROUP_M", 8, "block rows per band of the swizzled work-group order", {4, 8, 16}},
       {"AT_FROM",
        AT_FROM_DEFAULT,
        "row-major NN sizes from which A is copied transposed (timed) and read by 16-byte copies, "
        "the harmonic mean of M, N and K (an A stored transposed, or padded, is read so at every "
        "size)",
        {0, AT_FROM_DEFAULT},
        true},
       {"MIN_WG_PER_CU",
        0,
        "work-groups per compute unit that ptxas must fit the registers to (`.minnctapersm`, "
        "written into the kernel's PTX, which is built again; 0: ptxas's choice): a build ptxas "
        "gives a few registers too many for two work-groups per SM ran 8.5% faster held to two "
        "(docs/performance.md, 2026-12-05)",
        {0, 2}},
       {"PAD_FROM",
        SA_PAD_FROM_DEFAULT,
        "sizes that are not tile multiples: padding copies (timed with the GEMM) from this size "
        "up, the harmonic mean of M, N and K, and below a block; else the kernel's edge handling "
        "(0: always copies)",
        {0, SA_PAD_FROM_DEFAULT},
        true},
       {"PAD_FROM_UNALIGNED",
        SA_PAD_FROM_UNALIGNED_DEFAULT,
        "PAD_FROM where N is not a multiple of 4 (the edge handling then copies B four bytes at "
        "a time, or from ALIGN_B_FROM its copy in aligned lines)",
        {0, SA_PAD_FROM_UNALIGNED_DEFAULT},
        true},
       {"ALIGN_B_FROM",
        SA_ALIGN_B_FROM_DEFAULT,
        "below PAD_FROM_UNALIGNED, where N is not a multiple of 4: B copied (timed) into lines of "
        "a multiple of 32 floats from this size up, the harmonic mean of M, N and K, so that the "
        "edge handling reads it by 16-byte copies (0: always)",
        {0, SA_ALIGN_B_FROM_DEFAULT},
        true},
       {"PAD_PEELED_FROM",
        SA_PAD_PEELED_FROM_DEFAULT,
        "below PAD_FROM_UNALIGNED, where N is not a multiple of 4: padding copies from this size "
        "up, the harmonic mean of M, N and K, where the strips take every padded edge of M and N "
        "(PEEL_MAX), so that C stays in the caller's lines, and the plan without them leaves its "
        "last round unsplit; those edges then stay peeled",
        {0, SA_PAD_PEELED_FROM_DEFAULT},
        true},
       {"SPLIT_SLOTS",
        0,
        "work-groups the device runs at once, for splitting the last round's tiles along K where "
        "they leave places idle (0: compute units x the work-groups one holds, where the driver "
        "reports registers, and a last round more than half full split where that lightens the "
        "busiest unit; 1: never split; more: that many places, and no split of a fuller round)",
        {0, 1},
        true},
       {"SPLIT_APART",
        8,
        "a split last round's whole tiles in a launch of their own before the split ones, in the "
        "build without the split, where they make at least this many rounds of the places (0: "
        "never)",
        {0, 8},
        true},
       {"PEEL_MAX",
        8,
        "sizes off the tiles: last rows or columns of C up to this many are computed apart from "
        "the GEMM's blocks (in its launch, or by gemm_edge_strip after it, timed with it: "
        "FUSE_STRIPS) instead of a block moved back inside C or padded (0: never)",
        {0, 8},
        true},
       {"MOVE_BACK_FILL",
        95,
        "those edges moved back inside C instead where the tiles then make one round of the "
        "device's places and fill it to this per cent or more (over 100: never)",
        {95, 101},
        true},
       {"MOVE_BACK_DEPTH",
        4,
        "those edges moved back instead where the peeled tiles take several rounds and an edge "
        "is this many rows or columns deep or more (over PEEL_MAX: never)",
        {4, 9},
        true},
       {"MOVE_BACK_ROUNDS",
        4,
        "over several rounds, those edges moved back only where their tiles then make at most "
        "this many rounds of the device's places (0: never)",
        {0, 4},
        true},
       {"FUSE_STRIPS",
        1,
        "those rows and columns computed by work-groups of the GEMM's own launch, beside its "
        "tiles (0: by gemm_edge_strip after it)",
        {0, 1},
        true},
       {"STRIPS_OWN_MAX",
        256,
        "over several rounds, at most this many work-groups of the strips' own on the places "
        "the last round leaves idle (at least 8)",
        {64, 256},
        true}},
      "best",
      "replaces best's register prefetch by asynchronous copies (cp.async: 16 bytes per float4 "
      "of B, and of A where the host hands it over transposed, else 4 per element of A, "
      "transposed on the way) into STAGES local buffers, so that no "
      "register holds a prefetched value, and double-buffers the register fragments: the next "
      "k's reads run during this k's FMAs, the next tile's first reads follow the one barrier "
      "per K-step, and the copies refilling a buffer follow those reads; sizes off the tiles by "
      "the last blocks moved back inside C and zeros past K (below PAD_FROM), or padding "
      "copies; a last round of tiles that leaves places idle split along K");
  v.fp64 = false;  // the SGEMM: FP32 only
  v.unsupported = [](const DeviceInfo& device) { return withoutNvidiaPtx(device, 8, "cp.async"); };
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"BM", "BN", "BK", "TM", "TN", "GROUP_M"}, 1);
    requireAtLeast(errors, d,
                   {"PADA", "PADB", "AT_FROM", "MIN_WG_PER_CU", "PAD_FROM", "PAD_FROM_UNALIGNED",
                    "ALIGN_B_FROM", "PAD_PEELED_FROM", "SPLIT_APART", "PEEL_MAX", "FUSE_STRIPS"},
                   0);
    requireAtLeast(errors, d, {"STRIPS_OWN_MAX"}, kStripsOwnMin);
    if (!errors.empty()) return errors;
    for (const char* name : {"TM", "TN", "PADA", "PADB"}) {
      if (d.param(name) % 4 != 0)
        errors.push_back(std::string(name) + "=" + std::to_string(d.param(name)) +
                         " must be a multiple of 4 (float4 reads)");
    }
    if (d.param("BK") % 2 != 0)
      errors.push_back("BK=" + std::to_string(d.param("BK")) +
                       " must be even (the fragments alternate between two register sets)");
    if (d.param("STAGES") < 2 || d.param("STAGES") > 8)
      errors.push_back("STAGES=" + std::to_string(d.param("STAGES")) + " must be 2 to 8");
    requireDivisible(errors, d, "BM", "TM");
    requireDivisible(errors, d, "BN", "TN");
    if (!errors.empty()) return errors;
    const long long threads = threadTileItems(d);
    // Each work-item copies elements of A at one column of the tile (threads % BK == 0), and
    // whole float4s of B (BN is a multiple of TN, so of 4); both tiles divide evenly among the
    // work-items.
    if (threads % d.param("BK") != 0)
      errors.push_back("the " + std::to_string(threads) +
                       " work-items ((BM/TM) x (BN/TN)) are not a multiple of BK=" +
                       std::to_string(d.param("BK")) + "; change BK, TM or TN");
    requireEvenShare(errors, d, threads, {{"BM", 1}, {"BN", 4}}, "copies", "", "TM or TN");
    return errors;
  };
  v.shape = threadTileShape;
  v.local_mem_bytes = [](const ResolvedDefines& d, std::size_t element_bytes) {
    return std::size_t(d.param("STAGES") * d.param("BK") *
                       (d.param("BM") + d.param("PADA") + d.param("BN") + d.param("PADB"))) *
           element_bytes;
  };
  addTilePadding(v, simtAsyncPadding);
  v.a_k_major = simtAsyncReadsATransposed;
  v.c_in_place = simtAsyncWritesCInPlace;
  v.b_lines = simtAsyncAlignedBLines;
  v.work_group_block = simtAsyncBlock;
  v.wave_split = simtAsyncWaveSplit;
  v.edge_strips = simtAsyncEdgeStrips;
  v.edges_moved_back = simtAsyncEdgesMovedBack;
  v.padding_unless_split = simtAsyncWithoutPaddingToPeel;
  v.strip_entry = "gemm_edge_strip";
  v.strips_in_gemm = simtAsyncStripsInGemm;
  v.occupancy_hold =
      OccupancyHold{"LOCAL_SPARE", 32,
                    // Both tiles' rows, in every stage.
                    [](const ResolvedDefines& d, std::size_t element_bytes) {
                      return std::size_t(2 * d.param("STAGES") * d.param("BK")) * element_bytes;
                    },
                    simtAsyncPlainProblem, kStripsOwnTimedCap};
  v.problem_defines = [](const ResolvedDefines& d, const RowMajorGemm& g) {
    const auto pad = simtAsyncPadding(d, g.m, g.n, g.k);
    const bool edge = !pad && !isTileMultiple(d, g.m, g.n, g.k);
    const auto strips = simtAsyncEdgeStrips(d, g);
    std::vector<ResolvedDefine> defines = {
        {"A_KM", simtAsyncReadsATransposed(d, g) ? "1" : "0", "problem"},
        {"EDGE", edge ? "1" : "0", "problem"},
        {"VEC_N", simtAsyncCopiesBByFloats(d, g) ? "0" : "1", "problem"},
        {"PEEL_M", strips && strips->m0 < g.m ? "1" : "0", "problem"},
        {"PEEL_N", strips && strips->n0 < g.n ? "1" : "0", "problem"}};
    if (simtAsyncWritesCInPlace(d, g))
      defines.push_back({"C_LD", std::to_string(g.c.ld), "problem"});
    if (const int lines = simtAsyncAlignedBLines(d, g); lines > 0)
      defines.push_back({"B_LD", std::to_string(lines), "problem"});
    return pad ? withPaddedSizes(defines, *pad) : defines;
  };
  return v;
}

}  // namespace

std::vector<Variant> bestVariants() {
  return {
      best(),
      simtAsync(),
  };
}

}  // namespace clgemm
