// fp64 bits are fixed per grid, not across grids (docs/scale-out.md sections 2.6 and 6.2), shown on 2
// ranks: a trnblasMp DGEMM C = A B (Ozaki scheme I, slices: the scheme section 2.6 describes) whose B
// has one column of wide exponent spread (entries from 1 down to 2^-40), that column owned by process
// column 1 of a 1 x 2 grid. trnblas's Ozaki GEMM chooses its slice count (plan_slices: 56 + spread_a +
// spread_b bits) and its contraction balancing from the whole local operands, so a rank's local GEMM
// on 1 x 2 (half of B's columns) is not the 1 x 1 grid's (all of them). Asserted: the 1 x 2 result is
// bit-identical over repeated runs and host thread counts 1 and 2 (and the 1 x 1 one over thread
// counts); it differs from the 1 x 1 result in at least one element (measured: one element of rank 1's
// columns, the wide column's half; none of rank 0's); both are within 4 (k + 2) u sum |a b| of a
// long-double reference.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "trn/blasmp/blasmp.hpp"

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] FAILED: %s\n", g_rank, what.c_str());
  }
}

constexpr std::int64_t kM = 24, kN = 16, kK = 32, kNb = 8, kWide = 12;  // column 12: process column 1 of 1 x 2

double a_of(std::int64_t i, std::int64_t p) { return static_cast<double>((i * 37 + p * 11) % 97) / 97.0 - 0.5; }
double b_of(std::int64_t p, std::int64_t j) {
  const double v = static_cast<double>((p * 53 + j * 29) % 89) / 89.0 + 0.1;
  return j == kWide ? std::ldexp(v, -static_cast<int>((p * 7) % 41)) : v;  // exponents 0 .. -40 down the column
}

// C = A B on a 1 x npcol grid of comm (blocks kNb); this rank's block of C (its columns, all rows).
std::vector<double> dgemm_on(MPI_Comm comm, int npcol, int host_threads) {
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, 1, npcol, trn::blasmp::GridLayout::col_major, comm);
  auto desc = [&](std::int64_t m, std::int64_t n) {
    trn::blasmp::Descriptor d{m, n, kNb, kNb, 0, 0, m, TRN_R_64F, &g};
    return d;
  };
  const trn::blasmp::Descriptor da = desc(kM, kK), db = desc(kK, kN), dc = desc(kM, kN);
  auto local = [&](const trn::blasmp::Descriptor& d, double (*f)(std::int64_t, std::int64_t)) {
    std::vector<double> v(static_cast<std::size_t>(d.m * std::max<std::int64_t>(1, d.local_cols())));
    for (std::int64_t jl = 0; jl < d.local_cols(); ++jl)
      for (std::int64_t i = 0; i < d.m; ++i) v[static_cast<std::size_t>(i + jl * d.m)] = f(i, (jl / kNb * npcol + g.mycol) * kNb + jl % kNb);
    return v;
  };
  const std::vector<double> A = local(da, a_of), B = local(db, b_of);
  std::vector<double> C(static_cast<std::size_t>(kM * std::max<std::int64_t>(1, dc.local_cols())), 0.0);
  std::vector<char> work(trn::blasmp::gemm_workspace_bytes(da, db, dc, kK));
  trn::blasmp::GemmArgs x;
  x.fp64 = true, x.m = kM, x.n = kN, x.k = kK, x.a = A.data(), x.b = B.data(), x.c = C.data();
  x.desc_a = &da, x.desc_b = &db, x.desc_c = &dc, x.work = work.data(), x.work_bytes = work.size();
  trn::blas::Settings s;
  s.host_threads = host_threads;
  s.ozaki_scheme = trn::blas::OzakiScheme::slices;
  trn::blasmp::gemm(s, x, nullptr);
  trn::blasmp::grid_destroy(g);
  return C;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  check(g_size == 2, "run on exactly 2 ranks (mpiexec -n 2)");
  if (g_size == 2) {
    const std::vector<double> grid2 = dgemm_on(MPI_COMM_WORLD, 2, 1);
    check(same_bits(grid2, dgemm_on(MPI_COMM_WORLD, 2, 1)), "1 x 2: a repeated run gives the same bits");
    check(same_bits(grid2, dgemm_on(MPI_COMM_WORLD, 2, 2)), "1 x 2: 2 host threads give the 1-thread bits");
    const std::vector<double> whole = dgemm_on(MPI_COMM_SELF, 1, 1);  // every rank: the 1 x 1 grid
    check(same_bits(whole, dgemm_on(MPI_COMM_SELF, 1, 2)), "1 x 1: 2 host threads give the 1-thread bits");
    // My columns of the 1 x 2 result against the same columns of the 1 x 1 one, and an fp64 reference.
    int differ = 0;
    double worst = 0;
    const std::int64_t cols = static_cast<std::int64_t>(grid2.size()) / kM;
    for (std::int64_t jl = 0; jl < cols; ++jl) {
      const std::int64_t j = (jl / kNb * 2 + g_rank) * kNb + jl % kNb;
      for (std::int64_t i = 0; i < kM; ++i) {
        const double c2 = grid2[static_cast<std::size_t>(i + jl * kM)], c1 = whole[static_cast<std::size_t>(i + j * kM)];
        differ += std::memcmp(&c1, &c2, sizeof c1) != 0 ? 1 : 0;
        long double ref = 0, mag = 0;
        for (std::int64_t p = 0; p < kK; ++p) ref += static_cast<long double>(a_of(i, p)) * b_of(p, j), mag += std::fabs(a_of(i, p) * b_of(p, j));
        const double bound = 4.0 * (kK + 2) * 0x1p-53 * static_cast<double>(mag);
        worst = std::max({worst, static_cast<double>(std::fabs(c2 - ref)) / bound, static_cast<double>(std::fabs(c1 - ref)) / bound});
      }
    }
    std::vector<int> all(2);
    MPI_Allgather(&differ, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    if (g_rank == 0)
      std::printf("elements of the 1 x 2 result differing from 1 x 1: rank 0 %d, rank 1 (the wide column's) %d; worst error / bound %.3g\n",
                  all[0], all[1], worst);
    check(all[0] + all[1] > 0, "the 1 x 2 result differs from the 1 x 1 grid's in at least one element");
    check(worst <= 1.0, "both grids' results within 4 (k + 2) u sum |a b| of the long-double reference");
  }
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%s: %d failure(s) over %d rank(s)\n", total == 0 ? "PASSED" : "FAILED", total, g_size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
