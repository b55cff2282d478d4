// A matrix as a variant is given it: elements of the run's precision (float or double), laid out
// as its MatrixStorage says. The logical matrices the reference reads are doubles whatever the
// precision (an FP32 problem's values are floats, which doubles hold exactly); the stored ones
// are what the kernels and libraries read and write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "problem/precision.hpp"

namespace clgemm {

class HostMatrix {
 public:
  HostMatrix() = default;
  // `size` elements, each `fill` rounded to the precision.
  HostMatrix(Precision precision, std::size_t size, double fill = 0.0);

  Precision precision() const { return precision_; }
  std::size_t size() const { return precision_ == Precision::kFp64 ? d_.size() : f_.size(); }
  std::size_t bytes() const { return size() * elementBytes(precision_); }
  bool empty() const { return size() == 0; }
  const void* data() const;
  void* data();
  // The elements as their type; the other precision's accessor must not be called.
  const float* f32() const { return f_.data(); }
  float* f32() { return f_.data(); }
  const double* f64() const { return d_.data(); }
  double* f64() { return d_.data(); }

  double get(std::size_t i) const { return precision_ == Precision::kFp64 ? d_[i] : f_[i]; }
  void set(std::size_t i, double value) {
    if (precision_ == Precision::kFp64)
      d_[i] = value;
    else
      f_[i] = float(value);
  }
  // The canary of this precision (gemm_shape.hpp) at element i, and whether it is still there.
  void setCanary(std::size_t i);
  bool isCanaryAt(std::size_t i) const;

 private:
  Precision precision_ = Precision::kFp32;
  std::vector<float> f_;
  std::vector<double> d_;
};

}  // namespace clgemm
