// lineMakespan, which KernelPlan's hold on occupancy weighs two counts of places with: the lines
// of plans measured on the H200's 132 SMs, at four and three work-groups per SM (528 and 396).
#include <gtest/gtest.h>

#include "report/line_schedule.hpp"

using clgemm::lineMakespan;
using clgemm::LineRun;

TEST(LineMakespan, EqualWorkGroupsEndAfterTheirRoundsOfPlaces) {
  // 1601^3: 650 halves of tiles, two rounds either way (held to three: 10% faster).
  EXPECT_DOUBLE_EQ(lineMakespan({{650, 0.5}}, 528), 1.0);
  EXPECT_DOUBLE_EQ(lineMakespan({{650, 0.5}}, 396), 1.0);
  // 1537^3: 1440 fifths, three rounds at four per SM, four at three (held: 3% slower).
  EXPECT_NEAR(lineMakespan({{1440, 0.2}}, 528), 0.6, 1e-12);
  EXPECT_GT(lineMakespan({{1440, 0.2}}, 396), lineMakespan({{1440, 0.2}}, 528));
  // Exactly the places, and one more.
  EXPECT_DOUBLE_EQ(lineMakespan({{396, 1.0}}, 396), 1.0);
  EXPECT_DOUBLE_EQ(lineMakespan({{397, 1.0}}, 396), 2.0);
}

TEST(LineMakespan, WholeTilesBeforeTheirPartsFillTheFirstRound) {
  // 2113^3: 528 whole tiles, then 33 tiles in quarters. On 528 places the quarters follow the
  // first round; on 396, 132 whole tiles do, and the line ends a round later (held: 22% slower).
  const std::vector<LineRun> line = {{528, 1.0}, {132, 0.25}};
  EXPECT_DOUBLE_EQ(lineMakespan(line, 528), 1.25);
  EXPECT_DOUBLE_EQ(lineMakespan(line, 396), 2.0);
  // A place that frees sooner takes the next in line: 2 places, lengths 1, 0.25, 0.25, 0.25.
  EXPECT_DOUBLE_EQ(lineMakespan({{1, 1.0}, {3, 0.25}}, 2), 1.0);
}

TEST(LineMakespan, NothingWithoutPlacesOrWorkGroups) {
  EXPECT_DOUBLE_EQ(lineMakespan({{650, 0.5}}, 0), 0.0);
  EXPECT_DOUBLE_EQ(lineMakespan({}, 396), 0.0);
  EXPECT_DOUBLE_EQ(lineMakespan({{0, 1.0}}, 396), 0.0);
}
