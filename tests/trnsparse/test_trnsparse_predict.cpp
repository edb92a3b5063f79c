// Plan predictions of trnsparse (docs/cost-model.md section 9): the BSR SpMM plan (its launch run
// timing-only before the call) and the generic API's host-step plans (host_step_ns over the step's
// bytes and flops, known from the operands' sizes) against the modeled time of the call, over
// several shapes; each test prints its rows.
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "sparse_test_util.hpp"
#include "trn/sparse/generic.hpp"

using namespace trnsparse_test;
namespace sp = trn::sparse;

namespace {

double predicted_ns(const std::string& plan) {
  const auto at = plan.find("predicted ");
  return at == std::string::npos ? -1.0 : std::stod(plan.substr(at + 10)) * 1e3;
}

void check(const std::string& what, const std::string& plan, double modeled, double band) {
  const double p = predicted_ns(plan);
  ASSERT_GT(p, 0) << what << ": no prediction in the plan\n" << plan;
  EXPECT_NEAR(p / modeled, 1.0, band) << what << ": predicted " << p << " ns, modeled " << modeled << " ns";
  std::printf("prediction %s: predicted %.2f us, modeled %.2f us (%+.1f%%)\n", what.c_str(), p * 1e-3, modeled * 1e-3,
              100 * (p / modeled - 1));
}

TEST(PlanPrediction, BsrSpmmPredictedTimeMatchesTheModeledTime) {
  struct Case {
    std::int64_t brows, bcols, rb, cb;
    double density;
    std::int64_t n;
    int cores;
  };
  for (const Case& c : {Case{16, 12, 8, 6, 0.3, 20, 1}, Case{8, 8, 128, 128, 0.25, 256, 1}, Case{8, 8, 128, 128, 0.25, 256, 2},
                        Case{20, 30, 32, 32, 0.1, 700, 1}, Case{4, 40, 128, 128, 0.5, 64, 1}}) {
    TestBsr A = random_bsr(c.brows, c.bcols, c.rb, c.cb, c.density, 5);
    TestDense B = random_dense(A.cols(), c.n, Layout::col_major, 6), C = random_dense(A.rows(), c.n, Layout::col_major, 7);
    sp::Settings s;
    s.num_cores = c.cores;
    sp::CallReport r;
    sp::spmm(s, Op::N, Op::N, 1.0f, A.view(), B.ref(), 0.5f, C.mref(), &r);
    check("bsr spmm " + std::to_string(A.rows()) + "x" + std::to_string(c.n) + "x" + std::to_string(A.cols()) + " blocks " +
              std::to_string(c.rb) + "x" + std::to_string(c.cb) + " bnnz " + std::to_string(A.bnnz()) + " cores " +
              std::to_string(c.cores),
          r.plan, r.profile.total_ns, 0.10);
  }
}

// A random CSR matrix (rows x cols, about `per_row` entries per row, sorted columns).
struct Csr {
  std::vector<std::int32_t> off{0}, col;
  std::vector<std::complex<double>> val;
};
Csr random_csr(std::int64_t rows, std::int64_t cols, std::int64_t per_row, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Csr a;
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j)
      if (u(g) < -1.0 + 2.0 * static_cast<double>(per_row) / static_cast<double>(cols)) {
        a.col.push_back(static_cast<std::int32_t>(j));
        a.val.emplace_back(u(g), u(g));
      }
    a.off.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}

// The host step that spmm_host keeps (C_32F values; R_64F / C_64F run on TensorE since s10/spfp64,
// their plans print the modeled time after the trnblas calls instead of a prediction).
TEST(PlanPrediction, HostProductPlansPredictTheModeledTime) {
  for (const auto& [rows, cols, per_row, n] : std::vector<std::array<std::int64_t, 4>>{{100, 80, 5, 1}, {1000, 1000, 10, 1},
                                                                                      {300, 500, 20, 16}, {5000, 200, 3, 4}}) {
    Csr a = random_csr(rows, cols, per_row, 3);
    const sp::Value v = sp::Value::c32;
    std::vector<std::complex<float>> vals(a.val.begin(), a.val.end());
    const sp::SparseRef A{sp::SparseRef::Format::csr, rows, cols, static_cast<std::int64_t>(a.col.size()), a.off.data(),
                          a.col.data(), vals.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero, v};
    std::vector<std::complex<float>> B(static_cast<std::size_t>(cols * n), {0.5f, 0.25f}), C(static_cast<std::size_t>(rows * n));
    sp::CallReport r;
    const std::string what = "c32 " + std::to_string(rows) + "x" + std::to_string(cols) + " nnz " + std::to_string(a.col.size());
    if (n == 1) {
      sp::spmv_host({}, sp::GOp::N, 1.0, A, B.data(), 0.5, C.data(), &r);
      check("spmv host " + what, r.plan, r.profile.total_ns, 0.01);
    } else {
      sp::spmm_host({}, sp::GOp::N, sp::GOp::N, 1.0, A, {B.data(), v, cols, n, cols, Layout::col_major}, 0.0,
                    {C.data(), v, rows, n, rows, Layout::col_major}, &r);
      check("spmm host " + what + " n " + std::to_string(n), r.plan, r.profile.total_ns, 0.01);
    }
  }
}

}  // namespace

