// Reading and writing NumPy .npy files holding 2-D float32 matrices in C order (row-major) or
// Fortran order (column-major, as numpy.asfortranarray saves them), so users can feed clgemm their
// own matrices in either layout and check its result against NumPy.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace clgemm {

struct NpyMatrix {
  std::size_t rows = 0, cols = 0;
  // As the file holds it, not reordered: the caller decides whether the order is the one it wants
  // (a column-major run takes Fortran order as it is and refuses C order).
  bool fortran_order = false;
  std::vector<float> data;  // row-major, or column-major (data[c * rows + r]) when fortran_order
};

// Reads a little-endian float32 ('<f4'), 2-D .npy file in C or Fortran order. Anything else
// (missing file, truncated data, another dtype, not 2-D) is a usage error naming the file and the
// problem; `what` says which input it is ("--input-a").
NpyMatrix readNpy(const std::string& path, const std::string& what);

// What a .npy header says once readNpy has accepted it.
struct NpyHeader {
  std::size_t rows = 0, cols = 0;  // each 1 to 2^31-1
  bool fortran_order = false;
  std::string shape_text;  // as written in the header, e.g. "(2, 3)", for messages
};

// The two halves of readNpy on a stream instead of a file, so they can be fed bytes from memory
// (the fuzz targets in tests/fuzz); `path` only names the input in messages. readNpyHeader reads
// and checks everything before the data and leaves `in` at the data's first byte; readNpy reads
// the header and then the data, which must fill the rest of the stream exactly. `in` must be
// seekable: the data's size is checked before anything is allocated for it.
NpyHeader readNpyHeader(std::istream& in, const std::string& path, const std::string& what);
NpyMatrix readNpy(std::istream& in, const std::string& path, const std::string& what);

// Writes a rows x cols float32 matrix as .npy (format 1.0), via a temporary file renamed into
// place. `data` is row-major, or column-major with `fortran_order` (the header says which, so
// numpy.load gives the same matrix either way).
void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<float>& data, bool fortran_order = false);

}  // namespace clgemm
