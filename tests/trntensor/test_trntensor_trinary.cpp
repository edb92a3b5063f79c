// trntensor trinary contractions E = alpha A B C + beta D (C++ and C API) against a loop over
// every label assignment in std::complex<long double> written here: real 32F / 64F and complex
// C_32F / C_64F data, with OP_CONJ, D != E (D untouched) and E aliasing D; the planner's choice of
// the first pair (fewest FLOPs); bad input through the C API.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <map>
#include <random>
#include <string>

#include "trn/tensor/tensor.hpp"
#include "trntensor.h"

namespace {

using trn::tensor::ComputeType;
using trn::tensor::DataType;
using trn::tensor::TrinaryContractionPlan;
using trn::tensor::TrinarySpec;
using CL = std::complex<long double>;
using Z = std::complex<double>;

// A packed (first mode fastest) tensor of complex test values; real runs use the real parts.
struct T {
  std::string modes;
  std::vector<std::int64_t> ext;
  std::vector<Z> v;
};
T make(const std::string& modes, const std::map<char, std::int64_t>& e, std::mt19937_64& rng, bool real, bool f32) {
  T t{modes, {}, {}};
  std::int64_t n = 1;
  for (char c : modes) {
    t.ext.push_back(e.at(c));
    n *= e.at(c);
  }
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::int64_t i = 0; i < n; ++i) {
    double re = u(rng), im = real ? 0.0 : u(rng);
    if (f32) {  // values exactly representable in float (the data the fp32 run sees)
      re = std::ldexp(std::round(std::ldexp(re, 20)), -20);
      im = std::ldexp(std::round(std::ldexp(im, 20)), -20);
    }
    t.v.push_back(Z(re, im));
  }
  return t;
}

std::int64_t offset(const T& t, const std::map<char, std::int64_t>& idx) {
  std::int64_t o = 0, s = 1;
  for (std::size_t i = 0; i < t.modes.size(); ++i) {
    o += idx.at(t.modes[i]) * s;
    s *= t.ext[i];
  }
  return o;
}

// E = alpha op(A) op(B) op(C) + beta D (long double); abs = |alpha| sum |a||b||c| + |beta||d|.
void reference(const T& A, const T& B, const T& C, const T& D, const std::string& e_modes, const std::map<char, std::int64_t>& e,
               Z alpha, Z beta, const bool conj[3], std::vector<CL>* ref, std::vector<double>* abs) {
  std::string labels;
  for (const std::string* m : {&A.modes, &B.modes, &C.modes, &e_modes})
    for (char c : *m)
      if (labels.find(c) == std::string::npos) labels += c;
  T E{e_modes, D.ext, {}};
  ref->assign(D.v.size(), CL(0));
  abs->assign(D.v.size(), 0.0);
  std::map<char, std::int64_t> idx;
  for (char c : labels) idx[c] = 0;
  while (true) {
    Z x[3] = {A.v[static_cast<std::size_t>(offset(A, idx))], B.v[static_cast<std::size_t>(offset(B, idx))],
              C.v[static_cast<std::size_t>(offset(C, idx))]};
    for (int i = 0; i < 3; ++i)
      if (conj[i]) x[i] = std::conj(x[i]);
    const auto o = static_cast<std::size_t>(offset(E, idx));
    (*ref)[o] += CL(x[0].real(), x[0].imag()) * CL(x[1].real(), x[1].imag()) * CL(x[2].real(), x[2].imag());
    (*abs)[o] += std::abs(x[0]) * std::abs(x[1]) * std::abs(x[2]);
    std::size_t q = 0;
    for (; q < labels.size(); ++q) {
      if (++idx[labels[q]] < e.at(labels[q])) break;
      idx[labels[q]] = 0;
    }
    if (q == labels.size()) break;
  }
  for (std::size_t o = 0; o < ref->size(); ++o) {
    (*ref)[o] = CL(alpha.real(), alpha.imag()) * (*ref)[o] + CL(beta.real(), beta.imag()) * CL(D.v[o].real(), D.v[o].imag());
    (*abs)[o] = std::abs(alpha) * (*abs)[o] + std::abs(beta) * std::abs(D.v[o]);
  }
}

struct TriCase {
  const char* name;
  std::string a, b, c, e;
  std::map<char, std::int64_t> ext;
  int first_pair;  // expected first pair: 0 (A B), 1 (A C), 2 (B C); -1 unchecked
};

