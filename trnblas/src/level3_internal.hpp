// Internal (not installed): pieces shared by the Level-3 sources (level3.cpp, complex_gemm.cpp,
// complex_level3.cpp, geam.cpp, lu_batched.cpp).
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <span>
#include <utility>

#include "trn/blas/blas.hpp"
#include "trn/core/host_step.hpp"

namespace trn::blas::detail {

// A violated argument precondition of a C++ routine (its C entry point returns INVALID_VALUE).
inline void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnblas", "argument", what);
}

// The shape checks of a routine with a Side (SYMM/HEMM, TRMM): B and C are m x n, A is order x
// order (order = m for Side::left, n for Side::right).
inline void require_side_shapes(std::int64_t m, std::int64_t n, std::int64_t order, std::int64_t lda,
                                std::int64_t ldb, std::int64_t ldc) {
  require(m >= 0 && n >= 0, "m, n must be non-negative");
  require(lda >= std::max<std::int64_t>(1, order) && ldb >= std::max<std::int64_t>(1, m) &&
              ldc >= std::max<std::int64_t>(1, m),
          "lda, ldb, ldc too small");
}

// Collects the traces of every launch of one call (GEMMs and tile kernels) into its report.
class Recorder {
 public:
  Recorder(const Settings& s, CallReport* report) : s_(s), report_(report) {
    if (report_ != nullptr) *report_ = CallReport{};
  }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder() {
    if (report_ != nullptr) report_->finish(s_, std::move(trace_));
  }
  // Without a report nobody reads the trace: nothing is copied (a LAPACK client's untraced calls).
  void add(const Trace& t) {
    if (report_ != nullptr) trace_.append(t);
  }
  void host_step(const HostStep& h) {
    if (report_ != nullptr) record_host_step(trace_, h);
  }
  void add(const CallReport& sub) {
    if (report_ == nullptr) return;
    trace_.append(sub.trace);
    if (sub.ozaki_mantissa_bits >= 0) {
      report_->ozaki_mantissa_bits = sub.ozaki_mantissa_bits;
      report_->ozaki_slices_a = sub.ozaki_slices_a;
      report_->ozaki_slices_b = sub.ozaki_slices_b;
      report_->ozaki_products = sub.ozaki_products;
    }
  }

 private:
  const Settings& s_;
  CallReport* report_;
  Trace trace_;
};

// trsm_narrow_kernel (trsm_narrow_kernel.cpp): E Y = alpha Z in place of Z, E order x order
// triangular (element (i, j) at e[i si + j sj]), Z order x nrhs (element (i, r) at z[i es + r rs]);
// explicit inverses of the diagonal blocks by Newton-Schulz on TensorE, block rows by matmuls.
// order <= kTrsmNarrowMaxOrder, nrhs <= kTrsmNarrowMaxRhs (trn/blas/level3.hpp).
// Complex data (T = std::complex<float>): the same with the 4M products (four real matmuls each) on
// planes; conj: E is the conjugate of the stored triangle (TRNBLAS_OP_C).
// With `x` set the kernel computes the inverse instead (narrow_trsm.cpp: trtri_newton): X = E^-1, the
// solve E X = I by block columns of the identity, each on its own block rows; X column-major with
// leading dimension ldx, its other triangle (and, unit, its diagonal) keeps its bits. z, nrhs and
// alpha are not read; order <= kTrtriNewtonMaxOrder.
// The span form (real only; narrow_trsm.cpp: strsm_left_batch) runs several systems of one shape
// (order, nrhs, lower, unit; x not set) in one launch, their Newton steps and block rows interleaved;
// each system's instructions and results are those of its single-system launch.
template <class T>
struct NarrowTrsm {
  const T* e = nullptr;
  std::int64_t si = 1, sj = 1, order = 0;
  bool lower = true, unit = false, conj = false;
  T* z = nullptr;
  std::int64_t es = 1, rs = 1, nrhs = 0;
  T alpha = T(1);
  T* x = nullptr;
  std::int64_t ldx = 0;
};
void trsm_narrow_kernel(NeuronCore& nc, const NarrowTrsm<float>& p);
void trsm_narrow_kernel(NeuronCore& nc, std::span<const NarrowTrsm<float>> systems);
void trsm_narrow_kernel(NeuronCore& nc, const NarrowTrsm<std::complex<float>>& p);

}  // namespace trn::blas::detail
