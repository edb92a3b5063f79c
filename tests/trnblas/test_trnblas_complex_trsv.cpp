// The complex fp32 triangular solves of n <= kComplexTrsvMaxN in one program (complex_trsv_kernel,
// session 27, issue #30; docs/trnblas.md "Session 27, s27/ctrsv"): ctrsv, ctbsv and ctpsv over every
// uplo, op (N, T, C) and diag.
//  - Bits: each result word is the documented arithmetic (Smith's reciprocal pairs, the rows of op(A)
//    and b scaled by them, column substitution on the unit real form), evaluated here by a float host
//    loop, for ordinary data and with zeros, signed zeros, infinities, NaNs, subnormals and huge or
//    zero diagonals (NaN compared as NaN); the same words on 2 host threads and on 2 emulated cores.
//  - Bound: against op(A) and b in long double, the residual |b - op(A) x| <= sqrt(2) gamma_{2n+10}
//    (|b| + |op(A)| |x|) componentwise, for the one program and for n past its limit (the general
//    path, whose bound is the same). (A forward-error check through |op(A)^-1| would follow from it
//    exactly, x - x_ref = op(A)^-1 (op(A) x - b), so it could fail only on the reference: not asserted.)
//  - Band storage with k = 0, k = n/3 and k > n, leading dimension k + 1 and k + 3; increments 1,
//    -2 and 3.
//  - The trace: one launch of 4n + 11 (unit: 4n - 2) instructions and one host round trip; n = 33
//    (past kComplexTrsvMaxN) takes the general path.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "trn/blas/level12.hpp"
#include "trn/core/trace.hpp"

namespace tb = trn::blas;
using cf = std::complex<float>;
using cl = std::complex<long double>;

namespace {

constexpr std::int64_t kMaxN = 32;  // kComplexTrsvMaxN (level12_internal.hpp, not installed)

enum class Storage { dense, band, packed };

// One call's operands: op(A)(i, j) through `op`, the stored form for the routine.
struct Problem {
  std::int64_t n = 0, k = 0, lda = 0, ldab = 1, incx = 1;  // ldab: band storage's leading dimension (>= k + 1)
  tb::Uplo uplo = tb::Uplo::lower;
  tb::Op trans = tb::Op::N;
  bool conjugate = false, unit = false;
  Storage storage = Storage::dense;
  std::vector<cf> a, x;  // stored matrix (dense lda x n, band ldab x n, packed), x with incx

