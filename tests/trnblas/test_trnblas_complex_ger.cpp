// Complex fp32 geru / gerc in one program (trnblas level2.cpp, complex_ger_one_program; session 25):
//   * bit for bit against its contract, a scalar model of the instructions: u = alpha x rounded as
//     scal (ur = fl(fl(xr ar) - fl(xi ai)), ui = fl(fl(xi ar) + fl(xr ai))), then per plane the
//     micro-kernel's fma chain from +0 over k = 0, 1 with the general path's packed operands
//     (geru: re = fma(ui, -yi, fma(ur, yr, +0)), im = fma(ui, yr, fma(ur, yi, +0)); gerc:
//     re = fma(ui, yi, fma(ur, yr, +0)), im = fma(ui, yr, fma(ur, -yi, +0))), then fl(s + a). Signed
//     zeros, Inf, NaN, subnormals and overflowing products in x, y and A; NaN results compared as
//     NaN (payloads are not part of the contract: docs/numerics.md section 10, row 6);
//   * within gamma_5 (|alpha|_1 |x_i|_1 |y_j|_1 + |a_ij|) per component of the exact long-double
//     update (docs/trnblas.md, "Complex ger in one program": 2 roundings in u, 2 in the plane's
//     fma chain, 1 in the add; |v|_1 = |re| + |im|);
//   * the same bits for 1 and 2 host threads and 1 and 2 emulated cores, and under trn1_measured
//     numerics (fp32 TensorE inputs are not rounded there);
//   * one launch of 15 (geru) / 14 (gerc) instructions inside the limits, its plan text naming the
//     kernel; the general path (four launches) beyond them (n = 129, m = 257), which must satisfy the
//     same contract.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "blas_test_util.hpp"
#include "trn/blas/level12.hpp"

