// Warm-program replay (issue #30; docs/architecture.md "Per-call cost", seventh round): a small
// GEMM / Level 2 call whose one-program launch was recorded on this thread (a key's second launch;
// the first runs cold) is replayed against the new call's tensors. The replay must leave what a cold run leaves: the same output bits, the same
// trace (HBM regions on the *new* tensors, every other field equal) and the same modeled profile,
// with the recorded call's buffers untouched, after changes of stride, settings, seed or an error
// call in between, on two threads at once; and on-chip memory must still read as poison in fresh
// allocations afterwards (the replay skips fills it proved no instruction reads).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/core.hpp"
#include "trnblas.h"

using namespace trn;
using namespace trn::blas;

namespace {

// One set of operands; sets differ in contents and addresses.
struct Buffers {
  std::vector<float> a, x, c;
  std::vector<double> ad, xd, cd;
  explicit Buffers(int seed) : a(16 * 16), x(16 * 16), c(16 * 16), ad(16 * 16), xd(16), cd(16 * 16) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>((i * 37 + static_cast<std::size_t>(seed) * 11) % 23) * 0.07f - 0.6f;
      x[i] = static_cast<float>((i * 13 + static_cast<std::size_t>(seed) * 5) % 17) * 0.11f - 0.9f;
      c[i] = 0.5f - static_cast<float>((i + static_cast<std::size_t>(seed)) % 7) * 0.125f;
      ad[i] = static_cast<double>((i * 7 + static_cast<std::size_t>(seed)) % 19) * 0.13 - 1.1;
      cd[i] = 0.25 - static_cast<double>((i * 3 + static_cast<std::size_t>(seed)) % 5) * 0.3;
    }
    for (std::size_t i = 0; i < xd.size(); ++i) xd[i] = 0.3 + static_cast<double>((i + static_cast<std::size_t>(seed)) % 9) * 0.1;
  }
  // Which buffer an HBM address lies in (1 + index), 0 for none (a library temporary).
  std::uint64_t owner(std::uint64_t addr, std::uint64_t& offset) const {
    const std::pair<const void*, std::size_t> spans[] = {{a.data(), a.size() * 4},   {x.data(), x.size() * 4},
                                                         {c.data(), c.size() * 4},   {ad.data(), ad.size() * 8},
                                                         {xd.data(), xd.size() * 8}, {cd.data(), cd.size() * 8}};
    for (std::size_t i = 0; i < std::size(spans); ++i) {
      const auto lo = reinterpret_cast<std::uint64_t>(spans[i].first);
      if (addr >= lo && addr < lo + spans[i].second) {
        offset = addr - lo;
        return i + 1;
      }
    }
    offset = 0;
    return 0;
  }
};

// What a call leaves: output bytes, every trace field (HBM regions as buffer + offset, temporaries
// by extent) and the profile.
struct Outcome {
  std::vector<std::uint8_t> out;
  std::vector<std::uint64_t> trace;
  std::vector<double> profile;
  bool operator==(const Outcome&) const = default;
};

Outcome outcome(const std::vector<std::uint8_t>& out, const CallReport& r, const Buffers& b) {
  Outcome o;
  o.out = out;
  for (const Instruction& i : r.trace.instructions) {
    std::uint64_t cycles = 0;
    std::memcpy(&cycles, &i.declared_cycles, sizeof cycles);
    for (std::uint64_t v : {std::uint64_t{i.index}, std::uint64_t(i.engine), std::uint64_t(i.opcode),
                            std::uint64_t(i.in_dtype), std::uint64_t(i.out_dtype), std::uint64_t(i.partitions),
                            std::uint64_t(i.free_elems), std::uint64_t(i.matmul_m), std::uint64_t(i.inputs),
                            std::uint64_t(i.bytes_read), std::uint64_t(i.bytes_written), cycles,
                            std::uint64_t(i.accumulate), std::uint64_t(i.contiguous), std::uint64_t(i.subop),
                            std::uint64_t(i.nregions)})
      o.trace.push_back(v);
    for (std::uint8_t k = 0; k < i.nregions; ++k) {
      const Region& g = i.regions[k];
      std::uint64_t offset = 0;
      const std::uint64_t who = g.mem == MemSpace::hbm ? b.owner(g.lo, offset) : 0;
      for (std::uint64_t v : {std::uint64_t(g.mem), std::uint64_t(g.write), std::uint64_t(g.p0), std::uint64_t(g.np),
                              g.mem == MemSpace::hbm ? who : g.lo, g.mem == MemSpace::hbm ? offset : g.hi,
                              g.hi - g.lo})
        o.trace.push_back(v);
    }
  }
  const Profile& p = r.profile;
  o.profile = {p.total_ns, p.as_written_total_ns, p.reorder_total_ns, p.flops, p.dma_bytes,
               static_cast<double>(p.total_instructions)};
  for (int e = 0; e < kEngineCount; ++e) o.profile.push_back(p.busy_ns[static_cast<std::size_t>(e)]);
  return o;
}

