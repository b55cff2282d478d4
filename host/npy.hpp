// Reading and writing NumPy .npy files holding 2-D float32 matrices in C order, so users can feed
// clgemm their own matrices and check its result against NumPy.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clgemm {

struct NpyMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<float> data;  // row-major
};

// Reads a little-endian float32 ('<f4'), C-order, 2-D .npy file. Anything else (missing file,
// truncated data, another dtype, Fortran order, not 2-D) is a usage error naming the file and the
// problem; `what` says which input it is ("--input-a").
NpyMatrix readNpy(const std::string& path, const std::string& what);

// Writes a rows x cols float32 matrix as .npy (format 1.0), via a temporary file renamed into
// place.
void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<float>& data);

}  // namespace clgemm
