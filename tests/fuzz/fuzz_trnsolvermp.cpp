// The libFuzzer harness over trnsolverMp's C API (distributed/, docs/scale-out.md section 6) on one rank
// (MPI singleton; MPI_COMM_SELF, or MPI_COMM_NULL sometimes): NUMROC against a block count,
// CreateDeviceGrid with fuzzed shapes and mappings (and a NULL handle sometimes), CreateMatrixDesc with
// fuzzed types, sizes, blocks, sources and leading dimensions, then one of Getrf(+Getrs),
// Geqrf(+Ormqr+Orgqr+Gels), Potrf(+Potrs) or Syevd / Sygvd on S, D, C or Z with fuzzed sizes, blocks, enums (valid and not), offsets, compute
// types, NULL pointers and workspaces. Invariants beyond "no crash, no sanitizer report": every status
// follows the documented rules; info = -position on an illegal argument (untouched otherwise); a
// failing call writes nothing into A, B or the pivots; a successful Getrf satisfies P A = L U and a
// successful Potrf A = L L^H within c n u (|L| |U|); the solves' residuals op(A) X - B within the same
// kind of bound; a successful Geqrf + Ormqr (or Orgqr) A = Q R and Q^H Q = I within c (m + n) u, Gels's normal
// equations within c (m + n) u ||A|| (||A|| ||X|| + ||B||).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_mpi.hpp"
#include "trn/solvermp/solvermp.hpp"
#include "trnsolverMp.h"

namespace {

using trnfuzz::require;
using trnfuzz::ensure_mpi;
using trnfuzz::owned;
using cd = std::complex<double>;

template <class T>
constexpr trnDataType_t type_of() {
  if constexpr (std::is_same_v<T, float>) return TRN_R_32F;
  else if constexpr (std::is_same_v<T, double>) return TRN_R_64F;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return TRN_C_32F;
  else return TRN_C_64F;
}
template <class T>
constexpr double unit_roundoff() {
  return std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 0x1p-24 : 0x1p-53;
}
template <class T>
cd wide(T v) {
  return cd(v);
}
template <class T>
T narrow(cd v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return static_cast<T>(v.real());
  else return T(static_cast<typename T::value_type>(v.real()), static_cast<typename T::value_type>(v.imag()));
}

// Fuzzed enum values go straight into the calls, never held in an enum variable (UBSan reports an
// invalid enum load in the harness itself).
trnDataType_t as_type(int v) { return static_cast<trnDataType_t>(v); }
trnblasFillMode_t as_fill(int v) { return static_cast<trnblasFillMode_t>(v); }

// The arguments a case passes (some of them illegal on purpose).
struct Shape {
  std::int64_t m, n, nrhs, mb;
  int op, uplo, compute;
  std::int64_t ia;
  bool null_a, null_info, null_ipiv, short_ws, hermitian;
};

// |op(A) X - B| <= c n u (M |X| + |B|), M = |L| |U| (Getrf, rows permuted) or |L| |L^H| (Potrf).
template <class T>
void check_solve(const std::vector<cd>& a0, const std::vector<cd>& mabs, const std::vector<T>& x, const std::vector<T>& b0,
                 std::int64_t n, std::int64_t nrhs, int op) {
  const double bound_c = 64.0 * static_cast<double>(n + 2) * unit_roundoff<T>();
  for (std::int64_t j = 0; j < nrhs; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      cd r = -wide(b0[static_cast<std::size_t>(i + j * n)]);
      double mag = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        cd aik = op == TRNBLAS_OP_N ? a0[static_cast<std::size_t>(i + k * n)] : a0[static_cast<std::size_t>(k + i * n)];
        if (op == TRNBLAS_OP_C) aik = std::conj(aik);
        const double m = op == TRNBLAS_OP_N ? mabs[static_cast<std::size_t>(i + k * n)].real() : mabs[static_cast<std::size_t>(k + i * n)].real();
        r += aik * wide(x[static_cast<std::size_t>(k + j * n)]);
        mag += m * std::abs(wide(x[static_cast<std::size_t>(k + j * n)]));
      }
      require(std::abs(r) <= bound_c * (mag + std::abs(wide(b0[static_cast<std::size_t>(i + j * n)]))) + 1e-300,
              "solve residual within its bound");
    }
}

