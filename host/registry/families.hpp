// Internal to the registry's family files: each family's variants, which kernels.cpp lists in the
// ladder's order, and the building blocks the families share. A new kernel is one entry in its
// family's file (and its kernel in kernels.cl), nothing here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "registry/kernels.hpp"
#include "util/int_math.hpp"

namespace clgemm {

// Each family's variants, in the ladder's order.
std::vector<Variant> ladderVariants();      // ladder.cpp: naive-global ... regtile2d
std::vector<Variant> bestVariants();        // best.cpp: best, simt-async
std::vector<Variant> tensorCoreVariants();  // tensor_cores.cpp: tc-tf32 ... tc-3xtf32-f16
std::vector<Variant> cpuPathVariants();     // cpu_paths.cpp: cpu-naive ... cpu-packed
std::vector<Variant> baselineVariants();    // baselines.cpp: clblast, openblas, cublas, cublas-tf32

namespace family {

// Every parameter of a variant must be at least `minimum`.
void requireAtLeast(std::vector<std::string>& errors, const ResolvedDefines& d,
                    const std::vector<std::string>& names, int minimum);

void requireDivisible(std::vector<std::string>& errors, const ResolvedDefines& d,
                      const std::string& tile, const std::string& per_item);

// Bytes of A and B loaded by a kernel whose unit of reuse (a work-group's tiles, or one
// work-item's registers) covers `rows` x `cols` of C: every such block reads its rows of A and its
// columns of B once over all of K, so A is read once per block column and B once per block row.
// Loads outside the matrices are never issued, so only whole rows and columns count. Elements of
// `element_bytes` (kernels.cl's REAL).
double tileTraffic(int m, int n, int k, int rows, int cols, std::size_t element_bytes);

Variant openClVariant(std::string name, std::string entry, std::string summary,
                      std::vector<Param> params, std::string builds_on, std::string adds);

// The launch of a kernel whose work-group of local_x x local_y work-items covers block_cols x
// block_rows of C.
LaunchShape blockShape(int m, int n, std::size_t block_rows, std::size_t block_cols,
                       std::size_t local_x, std::size_t local_y, std::string local_from);

// Whether a row of `cols` floats keeps every row start `width`-float aligned, for the kernels that
// use aligned vector loads only where that holds.
std::string alignedRows(int cols, int width);

// Whether M, N, K are multiples of the tiles BM, BN, BK (an exact problem).
bool isTileMultiple(const ResolvedDefines& d, int m, int n, int k);

// M, N, K rounded up to multiples of BM, BN, BK; nothing where they are multiples already, or
// where a padded matrix would pass the kernels' 32-bit indices.
std::optional<PaddedSizes> paddedToTiles(const ResolvedDefines& d, int m, int n, int k);

// Whether the harmonic mean 3 / (1/M + 1/N + 1/K) is at least `size`, without dividing (exact
// for small sizes).
bool harmonicMeanAtLeast(int m, int n, int k, int size);

// best and the tensor-core kernels at sizes that are not multiples of their BM x BN x BK tiles:
// padding copies from PAD_FROM up, where they cost less than the kernel's own edge handling
// (docs/performance.md). The size compared is the
// harmonic mean 3 / (1/M + 1/N + 1/K), because the copies move about M*K + K*N + M*N floats
// against the GEMM's 2*M*N*K flops: a small K (8191 x 8191 x 256) makes copying C as costly as
// small M and N do. Not where a padded matrix would pass the kernels' 32-bit indices.
std::optional<PaddedSizes> tilePadding(const ResolvedDefines& d, int m, int n, int k);

// `defines` and the padded sizes, which are for the report (no kernel reads them).
std::vector<ResolvedDefine> withPaddedSizes(std::vector<ResolvedDefine> defines,
                                            const PaddedSizes& pad);

// Each tile's share of a K-step, tile x BK / per_piece pieces (float4 loads, copies: `what`), must
// divide evenly among `items` work-items; a message per tile that does not, "... among the N
// work-items<note>; change <tile>, BK, <change>". `tiles` pairs a tile define with its per_piece.
void requireEvenShare(std::vector<std::string>& errors, const ResolvedDefines& d, long long items,
                      const std::vector<std::pair<const char*, int>>& tiles,
                      const std::string& what, const std::string& note, const std::string& change);

// The padding of a kernel that only handles tile multiples: nothing for an exact problem, the
// padded sizes for any other; a usage error where padding would pass the 32-bit indices.
std::optional<PaddedSizes> exactTilesOrPadded(const ResolvedDefines& d, int m, int n, int k);

// The padding copies of a kernel with BM x BN x BK tiles, where `padding` asks for them
// (tilePadding: from its PAD_FROM parameter up): copy_matrix makes them, and the bytes they move
// count in the kernel's traffic.
void addTilePadding(Variant& v, std::optional<PaddedSizes> (*padding)(const ResolvedDefines&, int,
                                                                      int, int) = tilePadding);

// The split of a kernel's last round of work-groups (Variant::wave_split): `tiles` blocks of C,
// `k_steps` K-steps each, on a device that runs `slots` work-groups at once on `units` compute
// units. The last round holds `rest` = tiles % slots tiles.
// - Where it leaves at least half the places idle, and a unit holds one work-group or
//   kPlacesRulePerUnit or more (or `units` is not known), each of those tiles is split into
//   parts = slots / rest ranges of K-steps (at most kMaxWaveParts), so that the round ends after
//   about 1 / parts of a tile instead of a whole one: at 2176^3 on the H100 (64 x 128 blocks,
//   three per SM) 2 parts, 1.7% faster than the model's 5.
// - Where it is fuller, or a unit holds more than one work-group and fewer than
//   kPlacesRulePerUnit, and `units` is known, into the parts (at most kMaxFullerParts) that leave
//   the busiest compute unit the fewest K-steps: the whole rounds spread evenly over the units,
//   and ceil(rest x parts / units) parts of the last round on the busiest, each its share of the
//   K-steps times kPartStepCost plus kPartCostSteps. Taken where that is at least
//   kFullerSplitSaving fewer K-steps than unsplit (kFullerSplitSavingTwoPerUnit where a unit
//   holds two: 8192^3's 4096 tiles of 128 x 128 on the 132 SMs, 2.4% by the model, -1.9%
//   measured on the H200). At 1280^3 on the H100 (64 x 128 blocks, 200 tiles on 396 places,
//   three per SM): the busiest SM's 2 x 80 K-steps become 8 fifths of 80 x 1.05 / 5 + 1, -11%;
//   measured -15%. With two per SM (128 x 128 blocks) at 2432^3, 97 tiles left of 361 on 264
//   places: the places' rule's 2 parts were 8% slower than none (the busiest SM keeps three
//   tiles' K-steps), the model's 4 parts as fast as none.
// - Where `units_only`, every last round as a fuller one (nothing where `units` is 0): for a
//   kernel whose split gains nothing from places left idle, only from a lighter busiest unit.
// Each part has kMinPartSteps K-steps at least. Nothing where no split has two parts, or `slots`
// is 0 (unknown).
inline constexpr int kMaxWaveParts = 16;  // the last part adds every part's sums: bounded
inline constexpr int kMinPartSteps = 4;   // a part's pipeline fills and drains once
// Work-groups per unit from which the places' rule splits a last round at most half full (and
// at one per unit, whose places are the units; not measured against the model there). On the
// H100 (docs/performance.md, 2026-11-27, session 13): with three 64 x 128 work-groups per SM it
// was 2-6% faster than the model at 1100^3, 1152^3, 2176^3 and 2688^3; with two 128 x 128 ones
// 1-8% slower at 2432^3, 3200^3 and 4864^3. Perhaps because one work-group left alone on an SM
// keeps it busier with eight warps than with four; not measured.
inline constexpr long long kPlacesRulePerUnit = 3;
// The fuller rounds' model, fitted to 64 x 128 blocks (three per SM) split in 2 to 8 parts at 16
// sizes from 1280^3 to 3072^3 on the H100: its parts were the best measured or within 4.4% of
// them (1500^3: 5 parts -11%, 4 parts -15%), and no split it took was slower than none
// (docs/performance.md, 2026-11-27, session 12):
inline constexpr int kMaxFullerParts = 8;      // measured up to 8; a fuller round's sums are many
inline constexpr double kPartStepCost = 1.05;  // a split build's K-step against a whole tile's
inline constexpr double kPartCostSteps = 1.0;  // a part's fill, drain and sums, in K-steps
inline constexpr double kFullerSplitSaving = 0.05;  // the model's errors: 2-5% either way
// The bar where a unit holds two work-groups (fewer than kPlacesRulePerUnit): there, with the
// split build's K-loop at the plain one's speed (SA_STEP in kernels.cl), the model erred by a
// point at most on the H200 (128 x 128 blocks in 2-8 parts, the model's 2.2-3.8% against
// 1.7-3.4% measured from 4992^3 to 8192^3, 3.6-4.1% against 5-6% at 3200^3 and 3456^3;
// docs/performance.md, 2026-11-28, session 16). With three per unit the 5% stands (not
// measured below it since session 12).
inline constexpr double kFullerSplitSavingTwoPerUnit = 0.02;
std::optional<WaveSplit> splitLastWave(long long tiles, int k_steps, long long slots,
                                       long long units, std::size_t slot_floats,
                                       bool units_only = false);

// Why a kernel written in NVIDIA's inline PTX cannot run on `device`, or nothing where it can: it
// needs NVIDIA's OpenCL compiler and a GPU of compute capability `min_major`.0 or newer, for
// `uses` (what the PTX uses, e.g. "TF32 tensor cores").
std::optional<std::string> withoutNvidiaPtx(const DeviceInfo& device, int min_major,
                                            const std::string& uses);

}  // namespace family
}  // namespace clgemm
