// The C API (include/clgemm/clgemm.h) on the machine's device, called as a program would: every
// layout and transpose with offsets and leading dimensions above the least, in both precisions,
// checked element by element against a double-precision product; the buffers' bytes outside the
// matrices (before an offset, in the gaps between lines, past the end) compared with what they
// held; BLAS's promises for alpha = 0, k = 0, beta = 0 (NaN in the matrices not read) and m = 0;
// every refused argument with its status and a message naming it; the user's store reaching the
// library as it reaches the command line; several threads calling at once.
#include <clgemm/clgemm.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"

namespace {

namespace fs = std::filesystem;

// The machine's device (as `clgemm` picks it) with a context and an in-order queue.
struct Device {
  Device() {
    const clgemm::SelectedDevice selected = clgemm::selectDevice(std::nullopt, std::nullopt);
    device = selected.device;
    info = selected.info;
    context = cl::Context(device);
    queue = cl::CommandQueue(context, device);
  }
  cl::Device device;
  clgemm::DeviceInfo info;
  cl::Context context;
  cl::CommandQueue queue;
};

// Never destroyed, as a program's context usually outlives nothing: releasing it from a static
// destructor, after the OpenCL implementation's own, aborts under oclgrind.
Device& device() {
  static Device* d = new Device;
  return *d;
}

// One call's problem: sizes, shape, offsets, lds (0: the least), scalars.
struct Problem {
  size_t m, n, k;
  clgemmLayout layout = clgemmLayoutRowMajor;
  clgemmTranspose ta = clgemmTransposeNo, tb = clgemmTransposeNo;
  size_t a_off = 0, b_off = 0, c_off = 0;
  size_t a_pad = 0, b_pad = 0, c_pad = 0;  // ld above the least
  double alpha = 1.0, beta = 0.0;
};

// A stored matrix: logical rows x cols in `layout`, maybe transposed by op.
struct Stored {
  size_t rows, cols, ld, offset;
  bool col_major;
  size_t lineLength() const { return col_major ? rows : cols; }
  size_t lines() const { return col_major ? cols : rows; }
  // Where op's logical element (r, c) lives (`transposed`: the stored matrix is op's transpose).
  size_t at(size_t r, size_t c, bool transposed) const {
    if (transposed) std::swap(r, c);
    return offset + (col_major ? c * ld + r : r * ld + c);
  }
  size_t span() const { return offset + lines() * ld; }
};

template <typename T>
struct Result {
  std::vector<T> c_before, c_after;
  std::vector<T> a, b;
  clgemmStatus status;
  std::string message;
  cl_event event = nullptr;
};

template <typename T>
clgemmStatus callGemm(const Problem& p, cl_mem a, size_t lda, cl_mem b, size_t ldb, cl_mem c,
                      size_t ldc, cl_command_queue* queue, cl_event* event) {
  if constexpr (sizeof(T) == 4)
    return clgemmSgemm(p.layout, p.ta, p.tb, p.m, p.n, p.k, float(p.alpha), a, p.a_off, lda, b,
                       p.b_off, ldb, float(p.beta), c, p.c_off, ldc, queue, event);
  else
    return clgemmDgemm(p.layout, p.ta, p.tb, p.m, p.n, p.k, p.alpha, a, p.a_off, lda, b, p.b_off,
                       ldb, p.beta, c, p.c_off, ldc, queue, event);
}

struct Layouts {
  Stored a, b, c;
};

Layouts layoutsOf(const Problem& p) {
  const bool col = p.layout == clgemmLayoutColMajor;
  const bool ta = p.ta != clgemmTransposeNo, tb = p.tb != clgemmTransposeNo;
  Stored a{ta ? p.k : p.m, ta ? p.m : p.k, 0, p.a_off, col};
  Stored b{tb ? p.n : p.k, tb ? p.k : p.n, 0, p.b_off, col};
  Stored c{p.m, p.n, 0, p.c_off, col};
  a.ld = std::max<size_t>(1, a.lineLength()) + p.a_pad;
  b.ld = std::max<size_t>(1, b.lineLength()) + p.b_pad;
  c.ld = std::max<size_t>(1, c.lineLength()) + p.c_pad;
  return {a, b, c};
}

// Runs the call on buffers filled with random values (`poison_*`: NaN instead), 7 elements past
// each matrix's end; returns the buffers before and after.
template <typename T>
Result<T> run(const Problem& p, bool poison_ab = false, bool poison_c = false,
              cl_command_queue queue_id = nullptr) {
  Device& d = device();
  const Layouts l = layoutsOf(p);
  std::mt19937 rng(unsigned(p.m * 131 + p.n * 7 + p.k));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  const auto fill = [&](size_t count, bool poison) {
    std::vector<T> v(count + 7);
    for (T& x : v) x = poison ? std::numeric_limits<T>::quiet_NaN() : T(dist(rng));
    return v;
  };
  Result<T> r;
  r.a = fill(l.a.span(), poison_ab);
  r.b = fill(l.b.span(), poison_ab);
  r.c_before = fill(l.c.span(), poison_c);
  cl::Buffer a(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, r.a.size() * sizeof(T),
               r.a.data());
  cl::Buffer b(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, r.b.size() * sizeof(T),
               r.b.data());
  cl::Buffer c(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, r.c_before.size() * sizeof(T),
               r.c_before.data());
  cl_command_queue q = queue_id ? queue_id : d.queue();
  r.status = callGemm<T>(p, a(), l.a.ld, b(), l.b.ld, c(), l.c.ld, &q, &r.event);
  r.message = clgemmLastMessage();
  if (r.event) {
    EXPECT_EQ(clWaitForEvents(1, &r.event), CL_SUCCESS);
    clReleaseEvent(r.event);
  }
  r.c_after.resize(r.c_before.size());
  cl::CommandQueue(q, true).enqueueReadBuffer(c, CL_TRUE, 0, r.c_after.size() * sizeof(T),
                                              r.c_after.data());
  return r;
}

// Every element of C against alpha * op(A) op(B) + beta * C in double, within `ulps` units of
// T's epsilon times the sum of magnitudes; every other element of C's buffer bit-identical.
template <typename T>
void expectProduct(const Problem& p, const Result<T>& r, double ulps = 16) {
  ASSERT_EQ(r.status, clgemmSuccess) << clgemmStatusString(r.status) << ": " << r.message;
  const Layouts l = layoutsOf(p);
  const bool ta = p.ta != clgemmTransposeNo, tb = p.tb != clgemmTransposeNo;
  std::vector<bool> inside(r.c_before.size(), false);
  int bad = 0;
  for (size_t i = 0; i < p.m; ++i) {
    for (size_t j = 0; j < p.n; ++j) {
      double sum = 0, mag = 0;
      if (p.alpha != 0.0) {
        for (size_t q = 0; q < p.k; ++q) {
          const double prod = double(r.a[l.a.at(i, q, ta)]) * double(r.b[l.b.at(q, j, tb)]);
          sum += prod;
          mag += std::abs(prod);
        }
      }
      const size_t at = l.c.at(i, j, false);
      inside[at] = true;
      const double c0 = p.beta != 0.0 ? double(r.c_before[at]) : 0.0;
      const double want = p.alpha * sum + p.beta * c0;
      const double tol = ulps * std::numeric_limits<T>::epsilon() *
                             (std::abs(p.alpha) * mag + std::abs(p.beta * c0)) +
                         std::numeric_limits<T>::min();
      const double got = double(r.c_after[at]);
      if (!(std::abs(got - want) <= tol) && ++bad <= 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << got << ", want " << want;
    }
  }
  for (size_t e = 0; e < r.c_before.size(); ++e)
    if (!inside[e] && std::memcmp(&r.c_before[e], &r.c_after[e], sizeof(T)) != 0 && ++bad <= 10)
      ADD_FAILURE() << "element " << e << " of C's buffer, outside the matrix, was written";
  EXPECT_EQ(bad, 0);
}

// CLGEMM_TEST_FP32_ONLY: the oclgrind run of this suite (tests/CMakeLists.txt), whose device has
// 32 KiB of local memory, less than best's default tiles need in FP64 (34.8 KiB): a call there
// is refused with clgemmInvalidParameters, as on any such device, which is not what these check.
bool hasFp64() { return device().info.has_fp64 && !std::getenv("CLGEMM_TEST_FP32_ONLY"); }

// The shipped data/params would pick other parameters per machine; the tests run the defaults
// (edges in the kernel) unless a test sets a store of its own.
class CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("CLGEMM_DATA", "none", 1);
    setenv("CLGEMM_STORE", (fs::temp_directory_path() / "clgemm-test-c-api-no-store").c_str(), 1);
    clgemmClearCache();
  }
  void TearDown() override { clgemmClearCache(); }
};