// Getrf on the 1 x 1 grid, then (square, info 0) Getrs; statuses, info and results checked.
template <class T>
void lu_case(const Shape& s, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t da, trnsolverMpMatrixDescriptor_t db,
             std::vector<T>& A, std::vector<T>& B) {
  if (s.hermitian)  // a dominant diagonal (the solve's residual is then checked)
    for (std::int64_t i = 0; i < std::min(s.m, s.n) && s.m <= 8 && s.n <= 8; ++i)
      A[static_cast<std::size_t>(i + i * s.m)] = narrow<T>(wide(A[static_cast<std::size_t>(i + i * s.m)]) + 40.0);
  const std::vector<T> A0 = A, B0 = B;
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::clamp<std::int64_t>(s.m, 1, 8)), -3);
  const auto ipiv0 = ipiv;
  size_t wd = 0, wh = 0;
  T* a = s.null_a ? nullptr : A.data();
  std::int64_t* p = s.null_ipiv ? nullptr : ipiv.data();
  const trnsolverStatus_t bs = trnsolverMpGetrf_bufferSize(h, s.m, s.n, a, s.ia, 1, da, p, as_type(s.compute), &wd, &wh);
  const bool sizes_ok = s.m >= 0 && s.n >= 0 && s.m <= 8 && s.n <= 8;
  const bool valid = sizes_ok && s.ia == 1 && s.compute == type_of<T>();
  require((bs == TRNSOLVER_STATUS_SUCCESS) == valid, "Getrf_bufferSize status follows the rules");
  std::vector<char> work(wd + 1);
  const bool short_call = s.short_ws && wd > 0;
  int info = 77;
  const trnsolverStatus_t st = trnsolverMpGetrf(h, s.m, s.n, a, s.ia, 1, da, p, as_type(s.compute), work.data(), short_call ? wd - 1 : wd, nullptr,
                                                0, s.null_info ? nullptr : &info);
  const bool call_ok = valid && !short_call && !s.null_info && !(s.null_a && s.m > 0 && s.n > 0);
  require((st == TRNSOLVER_STATUS_SUCCESS) == call_ok, "Getrf status follows the rules");
  trnfuzz::reach("getrf_rejected", st != TRNSOLVER_STATUS_SUCCESS);
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(A == A0 && ipiv == ipiv0, "a failing Getrf writes neither A nor ipiv");
    if (!s.null_info) require(info == 77 || (info < 0 && info >= -13), "a failing Getrf's info is -position or untouched");
    if (s.m < 0 && !s.null_info) require(info == -1, "Getrf with M < 0 gives info = -1");
    return;
  }
  trnfuzz::reach("getrf_ok");
  const std::int64_t m = s.m, n = s.n, k = std::min(m, n);
  require(info >= 0 && info <= k, "Getrf info in 0 .. min(m, n)");
  if (p == nullptr && info != 0) return;  // no pivoting past a zero pivot: L U is not A (LAPACK's xGETF2 too)
  // P A = L U: apply the interchanges to a copy of A0 and compare with L U in fp64 (|L| |U| bound).
  std::vector<cd> pa(static_cast<std::size_t>(m * n)), mabs(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m * n; ++i) pa[static_cast<std::size_t>(i)] = wide(A0[static_cast<std::size_t>(i)]);
  for (std::int64_t j = 0; j < k && p != nullptr; ++j) {
    require(ipiv[static_cast<std::size_t>(j)] >= j + 1 && ipiv[static_cast<std::size_t>(j)] <= m, "pivot in j+1 .. m");
    for (std::int64_t c = 0; c < n; ++c) std::swap(pa[static_cast<std::size_t>(j + c * m)], pa[static_cast<std::size_t>(ipiv[static_cast<std::size_t>(j)] - 1 + c * m)]);
  }
  const double c_bound = 64.0 * static_cast<double>(k + 2) * unit_roundoff<T>();
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      cd lu = 0;
      double mag = 0;
      for (std::int64_t q = 0; q <= std::min({i, j, k - 1}); ++q) {
        const cd l = q == i ? cd(1) : wide(A[static_cast<std::size_t>(i + q * m)]), u = wide(A[static_cast<std::size_t>(q + j * m)]);
        lu += l * u;
        mag += std::abs(l) * std::abs(u);
      }
      mabs[static_cast<std::size_t>(i + j * m)] = mag;
      require(std::abs(lu - pa[static_cast<std::size_t>(i + j * m)]) <= c_bound * mag + 1e-300, "P A = L U within its bound");
    }
  if (m != n || info != 0 || p == nullptr || !s.hermitian) return;
  // Getrs: op(A) X = B with the factors, checked against the unpermuted A and |P^T| |L| |U|.
  std::vector<cd> a0w(static_cast<std::size_t>(n * n)), mrows(mabs.size());
  for (std::int64_t i = 0; i < n * n; ++i) a0w[static_cast<std::size_t>(i)] = wide(A0[static_cast<std::size_t>(i)]);
  std::vector<std::int64_t> row(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) row[static_cast<std::size_t>(i)] = i;
  for (std::int64_t j = 0; j < n; ++j) std::swap(row[static_cast<std::size_t>(j)], row[static_cast<std::size_t>(ipiv[static_cast<std::size_t>(j)] - 1)]);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t c = 0; c < n; ++c) mrows[static_cast<std::size_t>(row[static_cast<std::size_t>(i)] + c * n)] = mabs[static_cast<std::size_t>(i + c * n)];
  const trnsolverStatus_t sb = trnsolverMpGetrs_bufferSize(h, static_cast<trnblasOperation_t>(s.op), n, s.nrhs, A.data(), 1, 1, da,
                                                           ipiv.data(), B.data(), 1, 1, db, as_type(s.compute), &wd, &wh);
  const bool rs_ok = s.op >= TRNBLAS_OP_N && s.op <= TRNBLAS_OP_C && s.nrhs >= 0 && s.nrhs <= 3;
  require((sb == TRNSOLVER_STATUS_SUCCESS) == rs_ok, "Getrs_bufferSize status follows the rules");
  if (!rs_ok) return;
  work.assign(wd + 1, 0);
  require(trnsolverMpGetrs(h, static_cast<trnblasOperation_t>(s.op), n, s.nrhs, A.data(), 1, 1, da, ipiv.data(), B.data(), 1, 1,
                           db, as_type(s.compute), work.data(), wd, nullptr, 0, &info) == TRNSOLVER_STATUS_SUCCESS &&
              info == 0,
          "a valid Getrs succeeds");
  check_solve<T>(a0w, mrows, B, B0, n, s.nrhs, s.op);
  trnfuzz::reach("getrs_ok");
}

