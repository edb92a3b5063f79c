// gesvd: cuSOLVER's LAPACK-style SVD (jobu / jobvt 'A', 'S', 'O', 'N'; m >= n as cuSOLVER requires) on
// the one-sided Jacobi SVD of gesvdj.cpp (Hestenes 1958; Demmel & Veselic, SIMAX 13(4), 1992;
// Drmac & Veselic, SIMAX 29(4), 2008): the algorithm suits a tile machine -- every sweep is column-pair
// dot products and rotations on TensorE / VectorE (fp32) -- and is at least as accurate as the
// bidiagonal QR of LAPACK's xGESVD (relative accuracy on graded matrices). This file maps gesvd's
// output conventions onto gesvdj's: U (m x m, or its first n columns), V^T (V transposed, index moves),
// or either written over A ('O'). docs/trnsolver.md "gesvd".
#include <algorithm>
#include <vector>

#include "trn/solver/eig.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "syevj_internal.hpp"  // detail::SubCallReport

namespace trn::solver {
namespace {

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnsolver", "gesvd", what);
}

bool wants(char job) { return job == 'A' || job == 'S' || job == 'O'; }

template <class T>
int gesvd_impl(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, T* S,
               T* U, std::int64_t ldu, T* VT, std::int64_t ldvt, CallReport* report) {
  const auto job_ok = [](char j) { return j == 'A' || j == 'S' || j == 'O' || j == 'N'; };
  require(job_ok(jobu) && job_ok(jobvt) && !(jobu == 'O' && jobvt == 'O'), "jobu, jobvt in A S O N, not both O");
  require(m >= n && n >= 0 && lda >= std::max<std::int64_t>(1, m), "m >= n >= 0, lda >= max(1, m)");
  require(!(jobu == 'A' || jobu == 'S') || ldu >= std::max<std::int64_t>(1, m), "ldu >= m");
  require(!(jobvt == 'A' || jobvt == 'S') || ldvt >= std::max<std::int64_t>(1, n), "ldvt >= n");
  if (report != nullptr) *report = CallReport{};
  if (n == 0) return 0;
  const bool vectors = wants(jobu) || wants(jobvt), full_u = jobu == 'A';
  // gesvdj writes U straight into the caller's U for 'A' / 'S', else into uw (m x n); V into vw (n x n).
  const bool direct_u = jobu == 'A' || jobu == 'S';
  // Scratch, not heap: the trace records both (gesvdj's outputs, then the index moves), and a heap block
  // reusing bytes another temporary of the call (or of a complex gesvd around it) freed would be a
  // false dependency that moved with malloc's history (docs/trnsolver.md "Session 24, heap-dependent
  // modeled time").
  ScratchVector<T> uw(vectors && !direct_u ? static_cast<std::size_t>(m * n) : 0), vw(vectors ? static_cast<std::size_t>(n * n) : 0);
  T* u = direct_u ? U : uw.data();
  const std::int64_t lu = direct_u ? ldu : m;
  GesvdjParams p;  // tolerance: machine epsilon of T, up to 100 sweeps, sorted descending
  GesvdjResult res;
  TraceParts trace;
  double host_fp64_flops = 0;
  {
    detail::SubCallReport sub;  // gesvdj's trace joins this call's, modeled once (with it)
    CallReport& r = sub.report;
    if constexpr (std::is_same_v<T, float>)
      res = sgesvdj(s, vectors, !full_u, m, n, A, lda, S, vectors ? u : nullptr, lu, vectors ? vw.data() : nullptr, n,
                    p, &r);
    else
      res = dgesvdj(s, vectors, !full_u, m, n, A, lda, S, vectors ? u : nullptr, lu, vectors ? vw.data() : nullptr, n,
                    p, &r);
    trace.add(std::move(r.trace));
    host_fp64_flops = r.host_fp64_flops;
  }
  // Index moves on the host: V^T into VT or A's first n rows, U's n columns into A.
  if (jobvt == 'A' || jobvt == 'S' || jobvt == 'O') {
    T* dst = jobvt == 'O' ? A : VT;
    const std::int64_t ld = jobvt == 'O' ? lda : ldvt;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) dst[i + j * ld] = vw[static_cast<std::size_t>(j + i * n)];
    record_host_step(trace, HostStep{.name = "trnsolver.gesvd.transpose_v", .flops = 0,
                                     .reads = {HostSpan(vw.data(), n * n)}, .writes = {HostSpan::matrix(dst, n, n, ld)}});
  }
  if (jobu == 'O') {
    for (std::int64_t j = 0; j < n; ++j) std::copy(uw.begin() + j * m, uw.begin() + (j + 1) * m, A + j * lda);
    record_host_step(trace, HostStep{.name = "trnsolver.gesvd.u_over_a", .flops = 0,
                                     .reads = {HostSpan(uw.data(), m * n)}, .writes = {HostSpan::matrix(A, m, n, lda)}});
  }
  if (report != nullptr) {
    finish_report(*report, std::move(trace).join(), detail::sub_call_settings(report, ReportSettings{s.target}));
    report->host_fp64_flops = host_fp64_flops;
  }
  // gesvdj's non-convergence (or non-finite input) as gesvd's info: superdiagonals not converged, all
  // of them (at least 1).
  return res.info == 0 ? 0 : static_cast<int>(std::max<std::int64_t>(1, n - 1));
}

}  // namespace

int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, float* A, std::int64_t lda, float* S,
          float* U, std::int64_t ldu, float* VT, std::int64_t ldvt, CallReport* report) {
  return gesvd_impl(s, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, report);
}
int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, double* A, std::int64_t lda,
          double* S, double* U, std::int64_t ldu, double* VT, std::int64_t ldvt, CallReport* report) {
  return gesvd_impl(s, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, report);
}

}  // namespace trn::solver