TEST_F(CApi, EveryLayoutAndTransposeWithOffsetsAndLeadingDimensions) {
  for (const auto layout : {clgemmLayoutRowMajor, clgemmLayoutColMajor})
    for (const auto ta : {clgemmTransposeNo, clgemmTransposeYes})
      for (const auto tb : {clgemmTransposeNo, clgemmTransposeConjugate}) {
        Problem p{33, 17, 9, layout, ta, tb, 3, 5, 2, 4, 0, 3, 0.75, -1.25};
        SCOPED_TRACE(std::to_string(layout) + " " + std::to_string(ta) + " " + std::to_string(tb));
        expectProduct(p, run<float>(p));
        if (hasFp64()) expectProduct(p, run<double>(p));
      }
}

// Offsets and leading dimensions that are multiples of 4 take best's aligned float4 paths, and
// sizes of whole tiles its EDGE = 0 build: both must read from the offset.
TEST_F(CApi, AlignedOffsetsAndWholeTiles) {
  Problem p{64, 128, 32, clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, 4, 8, 12, 4, 0,
            4,  1.0, 0.5};
  expectProduct(p, run<float>(p));
  p.layout = clgemmLayoutColMajor;
  p.ta = clgemmTransposeYes;
  expectProduct(p, run<float>(p));
  if (hasFp64()) expectProduct(p, run<double>(p));
}