// Potrf on the 1 x 1 grid (A Hermitian with a dominant diagonal when s.hermitian), then Potrs.
template <class T>
void chol_case(const Shape& s, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t da, trnsolverMpMatrixDescriptor_t db,
               std::vector<T>& A, std::vector<T>& B) {
  const std::int64_t n = s.n;
  const bool square = n >= 0 && n <= 8 && std::clamp<std::int64_t>(s.m, 0, 8) == n;  // descA (clamped m) is n x n
  if (s.hermitian && square)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i <= j; ++i) {
        const cd v = i == j ? cd(wide(A[static_cast<std::size_t>(i + j * n)]).real() + 40.0, 0) : wide(A[static_cast<std::size_t>(i + j * n)]);
        A[static_cast<std::size_t>(i + j * n)] = narrow<T>(v);
        A[static_cast<std::size_t>(j + i * n)] = narrow<T>(std::conj(v));
      }
  const std::vector<T> A0 = A, B0 = B;
  size_t wd = 0, wh = 0;
  T* a = s.null_a ? nullptr : A.data();
  const trnsolverStatus_t bs = trnsolverMpPotrf_bufferSize(h, as_fill(s.uplo), n, a, s.ia, 1, da, as_type(s.compute), &wd, &wh);
  const bool valid = (s.uplo == TRNBLAS_FILL_MODE_LOWER || s.uplo == TRNBLAS_FILL_MODE_UPPER) && square &&
                     s.ia == 1 && s.compute == type_of<T>();
  require((bs == TRNSOLVER_STATUS_SUCCESS) == valid, "Potrf_bufferSize status follows the rules");
  std::vector<char> work(wd + 1);
  const bool short_call = s.short_ws && wd > 0;
  int info = 77;
  const trnsolverStatus_t st = trnsolverMpPotrf(h, as_fill(s.uplo), n, a, s.ia, 1, da, as_type(s.compute), work.data(), short_call ? wd - 1 : wd, nullptr, 0,
                                                s.null_info ? nullptr : &info);
  const bool call_ok = valid && !short_call && !s.null_info && !(s.null_a && n > 0);
  require((st == TRNSOLVER_STATUS_SUCCESS) == call_ok, "Potrf status follows the rules");
  trnfuzz::reach("potrf_rejected", st != TRNSOLVER_STATUS_SUCCESS);
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(A == A0, "a failing Potrf writes nothing into A");
    if (!s.null_info) require(info == 77 || (info < 0 && info >= -12), "a failing Potrf's info is -position or untouched");
    return;
  }
  require(info >= 0 && info <= n, "Potrf info in 0 .. n");
  if (info != 0) return;
  trnfuzz::reach("potrf_ok");
  const bool lower = s.uplo == TRNBLAS_FILL_MODE_LOWER;
  // The factor F (L, or U^H) in fp64; A = F F^H within c n u |F| |F^H|.
  auto f = [&](std::int64_t i, std::int64_t j) -> cd {
    if (lower) return i >= j ? wide(A[static_cast<std::size_t>(i + j * n)]) : cd(0);
    return i >= j ? std::conj(wide(A[static_cast<std::size_t>(j + i * n)])) : cd(0);
  };
  std::vector<cd> a0w(static_cast<std::size_t>(n * n)), mabs(a0w.size());
  const double c_bound = 64.0 * static_cast<double>(n + 2) * unit_roundoff<T>();
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      cd v = 0;
      double mag = 0;
      for (std::int64_t q = 0; q <= std::min(i, j); ++q) v += f(i, q) * std::conj(f(j, q)), mag += std::abs(f(i, q)) * std::abs(f(j, q));
      const bool stored = lower ? i >= j : i <= j;
      cd want = stored ? wide(A0[static_cast<std::size_t>(i + j * n)]) : std::conj(wide(A0[static_cast<std::size_t>(j + i * n)]));
      if (i == j) want = want.real();  // a Hermitian matrix's diagonal: its imaginary part is not read
      a0w[static_cast<std::size_t>(i + j * n)] = want;
      mabs[static_cast<std::size_t>(i + j * n)] = mag;
      require(std::abs(v - want) <= c_bound * mag + 1e-300, "A = L L^H within its bound");
      if (!stored) require(A[static_cast<std::size_t>(i + j * n)] == A0[static_cast<std::size_t>(i + j * n)], "Potrf leaves the other triangle");
    }
  if (!s.hermitian) return;  // the residual bound needs a well-conditioned A
  const trnsolverStatus_t sb = trnsolverMpPotrs_bufferSize(h, as_fill(s.uplo), n, s.nrhs, A.data(), 1, 1, da, B.data(), 1, 1, db, as_type(s.compute), &wd, &wh);
  const bool rs_ok = s.nrhs >= 0 && s.nrhs <= 3;
  require((sb == TRNSOLVER_STATUS_SUCCESS) == rs_ok, "Potrs_bufferSize status follows the rules");
  if (!rs_ok) return;
  work.assign(wd + 1, 0);
  require(trnsolverMpPotrs(h, as_fill(s.uplo), n, s.nrhs, A.data(), 1, 1, da, B.data(), 1, 1, db, as_type(s.compute), work.data(), wd, nullptr, 0, &info) ==
                  TRNSOLVER_STATUS_SUCCESS && info == 0,
          "a valid Potrs succeeds");
  check_solve<T>(a0w, mabs, B, B0, n, s.nrhs, TRNBLAS_OP_N);
  trnfuzz::reach("potrs_ok");
}

// ||x||_F over the first `count` elements, in fp64.
template <class T>
double frob(const std::vector<T>& x, std::size_t count) {
  double s = 0;
  for (std::size_t i = 0; i < count && i < x.size(); ++i) s += std::norm(wide(x[i]));
  return std::sqrt(s);
}

