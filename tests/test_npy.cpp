// Unit tests of the .npy reader and writer (host/util/npy.hpp): exact round trips, the header
// layout NumPy expects, and a UsageError naming the file and the problem for everything clgemm
// refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "run_clgemm.hpp"
#include "util/errors.hpp"
#include "util/npy.hpp"

namespace {

using clgemm::NpyMatrix;
using clgemm::readNpy;
using clgemm::UsageError;
using clgemm::writeNpy;
using clgemm_test::readText;
using clgemm_test::TempDir;
using clgemm_test::writeText;

std::string npyDict(const std::string& descr, const std::string& fortran_order,
                    const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran_order + ", 'shape': " + shape +
         ", }";
}

std::string floatBytes(const std::vector<float>& values) {
  std::string bytes(values.size() * 4, '\0');
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());  // little-endian
  return bytes;
}

// A .npy file written by hand: format `major`.0 (1: uint16 header length, 2: uint32), the dict
// padded with spaces and ended by '\n' to a multiple of 64 bytes, then `data` as it is.
std::string npyFile(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  const std::size_t unpadded = 6 + 2 + length_bytes + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::string bytes = "\x93NUMPY";
  bytes.push_back(char(major));
  bytes.push_back('\0');
  for (std::size_t i = 0; i < length_bytes; ++i)
    bytes.push_back(char((header.size() >> 8 * i) & 0xff));
  return bytes + header + data;
}

std::vector<float> sequence(std::size_t count) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = float(i) - 2.5f;
  return values;
}

// readNpy gives doubles whatever the dtype: a float32 file's values must come back as exactly the
// floats written (bit for bit once rounded back, so signed zeros and subnormals too).
bool sameBits(const std::vector<double>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float x = float(a[i]);
    if (double(x) != a[i] || std::memcmp(&x, &b[i], sizeof(float)) != 0) return false;
  }
  return true;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

std::string doubleBytes(const std::vector<double>& values) {
  std::string bytes(values.size() * 8, '\0');
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());  // little-endian
  return bytes;
}

TEST(Npy, RoundTripIsExact) {
  TempDir dir;
  const std::vector<float> values = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.5f,
                                     1.0f / 3.0f,
                                     -2.718281828f,
                                     1e-38f,
                                     -1.17549435e-38f,  // smallest normal
                                     1.4e-45f,
                                     -3e-42f,  // subnormal
                                     3.4028235e38f,
                                     -3.0e38f,
                                     123456.789f,
                                     16777216.0f,
                                     std::numeric_limits<float>::epsilon()};
  ASSERT_EQ(values.size(), 15u);
  const std::string path = dir.file("m.npy");
  writeNpy(path, "--output-c", 3, 5, values);

  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.rows, 3u);
  EXPECT_EQ(m.cols, 5u);
  EXPECT_TRUE(sameBits(m.data, values));
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(m.data[i], values[i]) << i;
  EXPECT_TRUE(std::signbit(m.data[1]));
  // Nothing but the file itself: the temporary was renamed into place.
  EXPECT_EQ(dir.files(), std::vector<std::string>{"m.npy"});
}

TEST(Npy, RoundTripReplacesExistingFile) {
  TempDir dir;
  const std::string path = dir.file("m.npy");
  writeText(path, "old contents, much longer than the new file would be if it were appended to");
  writeNpy(path, "--output-c", 1, 2, std::vector<float>{4.0f, -8.0f});
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.rows, 1u);
  EXPECT_EQ(m.cols, 2u);
  EXPECT_EQ(m.data, (std::vector<double>{4.0, -8.0}));
}

