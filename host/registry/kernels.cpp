#include "registry/kernels.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "check/verify.hpp"
#include "opencl/cuda_library.hpp"
#include "opencl/device.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Every parameter of a variant must be at least `minimum`.
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

// Bytes of A and B loaded by a kernel whose unit of reuse (a work-group's tiles, or one
// work-item's registers) covers `rows` x `cols` of C: every such block reads its rows of A and its
// columns of B once over all of K, so A is read once per block column and B once per block row.
// Loads outside the matrices are never issued, so only whole rows and columns count.
double tileTraffic(int m, int n, int k, int rows, int cols) {
  const double blocks_m = double((m + rows - 1) / rows), blocks_n = double((n + cols - 1) / cols);
  return double(sizeof(float)) * (double(m) * k * blocks_n + double(k) * n * blocks_m);
}

// A square TS x TS tile, the reuse of every local-memory kernel from tiled to prefetch-local.
std::function<double(const ResolvedDefines&, int, int, int)> squareTileTraffic() {
  return [](const ResolvedDefines& d, int m, int n, int k) {
    return tileTraffic(m, n, k, d.param("TS"), d.param("TS"));
  };
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
  return v;
}

// The launch of a kernel whose work-group of local_x x local_y work-items covers block_cols x
// block_rows of C.
LaunchShape blockShape(int m, int n, std::size_t block_rows, std::size_t block_cols,
                       std::size_t local_x, std::size_t local_y, std::string local_from) {
  return LaunchShape{{roundUp(std::size_t(n), block_cols) / block_cols * local_x,
                      roundUp(std::size_t(m), block_rows) / block_rows * local_y},
                     {local_x, local_y},
                     std::move(local_from)};
}

// Whether a row of `cols` floats keeps every row start `width`-float aligned, for the kernels that
// use aligned vector loads only where that holds.
std::string alignedRows(int cols, int width) { return cols % width == 0 ? "1" : "0"; }

const std::vector<Param> kNaiveParams = {
    {"WGX", 16, "work-group width (columns of C)", {4, 8, 16, 32, 64}},
    {"WGY", 16, "work-group height (rows of C)", {1, 2, 4, 8, 16, 32}}};

// naive and naive-global differ only in where the sum is kept.
Variant naiveFamily(std::string name, std::string entry, std::string summary, std::string builds_on,
                    std::string adds) {
  Variant v = openClVariant(std::move(name), std::move(entry), std::move(summary), kNaiveParams,
                            std::move(builds_on), std::move(adds));
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"WGX", "WGY"}, 1);
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t wx = std::size_t(d.param("WGX")), wy = std::size_t(d.param("WGY"));
    return blockShape(m, n, wy, wx, wx, wy, "WGX x WGY");
  };
  v.local_mem_bytes = [](const ResolvedDefines&) { return std::size_t(0); };
  v.global_bytes = [](const ResolvedDefines&, int m, int n, int k) {
    return tileTraffic(m, n, k, 1, 1);
  };
  return v;
}

Variant naiveGlobal() {
  Variant v = naiveFamily(
      "naive-global", "gemm_naive_global",
      "one work-item per element of C, accumulating straight into C in global memory", "",
      "the reference point: every multiply-add loads A, B and C and stores C in global memory");
  v.global_bytes = [](const ResolvedDefines&, int m, int n, int k) {
    return tileTraffic(m, n, k, 1, 1) + double(sizeof(float)) * m * n * double(k);
  };
  return v;
}

Variant naive() {
  return naiveFamily("naive", "gemm_naive", "one work-item per element of C, private accumulator",
                     "naive-global",
                     "sums the dot product in a private register: C is touched once, not K times");
}

// The TS x TS tiles of A and B in local memory, `buffers` of each (2: double buffering), A's rows
// padded by `pad_a` floats against bank conflicts.
std::function<std::size_t(const ResolvedDefines&)> squareTileBytes(std::size_t buffers,
                                                                   std::size_t pad_a) {
  return [buffers, pad_a](const ResolvedDefines& d) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return buffers * (ts * (ts + pad_a) + ts * ts) * sizeof(float);
  };
}

Variant tiled() {
  Variant v = openClVariant(
      "tiled", "gemm_tiled",
      "TS x TS tiles of A and B in local memory, one element of C per work-item",
      {{"TS", 16, "tile edge: the work-group is TS x TS and the K-step is TS", {4, 8, 16, 32}}},
      "naive",
      "stages TS x TS tiles of A and B in local memory: each value loaded from "
      "global memory serves TS work-items");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TS"}, 1);
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return blockShape(m, n, ts, ts, ts, ts, "TS x TS");
  };
  v.local_mem_bytes = squareTileBytes(1, 0);
  v.global_bytes = squareTileTraffic();
  return v;
}

Variant tiledWpt() {
  Variant v = openClVariant(
      "tiled-wpt", "gemm_tiled_wpt", "TS x TS local tiles, WPT rows of C per work-item",
      {{"TS", 32, "tile edge: the tiles are TS x TS and the K-step is TS", {8, 16, 32, 64}},
       {"WPT", 4, "rows of C per work-item (divides TS)", {1, 2, 4, 8, 16}}},
      "tiled",
      "gives each work-item WPT rows of its column: a B value read from local memory is reused "
      "WPT times from a register, and WPT times fewer work-items");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TS", "WPT"}, 1);
    requireDivisible(errors, d, "TS", "WPT");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return blockShape(m, n, ts, ts, ts, ts / std::size_t(d.param("WPT")), "TS x TS/WPT");
  };
  v.local_mem_bytes = squareTileBytes(1, 0);
  v.global_bytes = squareTileTraffic();
  return v;
}

