#include "sparse_columns.hpp"

#include <Eigen/Sparse>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level3.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;

// Calls f(T{}) with the value type's C++ element type.
template <class F>
decltype(auto) with_type(sp::Value v, F&& f) {
  switch (v) {
    case sp::Value::f32: return f(float{});
    case sp::Value::f64: return f(double{});
    case sp::Value::c32: return f(std::complex<float>{});
    default: return f(std::complex<double>{});
  }
}

template <class T>
using EigenCsr = Eigen::SparseMatrix<T, Eigen::RowMajor, int>;
template <class T>
Eigen::Map<const EigenCsr<T>> eigen_map(const CsrArrays& a) {
  return {a.rows, a.cols, a.nnz, a.offsets, a.columns, static_cast<const T*>(a.values)};
}
template <class T>
using Dense = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// Operands of one magnitude (the timing does not depend on the values).
template <class T>
Dense<T> filled(std::int64_t rows, std::int64_t cols) {
  return Dense<T>::Constant(rows, cols, T(0.5f));
}

}  // namespace

double eigen_spmm_seconds(const CsrArrays& a, std::int64_t m) {
  return with_type(a.value, [&](auto t) {
    using T = decltype(t);
    const auto A = eigen_map<T>(a);
    const Dense<T> X = filled<T>(a.cols, m);
    Dense<T> Y = filled<T>(a.rows, m);
    const T alpha(0.75f), beta(-0.25f);
    return best_seconds(3, [&] {
      Y *= beta;
      Y.noalias() += alpha * (A * X);
    });
  });
}

double eigen_spsv_seconds(const CsrArrays& lower, std::int64_t m) {
  return with_type(lower.value, [&](auto t) {
    using T = decltype(t);
    const auto L = eigen_map<T>(lower);
    const Dense<T> B = filled<T>(lower.rows, m);
    Dense<T> Y;
    return best_seconds(3, [&] {
      Y = T(0.75f) * B;
      L.template triangularView<Eigen::Lower>().solveInPlace(Y);
    });
  });
}

double eigen_spmm_op_seconds(const CsrArrays& a, std::int64_t m, int opA, int opB) {
  return with_type(a.value, [&](auto t) {
    using T = decltype(t);
    const auto A = eigen_map<T>(a);
    const bool bt = opB != 0;
    const Dense<T> X = filled<T>(bt ? m : a.rows, bt ? a.rows : m);
    Dense<T> Y = filled<T>(opA == 0 ? a.rows : a.cols, m);
    const T alpha(0.75f), beta(-0.25f);
    // op(A) op(X) as Eigen writes it (A.transpose() / A.adjoint() on the row-major map: no copy).
    const auto times_op_x = [&](const auto& opa) {
      if (opB == 0) Y.noalias() += alpha * (opa * X);
      else if (opB == 1) Y.noalias() += alpha * (opa * X.transpose());
      else Y.noalias() += alpha * (opa * X.adjoint());
    };
    return best_seconds(3, [&] {
      Y *= beta;
      if (opA == 0) times_op_x(A);
      else if (opA == 1) times_op_x(A.transpose());
      else times_op_x(A.adjoint());
    });
  });
}

double eigen_spsv_op_seconds(const CsrArrays& lower, std::int64_t m, int op) {
  if (op == 0) return eigen_spsv_seconds(lower, m);
  return with_type(lower.value, [&](auto t) {
    using T = decltype(t);
    const auto L = eigen_map<T>(lower);
    const Dense<T> B = filled<T>(lower.rows, m);
    Dense<T> Y;
    return best_seconds(3, [&] {
      Y = T(0.75f) * B;
      if (op == 1) L.transpose().template triangularView<Eigen::Upper>().solveInPlace(Y);
      else L.adjoint().template triangularView<Eigen::Upper>().solveInPlace(Y);
    });
  });
}

