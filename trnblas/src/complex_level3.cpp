// trnblas complex Level 3 beyond GEMM (docs/trnblas.md "Complex SYRK, HERK, HEMM"): C/Z syrk, syr2k,
// syrkx, herk, her2k, herkx (the uplo triangle of one or two complex GEMMs) and symm, hemm (the
// full matrix packed from its triangle, one complex GEMM). Every product is trnblas's 4M complex
// GEMM (cgemm: TensorE + VectorE; zgemm: Ozaki), called through the C++ API; what this file adds on
// the host is data movement only: copies of C's triangle into a scratch block and back, zeros (the
// Hermitian diagonal's imaginary parts) and sign-bit flips (conjugation while packing a Hermitian A).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "level3_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/scratch.hpp"

namespace trn::blas {

namespace {

using detail::Recorder;
using detail::require;

// op(X) of a complex column-major X as the GEMM sees it; sub(r, c) starts at op(X)(r, c).
template <class T>
struct CView {
  const std::complex<T>* p = nullptr;
  std::int64_t ld = 1;
  COp op = COp::N;
  CView sub(std::int64_t r, std::int64_t c) const {
    if (p == nullptr) return *this;
    return {op == COp::N ? p + r + c * ld : p + c + r * ld, ld, op};
  }
};

// One complex GEMM of the call: C = alpha a b + beta C (m x n, contraction K), trace into rec.
template <class T>
void cgemm_any(const Settings& s, GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t K, std::complex<T> alpha,
               const CView<T>& a, const CView<T>& b, std::complex<T> beta, std::complex<T>* C, std::int64_t ldc,
               Recorder& rec) {
  CallReport sub;
  const std::int64_t lda = std::max<std::int64_t>(a.ld, a.op == COp::N ? std::max<std::int64_t>(1, m) : std::max<std::int64_t>(1, K));
  const std::int64_t ldb = std::max<std::int64_t>(b.ld, b.op == COp::N ? std::max<std::int64_t>(1, K) : std::max<std::int64_t>(1, n));
  if constexpr (std::is_same_v<T, float>)
    cgemm(s, mode, ComplexAlgo::four_m, a.op, b.op, m, n, K, alpha, a.p, lda, b.p, ldb, beta, C, ldc, &sub);
  else
    zgemm(s, ComplexAlgo::four_m, a.op, b.op, m, n, K, alpha, a.p, lda, b.p, ldb, beta, C, ldc, &sub);
  rec.add(sub);
}

// A term alpha a b of a rank-k update (a: n x K, b: K x n as views).
template <class T>
struct Term {
  std::complex<T> alpha;
  CView<T> a, b;
};

// C = sum of terms + beta C on the uplo triangle of C (n x n), K the contraction of every term.
// Blocks of pmax rows: the rectangle beside the diagonal block straight on C (the first term with
// beta, the next with beta = 1); the diagonal block through a w x w scratch that holds only C's uplo
// triangle (zeros elsewhere), so C's other triangle is neither read nor written. hermitian: the
// diagonal's imaginary parts are taken as zero on input and set to zero on output (BLAS xHERK).
template <class T>
void gemmt_complex(const Settings& s, GemmMode mode, Uplo uplo, std::int64_t n, std::int64_t K,
                   std::vector<Term<T>> terms, std::complex<T> beta, bool hermitian, std::complex<T>* C,
                   std::int64_t ldc, Recorder& rec) {
  using Cx = std::complex<T>;
  if (n == 0) return;
  if (K == 0) terms.clear();
  std::erase_if(terms, [](const Term<T>& t) { return t.alpha == Cx(0); });
  if (terms.empty()) terms.push_back({Cx(0), {}, {}});  // C = beta C: reads no operand
  const bool lower = uplo == Uplo::lower;
  const std::int64_t nb = hardware_spec(s.target).pmax;
  ScratchVector<Cx> scratch(static_cast<std::size_t>(nb * nb));  // traced: docs/cost-model.md section 2
  const std::int64_t Kt = terms.front().alpha == Cx(0) ? 0 : K;
  for (std::int64_t i0 = 0; i0 < n; i0 += nb) {
    const std::int64_t w = std::min(nb, n - i0);
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const Cx bt = t == 0 ? beta : Cx(1);
      const Term<T>& x = terms[t];
      if (lower && i0 > 0) cgemm_any<T>(s, mode, w, i0, Kt, x.alpha, x.a.sub(i0, 0), x.b, bt, C + i0, ldc, rec);
      if (!lower && i0 + w < n)
        cgemm_any<T>(s, mode, w, n - i0 - w, Kt, x.alpha, x.a.sub(i0, 0), x.b.sub(0, i0 + w), bt,
                     C + i0 + (i0 + w) * ldc, ldc, rec);
    }
    auto in_tri = [&](std::int64_t i, std::int64_t j) { return lower ? i >= j : i <= j; };
    Cx* S = scratch.data();
    for (std::int64_t j = 0; j < w; ++j)
      for (std::int64_t i = 0; i < w; ++i) {
        Cx v = beta != Cx(0) && in_tri(i, j) ? C[(i0 + i) + (i0 + j) * ldc] : Cx(0);
        if (hermitian && i == j) v = Cx(v.real(), T(0));
        S[i + j * w] = v;
      }
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const Term<T>& x = terms[t];
      cgemm_any<T>(s, mode, w, w, Kt, x.alpha, x.a.sub(i0, 0), x.b.sub(0, i0), t == 0 ? beta : Cx(1), S, w, rec);
    }
    if (s.timing_only) continue;
    for (std::int64_t j = 0; j < w; ++j)
      for (std::int64_t i = 0; i < w; ++i)
        if (in_tri(i, j)) C[(i0 + i) + (i0 + j) * ldc] = hermitian && i == j ? Cx(S[i + j * w].real(), T(0)) : S[i + j * w];
  }
}

