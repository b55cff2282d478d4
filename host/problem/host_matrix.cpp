#include "problem/host_matrix.hpp"

#include "problem/gemm_shape.hpp"

namespace clgemm {

HostMatrix::HostMatrix(Precision precision, std::size_t size, double fill) : precision_(precision) {
  if (precision == Precision::kFp64)
    d_.assign(size, fill);
  else
    f_.assign(size, float(fill));
}

const void* HostMatrix::data() const {
  return precision_ == Precision::kFp64 ? static_cast<const void*>(d_.data())
                                        : static_cast<const void*>(f_.data());
}

void* HostMatrix::data() {
  return precision_ == Precision::kFp64 ? static_cast<void*>(d_.data())
                                        : static_cast<void*>(f_.data());
}

void HostMatrix::setCanary(std::size_t i) {
  if (precision_ == Precision::kFp64)
    d_[i] = canaryValue64();
  else
    f_[i] = canaryValue();
}

bool HostMatrix::isCanaryAt(std::size_t i) const {
  return precision_ == Precision::kFp64 ? isCanary64(d_[i]) : isCanary(f_[i]);
}

}  // namespace clgemm