Variant vector() {
  Variant v = openClVariant(
      "vector", "gemm_vector",
      "TS x TS local tiles, WIDTH columns of C per work-item as one floatWIDTH, vector loads",
      {{"TS", 32, "tile edge: the tiles are TS x TS and the K-step is TS", {8, 16, 32, 64}},
       {"WIDTH", 4, "floats per vector: 2, 4, 8 or 16 (divides TS)", {2, 4, 8, 16}}},
      "tiled-wpt",
      "makes the work per work-item WIDTH neighbouring columns held in one floatWIDTH: global "
      "loads, local reads of B and the multiply-adds all go WIDTH floats at a time (A's local "
      "rows padded by a float: a warp spans several rows)");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TS", "WIDTH"}, 1);
    const int width = d.param("WIDTH");
    if (width != 2 && width != 4 && width != 8 && width != 16)
      errors.push_back("WIDTH=" + std::to_string(width) +
                       " is not an OpenCL vector width; use 2, 4, 8 or 16");
    requireDivisible(errors, d, "TS", "WIDTH");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return blockShape(m, n, ts, ts, ts / std::size_t(d.param("WIDTH")), ts, "TS/WIDTH x TS");
  };
  v.local_mem_bytes = squareTileBytes(1, 1);
  v.global_bytes = squareTileTraffic();
  v.problem_defines = [](const ResolvedDefines& d, int, int n, int k) {
    const int width = d.param("WIDTH");
    return std::vector<ResolvedDefine>{{"VEC_A", alignedRows(k, width), "problem"},
                                       {"VEC_B", alignedRows(n, width), "problem"}};
  };
  return v;
}

// tiled-2x2 and the two prefetching kernels built on it share parameters, launch and constraints.
Variant twoByTwoFamily(std::string name, std::string entry, std::string summary,
                       std::string builds_on, std::string adds, std::size_t local_buffers) {
  Variant v = openClVariant(
      std::move(name), std::move(entry), std::move(summary),
      {{"TS", 32, "tile edge (even): the tiles are TS x TS, the K-step TS", {4, 8, 16, 32, 64}}},
      std::move(builds_on), std::move(adds));
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TS"}, 2);
    if (d.param("TS") % 2 != 0)
      errors.push_back("TS=" + std::to_string(d.param("TS")) +
                       " must be even (each work-item computes a 2x2 block)");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return blockShape(m, n, ts, ts, ts / 2, ts / 2, "TS/2 x TS/2");
  };
  v.local_mem_bytes = squareTileBytes(local_buffers, 1);
  v.global_bytes = squareTileTraffic();
  return v;
}

Variant tiled2x2() {
  return twoByTwoFamily(
      "tiled-2x2", "gemm_tiled_2x2", "TS x TS local tiles, a 2x2 block of C per work-item",
      "tiled-wpt",
      "spreads the extra work over both dimensions: two A and two B values from local memory feed "
      "four multiply-adds (tiled needs two reads per multiply-add); a warp now spans two rows, "
      "so A's local rows are padded by a float against bank conflicts",
      1);
}

Variant prefetchReg() {
  return twoByTwoFamily(
      "prefetch-reg", "gemm_prefetch_reg",
      "tiled-2x2 with the next tiles prefetched into registers during the multiply-adds",
      "tiled-2x2",
      "loads the next tiles into registers before the current tile's multiply-adds and stores "
      "them to local memory after, so global latency hides behind arithmetic",
      1);
}

Variant prefetchLocal() {
  return twoByTwoFamily(
      "prefetch-local", "gemm_prefetch_local",
      "tiled-2x2 with double-buffered local memory: two tiles in flight, one barrier per tile",
      "tiled-2x2",
      "double-buffers the local tiles instead: the next tile loads into one buffer while the "
      "other is multiplied out, with one barrier per tile instead of two",
      2);
}

Variant transposedB() {
  Variant v = openClVariant(
      "transposed-b", "gemm_transposed_b",
      "B transposed first by a helper kernel (timed too), rectangular TSM x TSN x TSK tiles, "
      "WPTM rows per work-item, padded local memory",
      {{"TSM", 64, "rows of C per work-group", {16, 32, 64, 128}},
       {"TSN", 32, "columns of C per work-group: the work-group width", {16, 32, 64}},
       {"TSK", 32, "K-step: depth of the local tiles", {8, 16, 32}},
       {"WPTM", 8, "rows of C per work-item (divides TSM)", {1, 2, 4, 8, 16}},
       {"PAD", 1, "floats of padding per local row, against bank conflicts", {0, 1, 2}},
       {"TT", 16, "tile edge of the transposing helper kernel", {8, 16, 32}}},
      "tiled-wpt",
      "transposes B first so A and B are both read along K, and makes the tiles rectangular "
      "(TSM x TSN, K-step TSK) with padded k-major local storage");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TSM", "TSN", "TSK", "WPTM", "TT"}, 1);
    requireAtLeast(errors, d, {"PAD"}, 0);
    requireDivisible(errors, d, "TSM", "WPTM");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t tsm = std::size_t(d.param("TSM")), tsn = std::size_t(d.param("TSN"));
    return blockShape(m, n, tsm, tsn, tsn, tsm / std::size_t(d.param("WPTM")), "TSN x TSM/WPTM");
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    const std::size_t tsk = std::size_t(d.param("TSK")), pad = std::size_t(d.param("PAD"));
    const std::size_t gemm =
        tsk * (std::size_t(d.param("TSM")) + pad + std::size_t(d.param("TSN")) + pad);
    const std::size_t tt = std::size_t(d.param("TT"));
    return std::max(gemm, tt * (tt + 1)) * sizeof(float);
  };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k) {
    return tileTraffic(m, n, k, d.param("TSM"), d.param("TSN")) +
           double(sizeof(float)) * k * double(n);  // the transpose reads B once
  };
  v.transpose_b_entry = "transpose_b";
  v.transpose_b_shape = [](const ResolvedDefines& d, int k, int n) {
    const std::size_t tt = std::size_t(d.param("TT"));
    return LaunchShape{
        {roundUp(std::size_t(n), tt), roundUp(std::size_t(k), tt)}, {tt, tt}, "TT x TT"};
  };
  return v;
}

