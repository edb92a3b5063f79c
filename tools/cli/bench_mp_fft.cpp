// `trnsci bench --suite mp`, trnfftMp rows (issue #31): the 3-D FFT of 512^3 (fp32 mode) on 1, 2, 4, 8,
// 16 emulated devices, C2C and R2C, slab and pencil decompositions -- predicted by the plans
// (trn/fftmp/fftmp.hpp predict_slab, pencil.hpp predict_pencil: trnfft's dry runs of the local
// plans at <= 2^20 points, scaled by the batch, and the fabric model for the transposes); nothing of
// that size runs (docs/scale-out.md 9.5). Each row as bench_mp.cpp's: device us = the predicted time
// of rank 0, roofline = predicted / the link-inclusive roofline (max(link time, the local plans'
// engine roofline bounds); bound "link" or "TensorE": the local plans), and in the error column the communication share
// of the predicted time (error_metric "link_share"). Pencil grids: the most square P1 x P2 (P1 >= P2).
#include <string>

#include "registry.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"

namespace trnsci::cli {
namespace {

constexpr std::int64_t kN = 512;
constexpr int kDevices[] = {1, 2, 4, 8, 16};

// The most square power-of-two grid P1 x P2 = p (P1 >= P2), as bench_fftmp's pencil table.
int pencil_p2(int p) {
  int p2 = 1;
  while (p2 * 2 * p2 * 2 <= p) p2 *= 2;
  return p2;
}

// One row from a plan's prediction: predicted, link time (the transposes and the exchange on the
// critical path), the local passes' predicted time, roofline bound.
BenchResult fft_row(double predicted_ns, double comm_ns, double local_ns, double roofline_ns, double link_in_roofline_ns,
                    double seconds, trn::Generation target) {
  BenchResult b;
  b.error = comm_ns / predicted_ns;
  b.error_metric = "link_share";
  b.host_seconds = seconds;
  b.timing_only = true;  // nothing ran: no emulator-bound column
  DeviceCost& d = b.device;
  d.present = true;
  d.target = std::string(trn::hardware_spec(target).name);
  d.cores = trn::hardware_spec(target).cores_per_device;
  d.total_ns = predicted_ns;
  d.roofline = predicted_ns / roofline_ns;
  d.roofline_engine = link_in_roofline_ns >= roofline_ns ? "link" : "TensorE";
  // As bench_mp.cpp: the local passes (every core busy) against their roofline bound when it is the
  // bound, so the "why above the roofline" line reads the plan (roofline_reason).
  const auto tensor = static_cast<std::size_t>(trn::Engine::tensor);
  d.busy_ns[tensor] = local_ns * d.cores;
  d.roofline_ns[tensor] = (roofline_ns > link_in_roofline_ns ? roofline_ns : 0.0) * d.cores;
  return b;
}

BenchResult plan_row(trn::fft::Type type, bool pencil, int p, trn::Generation target) {
  trn::fft::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  if (pencil) {
    trn::fftmp::PencilSpec spec;
    spec.n = {kN, kN, kN};
    spec.type = type;
    spec.p2 = pencil_p2(p);
    spec.p1 = p / spec.p2;
    const trn::fftmp::PencilPlanInfo i = trn::fftmp::predict_pencil(s, spec, p, 0);
    return fft_row(i.predicted_ns, i.comm_ns(), i.axis_ns[0] + i.axis_ns[1] + i.axis_ns[2], i.roofline_ns, i.row_link_ns + i.col_link_ns + i.exchange_ns, seconds_since(t0),
                   target);
  }
  trn::fftmp::SlabSpec spec;
  spec.n = {kN, kN, kN};
  spec.type = type;
  const trn::fftmp::SlabPlanInfo i = trn::fftmp::predict_slab(s, spec, p, 0);
  return fft_row(i.predicted_ns, i.comm_share() * i.predicted_ns, i.trailing_ns + i.axis0_ns, i.roofline_ns, i.link_ns + i.exchange_ns, seconds_since(t0),
                 target);
}

void add_mp_fft_bench(Registry& reg) {
  for (const trn::fft::Type type : {trn::fft::Type::c2c, trn::fft::Type::r2c})
    for (const bool pencil : {false, true})
      for (const int p : kDevices) {
        const std::string grid = pencil ? std::to_string(p / pencil_p2(p)) + "x" + std::to_string(pencil_p2(p)) : "slab";
        reg.add(BenchCase{"mp", "trnfftMp", type == trn::fft::Type::c2c ? "fft3d_c2c_mp" : "fft3d_r2c_mp",
                          "P=" + std::to_string(p) + " " + grid, std::to_string(kN) + "^3", false,
                          [type, pencil, p](trn::Generation g) { return plan_row(type, pencil, p, g); }});
      }
}

const Registrar kRegistrar(add_mp_fft_bench);

}  // namespace
}  // namespace trnsci::cli
