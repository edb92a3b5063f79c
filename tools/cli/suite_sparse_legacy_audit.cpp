// `trnsci validate/bench` suite "sparse", the non-deprecated legacy routines tools/acceptance_audit.py
// found without a case (#28 acceptance audit, s12/audit): {S,D,C,Z}nnz and {S,D,C,Z}bsrmv through the
// C API, every value type.
//  * nnz (dirA ROW and COLUMN): the per-row / per-column counts and the total against a scan of the
//    dense matrix written here; exact (metric bit_exact, bound 0; a failed call counts one more).
//  * bsrmv (dirA ROW and COLUMN block storage, op N, alpha and beta != 0): y against a long-double
//    product of the BSR matrix (expanded here by plain loops), entry by entry over the documented bound
//    (docs/trnsparse.md "Legacy BSR in fp64 and complex"): gamma_{k+2} (|alpha| |A| |x| + |beta| |y0|),
//    complex sqrt(2) gamma_{k+4} (...), complex-fp32 + u32 |y|, k the scalar row length; measured the
//    largest ratio, bound 1.
// Bench rows: each call alone on 2048 x 2048 (nnz: dense at 1% nonzeros; bsrmv: 4 x 4 blocks, 1% of
// the block positions), its host time and modeled profile; nnz also Eigen's dense row count
// ((A.array() != 0).rowwise().count(), sparse_columns.hpp).
#include <trnsparse.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "sparse_columns.hpp"