TEST_F(CApi, OddSizesFromOne) {
  for (const auto& [m, n, k] : std::vector<std::array<size_t, 3>>{
           {1, 1, 1}, {7, 1, 3}, {1, 9, 2}, {100, 37, 129}, {5, 3, 70}}) {
    Problem p{m, n, k, clgemmLayoutColMajor, clgemmTransposeYes, clgemmTransposeNo};
    p.beta = 2.0;
    expectProduct(p, run<float>(p));
  }
}

// BLAS: beta = 0 reads no C, so NaN there never reaches the result.
TEST_F(CApi, BetaZeroDoesNotReadC) {
  Problem p{33, 17, 9};
  p.alpha = 1.5;
  p.c_pad = 2;
  expectProduct(p, run<float>(p, false, /*poison_c=*/true));
  if (hasFp64()) expectProduct(p, run<double>(p, false, true));
}

// alpha = 0 or k = 0: C = beta * C without reading A or B (NaN there must not matter).
TEST_F(CApi, AlphaZeroAndKZeroScaleC) {
  Problem p{21, 13, 8};
  p.alpha = 0.0;
  p.beta = -0.5;
  expectProduct(p, run<float>(p, /*poison_ab=*/true));
  p.beta = 0.0;  // C = 0 exactly, NaN in C or not
  const Result<float> zeroed = run<float>(p, true, true);
  expectProduct(p, zeroed);
  Problem k0{9, 11, 0, clgemmLayoutColMajor};
  k0.beta = 3.0;
  expectProduct(k0, run<float>(k0));
  if (hasFp64()) expectProduct(k0, run<double>(k0));
}

// m = 0 or n = 0: success, nothing enqueued (no event), C untouched.
TEST_F(CApi, EmptyProblemsEnqueueNothing) {
  for (const auto& [m, n] : std::vector<std::pair<size_t, size_t>>{{0, 5}, {5, 0}}) {
    Problem p{m, n, 4};
    p.beta = 2.0;
    const Result<float> r = run<float>(p);
    EXPECT_EQ(r.status, clgemmSuccess) << r.message;
    EXPECT_EQ(r.event, nullptr);
    EXPECT_EQ(std::memcmp(r.c_before.data(), r.c_after.data(), r.c_before.size() * sizeof(float)),
              0);
  }
}

