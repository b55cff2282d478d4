// The building blocks the registry's families share (families.hpp says what each does).
#include "registry/families.hpp"

#include <algorithm>
#include <limits>

#include "opencl/device.hpp"
#include "util/errors.hpp"

namespace clgemm::family {

void requireAtLeast(std::vector<std::string>& errors, const ResolvedDefines& d,
                    const std::vector<std::string>& names, int minimum) {
  for (const auto& name : names) {
    if (d.param(name) < minimum)
      errors.push_back(name + "=" + std::to_string(d.param(name)) + " must be at least " +
                       std::to_string(minimum));
  }
}

void requireDivisible(std::vector<std::string>& errors, const ResolvedDefines& d,
                      const std::string& tile, const std::string& per_item) {
  const int t = d.param(tile), w = d.param(per_item);
  if (t > 0 && w > 0 && t % w != 0)
    errors.push_back(tile + "=" + std::to_string(t) + " is not divisible by " + per_item + "=" +
                     std::to_string(w) + "; change " + tile + " or " + per_item);
}

void requireEvenShare(std::vector<std::string>& errors, const ResolvedDefines& d, long long items,
                      const std::vector<std::pair<const char*, int>>& tiles,
                      const std::string& what, const std::string& note, const std::string& change) {
  for (const auto& [tile, per_piece] : tiles) {
    const long long pieces = 1LL * d.param(tile) * d.param("BK") / per_piece;  // no int overflow
    if (pieces % items != 0)
      errors.push_back(std::string(tile) + " x BK / " + std::to_string(per_piece) + " = " +
                       std::to_string(pieces) + " " + what + " do not divide evenly among the " +
                       std::to_string(items) + " work-items" + note + "; change " + tile +
                       ", BK, " + change);
  }
}

double tileTraffic(int m, int n, int k, int rows, int cols, std::size_t element_bytes) {
  const double blocks_m = double(ceilDiv(m, rows)), blocks_n = double(ceilDiv(n, cols));
  return double(element_bytes) * (double(m) * k * blocks_n + double(k) * n * blocks_m);
}

Variant openClVariant(std::string name, std::string entry, std::string summary,
                      std::vector<Param> params, std::string builds_on, std::string adds) {
  Variant v;
  v.name = std::move(name);
  v.backend = Backend::kOpenCl;
  v.entry = std::move(entry);
  v.summary = std::move(summary);
  v.params = std::move(params);
  v.builds_on = std::move(builds_on);
  v.adds = std::move(adds);
  // kernels.cl's REAL: every portable kernel builds in double too (the tensor cores' file clears
  // this).
  v.fp64 = true;
  // Every kernel may need copies: of operands stored otherwise than packed row-major (unless it
  // takes shapes itself), or padding copies.
  v.pad_entry = "copy_matrix";
  v.pad_shape = [](int rows, int cols) {
    // A 32 x 64 block per work-group, 8 lines per work-item (kernels.cl's copy_matrix,
    // CM_LINES).
    constexpr std::size_t kLines = 8;
    return LaunchShape{
        {roundUp(std::size_t(cols), 32), roundUp(std::size_t(rows), 8 * kLines) / kLines},
        {32, 8},
        "copy_matrix's fixed 32 x 8, a 32 x 64 block each"};
  };
  // Where A and B are both copied, one launch for the two (kernels.cl's copy_matrix_pair, on
  // pad_shape's grids).
  v.pad_pair_entry = "copy_matrix_pair";
  return v;
}

LaunchShape blockShape(int m, int n, std::size_t block_rows, std::size_t block_cols,
                       std::size_t local_x, std::size_t local_y, std::string local_from) {
  return LaunchShape{{roundUp(std::size_t(n), block_cols) / block_cols * local_x,
                      roundUp(std::size_t(m), block_rows) / block_rows * local_y},
                     {local_x, local_y},
                     std::move(local_from)};
}

std::string alignedRows(int cols, int width) { return cols % width == 0 ? "1" : "0"; }

bool isTileMultiple(const ResolvedDefines& d, int m, int n, int k) {
  return m % d.param("BM") == 0 && n % d.param("BN") == 0 && k % d.param("BK") == 0;
}

std::optional<PaddedSizes> paddedToTiles(const ResolvedDefines& d, int m, int n, int k) {
  if (isTileMultiple(d, m, n, k)) return std::nullopt;
  const long long bm = d.param("BM"), bn = d.param("BN"), bk = d.param("BK");
  const long long pm = ceilDiv(m, bm) * bm, pn = ceilDiv(n, bn) * bn, pk = ceilDiv(k, bk) * bk;
  const long long index_limit = std::numeric_limits<int>::max();
  if (pm * pk > index_limit || pk * pn > index_limit || pm * pn > index_limit) return std::nullopt;
  return PaddedSizes{int(pm), int(pn), int(pk)};
}

bool harmonicMeanAtLeast(int m, int n, int k, int size) {
  const double mn = double(m) * n, mk = double(m) * k, nk = double(n) * k;
  return 3.0 * mn * k >= double(size) * (mn + mk + nk);
}

namespace {

// The parts a fuller last round (`rest` of the tiles, more than half its places) is split into,
// or 1 (splitLastWave's model): those that leave the busiest unit the fewest K-steps, where that
// saves `bar` of the unsplit ones.
int fullerRoundParts(long long tiles, long long rest, int k_steps, long long units, double bar) {
  const double whole_steps = double(tiles - rest) / double(units) * k_steps;
  const double unsplit = whole_steps + double(ceilDiv(rest, units)) * k_steps;
  const int max_parts = std::min(kMaxFullerParts, k_steps / kMinPartSteps);
  int best_parts = 1;
  double best = unsplit;
  for (int parts = 2; parts <= max_parts; ++parts) {
    const double part_steps = double(k_steps) / parts * kPartStepCost + kPartCostSteps;
    const double steps = whole_steps + double(ceilDiv(rest * parts, units)) * part_steps;
    if (steps < best) {
      best = steps;
      best_parts = parts;
    }
  }
  return best <= (1.0 - bar) * unsplit ? best_parts : 1;
}

}  // namespace

std::optional<WaveSplit> splitLastWave(long long tiles, int k_steps, long long slots,
                                       long long units, std::size_t slot_floats, bool units_only) {
  if (slots < 2 || tiles <= 0 || k_steps <= 0) return std::nullopt;
  const long long rest = tiles % slots;
  if (rest == 0 || (units_only && units <= 0)) return std::nullopt;
  long long parts =
      std::min({slots / rest, (long long)kMaxWaveParts, (long long)(k_steps / kMinPartSteps)});
  const bool shared_units = slots > units && slots < kPlacesRulePerUnit * units;
  if ((units_only || slots / rest < 2 || shared_units) && units > 0)
    parts = fullerRoundParts(tiles, rest, k_steps, units,
                             shared_units ? kFullerSplitSavingTwoPerUnit : kFullerSplitSaving);
  if (parts < 2) return std::nullopt;
  return WaveSplit{int(tiles - rest), int(rest), int(parts), slot_floats};
}

std::optional<PaddedSizes> tilePadding(const ResolvedDefines& d, int m, int n, int k) {
  if (k == 0) return std::nullopt;  // C = beta * C (the library's alpha = 0): no product to pad
  if (!harmonicMeanAtLeast(m, n, k, d.param("PAD_FROM"))) return std::nullopt;
  return paddedToTiles(d, m, n, k);
}

std::vector<ResolvedDefine> withPaddedSizes(std::vector<ResolvedDefine> defines,
                                            const PaddedSizes& pad) {
  defines.push_back({"PADDED_M", std::to_string(pad.m), "problem"});
  defines.push_back({"PADDED_N", std::to_string(pad.n), "problem"});
  defines.push_back({"PADDED_K", std::to_string(pad.k), "problem"});
  return defines;
}

std::optional<PaddedSizes> exactTilesOrPadded(const ResolvedDefines& d, int m, int n, int k) {
  if (isTileMultiple(d, m, n, k)) return std::nullopt;
  if (auto pad = paddedToTiles(d, m, n, k)) return pad;
  throw UsageError(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                   " padded to multiples of BM x BN x BK would have a matrix of more than " +
                   std::to_string(std::numeric_limits<int>::max()) +
                   " elements; this kernel runs tile multiples only");
}

void addTilePadding(Variant& v,
                    std::optional<PaddedSizes> (*padding)(const ResolvedDefines&, int, int, int)) {
  v.padding = padding;
  v.global_bytes = [padding](const ResolvedDefines& d, int m, int n, int k,
                             std::size_t element_bytes) {
    const auto pad = padding(d, m, n, k);
    if (!pad) return tileTraffic(m, n, k, d.param("BM"), d.param("BN"), element_bytes);
    // The copies read A and B once and the padded C once; the GEMM reads the padded A and B.
    return tileTraffic(pad->m, pad->n, pad->k, d.param("BM"), d.param("BN"), element_bytes) +
           double(element_bytes) * (double(m) * k + double(k) * n + double(pad->m) * pad->n);
  };
}

std::optional<std::string> withoutNvidiaPtx(const DeviceInfo& device, int min_major,
                                            const std::string& uses) {
  const std::string needs =
      "needs an NVIDIA GPU of compute capability " + std::to_string(min_major) + ".0 or newer";
  if (device.vendor.find("NVIDIA") == std::string::npos)
    return "needs an NVIDIA GPU (" + uses + " through inline PTX); " + device.name + " is from " +
           (device.vendor.empty() ? "an unnamed vendor" : device.vendor);
  if (!device.nv_cc_major)
    return needs + ", and " + device.name +
           " does not report its own (no cl_nv_device_attribute_query)";
  if (*device.nv_cc_major < min_major)
    return needs + " (" + uses + "); " + device.name + " has " +
           std::to_string(*device.nv_cc_major) + "." +
           std::to_string(device.nv_cc_minor.value_or(0));
  return std::nullopt;
}

}  // namespace clgemm::family