namespace {

namespace tb = trn::blas;
using cf = std::complex<float>;

std::size_t span_of(std::int64_t n, std::int64_t inc) {
  return n <= 0 ? 1 : static_cast<std::size_t>((n - 1) * (inc < 0 ? -inc : inc) + 1);
}
std::size_t idx(std::int64_t n, std::int64_t inc, std::int64_t i) {
  return static_cast<std::size_t>(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}
long double gamma(long double d) {
  const long double u = std::numeric_limits<float>::epsilon() / 2;
  return d * u / (1 - d * u);
}

// Uniform complex values; with `specials`, every third part replaced by a special value.
std::vector<cf> values(std::size_t n, std::uint64_t seed, bool specials) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float sp[] = {0.0f, -0.0f, inf, -inf, nan, 0x1p-149f, -0x1p-140f, 0x1p-80f, -0x1p-80f,
                      0x1p100f, -0x1p100f, 1.0f, -1.5f, 0x1.fffffep127f};
  std::vector<float> f = blastest::uniform_f(2 * n, seed);
  if (specials)
    for (std::size_t i = 0; i < f.size(); i += 3) f[i] = sp[(i / 3 + seed) % std::size(sp)];
  std::vector<cf> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = cf(f[2 * i], f[2 * i + 1]);
  return v;
}

std::uint32_t bits(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  return b;
}

// The contract's element (see the header), each rounding through a volatile float.
cf contract(bool conj, cf alpha, cf x, cf y, cf a) {
  volatile float t1 = x.real() * alpha.real(), t2 = x.imag() * alpha.imag();
  volatile float ur = t1 - t2;
  t1 = x.imag() * alpha.real();
  t2 = x.real() * alpha.imag();
  volatile float ui = t1 + t2;
  const float yr = y.real(), yi = y.imag(), nyi = -1.0f * yi;
  volatile float re = std::fma(static_cast<float>(ur), yr, 0.0f);
  re = std::fma(static_cast<float>(ui), conj ? yi : nyi, static_cast<float>(re));
  volatile float im = std::fma(static_cast<float>(ur), conj ? nyi : yi, 0.0f);
  im = std::fma(static_cast<float>(ui), yr, static_cast<float>(im));
  volatile float out_re = static_cast<float>(re) + a.real(), out_im = static_cast<float>(im) + a.imag();
  return {out_re, out_im};
}

struct Shape {
  int m, n, incx, incy;
};

TEST(ComplexGer, OneProgramIsItsContractBitForBitWithinGamma5AndDeterministic) {
  const Shape shapes[] = {{1, 1, 1, 1},  {6, 1, 1, 1},   {5, 3, -2, 3},  {10, 2, 1, -1}, {49, 1, 2, 1},
                          {33, 40, 1, 1}, {1, 50, -1, 2}, {128, 128, 1, 1}, {256, 3, 1, 1}, {200, 128, -1, -1},
                          {257, 4, 1, 1}, {7, 129, 1, 2}, {256, 128, 1, 1}, {9, 5, -7, 3}};
  const cf alphas[] = {cf(0.75f, -0.5f), cf(-1.0f, 0.0f), cf(0.0f, 1.0f), cf(-0.0f, 0x1p-100f), cf(0x1p90f, -3.0f)};
  int one_program_calls = 0, general_calls = 0;
  for (const Shape& sh : shapes)
    for (const bool specials : {false, true})
      for (const bool conj : {false, true})
        for (const cf alpha : alphas) {
          const int lda = sh.m + 2;
          const std::uint64_t seed = 17u * static_cast<std::uint64_t>(sh.m) + static_cast<std::uint64_t>(sh.n);
          const std::vector<cf> x = values(span_of(sh.m, sh.incx), seed, specials),
                                y = values(span_of(sh.n, sh.incy), seed + 1, specials),
                                A0 = values(static_cast<std::size_t>(lda) * static_cast<std::size_t>(sh.n), seed + 2, specials);
          const std::string where = std::string(conj ? "gerc" : "geru") + " m=" + std::to_string(sh.m) + " n=" +
                                    std::to_string(sh.n) + " alpha=(" + std::to_string(alpha.real()) + "," +
                                    std::to_string(alpha.imag()) + ")" + (specials ? " specials" : "");
          std::vector<cf> first;
          std::size_t first_instructions = 0;
          // (threads, cores, numerics): every variant must give the first one's bits.
          const int variants[][3] = {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}, {2, 2, 0}, {1, 1, 1}};
          for (const auto& v : variants) {
            tb::Settings s;
            s.host_threads = v[0];
            s.num_cores = v[1];
            if (v[2] != 0) s.numerics = trn::Numerics::trn1_measured;
            std::vector<cf> A = A0;
            tb::CallReport rep;
            tb::ger(s, conj, sh.m, sh.n, alpha, x.data(), sh.incx, y.data(), sh.incy, A.data(), lda, &rep);
            if (first.empty()) {
              first = A;
              first_instructions = rep.trace.instructions.size();
              // The plan names the kernel that ran (the general path's GEMM plans otherwise).
              ASSERT_EQ(rep.plan.find("complex_ger_one_program") != std::string::npos, sh.m <= 256 && sh.n <= 128) << where;
              continue;
            }
            ASSERT_EQ(0, std::memcmp(A.data(), first.data(), A.size() * sizeof(cf)))
                << where << " threads " << v[0] << " cores " << v[1] << " numerics " << v[2];
            ASSERT_EQ(rep.trace.instructions.size(), first_instructions) << where;
          }
          const bool fits = sh.m <= 256 && sh.n <= 128;
          if (fits) {
            ASSERT_EQ(first_instructions, conj ? 14u : 15u) << where;
            ++one_program_calls;
          } else {
            ASSERT_GT(first_instructions, 20u) << where;
            ++general_calls;
          }
          for (int j = 0; j < sh.n; ++j) {
            cf yv = y[idx(sh.n, sh.incy, j)];
            for (int i = 0; i < lda; ++i) {
              const std::size_t k = static_cast<std::size_t>(i + j * lda);
              const cf got = first[k];
              if (i >= sh.m) {  // rows past m are not touched
                ASSERT_EQ(bits(got.real()), bits(A0[k].real())) << where;
                ASSERT_EQ(bits(got.imag()), bits(A0[k].imag())) << where;
                continue;
              }
              const cf xv = x[idx(sh.m, sh.incx, i)];
              const cf want = contract(conj, alpha, xv, yv, A0[k]);
              for (int part = 0; part < 2; ++part) {
                const float g = part == 0 ? got.real() : got.imag(), w = part == 0 ? want.real() : want.imag();
                if (std::isnan(w)) {
                  ASSERT_TRUE(std::isnan(g)) << where << " i=" << i << " j=" << j << " part " << part;
                  continue;
                }
                ASSERT_EQ(bits(g), bits(w)) << where << " i=" << i << " j=" << j << " part " << part << " got " << g
                                            << " want " << w;
              }
              if (specials) continue;
              // The bound against the exact update in long double.
              using LC = std::complex<long double>;
              const cf yc = conj ? std::conj(yv) : yv;
              const LC ex = LC(A0[k].real(), A0[k].imag()) + LC(alpha.real(), alpha.imag()) * LC(xv.real(), xv.imag()) *
                                                                  LC(yc.real(), yc.imag());
              const auto abs1 = [](cf v) {
                return std::fabs(static_cast<long double>(v.real())) + std::fabs(static_cast<long double>(v.imag()));
              };
              const long double bound = gamma(5) * (abs1(alpha) * abs1(xv) * abs1(yv) + abs1(A0[k]));
              ASSERT_LE(std::fabs(static_cast<long double>(got.real()) - ex.real()), bound) << where << " i=" << i << " j=" << j;
              ASSERT_LE(std::fabs(static_cast<long double>(got.imag()) - ex.imag()), bound) << where << " i=" << i << " j=" << j;
            }
          }
        }
  EXPECT_GT(one_program_calls, 0);
  EXPECT_GT(general_calls, 0);
}

// alpha = 0 (and m = 0 / n = 0) is BLAS's quick return: A keeps every bit, NaNs and infinities in A,
// x and y included, and no instruction runs.
TEST(ComplexGer, ZeroAlphaOrEmptyLeavesABitForBit) {
  const std::vector<cf> x = values(12, 5, true), y = values(12, 6, true), A0 = values(14 * 12, 7, true);
  for (const bool conj : {false, true})
    for (const auto& [m, n, alpha] : {std::tuple{12, 12, cf(0.0f, 0.0f)}, std::tuple{12, 12, cf(-0.0f, -0.0f)},
                                     std::tuple{0, 12, cf(1.0f, 0.0f)}, std::tuple{12, 0, cf(1.0f, 0.0f)}}) {
      std::vector<cf> A = A0;
      tb::CallReport rep;
      tb::ger(tb::Settings{}, conj, m, n, alpha, x.data(), 1, y.data(), 1, A.data(), 14, &rep);
      EXPECT_EQ(0, std::memcmp(A.data(), A0.data(), A.size() * sizeof(cf))) << "m " << m << " n " << n << " conj " << conj;
      EXPECT_EQ(rep.trace.instructions.size(), 0u) << "m " << m << " n " << n;
    }
}

}  // namespace
