// libFuzzer target for the .npy reader (host/util/npy.hpp): the input is a whole file, read from
// memory by readNpyHeader and readNpy. A refusal must be a UsageError; anything else, a sanitizer
// report, an allocation beyond -malloc_limit_mb or a broken invariant is a finding. Accepted input
// must be a header of the stated length with a 2-D shape and exactly rows * cols * 4 (float32) or
// 8 (float64) bytes of data after it, returned unchanged: truncated or trailing data is refused.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "util/errors.hpp"
#include "util/npy.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_npy: %s\n", what);
  std::abort();
}

// Where the data starts according to the preamble (magic, version, header length), as the format
// defines it; 0 where there is no complete preamble.
std::uint64_t dataStart(const std::string& bytes) {
  const auto byte = [&](std::size_t i) {
    return std::uint64_t(static_cast<unsigned char>(bytes[i]));
  };
  if (bytes.size() >= 10 && bytes[6] == 1) return 10 + (byte(8) | byte(9) << 8);
  if (bytes.size() >= 12) return 12 + (byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24);
  return 0;
}

bool littleEndianHost() {
  const std::uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t start = dataStart(bytes);

  bool header_ok = false;
  clgemm::NpyHeader header;
  {
    std::istringstream in(bytes);
    try {
      header = clgemm::readNpyHeader(in, "fuzz.npy", "--input-a");
      header_ok = true;
    } catch (const clgemm::UsageError&) {
    }
    if (header_ok) {
      check(header.rows >= 1 && header.rows <= 0x7fffffffu, "rows out of range");
      check(header.cols >= 1 && header.cols <= 0x7fffffffu, "cols out of range");
      check(start != 0 && start <= bytes.size(), "a header accepted past the end of the input");
      check(std::uint64_t(in.tellg()) == start, "the stream is not at the end of the header");
      check(header.shape_text.size() >= 2 && header.shape_text.front() == '(' &&
                header.shape_text.back() == ')',
            "shape text");
    }
  }

  std::istringstream in(bytes);
  try {
    const clgemm::NpyMatrix m = clgemm::readNpy(in, "fuzz.npy", "--input-a");
    check(header_ok, "readNpy accepted what readNpyHeader refused");
    check(m.rows == header.rows && m.cols == header.cols, "readNpy's shape differs");
    const std::uint64_t count = std::uint64_t(m.rows) * m.cols;
    const std::uint64_t element = clgemm::npyElementBytes(m.dtype);
    check(m.dtype == header.dtype, "readNpy's dtype differs");
    check(m.data.size() == count, "data size differs from rows * cols");
    check(start + count * element == bytes.size(),
          "data accepted that does not fill the input exactly");
    // readNpy gives doubles: a float32 file's values must be its floats, exactly.
    for (std::uint64_t i = 0; littleEndianHost() && i < count; ++i) {
      if (element == 8) {
        check(std::memcmp(&m.data[i], bytes.data() + start + i * 8, 8) == 0, "data changed");
      } else {
        // Widening quiets a signalling NaN: a NaN need only stay a NaN.
        const float x = float(m.data[i]);
        float stored;
        std::memcpy(&stored, bytes.data() + start + i * 4, 4);
        check(std::memcmp(&x, &stored, 4) == 0 || (x != x && stored != stored), "data changed");
      }
    }
  } catch (const clgemm::UsageError&) {
    // With a good header the only reason left is data of the wrong length.
    if (header_ok) {
      check(start + std::uint64_t(header.rows) * header.cols *
                        clgemm::npyElementBytes(header.dtype) !=
                bytes.size(),
            "readNpy refused a good header with exactly its data");
    }
  }
  return 0;
}