namespace {

// SDDMM's plan (detail::SddmmPlan) takes its predicted time from the run's report (session 27). What
// is tested: the same call run timing-only gives exactly the run's modeled time and record count (the
// kernel follows the pattern and shapes alone, so a dry run would issue the very records), and the
// plan's prediction is that time; BSR and CSR patterns, a few shapes, one and two cores, two targets.
TEST(PlanPrediction, SddmmPredictedTimeMatchesTheModeledTime) {
  struct Case {
    std::int64_t brows, bcols, rb, cb;
    double density;
    std::int64_t k;
    int cores;
    trn::Generation target;
  };
  for (const Case& c : {Case{16, 12, 8, 6, 0.3, 20, 1, trn::Generation::trn1}, Case{8, 8, 128, 128, 0.25, 256, 1, trn::Generation::trn1},
                        Case{8, 8, 128, 128, 0.25, 256, 2, trn::Generation::trn2}, Case{20, 30, 32, 32, 0.1, 700, 1, trn::Generation::trn2}}) {
    TestBsr C = random_bsr(c.brows, c.bcols, c.rb, c.cb, c.density, 9);
    TestDense A = random_dense(C.rows(), c.k, Layout::row_major, 10), B = random_dense(c.k, C.cols(), Layout::col_major, 11);
    sp::Settings s;
    s.num_cores = c.cores;
    s.target = c.target;
    sp::CallReport r;
    sp::sddmm(s, Op::N, Op::N, 1.0f, A.ref(), B.ref(), 0.5f, C.view(), &r);
    const std::string what = std::to_string(C.rows()) + "x" + std::to_string(C.cols()) + "x" + std::to_string(c.k) +
                             " cores " + std::to_string(c.cores) + (c.target == trn::Generation::trn1 ? " trn1" : " trn2");
    check("sddmm bsr " + what + " blocks " + std::to_string(c.rb) + "x" + std::to_string(c.cb) + " bnnz " +
              std::to_string(C.bnnz()),
          r.plan, r.profile.total_ns, 0.01);
    // The same pattern as CSR (every element of the stored blocks an entry; columns sorted by row).
    std::vector<std::int32_t> off{0}, col;
    for (std::int64_t R = 0; R < C.brows; ++R)
      for (std::int64_t rr = 0; rr < C.rb; ++rr) {
        for (std::int64_t e = C.offsets[R]; e < C.offsets[R + 1]; ++e)
          for (std::int64_t cc = 0; cc < C.cb; ++cc) col.push_back(static_cast<std::int32_t>(C.columns[e] * C.cb + cc));
        off.push_back(static_cast<std::int32_t>(col.size()));
      }
    std::vector<float> vals(col.size(), 0.25f);
    const sp::CsrView csr{C.rows(), C.cols(), static_cast<std::int64_t>(col.size()), off.data(), col.data(), vals.data()};
    sp::CallReport rc;
    sp::sddmm(s, Op::N, Op::N, 1.0f, A.ref(), B.ref(), 0.5f, csr, &rc);
    check("sddmm csr " + what + " nnz " + std::to_string(col.size()), rc.plan, rc.profile.total_ns, 0.01);
    // The plan's prediction is the run's modeled time (detail::add_plan_after_run, s27/sddmm): that
    // holds because the dry run (the same call timing-only) issues the run's very records and models
    // to the same time, bit for bit, for both patterns.
    for (const bool block_pattern : {true, false}) {
      sp::Settings dry = s;
      dry.timing_only = true;
      sp::CallReport d;
      if (block_pattern)  // timing-only: nothing executes, C's values stay as they are
        sp::sddmm(dry, Op::N, Op::N, 1.0f, A.ref(), B.ref(), 0.5f, C.view(), &d);
      else
        sp::sddmm(dry, Op::N, Op::N, 1.0f, A.ref(), B.ref(), 0.5f, csr, &d);
      EXPECT_EQ(d.profile.total_ns, block_pattern ? r.profile.total_ns : rc.profile.total_ns)
          << what << (block_pattern ? " bsr" : " csr") << ": the dry run does not model as the run";
      EXPECT_EQ(d.trace.instructions.size(), block_pattern ? r.trace.instructions.size() : rc.trace.instructions.size());
    }
    // A report that wants no plan (the C entry points'): no plan, the same profile.
    sp::CallReport quiet;
    quiet.plans_wanted = false;
    sp::sddmm(s, Op::N, Op::N, 1.0f, A.ref(), B.ref(), 0.5f, csr, &quiet);
    EXPECT_TRUE(quiet.plan.empty()) << quiet.plan;
    EXPECT_EQ(quiet.profile.total_ns, rc.profile.total_ns);
  }
}

}  // namespace