// Gels (trans N) on A0 (m x n, m >= n) and the m x nrhs right-hand sides: status rules, info, and for a
// dominant diagonal the normal equations ||A^H (B - A X)|| <= c (m + n) u ||A|| (||A|| ||X|| + ||B||).
template <class T>
void gels_case(const Shape& s, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t da, trnsolverMpGrid_t grid,
               const std::vector<T>& A0, trnfuzz::Input& in) {
  const std::int64_t m = s.m, n = s.n, nrhs = std::clamp<std::int64_t>(s.nrhs, 0, 3);
  trnsolverMpMatrixDescriptor_t dbm = nullptr;
  require(trnsolverMpCreateMatrixDesc(&dbm, grid, type_of<T>(), m, nrhs, s.mb, s.mb, 0, 0, std::max<std::int64_t>(1, m)) ==
              TRNSOLVER_STATUS_SUCCESS, "descB (m x nrhs)");
  std::vector<T> A = A0, B(static_cast<std::size_t>(std::max<std::int64_t>(1, m) * std::max<std::int64_t>(1, nrhs)));
  for (auto& x : B) x = narrow<T>(cd(static_cast<int>(in.byte() % 9) - 4, 0));
  const std::vector<T> B0 = B;
  const int trans = in.flag(4) ? s.op : TRNBLAS_OP_N;
  size_t wd = 0, wh = 0;
  const trnsolverStatus_t bs = trnsolverMpGels_bufferSize(h, static_cast<trnblasOperation_t>(trans), m, n, nrhs, A.data(), 1, 1, da,
                                                          B.data(), 1, 1, dbm, type_of<T>(), &wd, &wh);
  const trnsolverStatus_t want = trans == TRNBLAS_OP_N                            ? TRNSOLVER_STATUS_SUCCESS
                                 : trans == TRNBLAS_OP_T || trans == TRNBLAS_OP_C ? TRNSOLVER_STATUS_NOT_SUPPORTED
                                                                                  : TRNSOLVER_STATUS_INVALID_VALUE;
  require(bs == want, "Gels_bufferSize: trans N succeeds, T / C are NOT_SUPPORTED, others INVALID_VALUE");
  std::vector<char> work(wd + 1);
  int info = 77;
  const trnsolverStatus_t st = trnsolverMpGels(h, static_cast<trnblasOperation_t>(trans), m, n, nrhs, A.data(), 1, 1, da, B.data(),
                                               1, 1, dbm, type_of<T>(), work.data(), wd, nullptr, 0, &info);
  require(st == want, "Gels status follows the rules");
  trnsolverMpDestroyMatrixDesc(dbm);
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(A == A0 && B == B0 && info == (want == TRNSOLVER_STATUS_INVALID_VALUE ? -1 : 77), "a failing Gels writes nothing but info");
    return;
  }
  require(info >= 0 && info <= n, "Gels info in 0 .. n");
  if (info > 0) require(B == B0, "a rank-deficient Gels leaves B");
  if (info != 0 || !s.hermitian) return;
  trnfuzz::reach("gels_ok");
  const double na = frob(A0, static_cast<std::size_t>(m * n)), nb = frob(B0, B0.size());
  for (std::int64_t j = 0; j < nrhs; ++j) {
    std::vector<cd> r(static_cast<std::size_t>(m));
    double nx = 0;
    for (std::int64_t i = 0; i < m; ++i) r[static_cast<std::size_t>(i)] = wide(B0[static_cast<std::size_t>(i + j * m)]);
    for (std::int64_t l = 0; l < n; ++l) {
      const cd x = wide(B[static_cast<std::size_t>(l + j * m)]);
      nx += std::norm(x);
      for (std::int64_t i = 0; i < m; ++i) r[static_cast<std::size_t>(i)] -= wide(A0[static_cast<std::size_t>(i + l * m)]) * x;
    }
    double ne = 0;
    for (std::int64_t l = 0; l < n; ++l) {
      cd v = 0;
      for (std::int64_t i = 0; i < m; ++i) v += std::conj(wide(A0[static_cast<std::size_t>(i + l * m)])) * r[static_cast<std::size_t>(i)];
      ne += std::norm(v);
    }
    require(std::sqrt(ne) <= 64.0 * static_cast<double>(m + n + 2) * unit_roundoff<T>() * na * (na * std::sqrt(nx) + nb) + 1e-300,
            "Gels: the normal equations within their bound");
  }
}

// Orgqr (m >= n) on a copy of Geqrf's factored A (F) with k = the fuzzed nrhs (legal in 0 .. n; negative or
// past n: INVALID_VALUE, info = -3, A untouched; no input byte drawn): Q^H Q = I within c (m + n) u, and
// with k = n, A0 = Q R (R from F) within the same kind of bound.
template <class T>
void orgqr_case(const Shape& s, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t da, const std::vector<T>& F,
                const std::vector<T>& tau, const std::vector<T>& A0) {
  const std::int64_t m = s.m, n = s.n, k = s.nrhs;
  std::vector<T> Q = F;
  const bool ok = k >= 0 && k <= n;
  size_t wd = 0, wh = 0;
  const trnsolverStatus_t bs = trnsolverMpOrgqr_bufferSize(h, m, n, k, Q.data(), 1, 1, da, tau.data(), type_of<T>(), &wd, &wh);
  require((bs == TRNSOLVER_STATUS_SUCCESS) == ok, "Orgqr_bufferSize status follows the rules");
  std::vector<char> work(wd + 1);
  int info = 77;
  const trnsolverStatus_t st =
      trnsolverMpOrgqr(h, m, n, k, Q.data(), 1, 1, da, tau.data(), type_of<T>(), work.data(), wd, nullptr, 0, &info);
  require((st == TRNSOLVER_STATUS_SUCCESS) == ok, "Orgqr status follows the rules");
  if (!ok) {
    require(Q == F && info == -3, "an illegal k: Orgqr info = -3, A untouched");
    return;
  }
  require(info == 0, "Orgqr info 0");
  trnfuzz::reach("orgqr_ok");
  auto q = [&](std::int64_t i, std::int64_t j) { return wide(Q[static_cast<std::size_t>(i + j * m)]); };
  const double c_bound = 64.0 * static_cast<double>(m + n + 2) * unit_roundoff<T>();
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      cd v = i == j ? cd(-1) : cd(0);
      for (std::int64_t l = 0; l < m; ++l) v += std::conj(q(l, i)) * q(l, j);
      require(std::abs(v) <= c_bound, "Orgqr: Q^H Q = I within its bound");
    }
  if (k != n) return;
  const double na = frob(A0, static_cast<std::size_t>(m * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      cd v = 0;
      for (std::int64_t l = 0; l <= j; ++l) v += q(i, l) * wide(F[static_cast<std::size_t>(l + j * m)]);
      require(std::abs(v - wide(A0[static_cast<std::size_t>(i + j * m)])) <= c_bound * na + 1e-300, "Orgqr: A = Q R within its bound");
    }
}