Variant regtileNolocal() {
  Variant v = openClVariant(
      "regtile-nolocal", "gemm_regtile_nolocal",
      "TY x TX register blocks straight from global memory, no local memory, K unrolled by LEN",
      {{"TX", 4, "columns of C per work-item", {1, 2, 4, 8}},
       {"TY", 4, "rows of C per work-item", {1, 2, 4, 8}},
       {"LEN", 4, "K-unroll: values of k held in registers per step", {1, 2, 4, 8}},
       {"WGX", 16, "work-group width", {8, 16, 32}},
       {"WGY", 16, "work-group height", {4, 8, 16}}},
      "naive",
      "a branch without local memory: each work-item keeps a TY x TX block of C and LEN steps of "
      "A and B in registers, so each value loaded is reused TX or TY times; caches do the rest");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TX", "TY", "LEN", "WGX", "WGY"}, 1);
    if (!errors.empty()) return errors;
    // acc[TY][TX], a[TY][LEN] and b[LEN][TX] per work-item. Past a few hundred floats they spill
    // out of any register file; pocl runs a work-group's work-items on one thread's 8 MiB stack
    // and crashes past that, so a work-group's arrays are held to half of it.
    constexpr double kMaxPrivateBytes = 4.0 * 1024 * 1024;
    const double tx = d.param("TX"), ty = d.param("TY"), len = d.param("LEN");
    const double bytes =
        double(d.param("WGX")) * d.param("WGY") * (ty * tx + ty * len + len * tx) * sizeof(float);
    if (bytes > kMaxPrivateBytes) {
      errors.push_back(
          "the private arrays of a work-group, WGX x WGY x (TY*TX + TY*LEN + LEN*TX) "
          "floats, take " +
          formatBytes(std::uint64_t(bytes)) + " at TX=" + std::to_string(d.param("TX")) +
          " TY=" + std::to_string(d.param("TY")) + " LEN=" + std::to_string(d.param("LEN")) +
          ", beyond 4 MiB: lower LEN, TX, TY or the work-group");
    }
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t wgx = std::size_t(d.param("WGX")), wgy = std::size_t(d.param("WGY"));
    return blockShape(m, n, wgy * std::size_t(d.param("TY")), wgx * std::size_t(d.param("TX")), wgx,
                      wgy, "WGX x WGY");
  };
  v.local_mem_bytes = [](const ResolvedDefines&) { return std::size_t(0); };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k) {
    return tileTraffic(m, n, k, d.param("TY"), d.param("TX"));
  };
  return v;
}

Variant regtile2d() {
  Variant v = openClVariant(
      "regtile2d", "gemm_regtile2d",
      "TSM x TSN block per work-group, WPTM x WPTN per work-item in registers, padded local tiles",
      {{"TSM", 64, "rows of C per work-group", {16, 32, 64, 128}},
       {"TSN", 64, "columns of C per work-group", {16, 32, 64, 128}},
       {"TSK", 16, "K-step: depth of the A and B tiles in local memory", {8, 16, 32}},
       {"WPTM", 4, "rows of C per work-item", {1, 2, 4, 8}},
       {"WPTN", 4, "columns of C per work-item", {1, 2, 4, 8}},
       {"PAD", 1, "floats of padding per local-memory row, against bank conflicts", {0, 1, 2}}},
      "tiled-2x2",
      "grows the 2x2 block to WPTM x WPTN per work-item over rectangular TSM x TSN x TSK tiles, "
      "A stored transposed in padded local memory: each local value feeds WPTN or WPTM "
      "multiply-adds");
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"TSM", "TSN", "TSK", "WPTM", "WPTN"}, 1);
    requireAtLeast(errors, d, {"PAD"}, 0);
    requireDivisible(errors, d, "TSM", "WPTM");
    requireDivisible(errors, d, "TSN", "WPTN");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t tsm = std::size_t(d.param("TSM")), tsn = std::size_t(d.param("TSN"));
    return blockShape(m, n, tsm, tsn, tsn / std::size_t(d.param("WPTN")),
                      tsm / std::size_t(d.param("WPTM")), "TSN/WPTN x TSM/WPTM");
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    const std::size_t tsk = std::size_t(d.param("TSK")), pad = std::size_t(d.param("PAD"));
    return tsk * (std::size_t(d.param("TSM")) + pad + std::size_t(d.param("TSN")) + pad) *
           sizeof(float);
  };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k) {
    return tileTraffic(m, n, k, d.param("TSM"), d.param("TSN"));
  };
  return v;
}

// Whether M, N, K are multiples of the tiles BM, BN, BK (an exact problem).
bool isTileMultiple(const ResolvedDefines& d, int m, int n, int k) {
  return m % d.param("BM") == 0 && n % d.param("BN") == 0 && k % d.param("BK") == 0;
}

// M, N, K rounded up to multiples of BM, BN, BK; nothing where they are multiples already, or
// where a padded matrix would pass the kernels' 32-bit indices.
std::optional<PaddedSizes> paddedToTiles(const ResolvedDefines& d, int m, int n, int k) {
  if (isTileMultiple(d, m, n, k)) return std::nullopt;
  const long long bm = d.param("BM"), bn = d.param("BN"), bk = d.param("BK");
  const long long pm = (m + bm - 1) / bm * bm, pn = (n + bn - 1) / bn * bn,
                  pk = (k + bk - 1) / bk * bk;
  const long long index_limit = std::numeric_limits<int>::max();
  if (pm * pk > index_limit || pk * pn > index_limit || pm * pn > index_limit) return std::nullopt;
  return PaddedSizes{int(pm), int(pn), int(pk)};
}