// The syrk family (sym: op T, trans N or T) and the herk family (op C, trans N or C). op(X) is
// n x k: X n x k (trans N, ld >= n) or k x n (ld >= k).
enum class Kind : std::uint8_t { sym, herm };

template <class T>
void check_rank(Kind kind, COp trans, std::int64_t n, std::int64_t k, std::int64_t lda, std::int64_t ldb,
                std::int64_t ldc, bool two) {
  require(trans == COp::N || trans == (kind == Kind::sym ? COp::T : COp::C),
          kind == Kind::sym ? "trans must be N or T" : "trans must be N or C");
  require(n >= 0 && k >= 0, "n, k must be non-negative");
  const std::int64_t rows = trans == COp::N ? n : k;
  require(lda >= std::max<std::int64_t>(1, rows) && (!two || ldb >= std::max<std::int64_t>(1, rows)) &&
              ldc >= std::max<std::int64_t>(1, n),
          "lda, ldb, ldc too small");
}

// op(X) and the right factor op(Y)^T (sym) or op(Y)^H (herm) as views.
template <class T>
CView<T> left_view(const std::complex<T>* X, std::int64_t ld, COp trans) {
  return {X, ld, trans};
}
template <class T>
CView<T> right_view(Kind kind, const std::complex<T>* Y, std::int64_t ld, COp trans) {
  return {Y, ld, trans != COp::N ? COp::N : (kind == Kind::sym ? COp::T : COp::C)};
}

// kind, which terms: 0 syrk/herk (A, A), 1 syr2k/her2k (A, B) + (B, A), 2 syrkx/herkx (A, B).
template <class T>
void rank_update(const Settings& s, GemmMode mode, Kind kind, int form, Uplo uplo, COp trans, std::int64_t n,
                 std::int64_t k, std::complex<T> alpha, const std::complex<T>* A, std::int64_t lda,
                 const std::complex<T>* B, std::int64_t ldb, std::complex<T> beta, std::complex<T>* C, std::int64_t ldc,
                 CallReport* report) {
  check_rank<T>(kind, trans, n, k, lda, ldb, ldc, form != 0);
  const bool herm = kind == Kind::herm;
  Recorder rec(s, report);
  if (n == 0) return;
  // netlib's quick return: nothing to add and beta == 1 (xHERK then leaves the diagonal as it is).
  if ((alpha == std::complex<T>(0) || k == 0) && beta == std::complex<T>(1)) return;
  if (form == 0) B = A, ldb = lda;
  std::vector<Term<T>> terms{{alpha, left_view<T>(A, lda, trans), right_view<T>(kind, B, ldb, trans)}};
  if (form == 1)  // the second term's scalar: alpha (syr2k) or conj(alpha) (her2k)
    terms.push_back({herm ? std::conj(alpha) : alpha, left_view<T>(B, ldb, trans), right_view<T>(kind, A, lda, trans)});
  gemmt_complex<T>(s, mode, uplo, n, k, std::move(terms), beta, herm, C, ldc, rec);
}