  bool in_band(std::int64_t r, std::int64_t c) const {
    const bool tri = uplo == tb::Uplo::upper ? r <= c : r >= c;
    return tri && (storage != Storage::band || std::abs(r - c) <= k);
  }
  cf stored(std::int64_t r, std::int64_t c) const {  // (r, c) of the uplo triangle
    if (!in_band(r, c)) return cf(0.0f, 0.0f);
    switch (storage) {
      case Storage::dense: return a[static_cast<std::size_t>(r + c * lda)];
      case Storage::band:
        return a[static_cast<std::size_t>((uplo == tb::Uplo::upper ? k + r - c : r - c) + c * ldab)];
      case Storage::packed:
        return a[static_cast<std::size_t>(uplo == tb::Uplo::upper ? r + c * (c + 1) / 2 : r + (2 * n - c - 1) * c / 2)];
    }
    return {};
  }
  bool op_lower() const { return (uplo == tb::Uplo::lower) == (trans == tb::Op::N); }
  cf op(std::int64_t i, std::int64_t j) const {  // op(A)(i, j) in op's triangle; unit: 1 on the diagonal
    if (i == j && unit) return cf(1.0f, 0.0f);
    const cf v = trans == tb::Op::N ? stored(i, j) : stored(j, i);
    return conjugate ? std::conj(v) : v;
  }
  cf& xi(std::int64_t i) { return x[static_cast<std::size_t>((incx > 0 ? i : n - 1 - i) * std::abs(incx))]; }
  std::vector<cf> b() {
    std::vector<cf> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = xi(i);
    return v;
  }
};

void solve(const tb::Settings& s, Problem& p, tb::CallReport* r) {
  switch (p.storage) {
    case Storage::dense:
      return tb::trsv(s, p.uplo, p.trans, p.conjugate, p.unit, p.n, p.a.data(), p.lda, p.x.data(), p.incx, r);
    case Storage::band:
      return tb::tbsv(s, p.uplo, p.trans, p.conjugate, p.unit, p.n, p.k, p.a.data(), p.ldab, p.x.data(), p.incx, r);
    case Storage::packed: return tb::tpsv(s, p.uplo, p.trans, p.conjugate, p.unit, p.n, p.a.data(), p.x.data(), p.incx, r);
  }
}

// The kernel's arithmetic on the host, in float with its operations in its order (the header of
// complex_trsv_kernel): Smith's reciprocal (rr, c = -ri), each scaled element (fl(fl(er rr) + fl(ei c)),
// fl(fl(ei rr) - fl(er c))), then per column the real form's columns 2j (e') and 2j + 1 ((-ei', er')),
// lower: 2j first, upper: 2j + 1 first, each x_i = fl(x_i - fl(t x_j)) for the rows past j.
std::vector<cf> documented(const Problem& p, std::vector<cf> x) {
  const std::int64_t n = p.n;
  std::vector<cf> e(static_cast<std::size_t>(n * n));  // scaled op(A), column-major
  for (std::int64_t i = 0; i < n; ++i) {
    float rr = 1.0f, c = 0.0f;
    if (!p.unit) {
      const cf d = p.op(i, i);
      const float ar = std::fabs(d.real()), ai = std::fabs(d.imag());
      const bool nan = std::isnan(ar) || std::isnan(ai);  // VectorE's maximum / minimum propagate NaN
      const float big = nan ? ar + ai : std::fmax(ar, ai), small = nan ? ar + ai : std::fmin(ar, ai);
      float den = small / big;
      den = den * small;
      den = den + big;
      rr = d.real() / big;
      rr = rr / den;
      c = d.imag() / big;
      c = c / den;
    }
    const auto scale = [&](cf v) {
      if (p.unit) return v;
      const float pr = v.real() * rr, pi = v.imag() * rr, qr = v.real() * c, qi = v.imag() * c;
      return cf(pr + qi, pi - qr);
    };
    x[static_cast<std::size_t>(i)] = scale(x[static_cast<std::size_t>(i)]);
    for (std::int64_t j = 0; j < n; ++j)
      if (p.op_lower() ? j < i : j > i) e[static_cast<std::size_t>(i + j * n)] = scale(p.op(i, j));
  }
  const bool lower = p.op_lower();
  for (std::int64_t step = 0; step + 1 < n; ++step) {
    const std::int64_t j = lower ? step : n - 1 - step;
    for (const bool imaginary : {!lower, lower}) {
      const float xj = imaginary ? x[static_cast<std::size_t>(j)].imag() : x[static_cast<std::size_t>(j)].real();
      for (std::int64_t i = lower ? j + 1 : 0; i < (lower ? n : j); ++i) {
        const cf t = e[static_cast<std::size_t>(i + j * n)];
        const float tr = imaginary ? -t.imag() : t.real(), ti = imaginary ? t.real() : t.imag();
        const float ur = tr * xj, ui = ti * xj;
        cf& xi = x[static_cast<std::size_t>(i)];
        xi = cf(xi.real() - ur, xi.imag() - ui);
      }
    }
  }
  return x;
}

bool same_word(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

std::string describe(const Problem& p) {
  return "n=" + std::to_string(p.n) + " storage=" + std::to_string(static_cast<int>(p.storage)) +
         " uplo=" + (p.uplo == tb::Uplo::upper ? "U" : "L") + " op=" + (p.trans == tb::Op::N ? "N" : p.conjugate ? "C" : "T") +
         " unit=" + std::to_string(p.unit) + " incx=" + std::to_string(p.incx) + " k=" + std::to_string(p.k);
}

// Every routine / uplo / op / diag for one n and increment: fill(p) sets the operands. Band storage
// three times: k = n/3 (at least 1) in (k + 1) rows, k = 0 and k = n + 2 (wider than the matrix),
// those two in k + 3 rows (unused rows between columns).
template <class Fill, class Check>
void for_each_variant(std::int64_t n, std::int64_t incx, Fill&& fill, Check&& check) {
  for (const Storage storage : {Storage::dense, Storage::band, Storage::packed})
    for (int band = 0; band < (storage == Storage::band ? 3 : 1); ++band)
    for (const tb::Uplo uplo : {tb::Uplo::lower, tb::Uplo::upper})
      for (int op = 0; op < 3; ++op)
        for (const bool unit : {false, true}) {
          Problem p;
          p.n = n;
          p.incx = incx;
          p.uplo = uplo;
          p.trans = op == 0 ? tb::Op::N : tb::Op::T;
          p.conjugate = op == 2;
          p.unit = unit;
          p.storage = storage;
          p.k = storage != Storage::band ? 0 : band == 0 ? std::max<std::int64_t>(1, n / 3) : band == 1 ? 0 : n + 2;
          p.ldab = p.k + (band == 0 ? 1 : 3);
          p.lda = n + 3;
          const std::size_t stored = storage == Storage::dense  ? static_cast<std::size_t>(p.lda * n)
                                     : storage == Storage::band ? static_cast<std::size_t>(p.ldab * n)
                                                                : static_cast<std::size_t>(n * (n + 1) / 2);
          p.a.assign(stored, cf(0.0f, 0.0f));
          p.x.assign(static_cast<std::size_t>(n * std::abs(incx)), cf(0.0f, 0.0f));
          fill(p);
          check(p);
        }
}

// Sets op(A)'s diagonal (the stored diagonal, in every storage) to d().
template <class D>
void set_diagonal(Problem& p, D&& d) {
  for (std::int64_t i = 0; i < p.n; ++i) {
    const std::size_t at = p.storage == Storage::dense ? static_cast<std::size_t>(i + i * p.lda)
                           : p.storage == Storage::band ? static_cast<std::size_t>((p.uplo == tb::Uplo::upper ? p.k : 0) + i * p.ldab)
                           : static_cast<std::size_t>(p.uplo == tb::Uplo::upper ? i + i * (i + 1) / 2 : i + (2 * p.n - i - 1) * i / 2);
    p.a[at] = d();
  }
}

}  // namespace

// Bits of the documented arithmetic with special values, on 1 / 2 host threads and 1 / 2 cores, and
// the trace: one launch of 4n + 11 (unit 4n - 2) instructions, one host round trip.
TEST(ComplexTrsvOneProgram, DocumentedArithmeticBitForBitOnThreadsAndCores) {
  std::mt19937 rng(2027);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const cf specials[] = {cf(0.0f, 0.0f), cf(-0.0f, -0.0f), cf(inf, 0.0f),   cf(nan, 1.0f),
                         cf(1e-40f, -2e-39f), cf(-0.0f, 3e38f), cf(2.5f, -inf), cf(1e30f, 1e-30f)};
  for (const std::int64_t n : std::vector<std::int64_t>{1, 2, 3, 5, 8, 16, 17, 31, kMaxN})
    for (const std::int64_t incx : {std::int64_t{1}, std::int64_t{-2}, std::int64_t{3}})
      for (int set = 0; set < 3; ++set)
        for_each_variant(n, incx,
          [&](Problem& p) {
            for (auto& v : p.a) v = cf(u(rng), u(rng));
            for (auto& v : p.x) v = cf(u(rng), u(rng));
            set_diagonal(p, [&] { return cf(2.0f + u(rng), u(rng)); });
            if (set == 1)  // special values anywhere in the stored matrix and b
              for (std::int64_t t = 0; t < 2 + n / 3; ++t) {
                const cf sv = specials[rng() % 8];
                if (rng() % 2) p.a[rng() % p.a.size()] = sv; else p.xi(static_cast<std::int64_t>(rng() % n)) = sv;
              }
            if (set == 2)  // huge, tiny and zero diagonals: Smith's scaling, 1/0
              for (auto& v : p.a) v *= (rng() % 3 == 0 ? 1e30f : rng() % 2 ? 1e-30f : 1.0f);
          },
          [&](Problem& p) {
            const std::vector<cf> want = documented(p, p.b());
            std::vector<cf> got[3];
            for (int run = 0; run < 3; ++run) {
              Problem q = p;
              tb::Settings s;
              s.host_threads = run == 1 ? 2 : 1;
              s.num_cores = run == 2 ? 2 : 1;
              tb::CallReport rep;
              solve(s, q, &rep);
              got[run] = q.b();
              if (run == 0) {
                std::int64_t device = 0, host = 0;
                for (const trn::Instruction& ins : rep.trace.instructions)
                  (ins.opcode == trn::Opcode::host_compute ? host : device) += 1;
                EXPECT_EQ(device, p.unit ? 4 * n - 2 : 4 * n + 11) << describe(p);
                EXPECT_EQ(host, 1) << describe(p);
              }
            }
            for (std::int64_t i = 0; i < n; ++i) {
              const auto w = want[static_cast<std::size_t>(i)];
              for (int run = 0; run < 3; ++run) {
                const auto g = got[run][static_cast<std::size_t>(i)];
                ASSERT_TRUE(same_word(g.real(), w.real()) && same_word(g.imag(), w.imag()))
                    << describe(p) << " set=" << set << " run=" << run << " i=" << i << " got " << g << " want " << w;
              }
            }
          });
}

// The componentwise residual bound against long double; the one program and past its limit.
TEST(ComplexTrsvOneProgram, WithinTheBoundAgainstLongDouble) {
  std::mt19937 rng(30);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const long double ulp = std::ldexp(1.0L, -24);
  for (const std::int64_t n : std::vector<std::int64_t>{1, 2, 4, 9, 16, kMaxN, kMaxN + 1, kMaxN + 4, 60})
    for (const std::int64_t incx : {std::int64_t{1}, std::int64_t{-2}, std::int64_t{3}})
      for_each_variant(n, incx,
        [&](Problem& p) {
          for (auto& v : p.a) v = cf(u(rng), u(rng));
          // |d| >= 1, not dominant: x may grow along the substitution (random triangular systems)
          set_diagonal(p, [&] { return std::polar(1.0f + std::fabs(u(rng)), 3.14159f * u(rng)); });
          for (auto& v : p.x) v = cf(u(rng), u(rng)) * std::ldexp(1.0f, static_cast<int>(rng() % 21) - 10);
        },
        [&](Problem& p) {
          const std::int64_t N = n;
          const std::vector<cf> b = p.b();
          Problem q = p;
          solve(tb::Settings{}, q, nullptr);
          const std::vector<cf> x = q.b();
          const auto T = [&](std::int64_t i, std::int64_t j) -> cl {
            const bool tri = p.op_lower() ? j <= i : j >= i;
            if (!tri) return 0.0L;
            const cf v = p.op(i, j);
            return cl(v.real(), v.imag());
          };
          std::vector<cl> bl(static_cast<std::size_t>(N));
          for (std::int64_t i = 0; i < N; ++i) bl[static_cast<std::size_t>(i)] = cl(b[static_cast<std::size_t>(i)].real(), b[static_cast<std::size_t>(i)].imag());
          // sqrt(2) gamma_{2n+10}
          const long double m = 2.0L * static_cast<long double>(N) + 10.0L;
          const long double c = std::sqrt(2.0L) * m * ulp / (1.0L - m * ulp);
          for (std::int64_t i = 0; i < N; ++i) {
            cl res = bl[static_cast<std::size_t>(i)];
            long double scale = std::abs(bl[static_cast<std::size_t>(i)]);
            for (std::int64_t j = 0; j < N; ++j) {
              const cl xj(x[static_cast<std::size_t>(j)].real(), x[static_cast<std::size_t>(j)].imag());
              res -= T(i, j) * xj;
              scale += std::abs(T(i, j)) * std::abs(xj);
            }
            ASSERT_LE(std::abs(res), c * scale * (1.0L + 1e-6L)) << describe(p) << " residual i=" << i;
          }
        });
}

// Past kComplexTrsvMaxN the general path runs (several launches and host steps), not the one program.
TEST(ComplexTrsvOneProgram, PastTheLimitTakesTheGeneralPath) {
  for (const std::int64_t n : {kMaxN, kMaxN + 1}) {
    Problem p;
    p.n = n;
    p.lda = n;
    p.a.assign(static_cast<std::size_t>(n * n), cf(0.25f, -0.5f));
    for (std::int64_t i = 0; i < n; ++i) p.a[static_cast<std::size_t>(i + i * n)] = cf(2.0f, 1.0f);
    p.x.assign(static_cast<std::size_t>(n), cf(1.0f, -1.0f));
    tb::CallReport rep;
    solve(tb::Settings{}, p, &rep);
    std::int64_t device = 0, host = 0;
    for (const trn::Instruction& ins : rep.trace.instructions) (ins.opcode == trn::Opcode::host_compute ? host : device) += 1;
    const bool one_program = device == 4 * n + 11 && host == 1;
    EXPECT_EQ(one_program, n <= kMaxN) << "n=" << n << " device=" << device << " host=" << host;
  }
}