double eigen_sddmm_seconds(const CsrArrays& pattern, std::int64_t k) {
  return with_type(pattern.value, [&](auto t) {
    using T = decltype(t);
    const Dense<T> A = filled<T>(pattern.rows, k), B = filled<T>(k, pattern.cols);
    const auto* v0 = static_cast<const T*>(pattern.values);
    std::vector<T> c(v0, v0 + pattern.nnz);
    const T alpha(0.75f), beta(-0.25f);
    return best_seconds(3, [&] {
      for (std::int64_t i = 0; i < pattern.rows; ++i)
        for (std::int32_t e = pattern.offsets[i]; e < pattern.offsets[i + 1]; ++e)
          c[static_cast<std::size_t>(e)] = alpha * A.row(i).transpose().cwiseProduct(B.col(pattern.columns[e])).sum() +
                                           beta * c[static_cast<std::size_t>(e)];
    });
  });
}

double eigen_spgemm_seconds(const CsrArrays& a, const CsrArrays& b) {
  return with_type(a.value, [&](auto t) {
    using T = decltype(t);
    const auto A = eigen_map<T>(a);
    const auto B = eigen_map<T>(b);
    EigenCsr<T> C;
    return best_seconds(3, [&] { C = A * B; });
  });
}

double eigen_csr2csc_seconds(const CsrArrays& a) {
  return with_type(a.value, [&](auto t) {
    using T = decltype(t);
    const auto A = eigen_map<T>(a);
    Eigen::SparseMatrix<T, Eigen::ColMajor, int> C;
    return best_seconds(3, [&] { C = A; });
  });
}

double eigen_dense2sparse_seconds(sp::Value v, std::int64_t rows, std::int64_t cols, std::int64_t ld, const void* dense) {
  return with_type(v, [&](auto t) {
    using T = decltype(t);
    const Eigen::Map<const Dense<T>, 0, Eigen::OuterStride<>> D(static_cast<const T*>(dense), rows, cols, Eigen::OuterStride<>(ld));
    EigenCsr<T> S;
    return best_seconds(3, [&] { S = D.sparseView(); });
  });
}

// CSR -> column-major dense (s13/spgap: the SparseToDense rows): Eigen's toDense() of the map.
double eigen_sparse2dense_seconds(const CsrArrays& a) {
  return with_type(a.value, [&](auto t) {
    using T = decltype(t);
    const auto A = eigen_map<T>(a);
    Dense<T> D;
    return best_seconds(3, [&] { D = A.toDense(); });
  });
}

// The nonzeros of each row (by_rows) or column of a column-major dense rows x cols (ld): Eigen's
// (D.array() != 0).rowwise().count() / colwise() (the nnz rows; s13/spgap).
double eigen_nnz_seconds(sp::Value v, std::int64_t rows, std::int64_t cols, std::int64_t ld, const void* dense, bool by_rows) {
  return with_type(v, [&](auto t) {
    using T = decltype(t);
    const Eigen::Map<const Dense<T>, 0, Eigen::OuterStride<>> D(static_cast<const T*>(dense), rows, cols, Eigen::OuterStride<>(ld));
    Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1> per;
    return best_seconds(3, [&] {
      if (by_rows)
        per = (D.array() != T(0)).rowwise().count();
      else
        per = (D.array() != T(0)).colwise().count().transpose();
    });
  });
}

double dense_gemm_ns(trn::Generation target, sp::Value v, std::int64_t M, std::int64_t N, std::int64_t K) {
  namespace blas = trn::blas;
  blas::Settings s;
  s.target = target;
  // Complex: cgemm / zgemm's 4M path with real alpha and beta is one real GEMM of the real
  // representation, 2M x N x 2K (trnblas/src/complex_gemm.cpp), predicted as the real ones are; the
  // VectorE / host epilogue a complex alpha adds (M x N elements) is not priced.
  const std::int64_t f = v == sp::Value::c32 || v == sp::Value::c64 ? 2 : 1;
  if (v == sp::Value::f32 || v == sp::Value::c32)
    return blas::predict_gemm_ns(s, blas::GemmMode::fp32, blas::Op::N, blas::Op::N, f * M, N, f * K, 0.75f, -0.25f);
  return blas::predict_dgemm_ns(s, blas::Op::N, blas::Op::N, f * M, N, f * K, 0.75, -0.25);
}