TEST(Npy, WrittenHeaderIsAlignedAndValid) {
  for (const auto& [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{
           {1, 1}, {3, 5}, {4, 3}, {1000, 7}, {123456, 1}, {1, 54321}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    TempDir dir;
    const std::string path = dir.file("h.npy");
    writeNpy(path, "--output-c", rows, cols, sequence(rows * cols));
    const std::string bytes = readText(path);
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
    EXPECT_EQ(bytes[6], '\x01');
    EXPECT_EQ(bytes[7], '\x00');
    const std::size_t header_length = std::size_t(static_cast<unsigned char>(bytes[8])) |
                                      std::size_t(static_cast<unsigned char>(bytes[9])) << 8;
    const std::size_t total = 10 + header_length;
    EXPECT_EQ(total % 64, 0u) << total;
    ASSERT_LE(total, bytes.size());
    const std::string header = bytes.substr(10, header_length);
    EXPECT_EQ(header.back(), '\n');
    EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (", 0), 0u) << header;
    EXPECT_NE(header.find("(" + std::to_string(rows) + ", " + std::to_string(cols) + ")"),
              std::string::npos)
        << header;
    EXPECT_EQ(bytes.size(), total + rows * cols * 4);
    const NpyMatrix m = readNpy(path, "--input-a");
    EXPECT_EQ(m.rows, rows);
    EXPECT_EQ(m.cols, cols);
    EXPECT_TRUE(sameBits(m.data, sequence(rows * cols)));
  }
}

TEST(Npy, ReadsHandWrittenVersion1) {
  TempDir dir;
  const std::string path = dir.file("v1.npy");
  writeText(path, npyFile(npyDict("<f4", "False", "(2, 3)"), floatBytes(sequence(6))));
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.rows, 2u);
  EXPECT_EQ(m.cols, 3u);
  EXPECT_TRUE(sameBits(m.data, sequence(6)));
}

TEST(Npy, ReadsVersion2Header) {
  TempDir dir;
  const std::string path = dir.file("v2.npy");
  const std::string bytes = npyFile(npyDict("<f4", "False", "(3, 4)"), floatBytes(sequence(12)), 2);
  ASSERT_EQ(bytes[6], '\x02');
  writeText(path, bytes);
  const NpyMatrix m = readNpy(path, "--input-b");
  EXPECT_EQ(m.rows, 3u);
  EXPECT_EQ(m.cols, 4u);
  EXPECT_TRUE(sameBits(m.data, sequence(12)));
}

// Found while writing tests/fuzz/fuzz_npy: the header was matched with std::regex, which recursed
// once per character and overflowed the stack (a crash, not a refusal) on a header of some 50 KB.
TEST(Npy, ReadsLongestVersion2Header) {
  TempDir dir;
  const std::string path = dir.file("long.npy");
  const std::string shape = "(" + std::string((1u << 20) - 100, ' ') + "2, 3)";
  writeText(path, npyFile(npyDict("<f4", "False", shape), floatBytes(sequence(6)), 2));
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.rows, 2u);
  EXPECT_EQ(m.cols, 3u);
  EXPECT_TRUE(sameBits(m.data, sequence(6)));
}

// readNpy(path) throws a UsageError whose message names the option, the file and each of `problem`.
void expectRefused(const std::string& path, const std::vector<std::string>& problem) {
  try {
    readNpy(path, "--input-a");
    ADD_FAILURE() << "readNpy accepted " << path;
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), clgemm::kExitUsage);
    EXPECT_NE(what.find("--input-a"), std::string::npos) << what;
    EXPECT_NE(what.find(path), std::string::npos) << what;
    for (const auto& p : problem) EXPECT_NE(what.find(p), std::string::npos) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a UsageError: " << e.what();
  }
}

// A file with this header dict and data, refused for `problem`.
void expectRefusedFile(const std::string& name, const std::string& bytes,
                       const std::vector<std::string>& problem) {
  SCOPED_TRACE(name);
  TempDir dir;
  const std::string path = dir.file(name);
  writeText(path, bytes);
  expectRefused(path, problem);
}

TEST(NpyErrors, MissingFile) {
  TempDir dir;
  expectRefused(dir.file("absent.npy"), {"cannot open", "No such file"});
}

TEST(NpyErrors, EmptyFile) { expectRefusedFile("empty.npy", "", {"magic"}); }

TEST(NpyErrors, BadMagic) {
  std::string bytes = npyFile(npyDict("<f4", "False", "(2, 3)"), floatBytes(sequence(6)));
  bytes[1] = 'X';
  expectRefusedFile("magic.npy", bytes, {"magic"});
}

TEST(NpyErrors, UnsupportedVersion) {
  std::string bytes = npyFile(npyDict("<f4", "False", "(2, 3)"), floatBytes(sequence(6)));
  bytes[6] = 9;
  expectRefusedFile("version.npy", bytes, {"version 9"});
}

TEST(NpyErrors, TruncatedHeader) {
  const std::string bytes = npyFile(npyDict("<f4", "False", "(2, 3)"), "");
  expectRefusedFile("header.npy", bytes.substr(0, 40), {"truncated"});
}

TEST(NpyErrors, TruncatedData) {
  const std::string bytes =
      npyFile(npyDict("<f4", "False", "(2, 3)"), floatBytes(sequence(6)).substr(0, 23));
  expectRefusedFile("short.npy", bytes, {"truncated", "(2, 3)", "24", "23"});
}

TEST(NpyErrors, NoData) {
  expectRefusedFile("nodata.npy", npyFile(npyDict("<f4", "False", "(2, 3)"), ""), {"truncated"});
}

