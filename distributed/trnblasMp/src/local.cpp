// trnblasMp's local kernels: trnblas's tile kernels on one rank's blocks, by element type (local.hpp).
#include "local.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>

#include "exchange.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"

namespace trn::blasmp::detail {

namespace {

using cf = std::complex<float>;

template <class T>
const T* as(const void* p) {
  return static_cast<const T*>(p);
}
template <class T>
T* as(void* p) {
  return static_cast<T*>(p);
}
cf to_cf(cd x) { return {static_cast<float>(x.real()), static_cast<float>(x.imag())}; }

void append(const Local& l, blas::CallReport& r) { l.trace->append(std::move(r.trace)); }

}  // namespace

Local make_local(const blas::Settings& s, const Scalars& t, Trace& trace) {
  Local l{device_settings(s), t, &trace};
  l.st.report_trace_only = true;  // the rank's trace is modeled once, with its link records
  return l;
}

void local_gemm(const Local& l, std::int64_t m, std::int64_t n, std::int64_t k, cd alpha, const void* A,
                std::int64_t lda, const void* B, std::int64_t ldb, cd beta, void* C, std::int64_t ldc) {
  local_gemm(l, blas::COp::N, blas::COp::N, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void local_gemm(const Local& l, blas::COp op_a, blas::COp op_b, std::int64_t m, std::int64_t n, std::int64_t k, cd alpha,
                const void* A, std::int64_t lda, const void* B, std::int64_t ldb, cd beta, void* C, std::int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  using blas::Op;
  const auto real_op = [](blas::COp op) { return op == blas::COp::N ? Op::N : Op::T; };  // real data: C is T
  blas::CallReport r;
  const std::int64_t la = std::max<std::int64_t>(lda, 1), lb = std::max<std::int64_t>(ldb, 1);
  if (l.t.complex && l.t.fp64)
    blas::zgemm(l.st, blas::ComplexAlgo::four_m, op_a, op_b, m, n, k, alpha, as<cd>(A), la, as<cd>(B), lb, beta,
                as<cd>(C), ldc, &r);
  else if (l.t.complex)
    blas::cgemm(l.st, l.t.mode, blas::ComplexAlgo::four_m, op_a, op_b, m, n, k, to_cf(alpha), as<cf>(A), la,
                as<cf>(B), lb, to_cf(beta), as<cf>(C), ldc, &r);
  else if (l.t.fp64)
    blas::dgemm(l.st, real_op(op_a), real_op(op_b), m, n, k, alpha.real(), as<double>(A), la, as<double>(B), lb,
                beta.real(), as<double>(C), ldc, &r);
  else
    blas::gemm(l.st, l.t.mode, real_op(op_a), real_op(op_b), m, n, k, static_cast<float>(alpha.real()),
               {A, DType::f32, la}, {B, DType::f32, lb}, static_cast<float>(beta.real()), {C, DType::f32, ldc}, &r);
  append(l, r);
}

void local_trsm(const Local& l, blas::Side side, blas::Uplo uplo, blas::COp op, blas::Diag diag, std::int64_t m,
                std::int64_t n, std::int64_t whole_rhs, cd alpha, const void* A, std::int64_t lda, void* B,
                std::int64_t ldb) {
  if (m <= 0 || n <= 0) return;
  const blas::Op rop = op == blas::COp::N ? blas::Op::N : blas::Op::T;  // real data: C is T
  // trnblas chooses the fp32 TRSM's algorithm (narrow kernel, block inverses, substitution) by the
  // right-hand sides; a rank holds a grid-dependent share of them (sgetrf 52 x 52 nb 8: a 1 x 2
  // grid's 4-column piece of a row panel, where the 1 x 1 grid solves 44), so it is chosen from
  // the whole solve's count (Settings::trsm_whole_rhs, docs/scale-out.md "Choices by size").
  blas::Settings st = l.st;
  st.trsm_whole_rhs = whole_rhs;
  blas::CallReport r;
  if (l.t.complex && l.t.fp64)
    blas::ztrsm(l.st, side, uplo, op, diag, m, n, alpha, as<cd>(A), lda, as<cd>(B), ldb, &r);
  else if (l.t.complex)
    blas::ctrsm(st, l.t.mode, side, uplo, op, diag, m, n, to_cf(alpha), as<cf>(A), lda, as<cf>(B), ldb, &r);
  else if (l.t.fp64)
    blas::dtrsm(l.st, side, uplo, rop, diag, m, n, alpha.real(), as<double>(A), lda, as<double>(B), ldb, &r);
  else
    blas::strsm(st, l.t.mode, side, uplo, rop, diag, m, n, static_cast<float>(alpha.real()), as<float>(A), lda,
                as<float>(B), ldb, &r);
  append(l, r);
}

void local_geam(const Local& l, std::int64_t m, std::int64_t n, cd alpha, const void* A, std::int64_t lda, cd beta,
                const void* B, std::int64_t ldb, void* C, std::int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  using blas::COp;
  using blas::Op;
  blas::CallReport r;
  if (l.t.complex && l.t.fp64)
    blas::zgeam(l.st, COp::N, COp::N, m, n, alpha, as<cd>(A), lda, beta, as<cd>(B), ldb, as<cd>(C), ldc, &r);
  else if (l.t.complex)
    blas::cgeam(l.st, COp::N, COp::N, m, n, to_cf(alpha), as<cf>(A), lda, to_cf(beta), as<cf>(B), ldb, as<cf>(C), ldc,
                &r);
  else if (l.t.fp64)
    blas::dgeam(l.st, Op::N, Op::N, m, n, alpha.real(), as<double>(A), lda, beta.real(), as<double>(B), ldb,
                as<double>(C), ldc, &r);
  else
    blas::sgeam(l.st, Op::N, Op::N, m, n, static_cast<float>(alpha.real()), as<float>(A), lda,
                static_cast<float>(beta.real()), as<float>(B), ldb, as<float>(C), ldc, &r);
  append(l, r);
}

void copy_trapezoid(const Descriptor& d, blas::Uplo uplo, std::size_t es, const void* from, std::int64_t ld_from,
                    void* to, std::int64_t ld_to) {
  const Grid& g = *d.grid;
  const std::int64_t rows = d.local_rows(), cols = d.local_cols();
  const std::int64_t rdist = (g.myrow - d.rsrc + g.nprow) % g.nprow, cdist = (g.mycol - d.csrc + g.npcol) % g.npcol;
  for (std::int64_t jl = 0; jl < cols; ++jl) {
    const std::int64_t jg = ((jl / d.nb) * g.npcol + cdist) * d.nb + jl % d.nb;
    for (std::int64_t il = 0; il < rows; ++il) {
      const std::int64_t ig = ((il / d.mb) * g.nprow + rdist) * d.mb + il % d.mb;
      if (uplo == blas::Uplo::upper ? ig <= jg : ig >= jg)
        std::memcpy(static_cast<char*>(to) + (il + jl * ld_to) * static_cast<std::int64_t>(es),
                    static_cast<const char*>(from) + (il + jl * ld_from) * static_cast<std::int64_t>(es), es);
    }
  }
}

std::size_t local_bytes(const Descriptor& d, std::size_t es) {
  return static_cast<std::size_t>(std::max<std::int64_t>(d.lld, 1) * std::max<std::int64_t>(d.local_cols(), 0)) * es;
}

void record_exchange(const Grid& g, Generation target, const char* name, Trace& trace) {
  LinkTransfer exchange;  // the argument exchange the C API makes first (a small allreduce)
  exchange.name = name;
  exchange.ns = small_allreduce_ns(fabric_spec(target), RankSet{0, 1, g.nprow * g.npcol});
  exchange.peers = peers_over(g.comm);
  record_link_transfer(trace, exchange);
}

void conjugate(char* p, std::size_t es) {
  if (es == 8) {
    float v;
    std::memcpy(&v, p + 4, 4);
    v = -v;
    std::memcpy(p + 4, &v, 4);
  } else if (es == 16) {
    double v;
    std::memcpy(&v, p + 8, 8);
    v = -v;
    std::memcpy(p + 8, &v, 8);
  }
}

double alltoall_ns(const FabricSpec& f, const RankSet& set, double send_bytes, double recv_bytes) {
  if (set.count <= 1) return 0;
  const bool cross = set.crosses_instances(f);
  return (set.count - 1) * f.step_latency_ns(cross) + std::max(send_bytes, recv_bytes) / f.ring_bytes_per_ns(cross);
}

}  // namespace trn::blasmp::detail

namespace trn::blasmp::detail {

void broadcast(MPI_Comm comm, const RankSet& set, int root, int me, void* buf, std::size_t bytes, const char* name,
               Generation target, Trace& trace) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) throw NotSupportedError("trnblasMp", "a broadcast over 2 GiB", "any");
  check_mpi(MPI_Bcast(buf, static_cast<int>(bytes), MPI_BYTE, root, comm), "MPI_Bcast");
  LinkTransfer t;
  t.name = name;
  t.ns = broadcast_ns(fabric_spec(target), set, static_cast<double>(bytes));
  t.peers = peers_over(comm, root);
  if (bytes > 0 && set.count > 1) {
    HostSpan& span = me == root ? t.sends[0] : t.receives[0];
    span.data = buf;
    span.hull = span.bytes = bytes;
  }
  record_link_transfer(trace, t);
}

}  // namespace trn::blasmp::detail
