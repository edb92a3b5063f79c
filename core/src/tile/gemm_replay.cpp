// Warm one-program GEMM launches: the per-thread key table (contract in gemm_replay.hpp).
#include "gemm_replay.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "../program_replay.hpp"

namespace trn::tile::gemm_detail {

struct WarmGemm {
  std::vector<std::int64_t> key;
  std::uint64_t hash = 0;  // key_hash(key): compared before the key's words
  GemmPlan plan;
  bool has_plan = false;
  bool cold_only = false;  // recorded once without exception but not replayable: run cold, unrecorded
  detail::replay::Program program;
  detail::replay::HbmOperand ops[kMaxWarmOperands];
  int nops = 0;
};

namespace {

// Keys seen once (hashes): a key is recorded on its second launch, so a caller whose shapes
// rarely repeat (a LAPACK client through the BLAS shim) does not pay a recording per call.
inline constexpr int kSeenKeys = 2 * kWarmGemmEntries;

struct WarmTable {
  WarmGemm entries[kWarmGemmEntries];
  int next = 0;  // round-robin victim
  int last = 0;  // the entry found or filled last
  std::vector<std::int64_t> key;  // the key being looked up (its buffer reused)
  std::uint64_t seen[kSeenKeys] = {};
  std::uint64_t seen_at[kSeenKeys] = {};  // the value of `notes` when the key was noted
  std::uint64_t notes = 0;                // keys noted so far
  int next_seen = 0;
};

std::uint64_t key_hash(const std::vector<std::int64_t>& k) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::int64_t v : k) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
  return h | 1;  // never 0 (an empty slot)
}

// True when the key was seen before with fewer than kWarmGemmEntries other keys noted since (notes -
// seen_at counts its own note), and forgets it (it is about to get an entry); otherwise notes it (again). A key that comes back only after more
// new keys than the table holds (a driver cycling through more shapes than kWarmGemmEntries; with 8
// entries, ssyevd's 57 GEMM shapes per call) would be evicted round-robin before its recording
// replays: it runs cold instead of being recorded on every second sighting for nothing (session 23).
// 128 entries (session 24) hold LAPACK's solve sweeps through the BLAS shim: csptrs's cgeru_ of
// m = K-1 = 49..1, each m a key of the complex ger's plane GEMMs, cycled once per solve. A heuristic:
// the table evicts on recordings, not on notes, so the count is an upper bound of the keys between.
bool seen_before(WarmTable& t, std::uint64_t h) {
  for (int i = 0; i < kSeenKeys; ++i)
    if (t.seen[i] == h) {
      if (t.notes - t.seen_at[i] <= static_cast<std::uint64_t>(kWarmGemmEntries)) {
        t.seen[i] = 0;
        return true;
      }
      t.seen_at[i] = t.notes++;  // too long ago: noted again, as now
      return false;
    }
  t.seen[t.next_seen] = h;
  t.seen_at[t.next_seen] = t.notes++;
  t.next_seen = (t.next_seen + 1) % kSeenKeys;
  return false;
}
WarmTable& warm_table() {
  thread_local WarmTable t;
  return t;
}

// Key words of one tensor: dtype, rank, shape, strides.
std::size_t tensor_words(const HbmTensor& t) { return 2 + 2 * t.shape().size(); }
std::int64_t* put_tensor(std::int64_t* k, const HbmTensor& t) {
  *k++ = static_cast<std::int64_t>(t.dtype());
  *k++ = static_cast<std::int64_t>(t.shape().size());
  k = std::copy(t.shape().begin(), t.shape().end(), k);
  return std::copy(t.strides().begin(), t.strides().end(), k);
}