namespace {
// The TRSM run timing-only on a well-scaled lower triangle (1 and 2 alternating below a diagonal of
// 4): strsm fp32, dtrsm (Ozaki), ctrsm fp32 and ztrsm, the complex ones with their 4M GEMM updates.
template <class T>
double trsm_ns(trn::Generation target, std::int64_t n, std::int64_t m) {
  namespace blas = trn::blas;
  blas::Settings s;
  s.target = target;
  s.timing_only = true;
  std::vector<T> A(static_cast<std::size_t>(n * n), T(0)), B(static_cast<std::size_t>(n * m), T(1));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) A[static_cast<std::size_t>(i + j * n)] = i == j ? T(4) : T(1 + (i + j) % 2);
  blas::CallReport r;
  const auto left = blas::Side::left;
  const auto lower = blas::Uplo::lower;
  const auto non_unit = blas::Diag::non_unit;
  if constexpr (std::is_same_v<T, float>)
    blas::strsm(s, blas::GemmMode::fp32, left, lower, blas::Op::N, non_unit, n, m, 0.75f, A.data(), n, B.data(), n, &r);
  else if constexpr (std::is_same_v<T, double>)
    blas::dtrsm(s, left, lower, blas::Op::N, non_unit, n, m, 0.75, A.data(), n, B.data(), n, &r);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    blas::ctrsm(s, blas::GemmMode::fp32, left, lower, blas::COp::N, non_unit, n, m, T(0.75f), A.data(), n, B.data(), n, &r);
  else
    blas::ztrsm(s, left, lower, blas::COp::N, non_unit, n, m, T(0.75), A.data(), n, B.data(), n, &r);
  return r.profile.total_ns;
}
}  // namespace

double dense_trsm_ns(trn::Generation target, sp::Value v, std::int64_t n, std::int64_t m) {
  return with_type(v, [&](auto t) { return trsm_ns<decltype(t)>(target, n, m); });
}

namespace {
bool crossover_skipped = false;
}  // namespace

// `trnsci bench --no-crossover` (declared in main.cpp): the dense time is still printed, the density
// search (a dozen timing-only re-runs of the sparse routine per row) is not run.
void skip_dense_crossover() { crossover_skipped = true; }

void set_crossover(BenchResult& b, const std::string& dense_name, double dense_ns, double d0, double t0, double lo,
                   double hi, const std::function<double(double)>& sparse_ns) {
  b.dense_name = dense_name;
  b.dense_ns = dense_ns;
  if (!(dense_ns > 0)) return;
  if (crossover_skipped) {
    b.crossover_text = "not run (--no-crossover)";
    return;
  }
  char buf[48];
  // Bracket [a, z] with sparse(a) < dense <= sparse(z), doubling or halving from d0.
  double a = d0, z = d0;
  if (t0 < dense_ns) {
    for (z = std::min(2 * d0, hi);; z = std::min(2 * z, hi)) {
      if (sparse_ns(z) >= dense_ns) break;
      a = z;
      if (z >= hi) {
        std::snprintf(buf, sizeof buf, "> %.3g", hi);
        b.crossover_text = buf;
        return;
      }
    }
  } else {
    for (a = std::max(d0 / 2, lo);; a = std::max(a / 2, lo)) {
      if (sparse_ns(a) < dense_ns) break;
      z = a;
      if (a <= lo) {
        std::snprintf(buf, sizeof buf, "< %.3g", lo);
        b.crossover_text = buf;
        return;
      }
    }
  }
  while (z / a > 1.05) {
    const double mid = std::sqrt(a * z);
    (sparse_ns(mid) < dense_ns ? a : z) = mid;
  }
  b.crossover_density = std::sqrt(a * z);
  std::snprintf(buf, sizeof buf, "%.3g", b.crossover_density);
  b.crossover_text = buf;
}

std::string dense_gemm_name(sp::Value v, std::int64_t M, std::int64_t N, std::int64_t K) {
  const char* const kind = v == sp::Value::f32   ? "sgemm fp32 "
                           : v == sp::Value::f64 ? "dgemm Ozaki "
                           : v == sp::Value::c32 ? "cgemm 4M fp32 "
                                                 : "zgemm 4M Ozaki ";
  return kind + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

void set_gemm_crossover(BenchResult& b, trn::Generation target, sp::Value v, std::int64_t M, std::int64_t N, std::int64_t K,
                        double d0, double t0, double lo, double hi, const std::function<double(double)>& sparse_ns) {
  set_crossover(b, dense_gemm_name(v, M, N, K), dense_gemm_ns(target, v, M, N, K), d0, t0, lo, hi, sparse_ns);
}

}  // namespace trnsci::cli
