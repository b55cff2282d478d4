// Reading and writing NumPy .npy files holding 2-D float32 or float64 matrices in C order
// (row-major) or Fortran order (column-major, as numpy.asfortranarray saves them), so users can
// feed clgemm their own matrices in either layout and precision and check its result against NumPy.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace clgemm {

// The element types clgemm reads and writes: little-endian float32 ('<f4') and float64 ('<f8'),
// the FP32 and FP64 runs' (util/ sits below problem/, so this is not problem/precision.hpp's enum).
enum class NpyDtype { kFloat32, kFloat64 };

// "float32" / "float64", as NumPy names them (for messages: a.astype(numpy.float64)).
std::string npyDtypeName(NpyDtype dtype);
// "'<f4'" / "'<f8'", as the header's descr says it.
std::string npyDescr(NpyDtype dtype);
inline std::size_t npyElementBytes(NpyDtype dtype) { return dtype == NpyDtype::kFloat64 ? 8 : 4; }

struct NpyMatrix {
  std::size_t rows = 0, cols = 0;
  // As the file holds it: the caller decides whether it is the run's precision (an FP64 run
  // refuses a float32 file rather than pretend its values carry 53 bits).
  NpyDtype dtype = NpyDtype::kFloat32;
  // As the file holds it, not reordered: the caller decides whether the order is the one it wants
  // (a column-major run takes Fortran order as it is and refuses C order).
  bool fortran_order = false;
  // row-major, or column-major (data[c * rows + r]) when fortran_order; as doubles whatever the
  // dtype (a float32 file's values are floats, which doubles hold exactly, signed zeros and
  // subnormals included), so the caller has one type to read.
  std::vector<double> data;
};

// Reads a little-endian float32 ('<f4') or float64 ('<f8'), 2-D .npy file in C or Fortran order.
// Anything else (missing file, truncated data, another dtype, not 2-D) is a usage error naming the
// file and the problem; `what` says which input it is ("--input-a").
NpyMatrix readNpy(const std::string& path, const std::string& what);

// What a .npy header says once readNpy has accepted it.
struct NpyHeader {
  std::size_t rows = 0, cols = 0;  // each 1 to 2^31-1
  bool fortran_order = false;
  NpyDtype dtype = NpyDtype::kFloat32;
  std::string shape_text;  // as written in the header, e.g. "(2, 3)", for messages
};

// The two halves of readNpy on a stream instead of a file, so they can be fed bytes from memory
// (the fuzz targets in tests/fuzz); `path` only names the input in messages. readNpyHeader reads
// and checks everything before the data and leaves `in` at the data's first byte; readNpy reads
// the header and then the data, which must fill the rest of the stream exactly. `in` must be
// seekable: the data's size is checked before anything is allocated for it.
NpyHeader readNpyHeader(std::istream& in, const std::string& path, const std::string& what);
NpyMatrix readNpy(std::istream& in, const std::string& path, const std::string& what);

// Writes a rows x cols matrix as .npy (format 1.0), via a temporary file renamed into place:
// float32 ('<f4') from floats, float64 ('<f8') from doubles. `data` is row-major, or column-major
// with `fortran_order` (the header says which, so numpy.load gives the same matrix either way).
void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<float>& data, bool fortran_order = false);
void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<double>& data, bool fortran_order = false);

}  // namespace clgemm