std::vector<TriCase> tri_cases() {
  return {
      // Matrix chain with a thin middle: (B C) first is 2*(4*30*5 + 20*4*5) vs (A B) first 2*(20*4*30 + 20*30*5).
      {"chain_bc_first", "ij", "jk", "kl", "il", {{'i', 20}, {'j', 4}, {'k', 30}, {'l', 5}}, 2},
      {"chain_ab_first", "ij", "jk", "kl", "il", {{'i', 3}, {'j', 25}, {'k', 4}, {'l', 30}}, 0},
      // AO->MO-like half transform (A C) first: C contracts A's p.
      {"transform", "pq", "qj", "pi", "ij", {{'p', 12}, {'q', 11}, {'i', 3}, {'j', 13}}, 1},
      {"batched_hadamard", "bij", "bjk", "bk", "bik", {{'b', 3}, {'i', 5}, {'j', 6}, {'k', 7}}, -1},
      {"full_contraction", "ab", "bc", "ca", "", {{'a', 6}, {'b', 7}, {'c', 5}}, -1},
      {"outer_and_summed", "ia", "j", "k", "kji", {{'i', 4}, {'a', 3}, {'j', 5}, {'k', 2}}, -1},
  };
}

struct TriParam {
  int index;
  DataType dtype;
  bool conj;
  bool separate_d;
};

class Trinary : public ::testing::TestWithParam<TriParam> {};

TEST_P(Trinary, MatchesLongDoubleLoop) {
  const TriParam prm = GetParam();
  const TriCase cs = tri_cases()[static_cast<std::size_t>(prm.index)];
  const bool cplx = trn::tensor::is_complex(prm.dtype);
  const bool f32 = prm.dtype == DataType::f32 || prm.dtype == DataType::c32;
  std::mt19937_64 rng(11 + static_cast<unsigned>(prm.index));
  const T A = make(cs.a, cs.ext, rng, !cplx, f32), B = make(cs.b, cs.ext, rng, !cplx, f32), C = make(cs.c, cs.ext, rng, !cplx, f32);
  const T D = make(cs.e, cs.ext, rng, !cplx, f32);
  const Z alpha = cplx ? Z(0.75, -0.5) : Z(0.75, 0.0), beta = prm.separate_d ? (cplx ? Z(-0.5, 0.25) : Z(-0.5, 0.0)) : Z(1.5, 0.0);
  const bool conj[3] = {prm.conj && cplx, false, prm.conj && cplx};
  std::vector<CL> ref;
  std::vector<double> abs;
  reference(A, B, C, D, cs.e, cs.ext, alpha, beta, conj, &ref, &abs);

  TrinarySpec s;
  auto td = [&](const T& t) { return trn::tensor::TensorDesc{t.ext, {}, prm.dtype}; };
  s.a = td(A);
  s.b = td(B);
  s.c = td(C);
  s.d = s.e = td(D);
  s.modes_a.assign(cs.a.begin(), cs.a.end());
  s.modes_b.assign(cs.b.begin(), cs.b.end());
  s.modes_c.assign(cs.c.begin(), cs.c.end());
  s.modes_d.assign(cs.e.begin(), cs.e.end());
  s.modes_e = s.modes_d;
  s.compute = prm.dtype == DataType::f64 || prm.dtype == DataType::c64 ? ComputeType::f64 : ComputeType::f32;
  s.conj_a = conj[0];
  s.conj_c = conj[2];
  const TrinaryContractionPlan plan(s);
  SCOPED_TRACE(plan.print());
  if (cs.first_pair >= 0) {
    static const std::pair<int, int> kPairs[3] = {{0, 1}, {0, 2}, {1, 2}};
    EXPECT_EQ(plan.first_pair(), kPairs[cs.first_pair]);
  }
  // Run on the data type's storage.
  std::vector<Z> got(D.v.size()), d_after;
  auto run = [&](auto tag) {
    using E = decltype(tag);
    auto conv = [](const std::vector<Z>& v) {
      std::vector<E> out;
      for (const Z& z : v) {
        if constexpr (std::is_same_v<E, float> || std::is_same_v<E, double>)
          out.push_back(static_cast<E>(z.real()));
        else
          out.push_back(E(static_cast<typename E::value_type>(z.real()), static_cast<typename E::value_type>(z.imag())));
      }
      return out;
    };
    auto a = conv(A.v), b = conv(B.v), c = conv(C.v), d = conv(D.v), e = d;
    plan.execute({}, alpha, a.data(), b.data(), c.data(), beta, d.data(), prm.separate_d ? e.data() : d.data(), nullptr, 0);
    const auto& out = prm.separate_d ? e : d;
    for (std::size_t i = 0; i < out.size(); ++i) got[i] = Z(out[i]);
    for (const auto& x : d) d_after.push_back(Z(x));
  };
  switch (prm.dtype) {
    case DataType::f64: run(double{}); break;
    case DataType::c32: run(std::complex<float>{}); break;
    case DataType::c64: run(std::complex<double>{}); break;
    default: run(float{}); break;
  }
  // Two steps: the intermediate is rounded once (fp32: u32) and each step adds its accumulation.
  std::int64_t k = 1;
  for (const auto& [l, x] : cs.ext) k += x;
  const double u = f32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
  const double bnd = (cplx ? 4.0 : 1.0) * static_cast<double>(2 * k + 16) * u * (f32 ? 1.0 : 8.0);
  for (std::size_t o = 0; o < got.size(); ++o) {
    const CL g(got[o].real(), got[o].imag());
    ASSERT_LE(static_cast<double>(std::abs(g - ref[o])), bnd * abs[o] + 1e-300) << "element " << o;
  }
  if (prm.separate_d) {
    for (std::size_t o = 0; o < D.v.size(); ++o) {
      const Z want = cplx ? D.v[o] : Z(D.v[o].real(), 0.0);
      ASSERT_EQ(d_after[o], want) << "D written at " << o;
    }
  }
}

