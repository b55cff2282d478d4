// The tensor-core kernels (NVIDIA only, inline PTX): tc-tf32 and tc-3xtf32 on mma.sync, and
// tc-tf32-wg, its successors (tc-tf32-tma, -rs, -ws, -fused), tc-3xtf32-wg, tc-3xtf32-ws and
// tc-3xtf32-f16 on Hopper's warpgroup MMA.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "opencl/device.hpp"
#include "registry/families.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

using namespace family;

// The tensor-core kernels' inline PTX (mma.sync with TF32 operands) needs NVIDIA's OpenCL compiler
// and a GPU of compute capability 8.0 (Ampere) or newer.
std::optional<std::string> withoutTensorCores(const DeviceInfo& device) {
  return withoutNvidiaPtx(device, 8, "TF32 tensor cores");
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
        {0, 3000},
        true}},
      std::move(builds_on), std::move(adds));
  v.arithmetic = arithmetic;
  v.fp64 = false;  // TF32 tensor cores: single precision only
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
    requireEvenShare(errors, d, threads, {{"BM", 4}, {"BN", 8}}, "loads", " (32 per warp)",
                     "WM or WN");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    return blockShape(m, n, bm, bn, 32 * (bn / std::size_t(d.param("WN"))),
                      bm / std::size_t(d.param("WM")), "32*BN/WN x BM/WM");
  };
  // FP32 only (fp64 is false): the element size is always a float's.
  v.local_mem_bytes = [](const ResolvedDefines& d, std::size_t) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN")),
                      bk = std::size_t(d.param("BK"));
    return std::size_t(d.param("STAGES")) * (bm * (bk + 8) + bk / 2 * (2 * bn + 8)) * sizeof(float);
  };
  addTilePadding(v);
  v.problem_defines = [](const ResolvedDefines& d, const RowMajorGemm& g) {
    const int m = g.m, n = g.n, k = g.k;
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

// tc-tf32-wg and tc-3xtf32-wg: one section in kernels.cl, two kernels on packed operands and the
// same ring of local buffers that bulk copies fill. tc-3xtf32-wg (`split`) packs B as two planes,
// big and small parts, and A unsplit, which its work-items split in registers; it also has CHUNK
// and TOTALS_MEM (`extra`): how many K-steps the tensor cores sum before the FP32 totals take the
// sums, and where those totals live (tc-3xtf32-ws keeps them in registers and has no TOTALS_MEM).
// tc-tf32-tma (`a_by_tensor_copy`) packs B only and reads A through a tensor map.
Variant warpgroupFamily(std::string name, std::string entry, Arithmetic arithmetic, bool split,
                        std::vector<Param> extra, std::string summary, std::string builds_on,
                        std::string adds, bool a_by_tensor_copy = false) {
  std::vector<Param> params = {
      {"BM",
       split ? 64 : 128,
       "rows of C per work-group (a multiple of 64: a warpgroup of 128 work-items each)",
       {64, 128, 256}},
      {"BN", split ? 128 : 256,
       split ? "columns of C per work-group: 64 or 128 (the wgmma's N)"
             : "columns of C per work-group: 64, 128 or 256 (the wgmma's N)",
       split ? std::vector<int>{64, 128} : std::vector<int>{128, 256}},
      {"BK", split ? 16 : 32, "K-step (a multiple of 8)", {8, 16, 32}},
      {"STAGES",
       split ? 4 : 3,
       "local buffers, STAGES - 1 K-steps copied ahead: 2 to 8",
       {2, 3, 4, 5, 6}},
      {"GROUP_M", 16, "block rows per band of the swizzled work-group order", {8, 16}}};
  params.insert(params.end(), extra.begin(), extra.end());
  const bool totals_mem = std::any_of(extra.begin(), extra.end(),
                                      [](const Param& p) { return p.name == "TOTALS_MEM"; });
  Variant v = openClVariant(std::move(name), std::move(entry), std::move(summary),
                            std::move(params), std::move(builds_on), std::move(adds));
  v.arithmetic = arithmetic;
  v.fp64 = false;  // TF32 tensor cores: single precision only
  v.unsupported = withoutWarpgroupMma;
  v.constraints = [split, a_by_tensor_copy, totals_mem](const ResolvedDefines& d) {
    std::vector<std::string> errors;
    requireAtLeast(errors, d, {"BM", "BN", "BK", "STAGES", "GROUP_M"}, 1);
    if (split) requireAtLeast(errors, d, {"CHUNK"}, 1);
    if (totals_mem) {
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
    const int bk = d.param("BK");
    if (a_by_tensor_copy && bk != 8 && bk != 16 && bk != 32)
      errors.push_back("BK=" + std::to_string(bk) +
                       " must be 8, 16 or 32 (a tile row of A in the tensor copies' swizzle of 32, "
                       "64 or 128 bytes)");
    else if (bk % 8 != 0)
      errors.push_back("BK=" + std::to_string(bk) + " must be a multiple of 8 (a wgmma's k-step)");
    if (a_by_tensor_copy && d.param("BM") > 256)
      errors.push_back("BM=" + std::to_string(d.param("BM")) +
                       " must be at most 256 (the rows of a tensor copy's box)");
    if (d.param("STAGES") < 2 || d.param("STAGES") > 8)
      errors.push_back("STAGES=" + std::to_string(d.param("STAGES")) +
                       " must be 2 to 8 (one buffer multiplies while the others fill)");
    return errors;
  };
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    return blockShape(m, n, bm, bn, 128, bm / 64, "128 x BM/64");
  };
  // Floats per element of packed A and B (none for A read through a tensor map).
  const std::array<int, 2> planes = {a_by_tensor_copy ? 0 : 1, split ? 2 : 1};
  // FP32 only (fp64 is false): the element size is always a float's.
  v.local_mem_bytes = [planes](const ResolvedDefines& d, std::size_t) {
    const std::size_t stages = std::size_t(d.param("STAGES"));
    // Each buffer holds a K-step's tiles of A and B and has an mbarrier (8 bytes).
    return stages * std::size_t(d.param("BK")) * sizeof(float) *
               (std::size_t(d.param("BM")) + std::size_t(planes[1]) * std::size_t(d.param("BN"))) +
           stages * 8;
  };
  // The kernel handles exact problems only: anything else is padded, A and B by the packing
  // helper, C by copy_matrix.
  addTilePadding(v);
  v.padding = exactTilesOrPadded;
  v.problem_defines = [planes](const ResolvedDefines& d, const RowMajorGemm& g) {
    const int m = g.m, n = g.n, k = g.k;
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
    // One work-group of 32 x 8 per 64 x 64 block (kernels.cl's PACK_BLOCK).
    return LaunchShape{{roundUp(std::size_t(cols), 64) / 2, roundUp(std::size_t(rows), 64) / 8},
                       {32, 8},
                       "pack_operand's fixed 32 x 8, a 64 x 64 block each"};
  };
  v.global_bytes = [planes](const ResolvedDefines& d, int m, int n, int k, std::size_t) {
    const PaddedSizes p = exactTilesOrPadded(d, m, n, k).value_or(PaddedSizes{m, n, k});
    const double packed_a = planes[0] * double(p.m) * p.k, packed_b = planes[1] * double(p.n) * p.k;
    // The GEMM reads A (packed, or as it is where it comes by tensor copies) once per block
    // column and packed B once per block row; packing reads what it packs and writes it packed;
    // A by tensor copies is copied in where padded, and C, where padded, in and out.
    const double gemm_a = double(p.m) * p.k;  // one plane, packed or not
    double bytes =
        double(sizeof(float)) * (gemm_a * (p.n / d.param("BN")) + packed_b * (p.m / d.param("BM")) +
                                 double(k) * n + packed_b);
    if (planes[0] > 0)
      bytes += double(sizeof(float)) * (double(m) * k + packed_a);
    else if (p.m != m || p.k != k)
      bytes += double(sizeof(float)) * (double(m) * k + double(p.m) * p.k);
    if (p.m != m || p.n != n)
      bytes += double(sizeof(float)) * 2.0 * (double(m) * n + double(p.m) * p.n);
    return bytes;
  };
  if (a_by_tensor_copy) {
    v.tensor_map_entry = "set_tensor_map_address";
    v.a_box = [](const ResolvedDefines& d) {
      return std::pair<int, int>{d.param("BM"), d.param("BK")};
    };
  }
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

Variant tcTf32Tma() {
  return warpgroupFamily(
      "tc-tf32-tma", "gemm_tc_tf32_tma", Arithmetic::kTf32, false, {},
      "NVIDIA Hopper tensor cores as tc-tf32-wg, A read straight from its matrix by 2-D bulk "
      "tensor copies (tensor map from the CUDA driver), only B packed; A truncated to TF32 by the "
      "tensor cores, B rounded",
      "tc-tf32-wg",
      "drops A's packing pass: work-item 0 copies each K-step's BM x BK box of A with "
      "cp.async.bulk.tensor, which lays it out swizzled as wgmma's k-major operand; the tensor map "
      "is encoded on the host by libcuda's cuTensorMapEncodeTiled and given A's address on the "
      "device by a one-work-item helper before each GEMM",
      true);
}

// A kernel of the family whose work-items read A's fragments from the tensor copies' tile into
// registers (tc-tf32-rs, tc-3xtf32-ws). Four register slices per K-step: with two blocks' wgmmas
// in flight, the slice loaded next must be none of theirs, which takes four blocks of 8 k.
Variant withRegisterA(Variant v) {
  const auto family = v.constraints;
  v.constraints = [family](const ResolvedDefines& d) {
    std::vector<std::string> errors = family(d);
    if (errors.empty() && d.param("BK") != 32)
      errors.push_back("BK=" + std::to_string(d.param("BK")) +
                       " must be 32 (four 8-k blocks, so that the A registers loaded next are "
                       "none that the two wgmmas in flight read)");
    return errors;
  };
  return v;
}

Variant tcTf32Rs() {
  return withRegisterA(warpgroupFamily(
      "tc-tf32-rs", "gemm_tc_tf32_rs", Arithmetic::kTf32, false, {},
      "NVIDIA Hopper tensor cores as tc-tf32-tma, A's fragments read from local memory into "
      "registers and rounded to TF32 there (wgmma with A from registers), so A and B are rounded "
      "as in tc-tf32-wg with one packing pass, B's",
      "tc-tf32-tma",
      "rounds A on chip instead of letting the tensor cores truncate it: each work-item loads its "
      "wgmma fragment of the next 8-k block from the swizzled tile while the wgmmas of the two "
      "blocks before it run (wgmma.wait_group 2, CUTLASS's Hopper loop for an A in registers), "
      "rounds it with two integer operations per value, and issues the wgmma from registers",
      true));
}

// A kernel built on `base`: its parameters, limits and helpers, under its own name and entry.
Variant successorOf(Variant base, std::string name, std::string entry, std::string summary,
                    std::string adds) {
  base.builds_on = base.name;
  base.name = std::move(name);
  base.entry = std::move(entry);
  base.summary = std::move(summary);
  base.adds = std::move(adds);
  return base;
}

// A register-A kernel warp-specialised (tc-tf32-ws, -fused, tc-3xtf32-ws): one or two warpgroups
// beside a copying one, and a second mbarrier per buffer.
Variant warpSpecialised(Variant v) {
  const auto rs = v.constraints;
  v.constraints = [rs](const ResolvedDefines& d) {
    std::vector<std::string> errors = rs(d);
    if (errors.empty() && d.param("BM") != 64 && d.param("BM") != 128)
      errors.push_back("BM=" + std::to_string(d.param("BM")) +
                       " must be 64 or 128 (one or two warpgroups beside the copying one: at 128 "
                       "they take the registers it gives up)");
    return errors;
  };
  // Warps of 32: four per warpgroup of 64 rows, then the copying warpgroup.
  v.shape = [](const ResolvedDefines& d, int m, int n) {
    const std::size_t bm = std::size_t(d.param("BM")), bn = std::size_t(d.param("BN"));
    return blockShape(m, n, bm, bn, 32, bm / 16 + 4, "32 x (BM/16 + 4)");
  };
  const auto rs_local = v.local_mem_bytes;
  v.local_mem_bytes = [rs_local](const ResolvedDefines& d, std::size_t element) {
    // A second mbarrier per buffer (`empty`).
    return rs_local(d, element) + std::size_t(d.param("STAGES")) * 8;
  };
  return v;
}

Variant tcTf32Ws() {
  return warpSpecialised(successorOf(
      tcTf32Rs(), "tc-tf32-ws", "gemm_tc_tf32_ws",
      "NVIDIA Hopper tensor cores as tc-tf32-rs, warp-specialised: a producer warp issues the "
      "copies into a ring of full/empty mbarrier pairs, the warpgroups only multiply",
      "splits the copying from the multiplying (CUTLASS's Hopper kernels): a producer warp waits "
      "for a free buffer and copies the next K-step into it, and each consumer warp frees a buffer "
      "by an mbarrier arrival, where tc-tf32-rs's warpgroups met at a barrier per K-step for one "
      "work-item to refill it; setmaxnreg hands the copying warpgroup's registers to the "
      "multiplying ones"));
}

Variant tcTf32Fused() {
  Variant v = successorOf(
      tcTf32Ws(), "tc-tf32-fused", "gemm_tc_tf32_fused",
      "NVIDIA Hopper tensor cores as tc-tf32-ws, B packed by the GEMM itself while it multiplies "
      "(no packing pass): three warps per work-group pack B's K-steps for the whole launch",
      "packs B inside the GEMM instead of in a pass before it: the copying warpgroup's other three "
      "warps take B's chunks, in the order the first wave needs them, from a counter shared by the "
      "launch and raise a flag per chunk, and the producer copies a K-step once its chunk's flag "
      "is up, with cache-streaming accesses so that packed B does not evict the warpgroups' tiles");
  const auto ws_local = v.local_mem_bytes;
  v.local_mem_bytes = [ws_local](const ResolvedDefines& d, std::size_t element) {
    return ws_local(d, element) + sizeof(int);  // the launch's number
  };
  // The launch's number, the chunk counter, the packers finished, then a flag per chunk.
  v.gemm_packs_b = [](const ResolvedDefines& d, int n, int k) {
    return std::size_t(3) + std::size_t(n / d.param("BN")) * std::size_t(k / d.param("BK"));
  };
  return v;
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

// tc-3xtf32-wg's arithmetic in tc-tf32-ws's pipeline: A by its tensor map and split by the
// work-items, B packed as two planes, two warpgroups of 64 x 128 beside the copying one.
Variant tc3xTf32Ws() {
  Variant v = warpSpecialised(withRegisterA(warpgroupFamily(
      "tc-3xtf32-ws", "gemm_tc_3xtf32_ws", Arithmetic::k3xTf32, true,
      {{"CHUNK",
        2,
        "K-steps the tensor cores sum before the sums join the FP32 totals (they truncate: "
        "longer chunks, larger errors)",
        {2, 4}}},
      "NVIDIA Hopper tensor cores with error compensation in tc-tf32-ws's pipeline: A by its "
      "tensor map, split into big and small TF32 parts in registers, B packed as two planes, "
      "three products summed in FP32, FP32 accuracy (judged by the FP32 threshold)",
      "tc-3xtf32-wg",
      "moves tc-3xtf32-wg's three wgmmas per 8-k block into tc-tf32-ws's warp-specialised "
      "pipeline: A comes unpacked by its tensor map and each work-item splits its fragment in "
      "registers (no packing pass for A), two warpgroups share each tile of B (128 x 128 where "
      "tc-3xtf32-wg has 64 x 128), a producer warp fills the ring, and the warpgroups add their "
      "chunks' sums to the FP32 totals half a chunk apart, so that one multiplies while the other "
      "waits",
      true)));
  v.builds_on = "tc-3xtf32-wg";
  // Two warpgroups (their totals in registers, which setmaxnreg gives them) and K-steps of 32.
  for (Param& p : v.params) {
    if (p.name == "BM") p.default_value = 128;
    if (p.name == "BK") p.default_value = 32;
  }
  return v;
}

// tc-3xtf32-ws with the two small products in one FP16 wgmma (twice TF32's rate per k), every
// line of A and B first scaled by a power of two into FP16's range (line_scale).
Variant tc3xTf32F16() {
  Variant v = successorOf(
      tc3xTf32Ws(), "tc-3xtf32-f16", "gemm_tc_3xtf32_f16",
      "NVIDIA Hopper tensor cores with error compensation as tc-3xtf32-ws, the two small products "
      "in one FP16 wgmma: big x big in TF32, big x small + small x big in FP16 at twice TF32's "
      "rate, each line of A and B scaled by a power of two into FP16's range, FP32 accuracy "
      "(judged by the FP32 threshold)",
      "replaces tc-3xtf32-ws's two TF32 wgmmas of small parts by one FP16 wgmma of 16 k: each "
      "value's big part (exact in FP16, which has TF32's 11 bits) and small part become an FP16 "
      "pair, A's in registers and B's in a pair plane laid out as its TF32 plane, so that an 8-k "
      "block costs two TF32 wgmmas' time instead of three; a helper first finds each line's power "
      "of two (its largest magnitude to [2^14, 2^15)), the packing and the work-items scale by it "
      "and the epilogue divides it out, all exactly");
  v.line_scale_entry = "line_scale";
  // line_scale reads A and B once more.
  const auto ws_bytes = v.global_bytes;
  v.global_bytes = [ws_bytes](const ResolvedDefines& d, int m, int n, int k, std::size_t element) {
    return ws_bytes(d, m, n, k, element) + double(sizeof(float)) * (double(m) + double(n)) * k;
  };
  return v;
}

}  // namespace

std::vector<Variant> tensorCoreVariants() {
  return {
      tcTf32(),   tc3xTf32(),    tcTf32Wg(),   tcTf32Tma(),  tcTf32Rs(),
      tcTf32Ws(), tcTf32Fused(), tc3xTf32Wg(), tc3xTf32Ws(), tc3xTf32F16(),
  };
}

}  // namespace clgemm
