// Host round trips (record_host_step): ordered by their HBM regions against device instructions,
// costed by the documented formula (docs/cost-model.md section 7), reported apart from the engines
// and drawn on a "host" track. Times are modeled device nanoseconds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "trn/core/core.hpp"

using namespace trn;

namespace {

CoreConfig timing_only(Generation g) {
  CoreConfig cfg;
  cfg.generation = g;
  cfg.execute = false;
  return cfg;
}

// Device stores X (SBUF -> HBM), the host reads X and writes Y, the device loads Y (HBM -> SBUF).
struct RoundTrip {
  HbmTensor x{DType::f32, {128, 256}}, y{DType::f32, {128, 256}};
  Trace trace;
  double flops = 5e5;
  explicit RoundTrip(Generation g) {
    NeuronCore before(timing_only(g)), after(timing_only(g));
    const Tile s = before.sbuf().alloc(DType::f32, 128, {256});
    before.dma_copy(x.tile(0, 128, 0, 256), s);
    const Tile t = after.sbuf().alloc(DType::f32, 128, {256});
    after.dma_copy(t, y.tile(0, 128, 0, 256));
    trace.append(before.trace());
    record_host_step(trace, HostStep{.name = "test.roundtrip",
                                     .flops = flops,
                                     .reads = {HostSpan(x.as<float>(), x.numel())},
                                     .writes = {HostSpan(y.as<float>(), y.numel())}});
    trace.append(after.trace());
  }
};

TEST(HostStep, OrdersAfterTheDeviceWriteItReadsAndBeforeTheDeviceReadOfWhatItWrites) {
  RoundTrip rt(Generation::trn1);
  ASSERT_EQ(rt.trace.instructions.size(), 3u);
  EXPECT_EQ(rt.trace.host_steps, 1);
  EXPECT_EQ(rt.trace.total(), 2);  // engine instructions only
  const Schedule s = schedule_trace(rt.trace, CostModelOptions{Generation::trn1, 1, true});
  const auto& tl = s.timeline;
  EXPECT_GE(tl[1].start_ns, tl[0].end_ns);  // read after the device's write
  EXPECT_EQ(tl[1].depends_on, 0);
  EXPECT_GE(tl[2].start_ns, tl[1].end_ns);  // the device's read after the host's write
  EXPECT_EQ(tl[2].depends_on, 1);
  EXPECT_DOUBLE_EQ(s.profile.total_ns, tl[2].end_ns);
}

TEST(HostStep, CostFollowsTheDocumentedFormula) {
  for (Generation g : {Generation::trn1, Generation::trn2, Generation::trn3}) {
    RoundTrip rt(g);
    const HardwareSpec& hw = hardware_spec(g);
    const double bytes = 2.0 * 128 * 256 * 4;  // X to the host, Y back
    const double expect = hw.host_roundtrip_ns + bytes / hw.host_link_bytes_per_ns + rt.flops / hw.host_fp64_flops_per_ns;
    const Schedule s = schedule_trace(rt.trace, CostModelOptions{g, 1, true});
    EXPECT_NEAR(s.timeline[1].end_ns - s.timeline[1].start_ns, expect, expect * 1e-12) << hw.name;
    const Profile& p = s.profile;
    EXPECT_EQ(p.host_steps, 1);
    EXPECT_NEAR(p.host_roundtrip_ns, expect, expect * 1e-12);
    EXPECT_NEAR(p.host_critical_ns, expect, expect * 1e-12);  // the chain runs through it
    EXPECT_DOUBLE_EQ(p.host_flops, rt.flops);
    EXPECT_DOUBLE_EQ(p.host_bytes, bytes);
    EXPECT_EQ(p.total_instructions, 2);
    EXPECT_EQ(p.instructions[static_cast<int>(Engine::dma)], 2);
    EXPECT_DOUBLE_EQ(p.flops, 0.0);  // host fp64 flops are not engine flops
    // The engines' busy time does not include the host's: the same as with host steps costing 0.
    CostModelOptions off{g, 1, false};
    off.host.enabled = false;
    const Profile q = schedule_trace(rt.trace, off).profile;
    for (int e = 0; e < kEngineCount; ++e) EXPECT_DOUBLE_EQ(p.busy_ns[e], q.busy_ns[e]);
    EXPECT_NEAR(p.total_ns - q.total_ns, expect, expect * 1e-9);
  }
}

TEST(HostStep, RatesAreSwitchable) {
  RoundTrip rt(Generation::trn2);
  CostModelOptions opt{Generation::trn2, 1, true};
  opt.host = HostCostOptions{.enabled = true, .link_bytes_per_ns = 1.0, .fp64_flops_per_ns = 1.0, .roundtrip_ns = 0};
  const Schedule a = schedule_trace(rt.trace, opt);
  EXPECT_NEAR(a.profile.host_roundtrip_ns, 2.0 * 128 * 256 * 4 + rt.flops, 1e-6);
  opt.host = HostCostOptions{.enabled = false};
  const Schedule off = schedule_trace(rt.trace, opt);
  EXPECT_EQ(off.profile.host_roundtrip_ns, 0.0);
  EXPECT_EQ(off.profile.host_steps, 1);
  EXPECT_LT(off.profile.total_ns, a.profile.total_ns);
}

// The one Report takes the same rates through ReportSettings::host (what `trnsci profile --host-*` sets).
TEST(HostStep, ReportSettingsCarryTheHostRates) {
  RoundTrip rt(Generation::trn1);
  Report dflt, fast;
  finish_report(dflt, Trace(rt.trace), ReportSettings{Generation::trn1});
  ReportSettings rs{Generation::trn1};
  rs.host = HostCostOptions{.enabled = true, .link_bytes_per_ns = 2.0, .fp64_flops_per_ns = 4.0, .roundtrip_ns = 10.0};
  finish_report(fast, Trace(rt.trace), rs);
  EXPECT_NEAR(fast.profile.host_roundtrip_ns, 10.0 + 2.0 * 128 * 256 * 4 / 2.0 + rt.flops / 4.0, 1e-6);
  const HardwareSpec& hw = hardware_spec(Generation::trn1);
  EXPECT_NEAR(dflt.profile.host_roundtrip_ns,
              hw.host_roundtrip_ns + 2.0 * 128 * 256 * 4 / hw.host_link_bytes_per_ns + rt.flops / hw.host_fp64_flops_per_ns,
              1e-6);
}

// A host step touching nothing the device touches runs alongside the device work (one host thread:
// host steps serialize among themselves).
TEST(HostStep, IndependentStepsOverlapDeviceWorkAndSerializeOnTheHost) {
  NeuronCore nc(timing_only(Generation::trn1));
  HbmTensor a(DType::f32, {128, 4096});
  const Tile t = nc.sbuf().alloc(DType::f32, 128, {4096});
  nc.dma_copy(t, a.tile(0, 128, 0, 4096));
  const double device_only = model_profile(nc.trace(), Generation::trn1).total_ns;
  std::vector<double> host_buf(16);
  Trace tr = nc.trace();
  for (int i = 0; i < 2; ++i)
    record_host_step(tr, HostStep{.name = "test.independent", .flops = 10, .writes = {HostSpan(host_buf.data(), 16)}});
  const Schedule s = schedule_trace(tr, CostModelOptions{Generation::trn1, 1, true});
  EXPECT_DOUBLE_EQ(s.timeline[0].start_ns, 0.0);
  EXPECT_DOUBLE_EQ(s.timeline[1].start_ns, 0.0);
  EXPECT_DOUBLE_EQ(s.timeline[2].start_ns, s.timeline[1].end_ns);
  EXPECT_DOUBLE_EQ(s.profile.total_ns, std::max(device_only, s.timeline[2].end_ns));
}

TEST(HostStep, DeviceOnlyTraceHasNoHostTime) {
  NeuronCore nc(timing_only(Generation::trn1));
  HbmTensor a(DType::f32, {128, 256});
  const Tile t = nc.sbuf().alloc(DType::f32, 128, {256});
  nc.dma_copy(t, a.tile(0, 128, 0, 256));
  const Profile p = model_profile(nc.trace(), Generation::trn1);
  EXPECT_EQ(p.host_steps, 0);
  EXPECT_EQ(p.host_roundtrip_ns, 0.0);
  EXPECT_EQ(p.summary().find("round trips"), std::string::npos);
}

TEST(HostStep, ProfileCApiSummaryAndPerfettoShowTheHost) {
  RoundTrip rt(Generation::trn1);
  const Schedule s = schedule_trace(rt.trace, CostModelOptions{Generation::trn1, 1, true});
  const trnProfile_t c = s.profile.to_c();
  EXPECT_EQ(c.host_steps, 1);
  EXPECT_DOUBLE_EQ(c.host_roundtrip_ns, s.profile.host_roundtrip_ns);
  EXPECT_DOUBLE_EQ(c.host_critical_ns, s.profile.host_critical_ns);
  EXPECT_DOUBLE_EQ(c.host_flops, rt.flops);
  EXPECT_EQ(c.instructions, 2);
  EXPECT_NE(s.profile.summary().find("round trips 1"), std::string::npos);
  const auto j = nlohmann::json::parse(perfetto_json(rt.trace, s));
  int host_events = 0, host_tracks = 0, flows_into_host = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "host") {
      ++host_events;
      EXPECT_EQ(e["name"], "test.roundtrip");
      EXPECT_EQ(e["pid"], 1);  // after the one core
    }
    host_tracks += e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "host";
    flows_into_host += e["ph"] == "f" && e["pid"] == 1;
  }
  EXPECT_EQ(host_events, 1);
  EXPECT_EQ(host_tracks, 1);
  EXPECT_EQ(flows_into_host, 1);
}

TEST(HostStep, SpansCountElementsButOrderOnTheHull) {
  std::vector<double> m(10 * 7);
  const HostSpan s = HostSpan::matrix(m.data(), 4, 7, 10);  // 4 x 7 in a leading dimension of 10
  EXPECT_EQ(s.bytes, 4u * 7u * 8u);
  EXPECT_EQ(s.hull, (6u * 10u + 4u) * 8u);
  Trace t;
  record_host_step(t, HostStep{.name = "test.inplace", .flops = 1, .reads = {s}, .writes = {s}});
  const Instruction& ins = t.instructions[0];
  EXPECT_EQ(ins.opcode, Opcode::host_compute);
  EXPECT_EQ(ins.nregions, 1);  // the read of the written range is covered by the write
  EXPECT_EQ(ins.bytes_read, 224);
  EXPECT_EQ(ins.bytes_written, 224);
  EXPECT_EQ(host_step_name(ins.host_label), "test.inplace");
}

}  // namespace