// best and the tensor-core kernels at sizes that are not multiples of their BM x BN x BK tiles:
// padding copies from PAD_FROM up, where they cost less than the kernel's own edge handling
// (docs/performance.md). The size compared is the
// harmonic mean 3 / (1/M + 1/N + 1/K), because the copies move about M*K + K*N + M*N floats
// against the GEMM's 2*M*N*K flops: a small K (8191 x 8191 x 256) makes copying C as costly as
// small M and N do. Not where a padded matrix would pass the kernels' 32-bit indices.
std::optional<PaddedSizes> tilePadding(const ResolvedDefines& d, int m, int n, int k) {
  // harmonic mean >= PAD_FROM, without dividing (exact for small sizes).
  const double mn = double(m) * n, mk = double(m) * k, nk = double(n) * k;
  if (3.0 * mn * k < double(d.param("PAD_FROM")) * (mn + mk + nk)) return std::nullopt;
  return paddedToTiles(d, m, n, k);
}

// `defines` and the padded sizes, which are for the report (no kernel reads them).
std::vector<ResolvedDefine> withPaddedSizes(std::vector<ResolvedDefine> defines,
                                            const PaddedSizes& pad) {
  defines.push_back({"PADDED_M", std::to_string(pad.m), "problem"});
  defines.push_back({"PADDED_N", std::to_string(pad.n), "problem"});
  defines.push_back({"PADDED_K", std::to_string(pad.k), "problem"});
  return defines;
}

// The padding copies (tilePadding) of a kernel with BM x BN x BK tiles and a PAD_FROM parameter:
// resize_matrix makes them, and the bytes they move count in the kernel's traffic.
void addTilePadding(Variant& v) {
  v.padding = tilePadding;
  v.pad_entry = "resize_matrix";
  v.pad_shape = [](int rows, int cols) {
    return LaunchShape{{roundUp(std::size_t(cols), 32), roundUp(std::size_t(rows), 8)},
                       {32, 8},
                       "resize_matrix's fixed 32 x 8"};
  };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k) {
    const auto pad = tilePadding(d, m, n, k);
    if (!pad) return tileTraffic(m, n, k, d.param("BM"), d.param("BN"));
    // The copies read A and B once and the padded C once; the GEMM reads the padded A and B.
    return tileTraffic(pad->m, pad->n, pad->k, d.param("BM"), d.param("BN")) +
           double(sizeof(float)) * (double(m) * k + double(k) * n + double(pad->m) * pad->n);
  };
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
        {0, 4000}}},
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
    const long long threads =
        1LL * (d.param("BM") / d.param("TM")) * (d.param("BN") / d.param("TN"));
    for (const char* tile : {"BM", "BN"}) {
      const long long float4s = 1LL * d.param(tile) * d.param("BK") / 4;  // no int overflow
      if (float4s % threads != 0)
        errors.push_back(std::string(tile) + " x BK / 4 = " + std::to_string(float4s) +
                         " float4 loads do not divide evenly among the " + std::to_string(threads) +
                         " work-items; change " + tile + ", BK, TM or TN");
    }
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    return blockShape(m, n, bm, bn, bn / std::size_t(d.param("TN")),
                      bm / std::size_t(d.param("TM")), "BN/TN x BM/TM");
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    return std::size_t(2 * d.param("BK") *
                       (d.param("BM") + d.param("PADA") + d.param("BN") + d.param("PADB"))) *
           sizeof(float);
  };
  addTilePadding(v);
  v.problem_defines = [](const ResolvedDefines& d, int m, int n, int k) {
    if (const auto pad = tilePadding(d, m, n, k)) {
      // An exact problem, float4-aligned; the padded sizes are for the report.
      return withPaddedSizes(
          {{"EDGE", "0", "problem"}, {"VEC_A", "1", "problem"}, {"VEC_B", "1", "problem"}}, *pad);
    }
    const bool exact = isTileMultiple(d, m, n, k);
    return std::vector<ResolvedDefine>{{"EDGE", exact ? "0" : "1", "problem"},
                                       {"VEC_A", alignedRows(k, 4), "problem"},
                                       {"VEC_B", alignedRows(n, 4), "problem"}};
  };
  return v;
}

// The tensor-core kernels' inline PTX (mma.sync with TF32 operands) needs NVIDIA's OpenCL compiler
// and a GPU of compute capability 8.0 (Ampere) or newer.
std::optional<std::string> withoutTensorCores(const DeviceInfo& device) {
  if (device.vendor.find("NVIDIA") == std::string::npos)
    return "needs an NVIDIA GPU (TF32 tensor cores through inline PTX); " + device.name +
           " is from " + (device.vendor.empty() ? "an unnamed vendor" : device.vendor);
  if (!device.nv_cc_major)
    return "needs an NVIDIA GPU of compute capability 8.0 or newer, and " + device.name +
           " does not report its own (no cl_nv_device_attribute_query)";
  if (*device.nv_cc_major < 8)
    return "needs an NVIDIA GPU of compute capability 8.0 or newer (TF32 tensor cores); " +
           device.name + " has " + std::to_string(*device.nv_cc_major) + "." +
           std::to_string(device.nv_cc_minor.value_or(0));
  return std::nullopt;
}