// SYMM / HEMM: the full A packed from its uplo triangle (herm: the other triangle conjugated, a
// sign-bit flip; the diagonal's imaginary parts zero, as BLAS xHEMM assumes), then one GEMM.
template <class T>
void symm_complex(const Settings& s, GemmMode mode, Kind kind, Side side, Uplo uplo, std::int64_t m, std::int64_t n,
                  std::complex<T> alpha, const std::complex<T>* A, std::int64_t lda, const std::complex<T>* B,
                  std::int64_t ldb, std::complex<T> beta, std::complex<T>* C, std::int64_t ldc, CallReport* report) {
  using Cx = std::complex<T>;
  const bool left = side == Side::left;
  const std::int64_t order = left ? m : n;
  detail::require_side_shapes(m, n, order, lda, ldb, ldc);
  Recorder rec(s, report);
  if (m == 0 || n == 0 || (alpha == Cx(0) && beta == Cx(1))) return;
  ScratchVector<Cx> full;  // traced: docs/cost-model.md section 2
  const bool product = alpha != Cx(0);
  if (product) {
    full.resize(static_cast<std::size_t>(order * order));
    const bool lower = uplo == Uplo::lower, herm = kind == Kind::herm;
    for (std::int64_t j = 0; j < order; ++j)
      for (std::int64_t i = 0; i < order; ++i) {
        Cx v;
        if (i == j)
          v = herm ? Cx(A[i + j * lda].real(), T(0)) : A[i + j * lda];
        else if (lower ? i > j : i < j)
          v = A[i + j * lda];
        else
          v = herm ? std::conj(A[j + i * lda]) : A[j + i * lda];
        full[static_cast<std::size_t>(i + j * order)] = v;
      }
  }
  const CView<T> a{product ? full.data() : nullptr, order, COp::N}, b{product ? B : nullptr, ldb, COp::N};
  const std::int64_t K = product ? order : 0;
  if (left)
    cgemm_any<T>(s, mode, m, n, K, alpha, a, b, beta, C, ldc, rec);
  else
    cgemm_any<T>(s, mode, m, n, K, alpha, b, a, beta, C, ldc, rec);
}

using cf = std::complex<float>;
using cd = std::complex<double>;

}  // namespace

#define TRNBLAS_COMPLEX_RANK(NAME_C, NAME_Z, KIND, FORM)                                                             \
  void NAME_C(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cf alpha,       \
              const cf* A, std::int64_t lda, const cf* B, std::int64_t ldb, cf beta, cf* C, std::int64_t ldc,         \
              CallReport* report) {                                                                                   \
    require(mode != GemmMode::fp64_ozaki, "fp64 data goes through the z routine");                                    \
    rank_update<float>(s, mode, KIND, FORM, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);          \
  }                                                                                                                   \
  void NAME_Z(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cd alpha, const cd* A,          \
              std::int64_t lda, const cd* B, std::int64_t ldb, cd beta, cd* C, std::int64_t ldc, CallReport* report) { \
    rank_update<double>(s, GemmMode::fp64_ozaki, KIND, FORM, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc,  \
                        report);                                                                                      \
  }

TRNBLAS_COMPLEX_RANK(csyr2k, zsyr2k, Kind::sym, 1)
TRNBLAS_COMPLEX_RANK(csyrkx, zsyrkx, Kind::sym, 2)
#undef TRNBLAS_COMPLEX_RANK

