#include "registry/entry_fill.hpp"

#include <filesystem>

#include "problem/gemm_shape.hpp"
#include "util/int_math.hpp"

namespace clgemm {

long long busiestUnitElements(long long m, long long n, std::pair<int, int> block,
                              int compute_units) {
  const long long rows = block.first, cols = block.second;
  return ceilDiv(ceilDiv(m, rows) * ceilDiv(n, cols), compute_units) * rows * cols;
}

namespace {

bool peers(const TunedEntry& a, const TunedEntry& b) {
  return a.device == b.device && a.driver == b.driver && a.dir_index == b.dir_index &&
         a.trans == b.trans && a.size && b.size;
}

std::string blockText(std::pair<int, int> block) {
  return std::to_string(block.first) + " x " + std::to_string(block.second);
}

}  // namespace

FillChoice chooseEntryByFill(const Variant& variant, const std::vector<UserDefine>& user,
                             const std::vector<TunedEntry>& ranked, const DeviceInfo& device,
                             const Shape& size, int m_rows, int n_cols) {
  if (ranked.empty() || !variant.work_group_block || device.compute_units == 0) return {};
  const TunedEntry& nearest = ranked.front();
  if (!nearest.size || *nearest.size == size || m_rows <= 0 || n_cols <= 0) return {};
  // The packed row-major problem the kernel computes, for the edge strips' rule.
  const RowMajorGemm problem =
      rowMajorGemm(m_rows, n_cols, size.k, gemmStorage(m_rows, n_cols, size.k, GemmShape{}));
  // An entry's blocks and the busiest unit's share of them: of the part of C its grid covers,
  // where edge strips (Variant::edge_strips) leave a few last rows or columns to work-groups of
  // their own. No share (0) for blocks of no rows or columns: a -D the constraints refuse later.
  struct Fill {
    std::pair<int, int> block;
    long long share = 0;
  };
  const auto fillOf = [&](const TunedEntry& e) {
    const ResolvedDefines defines(variant.params, user, e.defines, "data");
    Fill fill{variant.work_group_block(defines)};
    if (fill.block.first <= 0 || fill.block.second <= 0) return fill;
    long long rows = m_rows, cols = n_cols;
    if (variant.edge_strips)
      if (const auto strips = variant.edge_strips(defines, problem))
        rows = strips->m0, cols = strips->n0;
    fill.share = busiestUnitElements(rows, cols, fill.block, int(device.compute_units));
    return fill;
  };
  const Fill first = fillOf(nearest);
  if (first.share == 0) return {};
  std::size_t best = 0;
  Fill fullest = first;
  for (std::size_t i = 1; i < ranked.size(); ++i) {
    if (!peers(ranked[i], nearest)) continue;
    const Fill fill = fillOf(ranked[i]);
    if (fill.share > 0 && fill.share < fullest.share) best = i, fullest = fill;
  }
  if (best == 0 || double(first.share) <= (1.0 + kFillMargin) * double(fullest.share)) return {};
  const auto name = [](const TunedEntry& e) {
    return std::filesystem::path(e.file).filename().string();
  };
  return {best, "its " + blockText(fullest.block) + " blocks leave the busiest of " +
                    std::to_string(device.compute_units) + " compute units " +
                    std::to_string(fullest.share) + " elements of C, " + name(nearest) + "'s " +
                    blockText(first.block) + " " + std::to_string(first.share)};
}

}  // namespace clgemm