TEST(NpyErrors, TrailingBytes) {
  const std::string bytes = npyFile(npyDict("<f4", "False", "(2, 3)"), floatBytes(sequence(7)));
  expectRefusedFile("long.npy", bytes, {"4 bytes after the data"});
}

TEST(NpyErrors, BigEndianFloat64) {
  expectRefusedFile("be8.npy", npyFile(npyDict(">f8", "False", "(2, 3)"), std::string(48, '\0')),
                    {"'>f8'", "little-endian", "float64"});
}

TEST(NpyErrors, Float16) {
  expectRefusedFile("f2.npy", npyFile(npyDict("<f2", "False", "(2, 3)"), std::string(12, '\0')),
                    {"'<f2'", "float32", "float64"});
}

// A float64 header counts 8 bytes an element: 6 elements' worth of float32 data is short.
TEST(NpyErrors, Float64DataOfFloat32Size) {
  expectRefusedFile("f8short.npy",
                    npyFile(npyDict("<f8", "False", "(2, 3)"), floatBytes(sequence(6))),
                    {"truncated", "48", "24"});
}

// Values no float holds, the extremes of double and -0.0, each back bit for bit.
std::vector<double> doubleValues() {
  return {0.0,
          -0.0,
          1.0 / 3.0,
          -2.718281828459045,
          1e-300,
          -2.2250738585072014e-308,  // smallest normal
          4.9e-324,                  // smallest subnormal
          1.7976931348623157e308,
          -1e300,
          16777217.0,  // 2^24 + 1: rounds in float32
          std::numeric_limits<double>::epsilon(),
          123456789.123456789};
}

TEST(Npy, Float64RoundTripIsExact) {
  TempDir dir;
  const std::vector<double> values = doubleValues();
  const std::string path = dir.file("d.npy");
  writeNpy(path, "--output-c", 3, 4, values);
  const std::string bytes = readText(path);
  EXPECT_NE(bytes.find("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }"),
            std::string::npos);
  EXPECT_EQ(bytes.size() % 64, 32u);  // a header of whole 64-byte lines, then 12 doubles
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.dtype, clgemm::NpyDtype::kFloat64);
  EXPECT_EQ(m.rows, 3u);
  EXPECT_EQ(m.cols, 4u);
  EXPECT_FALSE(m.fortran_order);
  EXPECT_TRUE(sameBits(m.data, values));
  EXPECT_TRUE(std::signbit(m.data[1]));
}

TEST(Npy, Float64FortranOrderRoundTrip) {
  TempDir dir;
  const std::string path = dir.file("d.npy");
  writeNpy(path, "--output-c", 4, 3, doubleValues(), true);
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.dtype, clgemm::NpyDtype::kFloat64);
  EXPECT_TRUE(m.fortran_order);
  EXPECT_TRUE(sameBits(m.data, doubleValues()));
}

TEST(Npy, ReadsHandWrittenFloat64) {
  TempDir dir;
  const std::string path = dir.file("f8.npy");
  writeText(path, npyFile(npyDict("<f8", "True", "(2, 3)"), doubleBytes(doubleValues())));
  // 12 doubles for a 2 x 3 shape is 48 bytes too many.
  expectRefused(path, {"48 bytes after the data"});
  const std::vector<double> all = doubleValues();
  const std::vector<double> six(all.begin(), all.begin() + 6);
  writeText(path, npyFile(npyDict("<f8", "True", "(2, 3)"), doubleBytes(six)));
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_EQ(m.dtype, clgemm::NpyDtype::kFloat64);
  EXPECT_TRUE(m.fortran_order);
  EXPECT_TRUE(sameBits(m.data, six));
}

TEST(Npy, Float32FileSaysItsDtype) {
  TempDir dir;
  const std::string path = dir.file("f4.npy");
  writeNpy(path, "--output-c", 2, 3, sequence(6));
  EXPECT_EQ(readNpy(path, "--input-a").dtype, clgemm::NpyDtype::kFloat32);
}

TEST(NpyErrors, BigEndianFloat32) {
  expectRefusedFile("be.npy", npyFile(npyDict(">f4", "False", "(2, 3)"), floatBytes(sequence(6))),
                    {"'>f4'", "little-endian"});
}

TEST(NpyErrors, Int32) {
  expectRefusedFile("i4.npy", npyFile(npyDict("<i4", "False", "(2, 3)"), floatBytes(sequence(6))),
                    {"'<i4'"});
}