// tc-tf32 and tc-3xtf32: one kernel in kernels.cl, two entries, the same tiling.
// The warp tile (WM x WN) is the one default that differs: tc-3xtf32 keeps a second set of
// accumulators and three times the fragments in registers, and runs faster with the smaller one.
Variant tensorCoreFamily(std::string name, std::string entry, Arithmetic arithmetic, int wm, int wn,
                         std::string summary, std::string builds_on, std::string adds) {
  Variant v = openClVariant(
      std::move(name), std::move(entry), std::move(summary),
      {{"BM", 128, "rows of C per work-group", {64, 128, 256}},
       {"BN", 128, "columns of C per work-group (a multiple of 16)", {64, 128, 256}},
       {"BK", 16, "K-step (a multiple of 16)", {16, 32}},
       {"WM", wm, "rows of C per warp (a multiple of 16)", {32, 64}},
       {"WN", wn, "columns of C per warp (a multiple of 8)", {32, 64}},
       {"GROUP_M", 8, "block rows per band of the swizzled work-group order", {8, 16}},
       {"STAGES",
        2,
        "local buffers: 2 (double-buffered) or 1 (two barriers per K-step, half the local memory)",
        {1, 2}},
       {"PAD_FROM",
        3000,
        "sizes that are not tile multiples: padding copies (timed with the GEMM) from this size "
        "up, the harmonic mean of M, N and K; checked loads and stores in the kernel below it "
        "(0: always copies)",
        {0, 3000}}},
      std::move(builds_on), std::move(adds));
  v.arithmetic = arithmetic;
  v.unsupported = withoutTensorCores;
  v.constraints = [](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"BM", "BN", "BK", "WM", "WN", "GROUP_M"}, 1);
    requireAtLeast(errors, d, {"PAD_FROM"}, 0);
    if (!errors.empty()) return errors;
    const auto multipleOf = [&](const char* name, int of, const char* why) {
      if (d.param(name) % of != 0)
        errors.push_back(std::string(name) + "=" + std::to_string(d.param(name)) +
                         " must be a multiple of " + std::to_string(of) + " (" + why + ")");
    };
    multipleOf("BK", 16, "two mma k-steps, conflict-free local strides");
    multipleOf("BN", 16, "conflict-free local strides");
    multipleOf("WM", 16, "mma tiles are 16 rows");
    multipleOf("WN", 8, "mma tiles are 8 columns");
    if (d.param("STAGES") != 1 && d.param("STAGES") != 2)
      errors.push_back("STAGES=" + std::to_string(d.param("STAGES")) + " must be 1 or 2");
    requireDivisible(errors, d, "BM", "WM");
    requireDivisible(errors, d, "BN", "WN");
    if (!errors.empty()) return errors;
    const long long threads =
        32LL * (d.param("BM") / d.param("WM")) * (d.param("BN") / d.param("WN"));
    // A is loaded a float4 at a time, B two float4s (rows 2p and 2p + 1) at a time.
    for (const auto& [tile, per_load] : {std::pair{"BM", 4}, std::pair{"BN", 8}}) {
      const long long loads = 1LL * d.param(tile) * d.param("BK") / per_load;
      if (loads % threads != 0)
        errors.push_back(std::string(tile) + " x BK / " + std::to_string(per_load) + " = " +
                         std::to_string(loads) + " loads do not divide evenly among the " +
                         std::to_string(threads) + " work-items (32 per warp); change " + tile +
                         ", BK, WM or WN");
    }
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    return blockShape(m, n, bm, bn, 32 * (bn / std::size_t(d.param("WN"))),
                      bm / std::size_t(d.param("WM")), "32*BN/WN x BM/WM");
  };
  v.local_mem_bytes = [](const ResolvedDefines& d) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN")),
                      bk = std::size_t(d.param("BK"));
    return std::size_t(d.param("STAGES")) * (bm * (bk + 8) + bk / 2 * (2 * bn + 8)) * sizeof(float);
  };
  addTilePadding(v);
  v.problem_defines = [](const ResolvedDefines& d, int m, int n, int k) {
    if (const auto pad = tilePadding(d, m, n, k)) {
      return withPaddedSizes({{"EDGE", "0", "problem"}}, *pad);
    }
    const bool exact = isTileMultiple(d, m, n, k);
    return std::vector<ResolvedDefine>{{"EDGE", exact ? "0" : "1", "problem"}};
  };
  return v;
}

Variant tcTf32() {
  return tensorCoreFamily(
      "tc-tf32", "gemm_tc_tf32", Arithmetic::kTf32, 64, 64,
      "NVIDIA tensor cores (inline PTX mma.sync m16n8k8), A and B rounded to TF32, FP32 sums: "
      "fast, about 3 decimal digits per product (judged by the TF32 threshold)",
      "best",
      "hands the multiply-adds to the tensor cores: each warp issues mma.sync on 16x8x8 tiles of "
      "TF32 values, its WM x WN tile of C in mma fragments, local memory double- or "
      "single-buffered (STAGES)");
}

Variant tc3xTf32() {
  return tensorCoreFamily(
      "tc-3xtf32", "gemm_tc_3xtf32", Arithmetic::k3xTf32, 32, 64,
      "NVIDIA tensor cores with error compensation: each value split into two TF32 parts, three "
      "products summed in FP32, FP32 accuracy (judged by the FP32 threshold)",
      "tc-tf32",
      "splits each value x into big = tf32(x) and small = x - big and sums small*big + "
      "big*small + big*big, each K-step in fresh accumulators added to FP32 totals: three "
      "tensor-core products buy back FP32 accuracy");
}

// wgmma (warpgroup MMA reading both operands from local memory) exists only on compute capability
// 9.0 (Hopper, PTX target sm_90a); its successors have other tensor-core instructions.
std::optional<std::string> withoutWarpgroupMma(const DeviceInfo& device) {
  if (auto missing = withoutTensorCores(device)) return missing;
  if (*device.nv_cc_major != 9)
    return "needs an NVIDIA GPU of compute capability 9.0 (Hopper: wgmma, target sm_90a); " +
           device.name + " has " + std::to_string(*device.nv_cc_major) + "." +
           std::to_string(device.nv_cc_minor.value_or(0));
  return std::nullopt;
}

// The padding of a kernel that only handles tile multiples: nothing for an exact problem, the
// padded sizes for any other; a usage error where padding would pass the 32-bit indices.
std::optional<PaddedSizes> exactTilesOrPadded(const ResolvedDefines& d, int m, int n, int k) {
  if (isTileMultiple(d, m, n, k)) return std::nullopt;
  if (auto pad = paddedToTiles(d, m, n, k)) return pad;
  throw UsageError(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                   " padded to multiples of BM x BN x BK would have a matrix of more than " +
                   std::to_string(std::numeric_limits<int>::max()) +
                   " elements; this kernel runs tile multiples only");
}