// Geqrf on the 1 x 1 grid, then Ormqr (op(Q) of the identity: Q or Q^H, the trans fuzzed) and, m >= n,
// Gels; statuses, info and A = Q R, Q^H Q = I within c (m + n) u checked.
template <class T>
void qr_case(const Shape& s, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t da, trnsolverMpGrid_t grid, std::vector<T>& A,
             trnfuzz::Input& in) {
  if (s.hermitian)  // a dominant diagonal: Gels's solution is then checked
    for (std::int64_t i = 0; i < std::min(s.m, s.n) && s.m <= 8 && s.n <= 8; ++i)
      A[static_cast<std::size_t>(i + i * s.m)] = narrow<T>(wide(A[static_cast<std::size_t>(i + i * s.m)]) + 40.0);
  const std::vector<T> A0 = A;
  const bool sizes_ok = s.m >= 0 && s.n >= 0 && s.m <= 8 && s.n <= 8;
  const std::int64_t k = sizes_ok ? std::min(s.m, s.n) : 0;
  std::vector<T> tau(8, T(5));
  const auto tau0 = tau;
  size_t wd = 0, wh = 0;
  T* a = s.null_a ? nullptr : A.data();
  T* t = s.null_ipiv ? nullptr : tau.data();
  const trnsolverStatus_t bs = trnsolverMpGeqrf_bufferSize(h, s.m, s.n, a, s.ia, 1, da, as_type(s.compute), &wd, &wh);
  const bool valid = sizes_ok && s.ia == 1 && s.compute == type_of<T>();
  require((bs == TRNSOLVER_STATUS_SUCCESS) == valid, "Geqrf_bufferSize status follows the rules");
  std::vector<char> work(wd + 1);
  const bool short_call = s.short_ws && wd > 0;
  int info = 77;
  const trnsolverStatus_t st = trnsolverMpGeqrf(h, s.m, s.n, a, s.ia, 1, da, t, as_type(s.compute), work.data(),
                                                short_call ? wd - 1 : wd, nullptr, 0, s.null_info ? nullptr : &info);
  const bool call_ok = valid && !short_call && !s.null_info && !(s.null_a && s.m > 0 && s.n > 0) && !(s.null_ipiv && k > 0);
  require((st == TRNSOLVER_STATUS_SUCCESS) == call_ok, "Geqrf status follows the rules");
  trnfuzz::reach("geqrf_rejected", st != TRNSOLVER_STATUS_SUCCESS);
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(A == A0 && tau == tau0, "a failing Geqrf writes neither A nor tau");
    if (!s.null_info) require(info == 77 || (info < 0 && info >= -13), "a failing Geqrf's info is -position or untouched");
    if (s.m < 0 && !s.null_info) require(info == -1, "Geqrf with M < 0 gives info = -1");
    return;
  }
  require(info == 0, "Geqrf info 0");
  trnfuzz::reach("geqrf_ok");
  const std::int64_t m = s.m, n = s.n;
  // op(Q) of the m x m identity by Ormqr: Q (N) or Q^H (T real, C complex; the other one is illegal).
  trnsolverMpMatrixDescriptor_t dq = nullptr;
  require(trnsolverMpCreateMatrixDesc(&dq, grid, type_of<T>(), m, m, s.mb, s.mb, 0, 0, std::max<std::int64_t>(1, m)) ==
              TRNSOLVER_STATUS_SUCCESS, "descQ");
  std::vector<T> Q(static_cast<std::size_t>(std::max<std::int64_t>(1, m * m)), T(0));
  for (std::int64_t i = 0; i < m; ++i) Q[static_cast<std::size_t>(i * (m + 1))] = T(1);
  const std::vector<T> Q0 = Q;
  constexpr bool cplx = !std::is_same_v<T, float> && !std::is_same_v<T, double>;
  const int adjoint = cplx ? TRNBLAS_OP_C : TRNBLAS_OP_T;
  const bool op_ok = s.op == TRNBLAS_OP_N || s.op == adjoint;
  const trnsolverStatus_t so = trnsolverMpOrmqr_bufferSize(h, TRNBLAS_SIDE_LEFT, static_cast<trnblasOperation_t>(s.op), m, m, k,
                                                           A.data(), 1, 1, da, tau.data(), Q.data(), 1, 1, dq, type_of<T>(), &wd, &wh);
  require((so == TRNSOLVER_STATUS_SUCCESS) == op_ok, "Ormqr_bufferSize status follows the rules");
  work.assign(wd + 1, 0);
  info = 77;
  const trnsolverStatus_t sc = trnsolverMpOrmqr(h, TRNBLAS_SIDE_LEFT, static_cast<trnblasOperation_t>(s.op), m, m, k, A.data(), 1, 1,
                                                da, tau.data(), Q.data(), 1, 1, dq, type_of<T>(), work.data(), wd, nullptr, 0, &info);
  require((sc == TRNSOLVER_STATUS_SUCCESS) == op_ok, "Ormqr status follows the rules");
  trnsolverMpDestroyMatrixDesc(dq);
  if (!op_ok) {
    require(Q == Q0 && info == -2, "an illegal trans: Ormqr info = -2, C untouched");
    return;
  }
  trnfuzz::reach("ormqr_ok");
  auto q = [&](std::int64_t i, std::int64_t j) {  // Q(i, j) from the result (Q or Q^H)
    return s.op == TRNBLAS_OP_N ? wide(Q[static_cast<std::size_t>(i + j * m)]) : std::conj(wide(Q[static_cast<std::size_t>(j + i * m)]));
  };
  const double c_bound = 64.0 * static_cast<double>(m + n + 2) * unit_roundoff<T>();
  const double na = frob(A0, static_cast<std::size_t>(m * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      cd v = 0;
      for (std::int64_t l = 0; l <= std::min(j, k - 1); ++l) v += q(i, l) * wide(A[static_cast<std::size_t>(l + j * m)]);
      require(std::abs(v - wide(A0[static_cast<std::size_t>(i + j * m)])) <= c_bound * na + 1e-300, "A = Q R within its bound");
    }
  for (std::int64_t j = 0; j < m; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      cd v = i == j ? cd(-1) : cd(0);
      for (std::int64_t l = 0; l < m; ++l) v += std::conj(q(l, i)) * q(l, j);
      require(std::abs(v) <= c_bound, "Q^H Q = I within its bound");
    }
  if (m >= n) orgqr_case<T>(s, h, da, A, tau, A0);
  if (m >= n) gels_case<T>(s, h, da, grid, A0, in);
}

// The real type of T (Syevd's D: float for C, double for Z).
template <class T>
using RealOf = decltype(std::real(T{}));

