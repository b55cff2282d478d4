// The ladder: one OpenCL kernel per optimisation step, from naive-global to regtile2d, each
// building on an earlier one (builds_on) and saying what it adds.
#include <functional>

#include "opencl/device.hpp"
#include "registry/families.hpp"

namespace clgemm {
namespace {

using namespace family;

// A square TS x TS tile, the reuse of every local-memory kernel from tiled to prefetch-local.
GlobalBytesFn squareTileTraffic() {
  return [](const ResolvedDefines& d, int m, int n, int k, std::size_t element_bytes) {
    return tileTraffic(m, n, k, d.param("TS"), d.param("TS"), element_bytes);
  };
}

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
  v.local_mem_bytes = [](const ResolvedDefines&, std::size_t) { return std::size_t(0); };
  v.global_bytes = [](const ResolvedDefines&, int m, int n, int k, std::size_t element_bytes) {
    return tileTraffic(m, n, k, 1, 1, element_bytes);
  };
  return v;
}

Variant naiveGlobal() {
  Variant v = naiveFamily(
      "naive-global", "gemm_naive_global",
      "one work-item per element of C, accumulating straight into C in global memory", "",
      "the reference point: every multiply-add loads A, B and C and stores C in global memory");
  v.global_bytes = [](const ResolvedDefines&, int m, int n, int k, std::size_t element_bytes) {
    return tileTraffic(m, n, k, 1, 1, element_bytes) + double(element_bytes) * m * n * double(k);
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
LocalMemBytesFn squareTileBytes(std::size_t buffers, std::size_t pad_a) {
  return [buffers, pad_a](const ResolvedDefines& d, std::size_t element_bytes) {
    const std::size_t ts = std::size_t(d.param("TS"));
    return buffers * (ts * (ts + pad_a) + ts * ts) * element_bytes;
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
  // The kernel reads packed copies where the operands are stored otherwise (shapes_in_kernel off).
  v.problem_defines = [](const ResolvedDefines& d, const RowMajorGemm& g) {
    const int n = g.n, k = g.k;
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
  v.local_mem_bytes = [](const ResolvedDefines& d, std::size_t element_bytes) {
    const std::size_t tsk = std::size_t(d.param("TSK")), pad = std::size_t(d.param("PAD"));
    const std::size_t gemm =
        tsk * (std::size_t(d.param("TSM")) + pad + std::size_t(d.param("TSN")) + pad);
    const std::size_t tt = std::size_t(d.param("TT"));
    return std::max(gemm, tt * (tt + 1)) * element_bytes;
  };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k, std::size_t element_bytes) {
    return tileTraffic(m, n, k, d.param("TSM"), d.param("TSN"), element_bytes) +
           double(element_bytes) * k * double(n);  // the transpose reads B once
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
  v.local_mem_bytes = [](const ResolvedDefines&, std::size_t) { return std::size_t(0); };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k, std::size_t element_bytes) {
    return tileTraffic(m, n, k, d.param("TY"), d.param("TX"), element_bytes);
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
  v.local_mem_bytes = [](const ResolvedDefines& d, std::size_t element_bytes) {
    const std::size_t tsk = std::size_t(d.param("TSK")), pad = std::size_t(d.param("PAD"));
    return tsk * (std::size_t(d.param("TSM")) + pad + std::size_t(d.param("TSN")) + pad) *
           element_bytes;
  };
  v.global_bytes = [](const ResolvedDefines& d, int m, int n, int k, std::size_t element_bytes) {
    return tileTraffic(m, n, k, d.param("TSM"), d.param("TSN"), element_bytes);
  };
  return v;
}

}  // namespace

std::vector<Variant> ladderVariants() {
  return {
      naiveGlobal(), naive(),         tiled(),       tiledWpt(),       vector(),    tiled2x2(),
      prefetchReg(), prefetchLocal(), transposedB(), regtileNolocal(), regtile2d(),
  };
}

}  // namespace clgemm