std::vector<TriParam> tri_params() {
  std::vector<TriParam> out;
  for (int i = 0; i < static_cast<int>(tri_cases().size()); ++i) {
    out.push_back({i, DataType::f32, false, false});
    out.push_back({i, DataType::f64, false, true});
    out.push_back({i, DataType::c32, true, true});
    out.push_back({i, DataType::c64, true, false});
  }
  return out;
}

std::string tri_name(const ::testing::TestParamInfo<TriParam>& info) {
  std::string n = std::string(tri_cases()[static_cast<std::size_t>(info.param.index)].name) + "_" +
                  trn::tensor::data_type_name(info.param.dtype);
  return n + (info.param.conj ? "_conj" : "") + (info.param.separate_d ? "_separateD" : "_aliasedD");
}

INSTANTIATE_TEST_SUITE_P(AllCases, Trinary, ::testing::ValuesIn(tri_params()), tri_name);

// ---- C API -------------------------------------------------------------------------------------------

TEST(TrinaryCApi, PipelineAndBadInput) {
  trntensorHandle_t h;
  ASSERT_EQ(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
  auto desc = [&](std::vector<int64_t> ext, trntensorDataType_t t = TRNTENSOR_R_32F) {
    trntensorTensorDescriptor_t d = nullptr;
    EXPECT_EQ(trntensorCreateTensorDescriptor(h, &d, static_cast<uint32_t>(ext.size()), ext.data(), nullptr, t, 16),
              TRNTENSOR_STATUS_SUCCESS);
    return d;
  };
  // E[i, l] = alpha A[i, j] B[j, k] C[k, l] + beta D[i, l], E separate from D.
  const int64_t ni = 20, nj = 4, nk = 30, nl = 5;
  auto dA = desc({ni, nj}), dB = desc({nj, nk}), dC = desc({nk, nl}), dE = desc({ni, nl}), dBad = desc({nj + 1, nk});
  const int32_t mA[] = {'i', 'j'}, mB[] = {'j', 'k'}, mC[] = {'k', 'l'}, mE[] = {'i', 'l'}, mX[] = {'i', 'x'};
  trntensorOperationDescriptor_t op = nullptr;
  // Bad input: extent mismatch of j (B), a mode of E in none of A, B, C, NULL modes, a bad operator.
  EXPECT_EQ(trntensorCreateContractionTrinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dBad, mB, TRNTENSOR_OP_IDENTITY, dC, mC,
                                              TRNTENSOR_OP_IDENTITY, dE, mE, TRNTENSOR_OP_IDENTITY, dE, mE,
                                              TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateContractionTrinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dC, mC,
                                              TRNTENSOR_OP_IDENTITY, dE, mX, TRNTENSOR_OP_IDENTITY, dE, mX,
                                              TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateContractionTrinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, nullptr, TRNTENSOR_OP_IDENTITY, dC,
                                              mC, TRNTENSOR_OP_IDENTITY, dE, mE, TRNTENSOR_OP_IDENTITY, dE, mE,
                                              TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorCreateContractionTrinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_RELU, dC, mC,
                                              TRNTENSOR_OP_IDENTITY, dE, mE, TRNTENSOR_OP_IDENTITY, dE, mE,
                                              TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(op, nullptr);
  ASSERT_EQ(trntensorCreateContractionTrinary(h, &op, dA, mA, TRNTENSOR_OP_IDENTITY, dB, mB, TRNTENSOR_OP_IDENTITY, dC, mC,
                                              TRNTENSOR_OP_IDENTITY, dE, mE, TRNTENSOR_OP_IDENTITY, dE, mE,
                                              TRNTENSOR_COMPUTE_DESC_32F),
            TRNTENSOR_STATUS_SUCCESS);
  float flops = 0;
  ASSERT_EQ(trntensorOperationDescriptorGetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS, &flops, sizeof flops),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(flops, static_cast<float>(2 * (nj * nk * nl + ni * nj * nl))) << "(B C) first";
  trntensorPlanPreference_t pref;
  ASSERT_EQ(trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE), TRNTENSOR_STATUS_SUCCESS);
  uint64_t ws = 0;
  ASSERT_EQ(trntensorEstimateWorkspaceSize(h, op, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_GE(ws, static_cast<uint64_t>(nj * nl * 4));
  trntensorPlan_t plan;
  EXPECT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws - 1), TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE);
  ASSERT_EQ(trntensorCreatePlan(h, &plan, op, pref, ws), TRNTENSOR_STATUS_SUCCESS);
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto fill = [&](std::int64_t n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v) x = u(rng);
    return v;
  };
  auto a = fill(ni * nj), b = fill(nj * nk), c = fill(nk * nl), d = fill(ni * nl), d_before = d;
  std::vector<float> e(static_cast<std::size_t>(ni * nl), -7.0f), e_before = e;
  std::vector<double> work(ws / 8 + 1);
  const float alpha = 0.5f, beta = 2.0f;
  // Bad execution arguments leave E untouched.
  EXPECT_EQ(trntensorContractTrinary(h, plan, &alpha, a.data(), b.data(), nullptr, &beta, d.data(), e.data(), work.data(), ws,
                                     nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(trntensorContractTrinary(h, plan, &alpha, a.data(), b.data(), c.data(), &beta, d.data(), e.data(), work.data(),
                                     ws - 1, nullptr),
            TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE);
  EXPECT_EQ(trntensorContract(h, plan, &alpha, a.data(), b.data(), &beta, d.data(), e.data(), work.data(), ws, nullptr),
            TRNTENSOR_STATUS_INVALID_VALUE);
  EXPECT_EQ(e, e_before);
  ASSERT_EQ(trntensorContractTrinary(h, plan, &alpha, a.data(), b.data(), c.data(), &beta, d.data(), e.data(), work.data(), ws,
                                     nullptr),
            TRNTENSOR_STATUS_SUCCESS);
  EXPECT_EQ(d, d_before);
  for (int64_t i = 0; i < ni; ++i)
    for (int64_t l = 0; l < nl; ++l) {
      long double s = 0, sa = 0;
      for (int64_t j = 0; j < nj; ++j)
        for (int64_t k = 0; k < nk; ++k) {
          const long double p = static_cast<long double>(a[static_cast<std::size_t>(i + ni * j)]) * b[static_cast<std::size_t>(j + nj * k)] *
                                c[static_cast<std::size_t>(k + nk * l)];
          s += p;
          sa += std::fabs(p);
        }
      const std::size_t o = static_cast<std::size_t>(i + ni * l);
      const long double ref = 0.5L * s + 2.0L * d[o];
      EXPECT_LE(std::fabs(static_cast<double>(e[o] - ref)), 80 * std::ldexp(1.0, -24) * static_cast<double>(0.5L * sa + 2 * std::fabs(d[o])))
          << i << " " << l;
    }
  trnProfile_t prof{};
  ASSERT_EQ(trntensorGetLastProfile(h, &prof), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  char text[1024];
  ASSERT_EQ(trntensorPlanDescribe(h, plan, text, sizeof text), TRNTENSOR_STATUS_SUCCESS);
  EXPECT_NE(std::string(text).find("(B C) first"), std::string::npos) << text;
  trntensorDestroyPlan(plan);
  trntensorDestroyPlanPreference(pref);
  trntensorDestroyOperationDescriptor(op);
  for (auto x : {dA, dB, dC, dE, dBad}) trntensorDestroyTensorDescriptor(x);
  EXPECT_EQ(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
}

}  // namespace