// Each refused argument: its status, a message naming it, a status string, and C unchanged.
TEST_F(CApi, RefusedArgumentsNameTheirCulprit) {
  Device& d = device();
  cl::Buffer a(d.context, CL_MEM_READ_WRITE, 64 * 64 * 4),
      b(d.context, CL_MEM_READ_WRITE, 64 * 64 * 4), c(d.context, CL_MEM_READ_WRITE, 64 * 64 * 4),
      small(d.context, CL_MEM_READ_WRITE, 16);
  cl::Context other(d.device);
  cl::Buffer foreign(other, CL_MEM_READ_WRITE, 64 * 64 * 4);
  cl_command_queue q = d.queue();
  const auto call = [&](clgemmLayout layout, clgemmTranspose ta, size_t lda, cl_mem ab,
                        size_t a_off, size_t ldc, cl_mem cb, cl_command_queue* queue) {
    return clgemmSgemm(layout, ta, clgemmTransposeNo, 8, 8, 8, 1.0f, ab, a_off, lda, b(), 0, 8,
                       0.0f, cb, 0, ldc, queue, nullptr);
  };
  const auto R = clgemmLayoutRowMajor;
  const auto N = clgemmTransposeNo;
  struct Case {
    clgemmStatus status;
    clgemmStatus want;
    const char* names;
  };
  const std::vector<Case> cases = {
      {call(clgemmLayout(7), N, 8, a(), 0, 8, c(), &q), clgemmInvalidLayout, "layout 7"},
      {call(R, clgemmTranspose(0), 8, a(), 0, 8, c(), &q), clgemmInvalidTranspose, "a_transpose"},
      {call(R, N, 7, a(), 0, 8, c(), &q), clgemmInvalidLeadingDimA, "a_ld = 7"},
      {call(R, N, 8, a(), 0, 3, c(), &q), clgemmInvalidLeadingDimC, "c_ld = 3"},
      {call(R, N, 8, nullptr, 0, 8, c(), &q), clgemmInvalidBufferA, "a_buffer is null"},
      {call(R, N, 8, small(), 0, 8, c(), &q), clgemmInvalidBufferA, "a_buffer holds 4"},
      {call(R, N, 8, a(), 64 * 64, 8, c(), &q), clgemmInvalidBufferA, "a_buffer holds"},
      {call(R, N, 8, a(), 0, 8, foreign(), &q), clgemmInvalidBufferC, "another context"},
      {call(R, N, 8, a(), 0, 8, c(), nullptr), clgemmInvalidQueue, "queue"},
  };
  for (const Case& k : cases) {
    EXPECT_EQ(k.status, k.want) << clgemmStatusString(k.status);
    EXPECT_STRNE(clgemmStatusString(k.status), "");
  }
  // The message of the last call only: repeat each to read its own.
  EXPECT_NE(std::string((call(R, N, 7, a(), 0, 8, c(), &q), clgemmLastMessage())).find("a_ld = 7"),
            std::string::npos);
  EXPECT_NE(std::string((call(R, N, 8, small(), 0, 8, c(), &q), clgemmLastMessage()))
                .find("a_buffer holds 4 elements"),
            std::string::npos);
  EXPECT_EQ(call(R, N, 8, a(), 0, 8, c(), &q), clgemmSuccess) << clgemmLastMessage();
  EXPECT_STREQ(clgemmLastMessage(), "");
  EXPECT_STREQ(clgemmStatusString(clgemmStatus(CL_OUT_OF_RESOURCES)), "CL_OUT_OF_RESOURCES");
  d.queue.finish();
}

TEST_F(CApi, DoublePrecisionWithoutFp64IsRefused) {
  if (device().info.has_fp64) GTEST_SKIP() << device().info.name << " has cl_khr_fp64";
  Problem p{8, 8, 8};
  EXPECT_EQ(run<double>(p).status, clgemmNoDoublePrecision);
}

// The user's store reaches the library: an entry for this device whose defines break a
// constraint makes the call fail naming them, and one with PAD_FROM=0 runs the padding copies,
// whose results (offsets and all) are checked like the kernel's own edges.
TEST_F(CApi, TheUsersStoreChoosesTheParameters) {
  const fs::path store =
      fs::temp_directory_path() / ("clgemm-test-c-api-store-" + std::to_string(::getpid()));
  fs::create_directories(store / "params");
  setenv("CLGEMM_STORE", store.c_str(), 1);
  const auto entry = [&](const std::string& defines) {
    std::ofstream(store / "params" / "entry.json")
        << "{\"device\": \"" << device().info.name << "\", \"kernel\": \"best\", \"defines\": {"
        << defines << "}}";
    clgemmClearCache();
  };
  entry("\"TM\": 6");
  Problem p{33, 17, 9};
  Result<float> r = run<float>(p);
  EXPECT_EQ(r.status, clgemmInvalidParameters) << clgemmStatusString(r.status);
  EXPECT_NE(r.message.find("TM=6"), std::string::npos) << r.message;
  entry("\"PAD_FROM\": 0");
  for (const auto layout : {clgemmLayoutRowMajor, clgemmLayoutColMajor}) {
    p = Problem{33, 17, 9,   layout, clgemmTransposeYes, clgemmTransposeNo, 3, 1, 5, 2,
                1,  4,  0.5, 1.5};
    expectProduct(p, run<float>(p));
  }
  // alpha = 0 with padding asked for from size 0: C = beta * C, nothing padded, A and B unread.
  p.alpha = 0.0;
  expectProduct(p, run<float>(p, /*poison_ab=*/true));
  fs::remove_all(store);
}

// Calls from several threads at once, each on its own queue of one context, all verified.
TEST_F(CApi, ConcurrentCallsFromSeveralThreads) {
  Device& d = device();
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      cl::CommandQueue queue(d.context, d.device);
      for (int i = 0; i < 3; ++i) {
        Problem p{size_t(20 + 3 * t + i), size_t(9 + t), size_t(5 + i),
                  t % 2 ? clgemmLayoutColMajor : clgemmLayoutRowMajor,
                  i % 2 ? clgemmTransposeYes : clgemmTransposeNo};
        p.beta = 0.5;
        const Result<float> r = run<float>(p, false, false, queue());
        if (r.status != clgemmSuccess) ++failures[size_t(t)];
        expectProduct(p, r);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace
