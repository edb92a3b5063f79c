// The per-call fast path (docs/architecture.md "Per-call cost") keeps state warm between calls: each
// host thread's NeuronCore (SBUF/PSUM storage, trace buffer, allocator), single-program launches run
// inline on the calling thread, and the cost model's per-thread schedule memo. None of it may show:
// a call on a warm thread leaves the same output bits, the same trace and the same modeled profile
// as the same call on a cold thread (a fresh thread: fresh core, empty memo), whatever ran before it
// (other shapes, other settings, the same call), on any host thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/core.hpp"
#include "trn/core/report_observer.hpp"
#include "trnblas.h"

using namespace trn;
using namespace trn::blas;

namespace {

// What a call leaves behind: its output bytes, its trace (every field of every record) and its profile.
struct Outcome {
  std::vector<std::uint8_t> out;
  std::vector<std::uint64_t> trace;
  std::vector<double> profile;
};

void put_trace(const Trace& t, std::vector<std::uint64_t>& w) {
  for (const Instruction& i : t.instructions) {
    std::uint64_t cycles = 0;
    std::memcpy(&cycles, &i.declared_cycles, sizeof cycles);
    for (std::uint64_t v : {std::uint64_t{i.index}, std::uint64_t(i.program), std::uint64_t(i.core),
                            std::uint64_t(i.engine), std::uint64_t(i.opcode), std::uint64_t(i.in_dtype),
                            std::uint64_t(i.out_dtype), std::uint64_t(i.partitions), std::uint64_t(i.free_elems),
                            std::uint64_t(i.matmul_m), std::uint64_t(i.inputs), std::uint64_t(i.bytes_read),
                            std::uint64_t(i.bytes_written), cycles, std::uint64_t(i.accumulate),
                            std::uint64_t(i.double_row), std::uint64_t(i.contiguous), std::uint64_t(i.subop),
                            std::uint64_t(i.nregions), std::uint64_t(i.host_label), std::uint64_t(i.regions_dropped)})
      w.push_back(v);
    for (std::uint8_t r = 0; r < i.nregions; ++r) {
      const Region& g = i.regions[r];
      // HBM regions are host addresses, some of them the library's stack and heap temporaries (the
      // result scalar, a gathered vector): their extents must agree, their addresses need not.
      const bool hbm = g.mem == MemSpace::hbm;
      for (std::uint64_t v : {std::uint64_t(g.mem), std::uint64_t(g.write), std::uint64_t(g.p0), std::uint64_t(g.np),
                              hbm ? 0 : g.lo, hbm ? g.hi - g.lo : g.hi})
        w.push_back(v);
    }
  }
  for (auto c : t.per_engine) w.push_back(static_cast<std::uint64_t>(c));
  w.push_back(static_cast<std::uint64_t>(t.host_steps));
}

std::vector<double> profile_fields(const Profile& p) {
  std::vector<double> v{p.total_ns, p.as_written_total_ns, p.reorder_total_ns, static_cast<double>(p.cores),
                        static_cast<double>(p.total_instructions), p.flops, p.tensor_flops, p.dma_bytes,
                        static_cast<double>(p.critical_engine), static_cast<double>(p.host_steps), p.host_roundtrip_ns,
                        p.host_critical_ns, p.host_flops, p.host_bytes, p.dma_active_ns,
                        static_cast<double>(p.target), static_cast<double>(p.mode)};
  for (int e = 0; e < kEngineCount; ++e) {
    v.push_back(p.busy_ns[static_cast<std::size_t>(e)]);
    v.push_back(p.critical_ns[static_cast<std::size_t>(e)]);
    v.push_back(static_cast<double>(p.instructions[static_cast<std::size_t>(e)]));
  }
  v.insert(v.end(), p.dma_queue_busy_ns.begin(), p.dma_queue_busy_ns.end());
  return v;
}

template <class T>
void put_bytes(const T* p, std::size_t n, std::vector<std::uint8_t>& out) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(p);
  out.insert(out.end(), b, b + n * sizeof(T));
}

// Fixed operands (addresses included: the traces hold HBM addresses, so every run uses these buffers).
struct Operands {
  std::vector<float> x, y, a, b;
  std::vector<double> xd, yd, ad;
  Operands() : x(64 * 64), y(64 * 64), a(64 * 64), b(64 * 64), xd(64), yd(64), ad(64) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = 0.25f + static_cast<float>(i % 7) * 0.125f - static_cast<float>(i % 3) * 0.3f;
      y[i] = 1.0f - static_cast<float>(i % 5) * 0.0625f;
      a[i] = static_cast<float>((i * 37) % 11) * 0.1f - 0.5f;
      b[i] = static_cast<float>((i * 17) % 13) * 0.05f - 0.25f;
    }
    for (std::size_t i = 0; i < xd.size(); ++i) {
      xd[i] = 0.3 + static_cast<double>(i % 9) * 0.1;
      yd[i] = 1.0 - static_cast<double>(i % 4) * 0.2;
      ad[i] = static_cast<double>((i * 7) % 5) * 0.3 - 0.6;
    }
  }
};
const Operands& ops() {
  static const Operands o;
  return o;
}

// One call of a case; each case writes only its own output buffer (cases may run on several threads).
struct Case {
  std::string name;
  std::function<Outcome(const Settings&)> run;
};

Outcome finish(std::vector<std::uint8_t> out, const CallReport& r) {
  Outcome o;
  o.out = std::move(out);
  put_trace(r.trace, o.trace);
  o.profile = profile_fields(r.profile);
  return o;
}

std::vector<Case> cases() {
  const Operands& o = ops();
  std::vector<Case> c;
  for (int n : {4, 16}) {
    const std::string sn = " n=" + std::to_string(n);
    c.push_back({"sdot" + sn, [&o, n](const Settings& s) {
                   CallReport r;
                   const float v = dot(s, n, o.x.data(), 1, o.y.data(), 1, &r);
                   std::vector<std::uint8_t> out;
                   put_bytes(&v, 1, out);
                   return finish(out, r);
                 }});
    c.push_back({"saxpy" + sn, [&o, n](const Settings& s) {
                   CallReport r;
                   std::vector<float> yy(o.y.begin(), o.y.begin() + n);
                   axpy(s, n, 0.75f, o.x.data(), 1, yy.data(), 1, &r);
                   std::vector<std::uint8_t> out;
                   put_bytes(yy.data(), yy.size(), out);
                   return finish(out, r);
                 }});
    c.push_back({"snrm2" + sn, [&o, n](const Settings& s) {
                   CallReport r;
                   const float v = nrm2(s, n, o.x.data(), 2, &r);
                   std::vector<std::uint8_t> out;
                   put_bytes(&v, 1, out);
                   return finish(out, r);
                 }});
  }
  c.push_back({"sgemv 8x8", [&o](const Settings& s) {
                 CallReport r;
                 std::vector<float> yy(o.y.begin(), o.y.begin() + 8);
                 gemv(s, Op::T, 8, 8, 1.5f, o.a.data(), 8, o.x.data(), 1, 0.5f, yy.data(), 1, &r);
                 std::vector<std::uint8_t> out;
                 put_bytes(yy.data(), yy.size(), out);
                 return finish(out, r);
               }});
  for (int n : {8, 64}) {
    c.push_back({"sgemm " + std::to_string(n), [&o, n](const Settings& s) {
                   CallReport r;
                   std::vector<float> cc(o.y.begin(), o.y.begin() + n * n);
                   gemm(s, GemmMode::fp32, Op::N, Op::T, n, n, n, 1.0f, {o.a.data(), DType::f32, n},
                        {o.b.data(), DType::f32, n}, 0.25f, {cc.data(), DType::f32, n}, &r);
                   std::vector<std::uint8_t> out;
                   put_bytes(cc.data(), cc.size(), out);
                   return finish(out, r);
                 }});
  }
  c.push_back({"ddot n=4", [&o](const Settings& s) {
                 CallReport r;
                 const double v = dot(s, 4, o.xd.data(), 1, o.yd.data(), 1, &r);
                 std::vector<std::uint8_t> out;
                 put_bytes(&v, 1, out);
                 return finish(out, r);
               }});
  c.push_back({"dgemv 8x8", [&o](const Settings& s) {
                 CallReport r;
                 std::vector<double> yy(o.yd.begin(), o.yd.begin() + 8);
                 gemv(s, Op::N, 8, 8, 1.0, o.ad.data(), 8, o.xd.data(), 1, 0.0, yy.data(), 1, &r);
                 std::vector<std::uint8_t> out;
                 put_bytes(yy.data(), yy.size(), out);
                 return finish(out, r);
               }});
  return c;
}

// The settings the calls are made under: targets, core counts and host thread counts interleave.
std::vector<Settings> settings_list() {
  std::vector<Settings> v(4);
  v[1].target = Generation::trn2;
  v[2].num_cores = 2;
  v[2].host_threads = 2;
  v[3].host_threads = 1;
  v[3].stochastic_rounding = true;
  v[3].sr_seed = 7;
  return v;
}

// The cold outcome of every (case, settings): each on a fresh thread (a new core, an empty memo).
const std::vector<std::vector<Outcome>>& cold() {
  static const std::vector<std::vector<Outcome>> all = [] {
    const auto cs = cases();
    const auto ss = settings_list();
    std::vector<std::vector<Outcome>> r(cs.size(), std::vector<Outcome>(ss.size()));
    for (std::size_t i = 0; i < cs.size(); ++i)
      for (std::size_t k = 0; k < ss.size(); ++k) std::thread([&] { r[i][k] = cs[i].run(ss[k]); }).join();
    return r;
  }();
  return all;
}

void expect_same(const Outcome& got, const Outcome& want, const std::string& what) {
  EXPECT_EQ(got.out, want.out) << what << ": output bits";
  EXPECT_EQ(got.trace, want.trace) << what << ": trace";
  EXPECT_EQ(got.profile, want.profile) << what << ": modeled profile";
}

// Every (case, settings) pair in `order`, `rounds` times, on the calling thread, against the cold outcomes.
void run_warm(const std::vector<std::size_t>& order, int rounds, const std::string& tag) {
  const auto cs = cases();
  const auto ss = settings_list();
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i : order)
      for (std::size_t k = 0; k < ss.size(); ++k)
        expect_same(cs[i].run(ss[k]), cold()[i][k],
                    tag + " round " + std::to_string(round) + " " + cs[i].name + " settings " + std::to_string(k));
}

std::vector<std::size_t> forward() {
  std::vector<std::size_t> v(cases().size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

TEST(WarmCalls, SameCallTwiceAndInterleavedShapesMatchACold) {
  (void)cold();
  run_warm(forward(), 2, "forward");
  auto back = forward();
  std::reverse(back.begin(), back.end());
  run_warm(back, 1, "reverse");
  // Each call twice in a row (the second finds its own state and its memo entry).
  for (std::size_t i : forward()) run_warm({i, i}, 1, "repeat");
}

TEST(WarmCalls, ConcurrentThreadsMatchACold) {
  (void)cold();
  auto back = forward();
  std::reverse(back.begin(), back.end());
  std::thread t1([&] { run_warm(forward(), 2, "thread 1"); });
  std::thread t2([&] { run_warm(back, 2, "thread 2"); });
  t1.join();
  t2.join();
}

// A warm core shows a fresh allocation exactly as a fresh core does: NaN poison (0xFF bytes) in the
// tile's partitions, whatever an earlier program wrote into the range.
TEST(WarmCalls, FreshAllocationsReadAsPoisonOnAWarmCore) {
  LaunchConfig lc;
  lc.host_threads = 1;
  HbmTensor out(DType::f32, {128, 16});
  for (int round = 0; round < 3; ++round) {
    launch(lc, [&](NeuronCore& nc) {
      AllocScope sb(nc.sbuf());
      const Tile t = sb.alloc(DType::f32, 128, {16}, "written");
      nc.memset(t, 1.0f + static_cast<float>(round));
      nc.dma_copy(out.tile(0, 128, 0, 16), t);
    });
    for (std::int32_t rows : {1, 4, 128}) {
      std::memset(out.data(), 0, 128 * 16 * 4);
      launch(lc, [&](NeuronCore& nc) {
        AllocScope sb(nc.sbuf());
        const Tile t = sb.alloc(DType::f32, rows, {16}, "unwritten");
        nc.dma_copy(out.tile(0, rows, 0, 16), t);
      });
      const auto* b = reinterpret_cast<const std::uint8_t*>(out.data());
      for (std::int64_t i = 0; i < std::int64_t{rows} * 16 * 4; ++i)
        ASSERT_EQ(b[i], 0xFF) << "round " << round << " rows " << rows << " byte " << i;
    }
  }
}

// The schedule memo returns what scheduling returns: for a repeated trace, for the same trace with
// its HBM addresses moved (order kept: a memo hit), and for a trace whose HBM regions overlap
// differently (a different key).
TEST(WarmCalls, ScheduleMemoEqualsTheSchedule) {
  const Settings s;
  CallReport r8, r64;
  std::vector<float> c8(64), c64(64 * 64);
  const Operands& o = ops();
  gemm(s, GemmMode::fp32, Op::N, Op::N, 8, 8, 8, 1.0f, {o.a.data(), DType::f32, 8}, {o.b.data(), DType::f32, 8}, 0.0f,
       {c8.data(), DType::f32, 8}, &r8);
  gemm(s, GemmMode::fp32, Op::N, Op::N, 64, 64, 64, 1.0f, {o.a.data(), DType::f32, 64}, {o.b.data(), DType::f32, 64},
       0.0f, {c64.data(), DType::f32, 64}, &r64);
  for (const Trace* base : {&r8.trace, &r64.trace}) {
    Trace moved = *base, aliased = *base;
    for (Instruction& i : moved.instructions)
      for (std::uint8_t g = 0; g < i.nregions; ++g)
        if (i.regions[g].mem == MemSpace::hbm) {
          i.regions[g].lo += 4096;
          i.regions[g].hi += 4096;
        }
    // Every HBM region on one range: now all of them overlap (a different dependency structure).
    for (Instruction& i : aliased.instructions)
      for (std::uint8_t g = 0; g < i.nregions; ++g)
        if (i.regions[g].mem == MemSpace::hbm) {
          i.regions[g].lo = 1 << 20;
          i.regions[g].hi = (1 << 20) + 256;
        }
    for (Generation target : {Generation::trn1, Generation::trn2}) {
      CostModelOptions opt;
      opt.target = target;
      for (const Trace* t : std::initializer_list<const Trace*>{base, &moved, &aliased, base}) {
        // Scheduled on a fresh thread: its memo is empty, so this is the schedule itself.
        Profile want;
        std::thread([&] { want = schedule_trace(*t, opt).profile; }).join();
        for (int k = 0; k < 2; ++k) EXPECT_EQ(profile_fields(schedule_trace(*t, opt).profile), profile_fields(want));
        // Right after a repeat (the memo's last trace), a timeline asked for is still scheduled.
        CostModelOptions with_timeline = opt;
        with_timeline.keep_timeline = true;
        const Schedule timed = schedule_trace(*t, with_timeline);
        EXPECT_FALSE(timed.timeline.empty());
        EXPECT_EQ(profile_fields(timed.profile), profile_fields(want));
      }
    }
  }
}


// A Level 2 call that is one nested GEMM takes the nested report over instead of modeling the same
// trace again (docs/architecture.md "Per-call cost", eighth round): its profile and pass count must
// be what finishing its trace under its settings gives, for every setting the finish reads.
TEST(WarmCalls, Level2ReportTakenOverEqualsAFinishedOne) {
  const Operands& o = ops();
  std::vector<Settings> settings(4);
  settings[1].target = Generation::trn2;
  settings[2].num_cores = 2;
  settings[3].report_trace_only = true;
  for (const Settings& s : settings)
    for (int rep = 0; rep < 3; ++rep) {  // cold, recorded, replayed
      std::vector<float> y(16, 0.5f);
      std::vector<double> yd(8, 0.5);
      CallReport rs, rd;
      gemv(s, Op::T, 8, 8, 1.5f, o.a.data(), 8, o.x.data(), 1, 0.25f, y.data(), 1, &rs);
      gemv(s, Op::N, 8, 8, 1.5, o.ad.data(), 8, o.xd.data(), 1, 0.0, yd.data(), 1, &rd);
      for (const CallReport* r : {&rs, &rd}) {
        ASSERT_FALSE(r->trace.instructions.empty());
        CallReport want;
        Trace copy = r->trace;
        std::thread([&] { want.finish(s, std::move(copy)); }).join();  // a fresh thread: modeled, not memoised
        EXPECT_EQ(profile_fields(r->profile), profile_fields(want.profile)) << "rep " << rep;
        EXPECT_EQ(r->tensor_passes, want.tensor_passes) << "rep " << rep;
      }
    }
}

// A C entry point's short trace waits on the handle for its schedule until GetLastProfile asks
// (trnblas/src/deferred_profile.hpp). Under a report observer every call is scheduled at once (the
// path before session 23), so that is the reference: for each setting the schedule reads (target,
// cores), each call's GetLastProfile must be the bytes the observed call stored, whether asked once,
// twice, after a failed call (which stores nothing) or only after a later call (the later call's).
TEST(WarmCalls, DeferredCApiProfileEqualsTheScheduledOne) {
  const Operands& o = ops();
  std::vector<float> c(64 * 64), rhs(64);
  std::vector<double> cd(64);
  float r = 0.0f;
  double rd = 0.0;
  const float one = 1.0f, zero = 0.0f;
  const double oned = 1.0, zerod = 0.0;
  const std::vector<std::function<trnblasStatus_t(trnblasHandle_t)>> calls{
      [&](trnblasHandle_t h) { return trnblasSdot(h, 4, o.x.data(), 1, o.y.data(), 1, &r); },
      [&](trnblasHandle_t h) { return trnblasSnrm2(h, 16, o.x.data(), 1, &r); },
      [&](trnblasHandle_t h) {
        std::copy_n(o.x.begin(), 8, rhs.begin());
        for (int i = 0; i < 8; ++i) c[static_cast<std::size_t>(i * 9)] = 2.0f;
        return trnblasStrsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, 8, c.data(), 8, rhs.data(), 1);
      },
      [&](trnblasHandle_t h) {
        return trnblasSgemv(h, TRNBLAS_OP_N, 8, 8, &one, o.a.data(), 8, o.x.data(), 1, &zero, c.data() + 100, 1);
      },
      [&](trnblasHandle_t h) {
        return trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 8, 8, 8, &one, o.a.data(), 8, o.b.data(), 8, &zero,
                            c.data() + 200, 8);
      },
      // 64^3: a trace longer than the deferred bound, scheduled at once.
      [&](trnblasHandle_t h) {
        return trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 64, 64, 64, &one, o.a.data(), 64, o.b.data(), 64, &zero,
                            c.data(), 64);
      },
      [&](trnblasHandle_t h) { return trnblasDdot(h, 4, o.xd.data(), 1, o.yd.data(), 1, &rd); },
      [&](trnblasHandle_t h) {
        return trnblasDgemv(h, TRNBLAS_OP_N, 8, 8, &oned, o.ad.data(), 8, o.xd.data(), 1, &zerod, cd.data(), 1);
      },
  };
  const auto profile_bytes = [](trnblasHandle_t h) {
    trnProfile_t p;
    std::memset(&p, 0xA5, sizeof p);
    EXPECT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
    std::vector<std::uint8_t> v;
    put_bytes(&p, 1, v);
    return v;
  };
  const ReportObserver any{[](void*, const Report&, const ReportSettings&) {}, nullptr};
  for (trnTarget_t target : {TRN_TARGET_TRN1, TRN_TARGET_TRN2})
    for (int cores : {1, 2}) {
      trnblasHandle_t h = nullptr;
      ASSERT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSetTarget(h, target), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSetNumCores(h, cores), TRNBLAS_STATUS_SUCCESS);
      for (std::size_t k = 0; k < calls.size(); ++k) {
        const std::string where = "call " + std::to_string(k) + " target " + std::to_string(target) + " cores " +
                                  std::to_string(cores);
        const ReportObserver before = set_thread_report_observer(any);
        ASSERT_EQ(calls[k](h), TRNBLAS_STATUS_SUCCESS) << where;
        set_thread_report_observer(before);
        const std::vector<std::uint8_t> want = profile_bytes(h);
        // Deferred, asked at once and again.
        ASSERT_EQ(calls[k](h), TRNBLAS_STATUS_SUCCESS) << where;
        EXPECT_EQ(profile_bytes(h), want) << where;
        EXPECT_EQ(profile_bytes(h), want) << where;
        // A failed call stores nothing; a deferred trace overwritten by the next call is that call's.
        ASSERT_EQ(calls[k](h), TRNBLAS_STATUS_SUCCESS) << where;
        EXPECT_EQ(trnblasSdot(h, 4, nullptr, 1, o.y.data(), 1, &r), TRNBLAS_STATUS_INVALID_VALUE) << where;
        EXPECT_EQ(profile_bytes(h), want) << where;
        ASSERT_EQ(calls[(k + 1) % calls.size()](h), TRNBLAS_STATUS_SUCCESS) << where;
        ASSERT_EQ(calls[k](h), TRNBLAS_STATUS_SUCCESS) << where;
        EXPECT_EQ(profile_bytes(h), want) << where;
      }
      trnblasDestroy(h);
    }
}
}  // namespace