// Everything that decides the launch's instruction stream and plan (gemm_replay.hpp). A field
// added to CoreConfig must be added to the key too (it may change the stream). The key's length is
// counted first and its words written through a pointer into the reused buffer (a push_back per
// word was most of a warm lookup).
// Compiles only while CoreConfig has the key's 12 configuration words as fields (a sizeof test
// would miss a one-byte field added into its padding): a field added must be added to build_key.
[[maybe_unused]] void core_config_fields_are_the_key_words(const CoreConfig& c) {
  [[maybe_unused]] const auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = c;
}
void build_key(std::vector<std::int64_t>& key, const CoreConfig& c, const BlockGemmArgs& g) {
  constexpr std::size_t kConfigWords = 12, kFixedWords = kConfigWords + 2 + 3 + 4 + 5;
  std::size_t words = kFixedWords + 2 * g.pairs.size() + tensor_words(g.c);
  for (const HbmTensor& t : g.a_src) words += tensor_words(t);
  for (const HbmTensor& t : g.b_src) words += tensor_words(t);
  key.resize(words);
  std::int64_t* k = key.data();
  const std::int64_t config[kConfigWords] = {
      static_cast<std::int64_t>(c.generation), static_cast<std::int64_t>(c.numerics),
      std::int64_t{c.stochastic_rounding}, static_cast<std::int64_t>(c.sr_seed), std::int64_t{c.trace},
      std::int64_t{c.execute}, std::int64_t{c.strict},
      static_cast<std::int64_t>(c.activation_out_of_range), static_cast<std::int64_t>(c.matmul_isa),
      static_cast<std::int64_t>(c.double_row_order), std::int64_t{c.matmul_skip_zero_terms},
      static_cast<std::int64_t>(c.two_nan_result)};
  k = std::copy(config, config + kConfigWords, k);
  *k++ = static_cast<std::int64_t>(g.a_src.size());
  for (const HbmTensor& t : g.a_src) k = put_tensor(k, t);
  *k++ = static_cast<std::int64_t>(g.b_src.size());
  for (const HbmTensor& t : g.b_src) k = put_tensor(k, t);
  *k++ = static_cast<std::int64_t>(g.load);
  *k++ = g.split;
  *k++ = static_cast<std::int64_t>(g.pairs.size());
  for (const auto& [a, b] : g.pairs) {
    *k++ = a;
    *k++ = b;
  }
  *k++ = g.m;
  *k++ = g.n;
  *k++ = g.k_begin;
  *k++ = g.k_end;
  k = put_tensor(k, g.c);
  *k++ = std::bit_cast<std::int32_t>(g.alpha);
  *k++ = std::bit_cast<std::int32_t>(g.beta);
  *k++ = std::int64_t{g.multiply};
  *k++ = std::int64_t{g.raw};
  *k++ = static_cast<std::int64_t>(g.triangle);
}

}  // namespace

WarmGemm* warm_gemm_entry(const LaunchConfig& lc, const std::vector<BlockGemmArgs>& problems) {
  if (problems.size() != 1 || detail::replay::recording_on_this_thread()) return nullptr;
  const BlockGemmArgs& g = problems.front();
  const std::size_t nops = g.a_src.size() + g.b_src.size() + 1;
  if (nops > kMaxWarmOperands) return nullptr;
  detail::replay::HbmOperand ops[kMaxWarmOperands];
  std::size_t i = 0;
  for (const HbmTensor& t : g.a_src) ops[i++] = detail::replay::hbm_operand(t);
  for (const HbmTensor& t : g.b_src) ops[i++] = detail::replay::hbm_operand(t);
  ops[i++] = detail::replay::hbm_operand(g.c);
  if (detail::replay::any_overlap({ops, nops})) return nullptr;

  WarmTable& table = warm_table();
  build_key(table.key, lc.core, g);
  const auto same_key = [&table](const WarmGemm& e) {
    return e.key.size() == table.key.size() &&
           std::memcmp(e.key.data(), table.key.data(), table.key.size() * sizeof(std::int64_t)) == 0;
  };
  // The last key found first (a call repeated: no hash), then the table by hash.
  WarmGemm* w = same_key(table.entries[table.last]) ? &table.entries[table.last] : nullptr;
  if (w == nullptr) {
    const std::uint64_t h = key_hash(table.key);
    for (int e = 0; e < kWarmGemmEntries && w == nullptr; ++e)
      if (table.entries[e].hash == h && same_key(table.entries[e])) {
        w = &table.entries[e];
        table.last = e;
      }
    if (w == nullptr) {
      if (!seen_before(table, h)) return nullptr;  // first launch of this key: cold, unrecorded
      table.last = table.next;
      w = &table.entries[table.next];
      table.next = (table.next + 1) % kWarmGemmEntries;
      warm_gemm_drop(*w);
      w->key = table.key;
      w->hash = h;
    }
  }
  std::copy(ops, ops + nops, w->ops);
  w->nops = static_cast<int>(nops);
  return w;
}

const GemmPlan* warm_gemm_plan(const WarmGemm& w) { return w.has_plan ? &w.plan : nullptr; }

void warm_gemm_run(NeuronCore& nc, WarmGemm& w, const BlockGemmArgs& g, const BlockShape& b, const GemmPlan& plan) {
  const std::span<const detail::replay::HbmOperand> ops(w.ops, static_cast<std::size_t>(w.nops));
  if (w.program.complete && w.program.core == &nc && w.program.sbuf_storage == nc.sbuf().storage() &&
      w.program.psum_storage == nc.psum().storage())
    return detail::replay::replay(nc, w.program, ops);
  if (w.cold_only) return gemm_block_kernel(nc, g, b);
  w.has_plan = false;
  detail::replay::record(nc, ops, w.program, [&](NeuronCore& core) { gemm_block_kernel(core, g, b); });
  if (w.program.complete) {
    w.plan = plan;
    w.has_plan = true;
  } else {
    w.cold_only = true;
  }
}

void warm_gemm_drop(WarmGemm& w) {
  w.key.clear();
  w.hash = 0;
  w.has_plan = false;
  w.cold_only = false;
  w.program.events.clear();
  w.program.complete = false;
  w.program.core = nullptr;
}

}  // namespace trn::tile::gemm_detail