void csyrk(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cf alpha,
           const cf* A, std::int64_t lda, cf beta, cf* C, std::int64_t ldc, CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zsyrk");
  rank_update<float>(s, mode, Kind::sym, 0, uplo, trans, n, k, alpha, A, lda, nullptr, 1, beta, C, ldc, report);
}
void zsyrk(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cd alpha, const cd* A,
           std::int64_t lda, cd beta, cd* C, std::int64_t ldc, CallReport* report) {
  rank_update<double>(s, GemmMode::fp64_ozaki, Kind::sym, 0, uplo, trans, n, k, alpha, A, lda, nullptr, 1, beta, C, ldc,
                      report);
}
void cherk(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, float alpha,
           const cf* A, std::int64_t lda, float beta, cf* C, std::int64_t ldc, CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zherk");
  rank_update<float>(s, mode, Kind::herm, 0, uplo, trans, n, k, cf(alpha), A, lda, nullptr, 1, cf(beta), C, ldc, report);
}
void zherk(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, double alpha, const cd* A,
           std::int64_t lda, double beta, cd* C, std::int64_t ldc, CallReport* report) {
  rank_update<double>(s, GemmMode::fp64_ozaki, Kind::herm, 0, uplo, trans, n, k, cd(alpha), A, lda, nullptr, 1, cd(beta),
                      C, ldc, report);
}
void cher2k(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cf alpha,
            const cf* A, std::int64_t lda, const cf* B, std::int64_t ldb, float beta, cf* C, std::int64_t ldc,
            CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zher2k");
  rank_update<float>(s, mode, Kind::herm, 1, uplo, trans, n, k, alpha, A, lda, B, ldb, cf(beta), C, ldc, report);
}
void zher2k(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cd alpha, const cd* A,
            std::int64_t lda, const cd* B, std::int64_t ldb, double beta, cd* C, std::int64_t ldc, CallReport* report) {
  rank_update<double>(s, GemmMode::fp64_ozaki, Kind::herm, 1, uplo, trans, n, k, alpha, A, lda, B, ldb, cd(beta), C, ldc,
                      report);
}
void cherkx(const Settings& s, GemmMode mode, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cf alpha,
            const cf* A, std::int64_t lda, const cf* B, std::int64_t ldb, float beta, cf* C, std::int64_t ldc,
            CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zherkx");
  rank_update<float>(s, mode, Kind::herm, 2, uplo, trans, n, k, alpha, A, lda, B, ldb, cf(beta), C, ldc, report);
}
void zherkx(const Settings& s, Uplo uplo, COp trans, std::int64_t n, std::int64_t k, cd alpha, const cd* A,
            std::int64_t lda, const cd* B, std::int64_t ldb, double beta, cd* C, std::int64_t ldc, CallReport* report) {
  rank_update<double>(s, GemmMode::fp64_ozaki, Kind::herm, 2, uplo, trans, n, k, alpha, A, lda, B, ldb, cd(beta), C, ldc,
                      report);
}

void csymm(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n, cf alpha,
           const cf* A, std::int64_t lda, const cf* B, std::int64_t ldb, cf beta, cf* C, std::int64_t ldc,
           CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zsymm");
  symm_complex<float>(s, mode, Kind::sym, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
}
void zsymm(const Settings& s, Side side, Uplo uplo, std::int64_t m, std::int64_t n, cd alpha, const cd* A,
           std::int64_t lda, const cd* B, std::int64_t ldb, cd beta, cd* C, std::int64_t ldc, CallReport* report) {
  symm_complex<double>(s, GemmMode::fp64_ozaki, Kind::sym, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
}
void chemm(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n, cf alpha,
           const cf* A, std::int64_t lda, const cf* B, std::int64_t ldb, cf beta, cf* C, std::int64_t ldc,
           CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zhemm");
  symm_complex<float>(s, mode, Kind::herm, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
}
void zhemm(const Settings& s, Side side, Uplo uplo, std::int64_t m, std::int64_t n, cd alpha, const cd* A,
           std::int64_t lda, const cd* B, std::int64_t ldb, cd beta, cd* C, std::int64_t ldc, CallReport* report) {
  symm_complex<double>(s, GemmMode::fp64_ozaki, Kind::herm, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

}  // namespace trn::blas