// D ascending, A Z = B Z diag(D) and Z^H B Z = I within c n u (B = I for Syevd; A from A0's uplo triangle,
// Hermitian for complex data: the mirror conjugated, the diagonal's imaginary parts not read).
template <class T>
void check_eig(bool gv, bool lower, std::int64_t n, const std::vector<T>& A0, const std::vector<T>& B0,
               const std::vector<RealOf<T>>& D, const std::vector<T>& Z) {
  for (std::int64_t i = 1; i < n; ++i) require(D[static_cast<std::size_t>(i - 1)] <= D[static_cast<std::size_t>(i)], "ascending");
  auto sym = [&](std::int64_t i, std::int64_t j) {  // A0's uplo triangle mirrored
    const bool stored = lower ? i >= j : i <= j;
    return i == j ? cd(wide(A0[static_cast<std::size_t>(i + j * n)]).real())
           : stored ? wide(A0[static_cast<std::size_t>(i + j * n)])
                    : std::conj(wide(A0[static_cast<std::size_t>(j + i * n)]));
  };
  auto bm = [&](std::int64_t i, std::int64_t j) { return gv ? wide(B0[static_cast<std::size_t>(i + j * n)]) : cd(i == j ? 1.0 : 0.0); };
  auto z = [&](std::int64_t i, std::int64_t j) { return wide(Z[static_cast<std::size_t>(i + j * n)]); };
  const double c_bound = 64.0 * static_cast<double>(n + 2) * unit_roundoff<T>() * (gv ? 64.0 : 1.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      cd az = 0, bz = 0, ztbz = i == j ? -1.0 : 0.0;
      for (std::int64_t k = 0; k < n; ++k) az += sym(i, k) * z(k, j), bz += bm(i, k) * z(k, j);
      for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t l = 0; l < n; ++l) ztbz += std::conj(z(k, i)) * bm(k, l) * z(l, j);
      require(std::abs(az - bz * static_cast<double>(D[static_cast<std::size_t>(j)])) <= c_bound * 8.0 * (n + 40.0),
              "A Z = B Z L within its bound");
      require(std::abs(ztbz) <= c_bound * (gv ? 48.0 : 1.0), "Z^H B Z = I within its bound");
    }
}

// The distributed algorithm itself (the C API's 1 x 1 grid runs the single-device driver): the C++ call
// with one_device_path = false on a 1 x 1 grid of MPI_COMM_SELF, blocks mb, the same checks.
template <class T>
void distributed_eig(bool gv, bool lower, std::int64_t n, std::int64_t mb, const std::vector<T>& A0, const std::vector<T>& B0) {
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, 1, 1, trn::blasmp::GridLayout::col_major, MPI_COMM_SELF);
  const trn::blasmp::Descriptor d = trn::blasmp::make_descriptor(g, n, n, mb, mb, 0, 0, type_of<T>());
  const auto nn = static_cast<std::size_t>(std::max<std::int64_t>(1, n * n));
  std::vector<T> a(A0.begin(), A0.begin() + static_cast<std::ptrdiff_t>(std::min(nn, A0.size()))), b(B0.begin(), B0.begin() + static_cast<std::ptrdiff_t>(nn));
  std::vector<T> z(nn, T(0));
  std::vector<RealOf<T>> dd(static_cast<std::size_t>(std::max<std::int64_t>(1, n)), RealOf<T>(0));
  a.resize(nn);
  trn::solvermp::SygvdArgs x;
  x.fp64 = std::is_same_v<RealOf<T>, double>, x.complex = !std::is_same_v<RealOf<T>, T>;
  x.one_device_path = false, x.vectors = true;
  x.uplo = lower ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
  x.n = n, x.a = a.data(), x.desc_a = &d, x.d = dd.data(), x.z = z.data(), x.desc_z = &d, x.b = b.data(), x.desc_b = &d;
  std::vector<char> work(gv ? trn::solvermp::sygvd_workspace_bytes(x) : trn::solvermp::syevd_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  const int info = gv ? trn::solvermp::sygvd(trn::blas::Settings{}, x) : trn::solvermp::syevd(trn::blas::Settings{}, x);
  require(info == 0, "the distributed Syevd / Sygvd: info 0");
  trnfuzz::reach("eig_distributed_ok");
  check_eig<T>(gv, lower, n, A0, B0, dd, z);
  trn::blasmp::grid_destroy(g);
}