namespace trnsci::cli {
namespace {

using cld = std::complex<long double>;
template <class T>
constexpr bool kCplx = !std::is_floating_point_v<T>;
template <class T>
using RealT = decltype(std::abs(T()));
template <class T>
constexpr long double kUnit = std::is_same_v<RealT<T>, float> ? 0x1p-24L : 0x1p-53L;
template <class T>
constexpr trn::sparse::Value kValue = std::is_same_v<T, float>                 ? trn::sparse::Value::f32
                                      : std::is_same_v<T, double>              ? trn::sparse::Value::f64
                                      : std::is_same_v<T, std::complex<float>> ? trn::sparse::Value::c32
                                                                               : trn::sparse::Value::c64;
template <class T>
const char* type_name() {
  return std::is_same_v<T, float> ? "R_32F" : std::is_same_v<T, double> ? "R_64F" : std::is_same_v<T, std::complex<float>> ? "C_32F" : "C_64F";
}

// The typed legacy entry points (T's C type: float, double, trnComplex, trnDoubleComplex).
template <class T>
struct Legacy;
#define TRNSCI_LEGACY_SPARSE(T, C, P)                                           \
  template <>                                                                   \
  struct Legacy<T> {                                                            \
    using CT = C;                                                               \
    static const C* c(const T* p) { return reinterpret_cast<const C*>(p); }     \
    static C* c(T* p) { return reinterpret_cast<C*>(p); }                       \
    static constexpr auto nnz = &trnsparse##P##nnz;                             \
    static constexpr auto bsrmv = &trnsparse##P##bsrmv;                         \
  };
TRNSCI_LEGACY_SPARSE(float, float, S)
TRNSCI_LEGACY_SPARSE(double, double, D)
TRNSCI_LEGACY_SPARSE(std::complex<float>, trnComplex, C)
TRNSCI_LEGACY_SPARSE(std::complex<double>, trnDoubleComplex, Z)
#undef TRNSCI_LEGACY_SPARSE

template <class T>
T draw(std::mt19937_64& g) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (kCplx<T>) {
    const double re = u(g);
    return T(static_cast<RealT<T>>(re), static_cast<RealT<T>>(u(g)));
  } else {
    return static_cast<T>(u(g));
  }
}

struct Outcome {
  double measured = 0, host_seconds = 0;
  int failed = 0;
  trnProfile_t profile{};
  double native_seconds = 0;  // nnz: Eigen's count of the same matrix (when asked)
};

// nnz on an m x n column-major matrix (lda m + 2) with ~density nonzeros: mismatching counts + failed calls.
// with_native: also time Eigen's row count of the same matrix (the bench row's native column).
template <class T>
Outcome run_nnz(int m, int n, double density, trn::Generation target, bool with_native = false) {
  std::mt19937_64 g(4100 + sizeof(T));
  std::bernoulli_distribution keep(density);
  const int lda = m + 2;
  std::vector<T> a(static_cast<std::size_t>(lda) * n, T(0));
  std::vector<int> rows(static_cast<std::size_t>(m), 0), cols(static_cast<std::size_t>(n), 0);
  int total = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      if (keep(g)) {
        T v = draw<T>(g);
        if (v == T(0)) v = T(1);
        a[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * lda] = v;
        ++rows[static_cast<std::size_t>(i)], ++cols[static_cast<std::size_t>(j)], ++total;
      }
  for (int j = 0; j < n; ++j) a[static_cast<std::size_t>(m) + static_cast<std::size_t>(j) * lda] = T(7);  // padding: not counted
  trnsparseHandle_t h = nullptr;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreate(&h);
  trnsparseSetTarget(h, static_cast<trnTarget_t>(target));
  trnsparseCreateMatDescr(&d);
  Outcome o;
  for (const bool by_row : {true, false}) {
    std::vector<int> got(static_cast<std::size_t>(by_row ? m : n), -1);
    int got_total = -1;
    const double t0 = now_seconds();
    o.failed += Legacy<T>::nnz(h, by_row ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN, m, n, d, Legacy<T>::c(a.data()),
                               lda, got.data(), &got_total) != TRNSPARSE_STATUS_SUCCESS;
    if (by_row) {
      o.host_seconds = seconds_since(t0);
      trnsparseGetLastProfile(h, &o.profile);
    }
    const std::vector<int>& want = by_row ? rows : cols;
    for (std::size_t i = 0; i < want.size(); ++i) o.measured += got[i] != want[i];
    o.measured += got_total != total;
  }
  o.measured += o.failed;
  if (with_native) o.native_seconds = eigen_nnz_seconds(kValue<T>, m, n, lda, a.data(), true);
  trnsparseDestroyMatDescr(d);
  trnsparseDestroy(h);
  return o;
}

// bsrmv: mb x nb blocks of bs x bs, each block position stored with probability `density` (the
// diagonal blocks always), both block storage orders; the largest |y - y_ref| / bound_i. sweep: the
// row-major call alone, unchecked (the dense-crossover sweep reads its profile only).
template <class T>
Outcome run_bsrmv(int mb, int bs, double density, trn::Generation target, bool sweep = false) {
  std::mt19937_64 g(4200 + sizeof(T));
  std::bernoulli_distribution keep(density);
  const int nb = mb, n = nb * bs, m = mb * bs;
  std::vector<int> ptr{0}, col;
  for (int I = 0; I < mb; ++I) {
    for (int J = 0; J < nb; ++J)
      if (I == J || keep(g)) col.push_back(J);
    ptr.push_back(static_cast<int>(col.size()));
  }
  const std::size_t nnzb = col.size(), bb = static_cast<std::size_t>(bs) * bs;
  std::vector<T> val(nnzb * bb), x(static_cast<std::size_t>(n)), y0(static_cast<std::size_t>(m));
  for (T& v : val) v = draw<T>(g);
  for (T& v : x) v = draw<T>(g);
  for (T& v : y0) v = draw<T>(g);
  T alpha = T(RealT<T>(1.5));
  if constexpr (kCplx<T>) alpha = T(RealT<T>(1.5), RealT<T>(-0.5));
  const T beta = T(RealT<T>(-0.75));
  trnsparseHandle_t h = nullptr;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreate(&h);
  trnsparseSetTarget(h, static_cast<trnTarget_t>(target));
  trnsparseCreateMatDescr(&d);
  Outcome o;
  long double k = 0;  // the longest scalar row
  for (int I = 0; I < mb; ++I) k = std::max<long double>(k, static_cast<long double>(ptr[static_cast<std::size_t>(I) + 1] - ptr[static_cast<std::size_t>(I)]) * bs);
  const long double u = kUnit<T>;
  const long double gam = kCplx<T> ? std::sqrt(2.0L) * (k + 4) * u / (1 - (k + 4) * u) : (k + 2) * u / (1 - (k + 2) * u);
  for (const bool row_major : {true, false}) {
    std::vector<T> y = y0;
    const double t0 = now_seconds();
    o.failed += Legacy<T>::bsrmv(h, row_major ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN,
                                 TRNSPARSE_OPERATION_NON_TRANSPOSE, mb, nb, static_cast<int>(nnzb), Legacy<T>::c(&alpha), d,
                                 Legacy<T>::c(val.data()), ptr.data(), col.data(), bs, Legacy<T>::c(x.data()),
                                 Legacy<T>::c(&beta), Legacy<T>::c(y.data())) != TRNSPARSE_STATUS_SUCCESS;
    if (row_major) {
      o.host_seconds = seconds_since(t0);
      trnsparseGetLastProfile(h, &o.profile);
    }
    if (sweep) break;
    for (int I = 0; I < mb; ++I)
      for (int r = 0; r < bs; ++r) {
        cld s = 0;
        long double mag = 0;
        for (int p = ptr[static_cast<std::size_t>(I)]; p < ptr[static_cast<std::size_t>(I) + 1]; ++p)
          for (int c = 0; c < bs; ++c) {
            const T a = val[static_cast<std::size_t>(p) * bb + static_cast<std::size_t>(row_major ? r * bs + c : c * bs + r)];
            const T xv = x[static_cast<std::size_t>(col[static_cast<std::size_t>(p)]) * bs + static_cast<std::size_t>(c)];
            s += cld(std::real(a), std::imag(a)) * cld(std::real(xv), std::imag(xv));
            mag += std::abs(cld(std::real(a), std::imag(a))) * std::abs(cld(std::real(xv), std::imag(xv)));
          }
        const std::size_t i = static_cast<std::size_t>(I) * bs + static_cast<std::size_t>(r);
        const cld a_(std::real(alpha), std::imag(alpha)), b_(std::real(beta), std::imag(beta)), y0i(std::real(y0[i]), std::imag(y0[i]));
        const cld ref = a_ * s + b_ * y0i;
        long double bound = gam * (std::abs(a_) * mag + std::abs(b_) * std::abs(y0i));
        if (std::is_same_v<T, std::complex<float>>) bound += u * std::abs(ref);
        const long double err = std::abs(cld(std::real(y[i]), std::imag(y[i])) - ref);
        o.measured = std::max(o.measured, static_cast<double>(bound > 0 ? err / bound : (err > 0 ? INFINITY : 0)));
      }
  }
  if (o.failed != 0) o.measured = INFINITY;
  trnsparseDestroyMatDescr(d);
  trnsparseDestroy(h);
  return o;
}

template <class T>
void add_typed(Registry& reg) {
  const std::string tn = type_name<T>();
  reg.add(ValidationCase{.suite = "sparse", .library = "trnsparse", .op = "nnz", .mode = tn + " (C API, dirA row and column)",
                         .shape = "300x200, 5%, lda m+2", .metric = "bit_exact",
                         .bound_text = "0 mismatching counts (a scan of the dense matrix)", .run = [] {
                           const Outcome o = run_nnz<T>(300, 200, 0.05, trn::Generation::trn1);
                           CaseResult c = exact_result(o.measured, "nnzPerRowCol and nnzTotal vs a scan, both directions; " +
                                                                       std::to_string(o.failed) + " failed calls",
                                                       o.host_seconds);
                           c.device = DeviceCost::from(o.profile);
                           return c;
                         }});
  reg.add(ValidationCase{.suite = "sparse", .library = "trnsparse", .op = "bsrmv", .mode = tn + " (C API, dirA row and column, op N)",
                         .shape = "24x24 blocks of 4, 20%", .metric = "max |y - y_ref| / bound_i",
                         .bound_text = "<= 1: gamma_{k+2} (|alpha||A||x| + |beta||y0|), complex sqrt(2) gamma_{k+4} (+ u32 |y| C_32F)",
                         .run = [] {
                           const Outcome o = run_bsrmv<T>(24, 4, 0.2, trn::Generation::trn1);
                           CaseResult c;
                           c.measured = o.measured;
                           c.bound = 1;
                           c.pass = o.failed == 0 && o.measured <= 1;
                           c.note = "long-double product of the expanded BSR; both block orders";
                           c.host_seconds = o.host_seconds;
                           c.device = DeviceCost::from(o.profile);
                           return c;
                         }});
  reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "nnz", .variant = tn + ", dirA row", .shape = "2048x2048, 1%",
                    .run = [](trn::Generation target) {
                      const Outcome o = run_nnz<T>(2048, 2048, 0.01, target, true);
                      BenchResult b;
                      b.error = o.measured;
                      b.error_metric = "mismatches";
                      b.host_seconds = o.host_seconds;
                      b.device = DeviceCost::from(o.profile);
                      b.native_name = "Eigen (dense count)";
                      b.native_seconds = o.native_seconds;
                      return b;
                    }});
  reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = "bsrmv", .variant = tn + ", dirA row, op N",
                    .shape = "512x512 blocks of 4, 1%", .run = [](trn::Generation target) {
                      const Outcome o = run_bsrmv<T>(512, 4, 0.01, target);
                      BenchResult b;
                      b.error = o.measured;
                      b.error_metric = "max |y - y_ref| / bound_i";
                      b.host_seconds = o.host_seconds;
                      b.device = DeviceCost::from(o.profile);
                      // Issue #28's crossover column: the block density (diagonal blocks always stored,
                      // lo 1/512, hi 0.5 as the CSR rows) at which the dense GEMM 2048 x 1 x 2048 is as fast.
                      set_gemm_crossover(b, target, kValue<T>, 2048, 1, 2048, 0.01, o.profile.total_ns, 1.0 / 512.0, 0.5,
                                         [target](double d) { return run_bsrmv<T>(512, 4, d, target, true).profile.total_ns; });
                      return b;
                    }});
}

void add_sparse_legacy_audit(Registry& reg) {
  add_typed<float>(reg);
  add_typed<double>(reg);
  add_typed<std::complex<float>>(reg);
  add_typed<std::complex<double>>(reg);
}

const Registrar kRegistrar(add_sparse_legacy_audit);

}  // namespace
}  // namespace trnsci::cli
