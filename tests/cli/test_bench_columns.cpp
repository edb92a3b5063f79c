// Issue #30's bench columns on known traces: the roofline of the modeled time (trn::Profile::roofline,
// the per-engine peak-rate bounds of instruction_roofline_ns) and the emulator bound
// (tools/cli/bench_columns.hpp) equal the hand-computed values, and the roofline is never below 1.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "bench_columns.hpp"
#include "matmul_variants.hpp"
#include "mpi_session.hpp"
#include "registry.hpp"
#include "trn/core/core.hpp"

using namespace trn;

namespace {

CoreConfig timing_only(Generation g) {
  CoreConfig cfg;
  cfg.generation = g, cfg.execute = false;
  return cfg;
}

Profile model(NeuronCore& nc, Generation g) { return schedule_trace(nc.trace(), CostModelOptions{g, 1, false}).profile; }

// One bf16 matmul 128 x 128 x 512 into PSUM and its VectorE copy to SBUF (fp32 [128, 512]); `store`:
// also its DMA to HBM.
Profile matmul_and_copy(bool store) {
  NeuronCore nc(timing_only(Generation::trn1));
  const Tile st = nc.sbuf().alloc(DType::bf16, 128, {128}), mv = nc.sbuf().alloc(DType::bf16, 128, {512});
  const Tile acc = nc.psum().alloc(DType::f32, 128, {512});
  nc.nc_matmul(acc, st, mv, false);
  const Tile out = nc.sbuf().alloc(DType::f32, 128, {512});
  nc.tensor_copy(out, acc);
  HbmTensor h(DType::f32, {128, 512});
  if (store) nc.dma_copy(h.tile(0, 128, 0, 512), out);
  return model(nc, Generation::trn1);
}

// 16 matmuls 128 x 128 x 512 into one PSUM bank: TensorE's bound is 16 x 512 cycles (x4 for fp32),
// exactly the modeled time, so the roofline is 1.
TEST(BenchColumns, BackToBackMatmulsAreAtTheirRoofline) {
  for (Generation g : {Generation::trn1, Generation::trn2, Generation::trn3})
    for (DType dt : {DType::bf16, DType::f32}) {
      NeuronCore nc(timing_only(g));
      const Tile st = nc.sbuf().alloc(dt, 128, {128}), mv = nc.sbuf().alloc(dt, 128, {512});
      const Tile acc = nc.psum().alloc(DType::f32, 128, {512});
      for (int i = 0; i < 16; ++i) nc.nc_matmul(acc, st, mv, i > 0);
      const Profile p = model(nc, g);
      const HardwareSpec& hw = hardware_spec(g);
      const double expect = 16.0 * 512 * (dt == DType::f32 ? hw.matmul_fp32_passes : 1) / hw.tensor_ghz;
      EXPECT_NEAR(p.roofline_ns[0], expect, expect * 1e-12) << hw.name << " " << dtype_name(dt);
      EXPECT_NEAR(p.roofline(), 1.0, 1e-9);
      EXPECT_EQ(p.roofline_engine(), "TensorE");
    }
}

// A DMA of [128, 4096] bf16 from HBM: its bytes over every queue at the HBM rate; a VectorE copy of
// 64 partitions x 1000 elements: half the lanes for 1000 cycles.
TEST(BenchColumns, DmaAndVectorBoundsAreTheirWorkAtPeakRate) {
  for (Generation g : {Generation::trn1, Generation::trn2}) {
    const HardwareSpec& hw = hardware_spec(g);
    NeuronCore nc(timing_only(g));
    HbmTensor a(DType::bf16, {128, 4096});
    const Tile t = nc.sbuf().alloc(DType::bf16, 128, {4096});
    nc.dma_copy(t, a.tile(0, 128, 0, 4096));
    const Tile src = nc.sbuf().alloc(DType::f32, 64, {1000}), dst = nc.sbuf().alloc(DType::f32, 64, {1000});
    nc.tensor_copy(dst, src);
    const Profile p = model(nc, g);
    const double hbm_queue = std::min(hw.dma_bytes_per_ns, hw.hbm_bytes_per_ns / hw.dma_engines);
    const double dma = 128.0 * 4096 * 2 / (hw.dma_engines * hbm_queue * hw.dma_hbm_efficiency);
    EXPECT_NEAR(p.roofline_ns[static_cast<int>(Engine::dma)], dma, dma * 1e-12) << hw.name;
    const double vec = 0.5 * 1000 / hw.vector_ghz;
    EXPECT_NEAR(p.roofline_ns[static_cast<int>(Engine::vector)], vec, vec * 1e-12) << hw.name;
    EXPECT_EQ(p.roofline_engine(), "DMA");
    EXPECT_NEAR(p.roofline(), p.total_ns / dma, 1e-9);
    EXPECT_GE(p.roofline(), 1.0);
  }
}

// Every instruction of the NKI tutorial's naive and blocked kernels: its peak-rate time never exceeds
// its modeled time, and the kernels' rooflines are >= 1 (the naive one DMA-bound, far above 1).
TEST(BenchColumns, RooflineIsNeverBelowOne) {
  for (Generation g : {Generation::trn1, Generation::trn2, Generation::trn3}) {
    HbmTensor lhsT(DType::bf16, {1024, 512}), rhs(DType::bf16, {1024, 1024}), C(DType::bf16, {512, 1024});
    LaunchConfig lc;
    lc.core.execute = false;
    lc.core.generation = g;
    const HardwareSpec& hw = hardware_spec(g);
    for (const auto& run : {trn::examples::naive_tiled_matmul(lhsT, rhs, C, lc),
                            trn::examples::blocked_matmul(lhsT, rhs, C, trn::examples::BlockedMatmulConfig{256, 512, 512}, lc)}) {
      for (const Instruction& ins : run.trace.instructions) {
        if (ins.engine == Engine::dma) continue;
        EXPECT_LE(instruction_roofline_ns(ins, hw, hw.dma_bytes_per_ns), instruction_ns(ins, hw, hw.dma_bytes_per_ns) * (1 + 1e-12));
      }
      const Profile p = model_profile(run.trace, g);
      EXPECT_GE(p.roofline(), 1.0) << hw.name;
      for (int e = 0; e < kEngineCount; ++e) EXPECT_LE(p.roofline_ns[e], p.busy_ns[e] * (1 + 1e-12)) << e;
    }
  }
}

// The C struct carries the roofline and the tensor flops; sequential launches add them.
TEST(BenchColumns, ProfileRoundTripsThroughTheCStructAndAdds) {
  const Profile p = matmul_and_copy(false);
  const Profile q = Profile::from_c(p.to_c());
  EXPECT_EQ(q.roofline_ns, p.roofline_ns);
  EXPECT_EQ(q.tensor_flops, p.tensor_flops);
  EXPECT_EQ(q.roofline(), p.roofline());
  Profile sum = p;
  append_sequential(sum, p);
  EXPECT_DOUBLE_EQ(sum.roofline_ns[0], 2 * p.roofline_ns[0]);
  EXPECT_DOUBLE_EQ(sum.roofline(), p.roofline());
}

// A bench row travels between ranks (and from every row to the JSON) through mp::pack / unpack_bench:
// every DeviceCost field arrives, the trace's instruction and host-step counts included (they were
// left out of the packed fields once, and every JSON row said 0 instructions).
TEST(BenchColumns, BenchRowsPackEveryDeviceField) {
  trnsci::cli::BenchResult r;
  r.host_seconds = 0.25;
  r.device = trnsci::cli::DeviceCost::from(matmul_and_copy(true));
  r.device.host_steps = 3;
  ASSERT_GT(r.device.instructions, 0);
  const trnsci::cli::BenchResult q = trnsci::cli::mp::unpack_bench(trnsci::cli::mp::pack(r));
  EXPECT_EQ(q.device.instructions, r.device.instructions);
  EXPECT_EQ(q.device.host_steps, 3);
  EXPECT_EQ(q.device.busy_ns, r.device.busy_ns);
  EXPECT_EQ(q.device.roofline_ns, r.device.roofline_ns);
  EXPECT_EQ(q.device.element_ops, r.device.element_ops);
  EXPECT_EQ(q.device.dma_bytes, r.device.dma_bytes);
  EXPECT_EQ(q.device.roofline_engine, r.device.roofline_engine);
  EXPECT_EQ(q.host_seconds, r.host_seconds);
}

// Emulator bound of that trace with its store at given host rates: 2*128*128*512 flops at the SGEMM
// rate, the 128 x 512 element copy at the streaming rate, the stored 128 x 512 fp32 at the copy rate.
TEST(BenchColumns, EmulatorBoundIsTheTraceWorkAtTheHostRates) {
  const trnsci::cli::DeviceCost d = trnsci::cli::DeviceCost::from(matmul_and_copy(true));
  trnsci::cli::HostRates rates;
  rates.sgemm_flops_per_s = 1e11;
  rates.stream_elements_per_s = 2e9;
  rates.copy_bytes_per_s = 1e10;
  const double expect = 2.0 * 128 * 128 * 512 / 1e11 + 128.0 * 512 / 2e9 + 128.0 * 512 * 4 / 1e10;
  EXPECT_NEAR(trnsci::cli::emulator_bound_seconds(d, rates), expect, expect * 1e-12);
  EXPECT_EQ(trnsci::cli::emulator_bound_seconds(d, trnsci::cli::HostRates{}), 0.0);  // rates not measured
}

// The measured host rates are positive and finite.
TEST(BenchColumns, HostRatesAreMeasured) {
  const trnsci::cli::HostRates h = trnsci::cli::measure_host_rates();
  EXPECT_TRUE(h.measured());
  EXPECT_GT(h.threads, 0);
}

// `trnsci bench --threads 1`: the rates are measured on the rows' own thread count.
TEST(BenchColumns, HostRatesOnAGivenThreadCount) {
  const trnsci::cli::HostRates h = trnsci::cli::measure_host_rates(1);
  EXPECT_TRUE(h.measured());
  EXPECT_EQ(h.threads, 1);
}

// `trnsci bench --clock cpu`: now_seconds reads the process's CPU seconds, which advance with work
// done and not with time spent waiting (a sleep), and the host rates are measured on that clock.
TEST(BenchColumns, CpuClockCountsWorkNotWaiting) {
  using trnsci::cli::BenchClock;
  trnsci::cli::set_bench_clock(BenchClock::process_cpu);
  const double t0 = trnsci::cli::now_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const double slept = trnsci::cli::seconds_since(t0);
  volatile double sink = 0;
  const double t1 = trnsci::cli::now_seconds();
  while (trnsci::cli::seconds_since(t1) < 0.05) sink = sink + 1.0;  // 50 ms of CPU, measured on the CPU clock
  const trnsci::cli::HostRates h = trnsci::cli::measure_host_rates(1);
  trnsci::cli::set_bench_clock(BenchClock::wall);
  // A 500 ms sleep costs this thread no CPU; the bound leaves room for another thread of the process
  // (a library's start-up) running meanwhile.
  EXPECT_LT(slept, 0.25);
  EXPECT_GT(sink, 0.0);
  EXPECT_TRUE(h.measured());
  EXPECT_EQ(trnsci::cli::bench_clock(), BenchClock::wall);
}

}  // namespace