// Syevd or Sygvd (itype fuzzed) on the 1 x 1 grid with A's uplo triangle (B = A's symmetric part + 40 I),
// real or complex Hermitian: statuses (itype 2 and ia = 2 NOT_SUPPORTED, a compute type that is not the
// descriptor's INVALID_VALUE), untouched outputs on failure, info 0, eigenvalues ascending,
// ||A Z - B Z L|| and ||Z^H B Z - I|| within c n u (B = I for Syevd); the distributed algorithm on 1 x 1 too.
template <class T>
void eig_case(const Shape& s, trnsolverMpHandle_t h, trnsolverMpMatrixDescriptor_t da, std::vector<T>& A, trnfuzz::Input& in) {
  const std::int64_t n = s.n;
  const bool square = n >= 0 && n <= 8 && std::clamp<std::int64_t>(s.m, 0, 8) == n;
  const bool gv = in.flag(2);
  const int itype = in.choice({1, 1, 1, 2, 4}), jobz = in.choice({0, 1, 1, 2});
  const char* const jobz_text = jobz == 0 ? "N" : jobz == 1 ? "V" : "X";
  const bool vectors = jobz == 1;
  const std::int64_t dn = std::clamp<std::int64_t>(n, 0, 8);  // the buffers: the descriptor's (clamped) size
  const std::size_t nn = static_cast<std::size_t>(std::max<std::int64_t>(1, dn * dn)) + 64;
  std::vector<T> B(nn, T(0)), Z(nn, T(-7));
  std::vector<RealOf<T>> D(16, RealOf<T>(-7));
  for (std::int64_t j = 0; square && j < n; ++j)  // A is n x n only when square
    for (std::int64_t i = 0; i < n; ++i)
      B[static_cast<std::size_t>(i + j * n)] = narrow<T>(0.5 * (wide(A[static_cast<std::size_t>(i + j * n)]) + wide(A[static_cast<std::size_t>(j + i * n)])).real() + (i == j ? 40.0 : 0.0));
  const std::vector<T> A0 = A, B0 = B, Z0 = Z;
  const std::vector<RealOf<T>> D0 = D;
  size_t wd = 0, wh = 0;
  const int fill = s.uplo;
  const bool size_query_null_a = in.flag(2), size_query_null_d = in.flag(2);  // Syevd_bufferSize reads no data
  const trnsolverStatus_t bs =
      gv ? trnsolverMpSygvd_bufferSize(h, static_cast<trnsolverEigType_t>(itype), static_cast<trnsolverEigMode_t>(jobz), as_fill(fill), n,
                                       s.ia, 1, da, 1, 1, da, 1, 1, da, as_type(s.compute), &wd, &wh)
         : trnsolverMpSyevd_bufferSize(h, jobz_text, as_fill(fill), n, size_query_null_a ? nullptr : A.data(), s.ia, 1, da,
                                       size_query_null_d ? nullptr : D.data(), Z.data(), 1, 1, da, as_type(s.compute), &wd, &wh);
  // The local checks first (an illegal value: INVALID_VALUE; then what is not implemented: NOT_SUPPORTED),
  // then the layout (descA n x n: INVALID_VALUE).
  // (choice gives an arbitrary value sometimes: uplo, itype, jobz and the compute type may be illegal.)
  const bool args_ok = n >= 0 && (!gv || (itype >= 1 && itype <= 3)) && (jobz == 0 || jobz == 1) &&
                       (fill == TRNBLAS_FILL_MODE_LOWER || fill == TRNBLAS_FILL_MODE_UPPER) && s.compute == type_of<T>();
  const trnsolverStatus_t want = !args_ok                                      ? TRNSOLVER_STATUS_INVALID_VALUE
                                 : (s.ia != 1 || (gv && itype != 1))          ? TRNSOLVER_STATUS_NOT_SUPPORTED
                                 : !square                                     ? TRNSOLVER_STATUS_INVALID_VALUE
                                                                               : TRNSOLVER_STATUS_SUCCESS;
  require(bs == want, "Syevd / Sygvd _bufferSize status follows the rules");
  std::vector<char> work(wd + 1);
  const bool short_call = s.short_ws && wd > 0;
  int info = 77;
  T* a = s.null_a ? nullptr : A.data();
  const trnsolverStatus_t st =
      gv ? trnsolverMpSygvd(h, static_cast<trnsolverEigType_t>(itype), static_cast<trnsolverEigMode_t>(jobz), as_fill(fill), n, a, s.ia,
                            1, da, B.data(), 1, 1, da, D.data(), Z.data(), 1, 1, da, as_type(s.compute), work.data(),
                            short_call ? wd - 1 : wd, nullptr, 0, s.null_info ? nullptr : &info)
         : trnsolverMpSyevd(h, jobz_text, as_fill(fill), n, a, s.ia, 1, da, D.data(), Z.data(), 1, 1, da, as_type(s.compute),
                            work.data(), short_call ? wd - 1 : wd, nullptr, 0, s.null_info ? nullptr : &info);
  const bool call_ok = want == TRNSOLVER_STATUS_SUCCESS && !short_call && !s.null_info && !(s.null_a && n > 0);
  require((st == TRNSOLVER_STATUS_SUCCESS) == call_ok, "Syevd / Sygvd status follows the rules");
  trnfuzz::reach("eig_rejected", st != TRNSOLVER_STATUS_SUCCESS);
  if (st != TRNSOLVER_STATUS_SUCCESS) {
    require(A == A0 && B == B0 && Z == Z0 && D == D0, "a failing Syevd / Sygvd writes nothing");
    if (!s.null_info) require(info == 77 || (info < 0 && info >= -23), "a failing Syevd / Sygvd's info is -position or untouched");
    return;
  }
  require(info == 0, "Syevd / Sygvd info 0");
  trnfuzz::reach(gv ? "sygvd_ok" : "syevd_ok");
  trnfuzz::reach("eig_hermitian_ok", !std::is_same_v<RealOf<T>, T>);  // complex: the Hermitian solver
  if (!vectors) {
    for (std::int64_t i = 1; i < n; ++i) require(D[static_cast<std::size_t>(i - 1)] <= D[static_cast<std::size_t>(i)], "ascending");
    return;
  }
  check_eig<T>(gv, fill == TRNBLAS_FILL_MODE_LOWER, n, A0, B0, D, Z);
  distributed_eig<T>(gv, fill == TRNBLAS_FILL_MODE_LOWER, n, s.mb, A0, B0);
}

