#include "util/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

const char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLength = 6;

[[noreturn]] void bad(const std::string& what, const std::string& path, const std::string& why) {
  throw UsageError(what + " '" + path + "': " + why);
}

// The value of 'key' in the header dict, as written by numpy.lib.format: {'descr': '<f4', ...}:
// after the first "'key'" followed by a colon (spaces allowed around it) and a quoted string, True,
// False or a parenthesised tuple. Scanned by hand in linear time: std::regex recursed once per
// character it matched and overflowed the stack on a long header (a version 2 header may have
// 1 MiB), crashing clgemm instead of refusing the file.
std::string headerField(const std::string& header, const std::string& key, const std::string& what,
                        const std::string& path) {
  const std::string quoted = "'" + key + "'";
  const auto skipSpace = [&](std::size_t i) {
    while (i < header.size() && std::isspace(static_cast<unsigned char>(header[i]))) ++i;
    return i;
  };
  // A '(' without a ')' after it means none of the later ones has one either: looking again for
  // each would make a long header quadratic.
  bool unclosed = false;
  for (auto at = header.find(quoted); at != std::string::npos; at = header.find(quoted, at + 1)) {
    std::size_t i = skipSpace(at + quoted.size());
    if (i == header.size() || header[i] != ':') continue;
    i = skipSpace(i + 1);
    std::size_t last = std::string::npos;  // the value's last character
    if (header.compare(i, 1, "'") == 0) last = header.find('\'', i + 1);
    if (header.compare(i, 1, "(") == 0 && !unclosed) {
      last = header.find(')', i + 1);
      unclosed = last == std::string::npos;
    }
    if (header.compare(i, 4, "True") == 0) last = i + 3;
    if (header.compare(i, 5, "False") == 0) last = i + 4;
    if (last != std::string::npos) return header.substr(i, last - i + 1);
  }
  bad(what, path, "not a valid .npy file (header has no '" + key + "')");
}

bool isLittleEndianHost() {
  const std::uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// The little-endian `count` elements of `bytes` bytes each at `from`, in the host's order.
void toHostOrder(char* from, std::size_t count, std::size_t bytes) {
  if (isLittleEndianHost()) return;
  for (std::size_t i = 0; i < count; ++i) std::reverse(from + i * bytes, from + (i + 1) * bytes);
}

// The dtype a descr names, when it is one clgemm reads: little-endian ('<'), native ('=') on a
// little-endian host, or '|' (which numpy writes for one-byte types only, but means "no order").
std::optional<NpyDtype> dtypeOf(const std::string& descr) {
  for (const NpyDtype dtype : {NpyDtype::kFloat32, NpyDtype::kFloat64}) {
    const std::string code = dtype == NpyDtype::kFloat64 ? "f8'" : "f4'";
    if (descr == "'<" + code || descr == "'|" + code ||
        (descr == "'=" + code && isLittleEndianHost()))
      return dtype;
  }
  return std::nullopt;
}

template <typename T>
void writeElements(const std::string& path, const std::string& what, std::size_t rows,
                   std::size_t cols, const std::vector<T>& data, bool fortran_order,
                   NpyDtype dtype) {
  std::ostringstream dict;
  dict << "{'descr': " << npyDescr(dtype)
       << ", 'fortran_order': " << (fortran_order ? "True" : "False") << ", 'shape': (" << rows
       << ", " << cols << "), }";
  std::string header = dict.str();
  // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64 bytes,
  // ending in a newline, as numpy.lib.format writes it.
  const std::size_t unpadded = kMagicLength + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');

  std::vector<T> little = data;
  toHostOrder(reinterpret_cast<char*>(little.data()), little.size(), sizeof(T));
  writeFileAtomically(path, what, [&](std::ostream& out) {
    out.write(kMagic, kMagicLength);
    const char version[2] = {1, 0};
    out.write(version, 2);
    const unsigned char len[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                  static_cast<unsigned char>(header.size() >> 8)};
    out.write(reinterpret_cast<const char*>(len), 2);
    out << header;
    out.write(reinterpret_cast<const char*>(little.data()),
              std::streamsize(little.size() * sizeof(T)));
  });
}

}  // namespace

std::string npyDtypeName(NpyDtype dtype) {
  return dtype == NpyDtype::kFloat64 ? "float64" : "float32";
}

std::string npyDescr(NpyDtype dtype) { return dtype == NpyDtype::kFloat64 ? "'<f8'" : "'<f4'"; }

NpyMatrix readNpy(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(what, path, "cannot open file (" + std::string(std::strerror(errno)) + ")");
  return readNpy(in, path, what);
}

