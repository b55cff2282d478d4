// Reading and writing NumPy .npy files holding 2-D float32 matrices in C order, so users can feed
// clgemm their own matrices and check its result against NumPy.
#pragma once

#include <cstddef>
#include <istream>
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

// What a .npy header says once readNpy has accepted it.
struct NpyHeader {
  std::size_t rows = 0, cols = 0;  // each 1 to 2^31-1
  std::string shape_text;          // as written in the header, e.g. "(2, 3)", for messages
};

// The two halves of readNpy on a stream instead of a file, so they can be fed bytes from memory
// (the fuzz targets in tests/fuzz); `path` only names the input in messages. readNpyHeader reads
// and checks everything before the data and leaves `in` at the data's first byte; readNpy reads
// the header and then the data, which must fill the rest of the stream exactly. `in` must be
// seekable: the data's size is checked before anything is allocated for it.
NpyHeader readNpyHeader(std::istream& in, const std::string& path, const std::string& what);
NpyMatrix readNpy(std::istream& in, const std::string& path, const std::string& what);

// Writes a rows x cols float32 matrix as .npy (format 1.0), via a temporary file renamed into
// place.
void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<float>& data);

}  // namespace clgemm
