#include "blas/blas_device.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <exception>

#include "opencl/cl_check.hpp"
#include "util/errors.hpp"

namespace clgemm::blas {

namespace {

bool parseIndex(const std::string& text, int& value) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = std::atoi(text.c_str());
  return true;
}

// A matrix as it is stored: `lines` lines (columns in column-major, rows in row-major) of `len`
// elements, `ld` apart.
struct Stored {
  std::size_t lines = 0, len = 0, ld = 0;
  // The buffer spans ld * lines elements, the stored extent; one element at least, since OpenCL
  // refuses empty buffers (k == 0 leaves A and B empty).
  std::size_t bufferElements() const { return std::max<std::size_t>(1, ld * lines); }
};

// op(X) is rows x cols; X as stored is that or its transpose, in `layout`.
Stored stored(clgemmLayout layout, bool transposed, std::size_t rows, std::size_t cols,
              std::size_t ld) {
  const std::size_t stored_rows = transposed ? cols : rows, stored_cols = transposed ? rows : cols;
  return layout == clgemmLayoutColMajor ? Stored{stored_cols, stored_rows, ld}
                                        : Stored{stored_rows, stored_cols, ld};
}

// The rectangle of a stored matrix: `len` elements of each of `lines` lines, pitch ld on both
// sides, so the gaps between lines are neither read nor written on the host.
template <typename T>
void rect(const Stored& s, std::array<std::size_t, 3>& region, std::size_t& pitch) {
  region = {s.len * sizeof(T), s.lines, 1};
  pitch = s.ld * sizeof(T);
}

template <typename T>
void writeMatrix(cl::CommandQueue& queue, const cl::Buffer& buffer, const Stored& s,
                 const T* host) {
  std::array<std::size_t, 3> region;
  std::size_t pitch = 0;
  rect<T>(s, region, pitch);
  const std::array<std::size_t, 3> origin{0, 0, 0};
  queue.enqueueWriteBufferRect(buffer, CL_FALSE, origin, origin, region, pitch, 0, pitch, 0, host);
}

}  // namespace

DeviceSpec parseDeviceSpec(const char* value) {
  DeviceSpec spec;
  if (!value || !*value) return spec;
  const std::string text = value;
  const std::size_t colon = text.find(':');
  int platform = 0, device = 0;
  if (colon == std::string::npos || !parseIndex(text.substr(0, colon), platform) ||
      !parseIndex(text.substr(colon + 1), device)) {
    spec.error = "'" + text +
                 "' is not PLATFORM:DEVICE, two indices as `clgemm --list` prints them (e.g. 0:0)";
    return spec;
  }
  spec.indices = std::make_pair(platform, device);
  return spec;
}

BlasDevice openBlasDevice(const std::optional<std::pair<int, int>>& indices) {
  return openBlasDevice(indices ? selectDevice(indices->first, indices->second)
                                : selectDevice(std::nullopt, std::nullopt));
}

BlasDevice openBlasDevice(const SelectedDevice& selected) {
  BlasDevice d;
  d.info = selected.info;
  d.context = cl::Context(selected.device);
  d.queue = cl::CommandQueue(d.context, selected.device);
  return d;
}

template <typename T>
DeviceGemmResult deviceGemm(BlasDevice& device, clgemmLayout layout, clgemmTranspose trans_a,
                            clgemmTranspose trans_b, std::size_t m, std::size_t n, std::size_t k,
                            T alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb,
                            T beta, T* c, std::size_t ldc) {
  DeviceGemmResult result;
  try {
    const Stored sa = stored(layout, trans_a != clgemmTransposeNo, m, k, lda);
    const Stored sb = stored(layout, trans_b != clgemmTransposeNo, k, n, ldb);
    const Stored sc = stored(layout, false, m, n, ldc);
    cl::Buffer da(device.context, CL_MEM_READ_ONLY, sa.bufferElements() * sizeof(T));
    cl::Buffer db(device.context, CL_MEM_READ_ONLY, sb.bufferElements() * sizeof(T));
    cl::Buffer dc(device.context, CL_MEM_READ_WRITE, sc.bufferElements() * sizeof(T));
    // BLAS reads neither A nor B when the product vanishes, nor C when beta is 0 (nor does
    // clgemm): their buffers stay unwritten, and a NaN there never reaches the result.
    if (alpha != T(0) && k != 0) {
      writeMatrix(device.queue, da, sa, a);
      writeMatrix(device.queue, db, sb, b);
    }
    if (beta != T(0)) writeMatrix(device.queue, dc, sc, c);
    cl_command_queue queue = device.queue();
    clgemmStatus status;
    if constexpr (sizeof(T) == sizeof(float))
      status = clgemmSgemm(layout, trans_a, trans_b, m, n, k, alpha, da(), 0, lda, db(), 0, ldb,
                           beta, dc(), 0, ldc, &queue, nullptr);
    else
      status = clgemmDgemm(layout, trans_a, trans_b, m, n, k, alpha, da(), 0, lda, db(), 0, ldb,
                           beta, dc(), 0, ldc, &queue, nullptr);
    if (status != clgemmSuccess) {
      result.status = status;
      result.message = std::string(clgemmStatusString(status)) + ": " + clgemmLastMessage();
      device.queue.finish();  // the copies above still read the caller's memory
      return result;
    }
    std::array<std::size_t, 3> region;
    std::size_t pitch = 0;
    rect<T>(sc, region, pitch);
    const std::array<std::size_t, 3> origin{0, 0, 0};
    // Blocking, on the in-order queue: returns once the GEMM has run and C is back.
    device.queue.enqueueReadBufferRect(dc, CL_TRUE, origin, origin, region, pitch, 0, pitch, 0, c);
  } catch (const cl::Error& e) {
    result.status = e.err();
    result.message = std::string(e.what()) + ": " + clErrorName(e.err());
    try {
      device.queue.finish();
    } catch (...) {
    }
  } catch (const std::exception& e) {
    result.status = clgemmInternalError;
    result.message = e.what();
  }
  return result;
}

template DeviceGemmResult deviceGemm<float>(BlasDevice&, clgemmLayout, clgemmTranspose,
                                            clgemmTranspose, std::size_t, std::size_t, std::size_t,
                                            float, const float*, std::size_t, const float*,
                                            std::size_t, float, float*, std::size_t);
template DeviceGemmResult deviceGemm<double>(BlasDevice&, clgemmLayout, clgemmTranspose,
                                             clgemmTranspose, std::size_t, std::size_t, std::size_t,
                                             double, const double*, std::size_t, const double*,
                                             std::size_t, double, double*, std::size_t);

}  // namespace clgemm::blas
