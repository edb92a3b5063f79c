// The complex fp32 triangular solves of n <= kComplexTrsvMaxN in one program (complex_trsv_kernel,
// session 27, issue #30; docs/trnblas.md "Session 27, s27/ctrsv"): ctrsv, ctbsv and ctpsv over every
// uplo, op (N, T, C) and diag.
//  - Bits: each result word is the documented arithmetic (Smith's reciprocal pairs, the rows of op(A)
//    and b scaled by them, column substitution on the unit real form), evaluated here by a float host
//    loop, for ordinary data and with zeros, signed zeros, infinities, NaNs, subnormals and huge or
//    zero diagonals (NaN compared as NaN); the same words on 2 host threads and on 2 emulated cores.
//  - Bound: against op(A) and b in long double, the residual |b - op(A) x| <= sqrt(2) gamma_{2n+10}
//    (|b| + |op(A)| |x|) componentwise, and against a complex<long double> substitution x_ref,
//    |x - x_ref| <= |op(A)^-1| (that residual bound) (plus a long-double-rounding slack), for the one
//    program and for n past its limit (the general path, whose bound is the same).
//  - The trace: one launch of 4n + 11 (unit: 4n - 2) instructions and one host round trip.
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
  std::int64_t n = 0, k = 0, lda = 0, incx = 1;
  tb::Uplo uplo = tb::Uplo::lower;
  tb::Op trans = tb::Op::N;
  bool conjugate = false, unit = false;
  Storage storage = Storage::dense;
  std::vector<cf> a, x;  // stored matrix (dense lda x n, band (k + 1) x n, packed), x with incx

  bool in_band(std::int64_t r, std::int64_t c) const {
    const bool tri = uplo == tb::Uplo::upper ? r <= c : r >= c;
    return tri && (storage != Storage::band || std::abs(r - c) <= k);
  }
  cf stored(std::int64_t r, std::int64_t c) const {  // (r, c) of the uplo triangle
    if (!in_band(r, c)) return cf(0.0f, 0.0f);
    switch (storage) {
      case Storage::dense: return a[static_cast<std::size_t>(r + c * lda)];
      case Storage::band:
        return a[static_cast<std::size_t>((uplo == tb::Uplo::upper ? k + r - c : r - c) + c * (k + 1))];
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
      return tb::tbsv(s, p.uplo, p.trans, p.conjugate, p.unit, p.n, p.k, p.a.data(), p.k + 1, p.x.data(), p.incx, r);
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

// Every routine / uplo / op / diag for one n and increment: fill(p) sets the operands.
template <class Fill, class Check>
void for_each_variant(std::int64_t n, std::int64_t incx, Fill&& fill, Check&& check) {
  for (const Storage storage : {Storage::dense, Storage::band, Storage::packed})
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
          p.k = storage == Storage::band ? std::max<std::int64_t>(1, n / 3) : 0;
          p.lda = n + 3;
          const std::size_t stored = storage == Storage::dense  ? static_cast<std::size_t>(p.lda * n)
                                     : storage == Storage::band ? static_cast<std::size_t>((p.k + 1) * n)
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
                           : p.storage == Storage::band ? static_cast<std::size_t>((p.uplo == tb::Uplo::upper ? p.k : 0) + i * (p.k + 1))
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
    for (const std::int64_t incx : {std::int64_t{1}, std::int64_t{-2}})
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

// The componentwise bound against long double: the residual, and the forward error through
// |op(A)^-1| against a complex<long double> substitution; the one program and past its limit.
TEST(ComplexTrsvOneProgram, WithinTheBoundAgainstLongDouble) {
  std::mt19937 rng(30);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const long double ulp = std::ldexp(1.0L, -24);
  for (const std::int64_t n : std::vector<std::int64_t>{1, 2, 4, 9, 16, kMaxN, kMaxN + 4, 60})
    for (const std::int64_t incx : {std::int64_t{1}, std::int64_t{-2}})
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
          // Substitution in complex<long double> for op(A) y = c (the reference loop, row form).
          const auto substitute = [&](std::vector<cl> c) {
            for (std::int64_t s = 0; s < N; ++s) {
              const std::int64_t i = p.op_lower() ? s : N - 1 - s;
              cl acc = c[static_cast<std::size_t>(i)];
              for (std::int64_t j = 0; j < N; ++j)
                if (j != i) acc -= T(i, j) * c[static_cast<std::size_t>(j)];
              c[static_cast<std::size_t>(i)] = acc / T(i, i);
            }
            return c;
          };
          std::vector<cl> bl(static_cast<std::size_t>(N));
          for (std::int64_t i = 0; i < N; ++i) bl[static_cast<std::size_t>(i)] = cl(b[static_cast<std::size_t>(i)].real(), b[static_cast<std::size_t>(i)].imag());
          const std::vector<cl> xref = substitute(bl);
          // sqrt(2) gamma_{2n+10}
          const long double m = 2.0L * static_cast<long double>(N) + 10.0L;
          const long double c = std::sqrt(2.0L) * m * ulp / (1.0L - m * ulp);
          std::vector<long double> rb(static_cast<std::size_t>(N));
          for (std::int64_t i = 0; i < N; ++i) {
            cl res = bl[static_cast<std::size_t>(i)];
            long double scale = std::abs(bl[static_cast<std::size_t>(i)]);
            for (std::int64_t j = 0; j < N; ++j) {
              const cl xj(x[static_cast<std::size_t>(j)].real(), x[static_cast<std::size_t>(j)].imag());
              res -= T(i, j) * xj;
              scale += std::abs(T(i, j)) * std::abs(xj);
            }
            rb[static_cast<std::size_t>(i)] = c * scale;
            ASSERT_LE(std::abs(res), rb[static_cast<std::size_t>(i)] * (1.0L + 1e-6L)) << describe(p) << " residual i=" << i;
          }
          // |op(A)^-1| rb, column by column of the inverse (unit vectors through the substitution).
          std::vector<long double> fb(static_cast<std::size_t>(N), 0.0L);
          for (std::int64_t j = 0; j < N; ++j) {
            std::vector<cl> ej(static_cast<std::size_t>(N), 0.0L);
            ej[static_cast<std::size_t>(j)] = 1.0L;
            const std::vector<cl> col = substitute(ej);
            for (std::int64_t i = 0; i < N; ++i) fb[static_cast<std::size_t>(i)] += std::abs(col[static_cast<std::size_t>(i)]) * rb[static_cast<std::size_t>(j)];
          }
          for (std::int64_t i = 0; i < N; ++i) {
            const cl xi(x[static_cast<std::size_t>(i)].real(), x[static_cast<std::size_t>(i)].imag());
            const long double slack = 1e-12L * std::abs(xref[static_cast<std::size_t>(i)]) + 1e-30L;
            ASSERT_LE(std::abs(xi - xref[static_cast<std::size_t>(i)]), fb[static_cast<std::size_t>(i)] * (1.0L + 1e-6L) + slack)
                << describe(p) << " forward i=" << i;
          }
        });
}