template <class T>
void routine_case(trnfuzz::Input& in, trnsolverMpHandle_t h, trnsolverMpGrid_t grid) {
  Shape s{};
  const bool lu = in.flag(2);
  s.m = in.size(8, true);
  s.n = lu ? (in.flag(2) ? s.m : in.size(8, true)) : (in.flag(8) && s.m < 8 ? s.m + 1 : s.m);  // LU: square half the time
  s.nrhs = in.size(3, true), s.mb = 1 + in.byte() % 4;
  s.op = in.choice({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C});
  s.uplo = in.choice({TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER});
  s.compute = in.choice({type_of<T>(), type_of<T>(), type_of<T>(), TRN_R_32F, TRN_C_64F});
  s.ia = in.flag(12) ? 2 : 1;
  s.null_a = in.flag(16), s.null_info = in.flag(16), s.null_ipiv = in.flag(8), s.short_ws = in.flag(8);
  s.hermitian = lu ? in.flag(2) : !in.flag(8);  // LU: half dominant (solve checked), half pivoting freely
  // The descriptors are of the clamped sizes (the call's own m, n may be illegal).
  const std::int64_t dm = std::clamp<std::int64_t>(s.m, 0, 8), dn = std::clamp<std::int64_t>(s.n, 0, 8);
  const std::int64_t drhs = std::clamp<std::int64_t>(s.nrhs, 0, 3);
  trnsolverMpMatrixDescriptor_t da = nullptr, db = nullptr;
  const trnDataType_t t = type_of<T>();
  require(trnsolverMpCreateMatrixDesc(&da, grid, t, dm, dn, s.mb, s.mb, 0, 0, std::max<std::int64_t>(1, dm)) == TRNSOLVER_STATUS_SUCCESS,
          "descA");
  require(trnsolverMpCreateMatrixDesc(&db, grid, t, dn, drhs, s.mb, s.mb, 0, 0, std::max<std::int64_t>(1, dn)) == TRNSOLVER_STATUS_SUCCESS,
          "descB");
  std::vector<T> A(static_cast<std::size_t>(std::max<std::int64_t>(1, dm) * std::max<std::int64_t>(1, dn)));
  std::vector<T> B(static_cast<std::size_t>(std::max<std::int64_t>(1, dn) * std::max<std::int64_t>(1, drhs)));
  for (auto& x : A) x = narrow<T>(cd(static_cast<int>(in.byte() % 9) - 4, static_cast<int>(in.byte() % 5) - 2));
  for (auto& x : B) x = narrow<T>(cd(static_cast<int>(in.byte() % 9) - 4, static_cast<int>(in.byte() % 5) - 2));
  if (lu && in.flag(3))  // drawn last: the other cases read the input as before
    qr_case<T>(s, h, da, grid, A, in);
  else if (lu)
    lu_case<T>(s, h, da, db, A, B);
  else if (in.flag(3))  // drawn last, as the QR case
    eig_case<T>(s, h, da, A, in);
  else
    chol_case<T>(s, h, da, db, A, B);
  trnsolverMpDestroyMatrixDesc(da);
  trnsolverMpDestroyMatrixDesc(db);
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"getrf_ok", 10}, {"getrf_rejected", 10}, {"getrs_ok", 3}, {"potrf_ok", 10}, {"potrf_rejected", 10}, {"potrs_ok", 5},
          {"descriptor_ok", 20}, {"geqrf_ok", 5}, {"geqrf_rejected", 5}, {"ormqr_ok", 3}, {"gels_ok", 2}, {"orgqr_ok", 2},
          {"syevd_ok", 2}, {"sygvd_ok", 2}, {"eig_rejected", 5}, {"eig_distributed_ok", 2}, {"eig_hermitian_ok", 5}};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ensure_mpi();
  trnfuzz::Input in(data, size);
  const std::int64_t rn = in.byte() % 40, rnb = 1 + in.byte() % 7, rnp = 1 + in.byte() % 4, rp = in.byte() % rnp;
  require(trnsolverMpNUMROC(rn, rnb, static_cast<uint32_t>(rp), 0, static_cast<uint32_t>(rnp)) == owned(rn, rnb, rp, rnp), "NUMROC");
  trnsolverMpHandle_t h = nullptr;
  require(trnsolverMpCreate(&h, 0, nullptr) == TRNSOLVER_STATUS_SUCCESS, "create");
  // A grid: the communicator has one rank, so only 1 x 1 with a valid mapping and a live handle.
  const std::int64_t nprow = in.size(2, false), npcol = in.size(2, false);
  const int mapping = in.choice({TRNSOLVERMP_GRID_MAPPING_COL_MAJOR, TRNSOLVERMP_GRID_MAPPING_ROW_MAJOR});
  const bool null_comm = in.flag(16), null_handle = in.flag(16);
  trnsolverMpGrid_t grid = nullptr;
  const trnsolverStatus_t gs =
      trnsolverMpCreateDeviceGrid(null_handle ? nullptr : h, &grid, null_comm ? MPI_COMM_NULL : MPI_COMM_SELF,
                                  static_cast<int32_t>(nprow), static_cast<int32_t>(npcol),
                                  static_cast<trnsolverMpGridMapping_t>(mapping));
  const bool grid_ok = !null_comm && !null_handle && nprow == 1 && npcol == 1 && (mapping == 0 || mapping == 1);
  require((gs == TRNSOLVER_STATUS_SUCCESS) == grid_ok, "CreateDeviceGrid status follows the rules");
  if (!null_comm) require(grid_ok || gs == (null_handle ? TRNSOLVER_STATUS_NOT_INITIALIZED : TRNSOLVER_STATUS_INVALID_VALUE),
                          "CreateDeviceGrid's failing status");
  if (!grid_ok) {
    trnsolverMpDestroy(h);
    return 0;
  }
  // A descriptor of fuzzed arguments.
  // Mostly legal blocks, sources and leading dimensions (each illegal sometimes): the rules' both sides.
  const std::int64_t m = in.size(40, true), n = in.size(40, true);
  const std::int64_t mb = in.flag(8) ? in.size(8, true) : 1 + in.byte() % 8, nb = in.flag(8) ? in.size(8, true) : 1 + in.byte() % 8;
  const std::int64_t lld = in.flag(6) ? in.size(48, true) : std::max<std::int64_t>(1, std::min<std::int64_t>(m, INT32_MAX)) + in.byte() % 3;
  const auto rsrc = static_cast<uint32_t>(in.flag(8) ? in.size(1, false) : 0);
  const auto csrc = static_cast<uint32_t>(in.flag(8) ? in.size(1, false) : 0);
  const int type = in.choice({TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F, TRN_R_16F});
  trnsolverMpMatrixDescriptor_t d = nullptr;
  const trnsolverStatus_t ds = trnsolverMpCreateMatrixDesc(&d, grid, static_cast<trnDataType_t>(type), m, n, mb, nb, rsrc, csrc, lld);
  const bool type_ok = type == TRN_R_32F || type == TRN_R_64F || type == TRN_C_32F || type == TRN_C_64F;
  const bool d_ok = type_ok && m >= 0 && n >= 0 && mb >= 1 && nb >= 1 && rsrc == 0 && csrc == 0 &&
                    lld >= std::max<std::int64_t>(1, m);
  require((ds == TRNSOLVER_STATUS_SUCCESS) == d_ok, "CreateMatrixDesc status follows the rules");
  trnfuzz::reach("descriptor_ok", d_ok);
  if (d_ok) require(trnsolverMpDestroyMatrixDesc(d) == TRNSOLVER_STATUS_SUCCESS, "destroy descriptor");
  switch (in.byte() % 4) {
    case 0: routine_case<float>(in, h, grid); break;
    case 1: routine_case<double>(in, h, grid); break;
    case 2: routine_case<std::complex<float>>(in, h, grid); break;
    default: routine_case<std::complex<double>>(in, h, grid); break;
  }
  require(trnsolverMpDestroyGrid(grid) == TRNSOLVER_STATUS_SUCCESS, "grid destroy");
  trnsolverMpDestroy(h);
  return 0;
}
