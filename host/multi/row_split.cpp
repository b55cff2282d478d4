#include "multi/row_split.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "util/errors.hpp"

namespace clgemm {

std::vector<int> splitRows(int m, const std::vector<double>& weights) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  const double fastest = *std::max_element(weights.begin(), weights.end());
  const auto useful = [&](std::size_t i) { return weights[i] >= kMinShareOfFastest * fastest; };
  const int granule = m >= kSplitGranule * int(weights.size()) ? kSplitGranule : 1;
  const int units = m / granule;
  std::vector<int> shares(weights.size(), 0);
  int given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!useful(i)) continue;
    shares[i] = int(std::floor(double(units) * weights[i] / total));
    given += shares[i];
  }
  // The units left over (fewer than the devices), one at a time to whichever device would then
  // finish first, so none is loaded past the others.
  while (given < units) {
    std::size_t best = 0;
    double best_time = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < weights.size(); ++i) {
      const double time = (shares[i] + 1) / weights[i];
      if (useful(i) && time < best_time) {
        best = i;
        best_time = time;
      }
    }
    ++shares[best];
    ++given;
  }
  std::vector<int> rows(weights.size(), 0);
  std::size_t last = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    rows[i] = shares[i] * granule;
    if (rows[i] > 0) last = i;
  }
  // The rows short of a whole granule end C: they join the last panel.
  rows[last] += m - units * granule;
  return rows;
}

std::vector<double> parseSplit(const std::string& text, std::size_t devices) {
  std::vector<double> weights;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    double w = 0.0;
    try {
      w = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || !std::isfinite(w) || w <= 0.0)
      throw UsageError("--split '" + text + "': '" + item +
                       "' is not a positive weight (write e.g. --split 1,3)");
    weights.push_back(w);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (weights.size() != devices)
    throw UsageError("--split '" + text + "' gives " + std::to_string(weights.size()) +
                     " weights for " + std::to_string(devices) + " devices in --devices");
  return weights;
}

}  // namespace clgemm