template <class T>
std::vector<std::uint8_t> bytes_of(const T* p, std::size_t n) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(p);
  return {b, b + n * sizeof(T)};
}

// A call on buffers b (its output written into b's own output buffer, a copy of C kept first).
using Call = std::function<Outcome(const Settings&, Buffers&)>;

Call sgemv(Op op, int lda, float alpha, float beta) {
  return [=](const Settings& s, Buffers& b) {
    CallReport r;
    gemv(s, op, 8, 8, alpha, b.a.data(), lda, b.x.data(), 1, beta, b.c.data(), 1, &r);
    return outcome(bytes_of(b.c.data(), 8), r, b);
  };
}
Call sgemm8(Op ta, Op tb, float alpha, float beta) {
  return [=](const Settings& s, Buffers& b) {
    CallReport r;
    gemm(s, GemmMode::fp32, ta, tb, 8, 8, 8, alpha, {b.a.data(), DType::f32, 16}, {b.x.data(), DType::f32, 8}, beta,
         {b.c.data(), DType::f32, 8}, &r);
    return outcome(bytes_of(b.c.data(), 64), r, b);
  };
}
Call dgemv(float beta) {
  return [=](const Settings& s, Buffers& b) {
    CallReport r;
    gemv(s, Op::N, 8, 8, 1.0, b.ad.data(), 8, b.xd.data(), 1, static_cast<double>(beta), b.cd.data(), 1, &r);
    return outcome(bytes_of(b.cd.data(), 8), r, b);
  };
}

std::vector<std::pair<std::string, Call>> calls() {
  return {{"sgemv T lda 8", sgemv(Op::T, 8, 1.5f, 0.5f)},   {"sgemv N lda 8", sgemv(Op::N, 8, 1.0f, 0.0f)},
          {"sgemv N lda 10", sgemv(Op::N, 10, -2.0f, 1.0f)}, {"sgemm NT", sgemm8(Op::N, Op::T, 1.0f, 0.25f)},
          {"sgemm NN beta 0", sgemm8(Op::N, Op::N, 0.75f, 0.0f)}, {"dgemv", dgemv(0.5f)}};
}

std::vector<Settings> settings() {
  std::vector<Settings> v(5);
  v[1].target = Generation::trn2;
  v[2].stochastic_rounding = true;
  v[2].sr_seed = 3;
  v[3].stochastic_rounding = true;
  v[3].sr_seed = 4;
  v[4].numerics = Numerics::trn1_measured;
  for (Settings& s : v) s.host_threads = 1;
  return v;
}

// The call on a fresh thread (fresh core, empty tables: a cold run) on fresh buffers of `seed`.
Outcome cold(const Call& call, const Settings& s, Buffers& b) {
  Outcome o;
  std::thread([&] { o = call(s, b); }).join();
  return o;
}

// Recorded on one set of buffers, replayed on another: the replay equals a cold call on the same
// (fresh) buffers, and the recorded call's buffers are not written by the replay.
TEST(ProgramReplay, ReplayRenamesTheOperandsToTheNewCall) {
  for (const auto& [name, call] : calls())
    for (std::size_t k = 0; k < settings().size(); ++k) {
      const Settings s = settings()[k];
      Buffers want_b(2);
      const Outcome want = cold(call, s, want_b);
      std::thread([&, &call = call, &name = name] {
        Buffers first(1);
        (void)call(s, first);  // the key's first launch: cold
        (void)call(s, first);  // its second: recorded
        const Buffers first_after = first;
        for (int rep = 0; rep < 3; ++rep) {
          Buffers b(2);
          EXPECT_EQ(call(s, b), want) << name << " settings " << k << " replay " << rep;
          EXPECT_EQ(b.c, want_b.c) << name;
          EXPECT_EQ(b.cd, want_b.cd) << name;
        }
        EXPECT_EQ(first.c, first_after.c) << name << ": the recorded call's output was written again";
        EXPECT_EQ(first.cd, first_after.cd) << name;
      }).join();
    }
}