// tc-tf32-wg and tc-3xtf32-wg: one section in kernels.cl, two kernels on packed operands and the
// same ring of local buffers that bulk copies fill. tc-3xtf32-wg (`split`) packs B as two planes,
// big and small parts, and A unsplit, which its work-items split in registers; it also has CHUNK
// and TOTALS_MEM (`extra`): how many K-steps the tensor cores sum before the FP32 totals take the
// sums, and where those totals live.
Variant warpgroupFamily(std::string name, std::string entry, Arithmetic arithmetic, bool split,
                        std::vector<Param> extra, std::string summary, std::string builds_on,
                        std::string adds) {
  std::vector<Param> params = {
      {"BM",
       split ? 64 : 128,
       "rows of C per work-group (a multiple of 64: a warpgroup of 128 work-items each)",
       {64, 128, 192}},
      {"BN", 128,
       split ? "columns of C per work-group: 64 or 128 (the wgmma's N)"
             : "columns of C per work-group: 64, 128 or 256 (the wgmma's N)",
       split ? std::vector<int>{64, 128} : std::vector<int>{128, 256}},
      {"BK", 8, "K-step (a multiple of 8)", {8, 16}},
      {"STAGES",
       split ? 4 : 5,
       "local buffers, STAGES - 2 K-steps copied ahead: 3 to 8",
       {3, 4, 5, 6}},
      {"GROUP_M", split ? 16 : 8, "block rows per band of the swizzled work-group order", {8, 16}}};
  params.insert(params.end(), extra.begin(), extra.end());
  Variant v = openClVariant(std::move(name), std::move(entry), std::move(summary),
                            std::move(params), std::move(builds_on), std::move(adds));
  v.arithmetic = arithmetic;
  v.unsupported = withoutWarpgroupMma;
  v.constraints = [split](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"BM", "BN", "BK", "STAGES", "GROUP_M"}, 1);
    if (split) {
      requireAtLeast(errors, d, {"CHUNK"}, 1);
      if (d.param("TOTALS_MEM") != 0 && d.param("TOTALS_MEM") != 1)
        errors.push_back("TOTALS_MEM=" + std::to_string(d.param("TOTALS_MEM")) +
                         " must be 0 (registers) or 1 (private memory)");
    }
    if (!errors.empty()) return errors;
    if (d.param("BM") % 64 != 0)
      errors.push_back("BM=" + std::to_string(d.param("BM")) +
                       " must be a multiple of 64 (a warpgroup computes 64 rows)");
    const int bn = d.param("BN");
    if (split && bn != 64 && bn != 128)
      errors.push_back("BN=" + std::to_string(bn) +
                       " must be 64 or 128 (the wgmma's N; sums and totals of 256 columns would "
                       "take all 256 registers)");
    else if (bn != 64 && bn != 128 && bn != 256)
      errors.push_back("BN=" + std::to_string(bn) + " must be 64, 128 or 256 (the wgmma's N)");
    if (d.param("BK") % 8 != 0)
      errors.push_back("BK=" + std::to_string(d.param("BK")) +
                       " must be a multiple of 8 (a wgmma's k-step)");
    if (d.param("STAGES") < 3 || d.param("STAGES") > 8)
      errors.push_back("STAGES=" + std::to_string(d.param("STAGES")) +
                       " must be 3 to 8 (one buffer multiplies, one drains, one or more fill)");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    return blockShape(m, n, bm, bn, 128, bm / 64, "128 x BM/64");
  };
  // Floats per element of packed A and B.
  const std::array<int, 2> planes = split ? std::array<int, 2>{1, 2} : std::array<int, 2>{1, 1};
  v.local_mem_bytes = [planes](const ResolvedDefines& d) {
    const std::size_t stages = std::size_t(d.param("STAGES"));
    // Each buffer holds a K-step's tiles of A and B and has an mbarrier (8 bytes).
    return stages * std::size_t(d.param("BK")) * sizeof(float) *
               (std::size_t(d.param("BM")) + std::size_t(planes[1]) * std::size_t(d.param("BN"))) +
           stages * 8;
  };
  // The kernel handles exact problems only: anything else is padded, A and B by the packing
  // helper, C by resize_matrix.
  addTilePadding(v);
  v.padding = exactTilesOrPadded;
  v.problem_defines = [planes](const ResolvedDefines& d, int m, int n, int k) {
    const auto pad = exactTilesOrPadded(d, m, n, k);
    // The packed operands, `planes` floats per element, are indexed in 32 bits too.
    const PaddedSizes p = pad.value_or(PaddedSizes{m, n, k});
    for (int operand = 0; operand < 2; ++operand) {
      const int rows = operand == 0 ? p.m : p.n;
      const int count = planes[std::size_t(operand)];
      if (double(count) * rows * double(p.k) > std::numeric_limits<int>::max())
        throw UsageError(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                         ": packed " + (operand == 0 ? "A" : "B") + ", " + std::to_string(count) +
                         " x " + std::to_string(rows) + " x " + std::to_string(p.k) +
                         " floats, would pass the " +
                         std::to_string(std::numeric_limits<int>::max()) +
                         " elements this kernel's 32-bit indices reach");
    }
    return pad ? withPaddedSizes({}, *pad) : std::vector<ResolvedDefine>{};
  };
  v.pack_entry = "pack_operand";
  v.pack_planes = planes;
  v.pack_shape = [](int rows, int cols) {
    return LaunchShape{{roundUp(std::size_t(cols), 32), roundUp(std::size_t(rows), 32) / 4},
                       {32, 8},
                       "pack_operand's fixed 32 x 8, a 32 x 32 block each"};
  };
  v.global_bytes = [planes](const ResolvedDefines& d, int m, int n, int k) {
    const PaddedSizes p = exactTilesOrPadded(d, m, n, k).value_or(PaddedSizes{m, n, k});
    const double packed_a = planes[0] * double(p.m) * p.k, packed_b = planes[1] * double(p.n) * p.k;
    // The GEMM reads packed A once per block column and packed B once per block row; packing
    // reads A and B and writes them packed; C, where padded, is copied in and out.
    double bytes = double(sizeof(float)) *
                   (packed_a * (p.n / d.param("BN")) + packed_b * (p.m / d.param("BM")) +
                    double(m) * k + double(k) * n + packed_a + packed_b);
    if (p.m != m || p.n != n)
      bytes += double(sizeof(float)) * 2.0 * (double(m) * n + double(p.m) * p.n);
    return bytes;
  };
  return v;
}