// Fortran order is read as the file holds it (column-major), and said: loadProblem decides whether
// the run's --layout takes it (test_bad_input.cpp has the refusals).
TEST(Npy, ReadsFortranOrderAsStored) {
  TempDir dir;
  const std::string path = dir.file("f.npy");
  writeText(path, npyFile(npyDict("<f4", "True", "(2, 3)"), floatBytes(sequence(6))));
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_TRUE(m.fortran_order);
  EXPECT_EQ(m.rows, 2u);
  EXPECT_EQ(m.cols, 3u);
  EXPECT_TRUE(sameBits(m.data, sequence(6)));
  writeText(path, npyFile(npyDict("<f4", "False", "(2, 3)"), floatBytes(sequence(6))));
  EXPECT_FALSE(readNpy(path, "--input-a").fortran_order);
}

TEST(Npy, WritesFortranOrder) {
  TempDir dir;
  const std::string path = dir.file("f.npy");
  writeNpy(path, "--output-c", 2, 3, sequence(6), true);
  const std::string bytes = readText(path);
  EXPECT_NE(bytes.find("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }"),
            std::string::npos);
  EXPECT_EQ(bytes.size() % 64, 24u);  // a header of whole 64-byte lines, then 6 floats
  const NpyMatrix m = readNpy(path, "--input-a");
  EXPECT_TRUE(m.fortran_order);
  EXPECT_TRUE(sameBits(m.data, sequence(6)));
}

TEST(NpyErrors, FortranOrderNeitherTrueNorFalse) {
  expectRefusedFile("f.npy", npyFile(npyDict("<f4", "'yes'", "(2, 3)"), floatBytes(sequence(6))),
                    {"fortran_order"});
}

TEST(NpyErrors, OneDimensional) {
  expectRefusedFile("1d.npy", npyFile(npyDict("<f4", "False", "(6,)"), floatBytes(sequence(6))),
                    {"(6,)", "2-D"});
}

TEST(NpyErrors, ThreeDimensional) {
  expectRefusedFile("3d.npy",
                    npyFile(npyDict("<f4", "False", "(1, 2, 3)"), floatBytes(sequence(6))),
                    {"(1, 2, 3)", "2-D"});
}

TEST(NpyErrors, Scalar) {
  expectRefusedFile("0d.npy", npyFile(npyDict("<f4", "False", "()"), floatBytes(sequence(1))),
                    {"()", "2-D"});
}

TEST(NpyErrors, EmptyShape) {
  expectRefusedFile("empty_shape.npy", npyFile(npyDict("<f4", "False", "(0, 3)"), ""),
                    {"(0, 3)", "empty"});
}

TEST(NpyErrors, NegativeDimension) {
  // 80 bytes of data would fit a 4 x 5 matrix: the minus sign must not be read past.
  expectRefusedFile("neg.npy",
                    npyFile(npyDict("<f4", "False", "(4, -5)"), floatBytes(sequence(20))),
                    {"(4, -5)", "malformed"});
}

TEST(NpyErrors, ShapeGivenAsAString) {
  // Found by fuzz_npy: a quoted '4,5' was read as the tuple (4, 5). numpy writes a tuple.
  expectRefusedFile("string_shape.npy",
                    npyFile(npyDict("<f4", "False", "'4,5'"), floatBytes(sequence(20))),
                    {"'4,5'", "malformed"});
}

TEST(NpyErrors, HeaderWithoutDescr) {
  expectRefusedFile("nodescr.npy",
                    npyFile("{'fortran_order': False, 'shape': (2, 3), }", floatBytes(sequence(6))),
                    {"descr"});
}

TEST(NpyErrors, HugeShapeIsRefusedBeforeAllocating) {
  // 2^31-1 squared floats would be 16 EiB: must be refused from the file size, not attempted.
  expectRefusedFile(
      "huge.npy",
      npyFile(npyDict("<f4", "False", "(2147483647, 2147483647)"), floatBytes(sequence(6))),
      {"truncated"});
}

TEST(NpyErrors, WriteIntoMissingDirectory) {
  TempDir dir;
  const std::string path = dir.file("missing/out.npy");
  try {
    writeNpy(path, "--output-c", 2, 3, sequence(6));
    ADD_FAILURE() << "writeNpy wrote into a missing directory";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--output-c"), std::string::npos) << what;
    EXPECT_NE(what.find(path), std::string::npos) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a UsageError: " << e.what();
  }
  EXPECT_EQ(dir.files(), std::vector<std::string>{});
}

TEST(NpyErrors, WriteOverDirectory) {
  TempDir dir;
  EXPECT_THROW(writeNpy(dir.path(), "--output-c", 2, 3, sequence(6)), UsageError);
  EXPECT_EQ(dir.files(), std::vector<std::string>{});
}

}  // namespace