// One thread runs every call under every setting in turn, four times (cold, recorded, replayed
// twice), with an invalid C call (rejected before any launch) and calls of other shapes and
// strides between them: each equals its cold run.
TEST(ProgramReplay, StrideSettingsSeedAndErrorChangesBetweenReplays) {
  const auto cs = calls();
  const auto ss = settings();
  std::vector<std::vector<Outcome>> want(cs.size(), std::vector<Outcome>(ss.size()));
  for (std::size_t i = 0; i < cs.size(); ++i)
    for (std::size_t k = 0; k < ss.size(); ++k) {
      Buffers b(5);
      want[i][k] = cold(cs[i].second, ss[k], b);
    }
  std::thread([&] {
    trnblasHandle_t h = nullptr;
    ASSERT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    for (int round = 0; round < 4; ++round)  // cold, recorded, replayed, replayed
      for (std::size_t k = 0; k < ss.size(); ++k)
        for (std::size_t i = 0; i < cs.size(); ++i) {
          Buffers b(5);
          EXPECT_EQ(cs[i].second(ss[k], b), want[i][k]) << cs[i].first << " settings " << k << " round " << round;
          // lda < m: rejected (parameter 7) before any launch, y untouched.
          std::vector<float> y(8, 3.0f);
          const float one = 1.0f, zero = 0.0f;
          EXPECT_EQ(trnblasSgemv(h, TRNBLAS_OP_N, 8, 8, &one, b.a.data(), 4, b.x.data(), 1, &zero, y.data(), 1),
                    TRNBLAS_STATUS_INVALID_VALUE);
          EXPECT_EQ(y, std::vector<float>(8, 3.0f));
        }
    trnblasDestroy(h);
  }).join();
}

// Two threads replay the same keys at once on their own buffers.
TEST(ProgramReplay, TwoThreadsReplayAtOnce) {
  const auto cs = calls();
  const Settings s = settings()[0];
  std::vector<std::vector<Outcome>> want_t(2, std::vector<Outcome>(cs.size()));
  for (int t = 0; t < 2; ++t)
    for (std::size_t i = 0; i < cs.size(); ++i) {
      Buffers b(10 + t);
      want_t[static_cast<std::size_t>(t)][i] = cold(cs[i].second, s, b);
    }
  auto worker = [&](int t) {
    for (int rep = 0; rep < 4; ++rep)
      for (std::size_t i = 0; i < cs.size(); ++i) {
        Buffers b(10 + t);
        EXPECT_EQ(cs[i].second(s, b), want_t[static_cast<std::size_t>(t)][i]) << cs[i].first << " thread " << t;
      }
  };
  std::thread t0(worker, 0), t1(worker, 1);
  t0.join();
  t1.join();
}

// After replayed calls (which skip the fills they proved unread), fresh SBUF and PSUM allocations
// over the whole range the calls used still read as the allocation poison.
TEST(ProgramReplay, FreshAllocationsAfterReplaysReadAsPoison) {
  std::thread([] {
    const Settings s = settings()[0];
    for (const auto& [name, call] : calls())
      for (int rep = 0; rep < 4; ++rep) {  // cold, recorded, replayed twice
        Buffers b(rep);
        (void)call(s, b);
      }
    LaunchConfig lc = s.launch_config();
    constexpr int kCols = 2048;  // 8 KiB of every SBUF partition
    HbmTensor sb_out(DType::f32, {128, kCols}), ps_out(DType::f32, {128, 512 * 8});
    launch(lc, [&](NeuronCore& nc) {
      AllocScope sb(nc.sbuf()), ps(nc.psum());
      const Tile t = sb.alloc(DType::f32, 128, {kCols}, "unwritten SBUF");
      nc.dma_copy(sb_out.tile(0, 128, 0, kCols), t);
      const Tile stage = sb.alloc(DType::f32, 128, {512}, "staging");
      for (int bank = 0; bank < 8; ++bank) {
        const Tile p = ps.alloc(DType::f32, 128, {512}, "unwritten PSUM bank");
        nc.tensor_copy(stage, p);  // same dtype: bit exact
        nc.dma_copy(ps_out.tile(0, 128, bank * 512, 512), stage);
      }
    });
    for (const HbmTensor* t : {&sb_out, &ps_out}) {
      const auto* b = reinterpret_cast<const std::uint8_t*>(t->data());
      const std::int64_t n = t->numel() * 4;
      std::int64_t not_poison = 0;
      for (std::int64_t i = 0; i < n; ++i) not_poison += b[i] != 0xFF;
      EXPECT_EQ(not_poison, 0) << (t == &sb_out ? "SBUF" : "PSUM");
    }
  }).join();
}

}  // namespace
