#include "commands/run_options.hpp"

namespace clgemm {

std::vector<GemmShape> gemmShapes(const Options& o) {
  std::vector<GemmShape> shapes;
  for (const Layout layout : o.layouts)
    for (const Trans a : o.trans_a)
      for (const Trans b : o.trans_b) shapes.push_back({layout, a, b, o.lda, o.ldb, o.ldc});
  return shapes;
}

}  // namespace clgemm