NpyHeader readNpyHeader(std::istream& in, const std::string& path, const std::string& what) {
  char magic[kMagicLength];
  unsigned char version[2];
  if (!in.read(magic, kMagicLength) || std::memcmp(magic, kMagic, kMagicLength) != 0)
    bad(what, path, "not a .npy file (no \\x93NUMPY magic)");
  if (!in.read(reinterpret_cast<char*>(version), 2)) bad(what, path, "truncated header");
  std::uint32_t header_length = 0;
  if (version[0] == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char*>(len), 2)) bad(what, path, "truncated header");
    header_length = std::uint32_t(len[0]) | std::uint32_t(len[1]) << 8;
  } else if (version[0] == 2 || version[0] == 3) {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char*>(len), 4)) bad(what, path, "truncated header");
    header_length = std::uint32_t(len[0]) | std::uint32_t(len[1]) << 8 |
                    std::uint32_t(len[2]) << 16 | std::uint32_t(len[3]) << 24;
  } else {
    bad(what, path, "unsupported .npy format version " + std::to_string(version[0]));
  }
  if (header_length > (1u << 20)) bad(what, path, "implausible header length");
  std::string header(header_length, '\0');
  if (!in.read(header.data(), header_length)) bad(what, path, "truncated header");

  const std::string descr = headerField(header, "descr", what, path);
  const std::optional<NpyDtype> dtype = dtypeOf(descr);
  if (!dtype) {
    bad(what, path,
        "dtype " + descr +
            " is not little-endian float32 ('<f4') or float64 ('<f8'); convert with "
            "a.astype(numpy.float32) or a.astype(numpy.float64)");
  }
  const std::string order = headerField(header, "fortran_order", what, path);
  if (order != "True" && order != "False")
    bad(what, path, "malformed fortran_order " + order + " (True or False)");

  const std::string shape_text = headerField(header, "shape", what, path);
  // headerField also takes a quoted string ('4,5'), which numpy never writes for a shape.
  if (shape_text.front() != '(') bad(what, path, "malformed shape " + shape_text);
  std::vector<std::uint64_t> shape;
  {
    // "(4, 5)", "(4,)", "()": comma-separated non-negative integers, an optional trailing comma.
    std::string inner = shape_text.substr(1, shape_text.size() - 2);
    std::stringstream items(inner);
    std::string item;
    while (std::getline(items, item, ',')) {
      const auto first = item.find_first_not_of(" \t");
      if (first == std::string::npos) {
        if (items.eof()) break;  // the trailing comma of a 1-tuple or of "(4, 5,)"
        bad(what, path, "malformed shape " + shape_text);
      }
      const std::string digits = item.substr(first, item.find_last_not_of(" \tL") - first + 1);
      if (digits.empty() || digits.size() > 12 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        bad(what, path, "malformed shape " + shape_text);
      shape.push_back(std::stoull(digits));
    }
  }
  if (shape.size() != 2) bad(what, path, "shape " + shape_text + " is not a 2-D matrix");
  if (shape[0] == 0 || shape[1] == 0) bad(what, path, "shape " + shape_text + " is empty");
  if (shape[0] > 0x7fffffffu || shape[1] > 0x7fffffffu)
    bad(what, path, "shape " + shape_text + " is too large");

  return NpyHeader{std::size_t(shape[0]), std::size_t(shape[1]), order == "True", *dtype,
                   shape_text};
}

NpyMatrix readNpy(std::istream& in, const std::string& path, const std::string& what) {
  const NpyHeader header = readNpyHeader(in, path, what);
  const std::string& shape_text = header.shape_text;
  NpyMatrix matrix;
  matrix.rows = header.rows;
  matrix.cols = header.cols;
  matrix.fortran_order = header.fortran_order;
  matrix.dtype = header.dtype;
  const std::uint64_t count = std::uint64_t(header.rows) * header.cols;
  const std::uint64_t element = npyElementBytes(header.dtype);
  // Compare with the file's size before allocating, so a corrupt header cannot ask for terabytes.
  const std::streampos data_start = in.tellg();
  in.seekg(0, std::ios::end);
  const std::uint64_t available = std::uint64_t(in.tellg() - data_start);
  in.seekg(data_start);
  // count may be up to (2^31-1)^2, whose 8-byte elements would wrap a uint64: compare by division.
  if (count > available / element) {
    const std::string needs =
        count > UINT64_MAX / element ? "more than 2^64" : std::to_string(count * element);
    bad(what, path,
        "truncated: shape " + shape_text + " needs " + needs + " bytes of data, the file has " +
            std::to_string(available));
  }
  if (available > count * element) {
    bad(what, path,
        std::to_string(available - count * element) + " bytes after the data for shape " +
            shape_text + "; not a single .npy array");
  }
  matrix.data.resize(std::size_t(count));
  if (header.dtype == NpyDtype::kFloat64) {
    if (!in.read(reinterpret_cast<char*>(matrix.data.data()), std::streamsize(count * 8)))
      bad(what, path, "read error");
    toHostOrder(reinterpret_cast<char*>(matrix.data.data()), std::size_t(count), 8);
  } else {
    std::vector<float> floats(static_cast<std::size_t>(count));
    if (!in.read(reinterpret_cast<char*>(floats.data()), std::streamsize(count * 4)))
      bad(what, path, "read error");
    toHostOrder(reinterpret_cast<char*>(floats.data()), floats.size(), 4);
    std::copy(floats.begin(), floats.end(), matrix.data.begin());
  }
  return matrix;
}

void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<float>& data, bool fortran_order) {
  writeElements(path, what, rows, cols, data, fortran_order, NpyDtype::kFloat32);
}

void writeNpy(const std::string& path, const std::string& what, std::size_t rows, std::size_t cols,
              const std::vector<double>& data, bool fortran_order) {
  writeElements(path, what, rows, cols, data, fortran_order, NpyDtype::kFloat64);
}

}  // namespace clgemm