Variant tcTf32Wg() {
  return warpgroupFamily(
      "tc-tf32-wg", "gemm_tc_tf32_wg", Arithmetic::kTf32, false, {},
      "NVIDIA Hopper tensor cores (inline PTX wgmma m64nNk8 on operands in local memory, filled "
      "by bulk copies from A and B packed first), A and B rounded to TF32, FP32 sums",
      "tc-tf32",
      "replaces mma.sync by wgmma, whose tensor cores read both operands from local memory: a "
      "warpgroup's 64 x BN product per k-step runs asynchronously, and bulk copies (cp.async.bulk, "
      "one instruction per tile) fill a STAGES-deep ring of local buffers without passing values "
      "through registers; a helper kernel first packs A and B (transposed, as TF32 wgmma reads "
      "both k-major) tile by tile, so each K-step's copy is contiguous");
}

Variant tc3xTf32Wg() {
  return warpgroupFamily(
      "tc-3xtf32-wg", "gemm_tc_3xtf32_wg", Arithmetic::k3xTf32, true,
      {{"CHUNK",
        8,
        "K-steps the tensor cores sum before the sums join the FP32 totals (they truncate: "
        "longer chunks, larger errors)",
        {8, 32}},
       {"TOTALS_MEM",
        0,
        "the FP32 totals in registers (0) or private memory (1: BN/2 fewer registers, more "
        "work-groups per multiprocessor, a round trip per chunk)",
        {0, 1}}},
      "NVIDIA Hopper tensor cores with error compensation: B packed as big and small TF32 parts, "
      "A unsplit, both through tc-tf32-wg's local-memory pipeline, A split by the work-items and "
      "fed to wgmma from registers, three products summed in FP32, FP32 accuracy (judged by the "
      "FP32 threshold)",
      "tc-tf32-wg",
      "splits each value x into big = tf32(x) and small = tf32(x - big) and issues three wgmmas "
      "per 8-k step (small x big, big x small, big x big): B is packed as two planes, A unsplit in "
      "register-fragment order (half the bytes of two planes), both copied as in tc-tf32-wg, and "
      "each work-item reads its A fragment and splits it in registers; the tensor cores sum CHUNK "
      "K-steps in a fresh sum, which is then added to FP32 totals");
}

Variant cpuVariant(std::string name, std::string summary, std::vector<Param> params,
                   std::function<void(const CpuGemm&, const ResolvedDefines&)> run) {
  Variant v;
  v.name = std::move(name);
  v.backend = Backend::kCpu;
  v.summary = std::move(summary);
  v.params = std::move(params);
  std::vector<std::string> names;
  for (const auto& p : v.params) names.push_back(p.name);
  v.constraints = [names](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, names, 1);
    return errors;
  };
  v.cpu = std::move(run);
  return v;
}

Variant cpuNaive() {
  return cpuVariant("cpu-naive", "i-k-j loops, OpenMP over rows of C", {},
                    [](const CpuGemm& g, const ResolvedDefines&) { cpuNaiveGemm(g); });
}

const std::vector<Param> kBlockParams = {{"BS_R", 32, "rows of C per block"},
                                         {"BS_C", 256, "columns of C per block"}};

Variant cpuBlocked() {
  return cpuVariant("cpu-blocked", "BS_R x BS_C blocks of C, i-k-j inside, OpenMP over blocks",
                    kBlockParams, [](const CpuGemm& g, const ResolvedDefines& d) {
                      cpuBlockedGemm(g, d.param("BS_R"), d.param("BS_C"));
                    });
}

Variant cpuBlockedAcc() {
  return cpuVariant(
      "cpu-blocked-acc",
      "blocked loops with K in steps, each 64-wide row segment summed in a register accumulator "
      "before it is added to C",
      {{"BS_R", 64, "rows of C per block"},
       {"BS_C", 256, "columns of C per block"},
       {"BS_K", 128, "K-step: the BS_K x BS_C slice of B is reused by all rows of a block"}},
      [](const CpuGemm& g, const ResolvedDefines& d) {
        cpuBlockedAccGemm(g, d.param("BS_R"), d.param("BS_C"), d.param("BS_K"));
      });
}

Variant cpuPacked() {
  const PackedBlocking b = cpuPackedDefaultBlocking();
  return cpuVariant("cpu-packed",
                    "BLIS loops: packed A and B panels, " + cpuPackedMicroKernel() +
                        " register micro-kernel (picked at run time)",
                    {{"MC", b.mc, "rows of A per packed block (L2)"},
                     {"KC", b.kc, "depth of the packed panels (L1)"},
                     {"NC", b.nc, "columns of B per packed block (L3)"}},
                    [](const CpuGemm& g, const ResolvedDefines& d) {
                      cpuPackedGemm(g, {d.param("MC"), d.param("KC"), d.param("NC")});
                    });
}

Variant baseline(std::string name, Backend backend, std::string summary) {
  Variant v;
  v.name = std::move(name);
  v.backend = backend;
  v.summary = std::move(summary);
  v.constraints = [](const ResolvedDefines&) { return std::vector<std::string>{}; };
  return v;
}

// cuBLAS runs where the OpenCL device is an NVIDIA GPU and the CUDA libraries load (they are
// looked for only then).
std::optional<std::string> withoutCublas(const DeviceInfo& device) {
  if (device.vendor.find("NVIDIA") == std::string::npos)
    return "runs on NVIDIA GPUs only; " + device.name + " is from " +
           (device.vendor.empty() ? "an unnamed vendor" : device.vendor);
  return CudaLibrary::get().problem();
}

