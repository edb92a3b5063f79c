// trnfftMp bench (docs/scale-out.md "trnfftMp" bench): the modeled time of a 3-D C2C and R2C FFT
// (fp32) of 256^3 and 512^3 on 1, 2, 4, 8, 16 emulated trn1 devices (strong scaling), predicted by the slab
// plan (and a 512^3 / 1024^3 C2C and a 512^3 R2C by the pencil plan, beside the slab plan's
// prediction of the same type): trnfft's
// own dry runs of the local plans at <= 2^20 points, scaled by the batch; the fabric model for the
// all-to-alls -- nothing of that size runs here. Then one size small enough to run:
// the plan's prediction against the modeled time of the ranks' traces (local plans and link records
// scheduled together). Run: mpiexec -n P bench_fftmp [quick-size] (the table on rank 0).
#include <mpi.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"

namespace {

void print_table(const std::vector<std::int64_t>& sizes, trn::fft::Type type) {
  std::printf("\ntrnfftMp 3-D %s (fp32 mode) on emulated trn1 devices, slab decomposition, predicted by the plan of\n"
              "rank 0 (every rank's slab is the same size here); times in us; all-to-all = the transpose (the all-to-all, or\n"
              "the HBM re-layout of the own block when longer: always on 1 device); comm = all-to-all (+ the argument\n"
              "exchange where the trailing-axes FFT does not hide it) / predicted; roofline = max(link time, the local plans' engine roofline bounds); eff = t1 / (P tP)\n",
              trn::fft::type_name(type));
  std::printf("%5s %3s %6s %12s %12s %12s %12s %7s %12s %6s %7s\n", "N", "P", "slab", "trailing", "all-to-all", "axis-0",
              "predicted", "comm", "roofline", "ratio", "eff");
  for (std::int64_t n : sizes) {
    double t1 = 0;
    for (int p : {1, 2, 4, 8, 16}) {
      trn::fftmp::SlabSpec spec;
      spec.n = {n, n, n};
      spec.type = type;
      const trn::fftmp::SlabPlanInfo s = trn::fftmp::predict_slab(trn::fft::Settings{}, spec, p, 0);
      if (p == 1) t1 = s.predicted_ns;
      std::printf("%5lld %3d %6lld %12.1f %12.1f %12.1f %12.1f %6.1f%% %12.1f %6.2f %6.1f%%\n", static_cast<long long>(n), p,
                  static_cast<long long>(s.n0_loc), s.trailing_ns * 1e-3, s.link_ns * 1e-3, s.axis0_ns * 1e-3,
                  s.predicted_ns * 1e-3, 100.0 * s.comm_share(), s.roofline_ns * 1e-3, s.predicted_ns / s.roofline_ns,
                  100.0 * t1 / (p * s.predicted_ns));
      std::fflush(stdout);
    }
  }
}

// The pencil plan's prediction (pencil.hpp) on the most square grid P1 x P2 of P devices beside the
// slab plan's: every pass dense (the transposes place each axis contiguously), two all-to-alls over
// a row (P2 devices) and a column (P1 devices) instead of one over all P.
void print_pencil_table(const std::vector<std::int64_t>& sizes, trn::fft::Type type) {
  std::printf("\ntrnfftMp 3-D %s (fp32 mode) on emulated trn1 devices, pencil decomposition on the grid P1 x P2, predicted by\n"
              "the plan of rank 0; times in us; row / col = the transposes over P2 / P1 devices (the all-to-all, or the HBM\n"
              "re-layout of the own block when longer: always on 1 device); comm = (row + col + the\n"
              "exchange not hidden) / predicted; roofline = max(link time, the local plans' roofline bounds); eff = t1 / (P tP);\n"
              "slab = the slab plan's prediction on P devices; slab / pencil = the pencils' speed-up%s\n",
              trn::fft::type_name(type),
              type == trn::fft::Type::r2c ? "\n(R2C: the axis-2 pass is the real transform, the transposes move the half spectrum n x n x (n/2 + 1))"
                                          : "");
  std::printf("%5s %3s %5s %11s %9s %11s %9s %11s %11s %6s %10s %6s %6s %11s %6s\n", "N", "P", "grid", "axis-2", "row",
              "axis-1", "col", "axis-0", "predicted", "comm", "roofline", "ratio", "eff", "slab", "s/p");
  for (std::int64_t n : sizes) {
    double t1 = 0;
    for (int p : {1, 2, 4, 8, 16}) {
      trn::fftmp::PencilSpec spec;
      spec.n = {n, n, n};
      spec.type = type;
      spec.p2 = 1;
      while (spec.p2 * 2 * spec.p2 * 2 <= p) spec.p2 *= 2;  // the most square power-of-two grid, P1 >= P2
      spec.p1 = p / spec.p2;
      const trn::fftmp::PencilPlanInfo s = trn::fftmp::predict_pencil(trn::fft::Settings{}, spec, p, 0);
      trn::fftmp::SlabSpec slab;
      slab.n = {n, n, n};
      slab.type = type;
      const double ts = trn::fftmp::predict_slab(trn::fft::Settings{}, slab, p, 0).predicted_ns;
      if (p == 1) t1 = s.predicted_ns;
      std::printf("%5lld %3d %2dx%-2d %11.1f %9.1f %11.1f %9.1f %11.1f %11.1f %5.1f%% %10.1f %6.2f %5.1f%% %11.1f %6.2f\n",
                  static_cast<long long>(n), p, spec.p1, spec.p2, s.axis_ns[0] * 1e-3, s.row_link_ns * 1e-3, s.axis_ns[1] * 1e-3,
                  s.col_link_ns * 1e-3, s.axis_ns[2] * 1e-3, s.predicted_ns * 1e-3, 100.0 * s.comm_share(), s.roofline_ns * 1e-3,
                  s.predicted_ns / s.roofline_ns, 100.0 * t1 / (p * s.predicted_ns), ts * 1e-3, ts / s.predicted_ns);
      std::fflush(stdout);
    }
  }
}

// One size run on the communicator's ranks: the slowest rank's modeled time against its prediction.
void run_quick(std::int64_t n, int rank, int size) {
  trn::fftmp::SlabSpec spec;
  spec.n = {n, n, n};
  const trn::fftmp::SlabPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::vector<std::complex<float>> x(static_cast<std::size_t>(plan.inplace_elements()), {0.5f, -0.25f});
  std::vector<std::complex<float>> y(static_cast<std::size_t>(plan.shuffled_elements()));
  trn::fft::ExecReport rep;
  rep.plans_wanted = false;
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  double v[3] = {rep.profile.total_ns, plan.info().predicted_ns, rep.profile.link_ns};
  MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("\nrun %lld^3 on %d ranks: modeled %.1f us (slowest rank; link busy %.1f us), predicted %.1f us, "
                "modeled / predicted %.3f\n%s\n",
                static_cast<long long>(n), size, v[0] * 1e-3, v[2] * 1e-3, v[1] * 1e-3, v[0] / v[1], plan.print().c_str());
}

// The same for the pencil plan on the plan's own grid (choose_grid) and on the most square one.
void run_quick_pencil(std::int64_t n, int rank, int size, bool square) {
  trn::fftmp::PencilSpec spec;
  spec.n = {n, n, n};
  if (square) {
    spec.p2 = 1;
    while (spec.p2 * 2 * spec.p2 * 2 <= size && size % (spec.p2 * 2) == 0) spec.p2 *= 2;
    spec.p1 = size / spec.p2;
  }
  const trn::fftmp::PencilPlan plan(spec, trn::fft::Settings{}, MPI_COMM_WORLD);
  std::vector<std::complex<float>> x(static_cast<std::size_t>(std::max<std::int64_t>(plan.input_box().span(), 1)), {0.5f, -0.25f});
  std::vector<std::complex<float>> y(static_cast<std::size_t>(std::max<std::int64_t>(plan.output_box().span(), 1)));
  trn::fft::ExecReport rep;
  rep.plans_wanted = false;
  plan.execute(x.data(), y.data(), trn::fft::kForward, &rep);
  double v[3] = {rep.profile.total_ns, plan.info().predicted_ns, rep.profile.link_ns};
  MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("run %lld^3 pencils %d x %d on %d ranks: modeled %.1f us (slowest rank; transposes %.1f us), predicted %.1f us, "
                "modeled / predicted %.3f\n%s\n",
                static_cast<long long>(n), plan.spec().p1, plan.spec().p2, size, v[0] * 1e-3, v[2] * 1e-3, v[1] * 1e-3, v[0] / v[1],
                plan.print().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::int64_t quick = argc > 1 ? std::atoll(argv[1]) : 32;
  const bool table = argc <= 2 || std::atoi(argv[2]) != 0;
  if (rank == 0 && table) {
    print_table({256, 512}, trn::fft::Type::c2c);
    print_table({256, 512}, trn::fft::Type::r2c);  // the half spectrum: about half the bytes on the fabric
    print_pencil_table({512, 1024}, trn::fft::Type::c2c);
    print_pencil_table({512}, trn::fft::Type::r2c);
  }
  run_quick(quick, rank, size);
  run_quick_pencil(quick, rank, size, false);
  run_quick_pencil(quick, rank, size, true);
  MPI_Finalize();
  return 0;
}