Variant cublas(std::string name, Arithmetic arithmetic, std::string summary) {
  Variant v = baseline(std::move(name), Backend::kCublas, std::move(summary));
  v.arithmetic = arithmetic;
  v.unsupported = withoutCublas;
  return v;
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> all = {
      naiveGlobal(),
      naive(),
      tiled(),
      tiledWpt(),
      vector(),
      tiled2x2(),
      prefetchReg(),
      prefetchLocal(),
      transposedB(),
      regtileNolocal(),
      regtile2d(),
      best(),
      tcTf32(),
      tc3xTf32(),
      tcTf32Wg(),
      tc3xTf32Wg(),
      cpuNaive(),
      cpuBlocked(),
      cpuBlockedAcc(),
      cpuPacked(),
      baseline("clblast", Backend::kClblast,
               "CLBlast SGEMM on the same OpenCL device and queue (row-major, no transpose)"),
      baseline("openblas", Backend::kOpenblas, "OpenBLAS cblas_sgemm on the host CPU"),
      cublas("cublas", Arithmetic::kFp32,
             "cuBLAS SGEMM on the same NVIDIA GPU (FP32, CUBLAS_DEFAULT_MATH), loaded at run time"),
      cublas("cublas-tf32", Arithmetic::kTf32,
             "cuBLAS SGEMM on the same NVIDIA GPU's TF32 tensor cores "
             "(CUBLAS_TF32_TENSOR_OP_MATH), loaded at run time"),
  };
  return all;
}

std::string arithmeticName(Arithmetic arithmetic) {
  switch (arithmetic) {
    case Arithmetic::kTf32:
      return "tf32";
    case Arithmetic::k3xTf32:
      return "3xtf32";
    default:
      return "fp32";
  }
}

double errorThresholdFor(Arithmetic arithmetic) {
  return arithmetic == Arithmetic::kTf32 ? kTf32ErrorRatioThreshold : kErrorRatioThreshold;
}

std::optional<std::string> unsupportedOn(const Variant& variant, const DeviceInfo& device) {
  if (!variant.unsupported) return std::nullopt;
  return variant.unsupported(device);
}

bool backendBuilt(Backend backend) {
  switch (backend) {
    case Backend::kClblast:
#ifdef CLGEMM_HAVE_CLBLAST
      return true;
#else
      return false;
#endif
    case Backend::kOpenblas:
#ifdef CLGEMM_HAVE_OPENBLAS
      return true;
#else
      return false;
#endif
    default:
      return true;
  }
}

std::string variantNames() {
  std::string out;
  for (const auto& v : variants()) out += (out.empty() ? "" : ", ") + v.name;
  return out;
}

namespace {

const Variant* findVariant(const std::string& name) {
  for (const auto& v : variants())
    if (v.name == name) return &v;
  return nullptr;
}

void addOnce(std::vector<const Variant*>& chosen, const Variant* v) {
  if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) chosen.push_back(v);
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ','))
    if (!name.empty()) names.push_back(name);
  return names;
}

}  // namespace

std::optional<std::string> constraintViolations(const Variant& variant,
                                                const ResolvedDefines& defines) {
  const auto violations = variant.constraints(defines);
  if (violations.empty()) return std::nullopt;
  std::string message = variant.name + ": ";
  for (std::size_t i = 0; i < violations.size(); ++i) message += (i ? "; " : "") + violations[i];
  return message;
}

void checkConstraints(const Variant& variant, const ResolvedDefines& defines) {
  if (const auto message = constraintViolations(variant, defines)) throw UsageError(*message);
}

std::vector<const Variant*> parseVariantList(const std::string& list) {
  std::vector<const Variant*> chosen;
  const auto names = splitList(list);
  if (names.empty())
    throw UsageError("--kernel needs at least one variant; known variants: " + variantNames());
  for (const auto& name : names) {
    if (name == "cl" || name == "cpu" || name == "all") {
      for (const auto& v : variants()) {
        const bool in_group = name == "all" || (name == "cl" && v.backend == Backend::kOpenCl) ||
                              (name == "cpu" && v.backend == Backend::kCpu);
        if (in_group) addOnce(chosen, &v);
      }
      continue;
    }
    const Variant* found = findVariant(name);
    if (!found) {
      throw UsageError("unknown kernel variant '" + name + "'; known variants: " + variantNames() +
                       "; groups: cl, cpu, all");
    }
    addOnce(chosen, found);
  }
  return chosen;
}

std::string baselineNames() {
  std::string out;
  for (const auto& v : variants())
    if (v.isBaseline()) out += (out.empty() ? "" : ", ") + v.name;
  return out;
}

std::vector<const Variant*> parseCompareList(const std::string& list) {
  std::vector<const Variant*> chosen;
  for (const auto& name : splitList(list)) {
    const Variant* found = findVariant(name);
    if (!found || !found->isBaseline())
      throw UsageError("--compare takes baselines (" + baselineNames() + "), not '" + name + "'");
    addOnce(chosen, found);
  }
  return chosen;
}

std::string explainVariants(const std::vector<const Variant*>& chosen) {
  std::size_t width = 0;
  for (const Variant* v : chosen) width = std::max(width, v->name.size());
  std::ostringstream s;
  for (const Variant* v : chosen) {
    s << v->name << std::string(width - v->name.size() + 2, ' ');
    if (!v->builds_on.empty()) s << "(on " << v->builds_on << ") ";
    s << (v->adds.empty() ? v->summary : v->adds) << "\n";
  }
  return s.str();
}

std::string variantHelp() {
  std::ostringstream s;
  s << "Kernel variants (--kernel; groups cl, cpu, all) and their parameters (-D NAME=VALUE,\n"
       "default in brackets):\n";
  for (const auto& v : variants()) {
    s << "  " << v.name << ": " << v.summary;
    if (!backendBuilt(v.backend)) s << " [not built]";
    s << "\n";
    for (const auto& p : v.params)
      s << "      " << p.name << " [" << p.default_value << "] " << p.help << "\n";
  }
  return s.str();
}

}  // namespace clgemm
