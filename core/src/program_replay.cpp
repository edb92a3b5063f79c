// Warm-program replay: the recorder behind the hooks and the replay loop (contract in
// program_replay.hpp).
#include "program_replay.hpp"

#include <algorithm>
#include <iterator>

#include "engine_util.hpp"
#include "onchip_dirty.hpp"

#include "trn/core/error.hpp"

namespace trn::detail::replay {

int g_recorders = 0;
int g_placing = 0;

namespace {

// What the thread's recording collects (one at a time per thread).
struct Recorder {
  NeuronCore* nc = nullptr;
  std::span<const HbmOperand> ops;
  Program* out = nullptr;
  std::uint64_t first_instruction = 0;
  std::uint64_t noted_instructions = 0;
  bool unsupported = false;  // an operand or a memory the replay could not rename
  Recorder* outer = nullptr;
  bool pending_alloc = false;  // an allocation noted whose tile has not come back (it threw)  // a recording this one interrupted (it then misses instructions: incomplete)
  // Where the events go while recording: the thread's scratch list (below), or out->events for a
  // recording inside another one (which holds the scratch).
  std::vector<Event>* events = nullptr;
};
thread_local Recorder* t_recorder = nullptr;

// The thread's recording list, reused from one recording to the next: a recording collects its
// events here and the program keeps an exact copy at the end. Growing each program's own list by
// doubling left it up to twice its size, in memory first touched there: a process's second
// ssyevd 128 call records ~40 programs of ~30 events (~860 bytes each), and those fresh pages were
// most of that call's page faults (perf, session 25). Host work only: the same events.
// A thread keeps the list's buffer while it holds at most this many events (~2.65 MB: 4096 of 648 bytes).
constexpr std::size_t kScratchEventsKept = 4096;
std::vector<Event>& recording_scratch() {
  thread_local std::vector<Event> scratch;
  return scratch;
}

// The thread's recorder when it records for this core (nullptr otherwise; a foreign core's
// instruction inside a recording makes it unreplayable).
Recorder* recorder_for(const NeuronCore& nc) {
  Recorder* r = t_recorder;
  if (r == nullptr) return nullptr;
  if (r->nc != &nc) {
    r->unsupported = true;
    return nullptr;
  }
  return r;
}

// Renames an HBM tile to (operand, byte offset); on-chip tiles stay as they are.
void note_tile(Recorder& r, const Tile& t, Tile& slot, std::int8_t& hbm) {
  slot = t;
  hbm = -1;
  if (t.mem != MemSpace::hbm) return;
  for (std::size_t i = 0; i < r.ops.size(); ++i) {
    const HbmOperand& o = r.ops[i];
    if (t.base >= o.lo && t.base < o.hi) {
      hbm = static_cast<std::int8_t>(i);
      slot.base = reinterpret_cast<std::byte*>(t.base - o.data);  // offset, rebased on replay
      return;
    }
  }
  r.unsupported = true;  // an HBM tensor that is not one of the call's operands
}

Event& next_instruction(Recorder& r, Kind k) {
  if (r.pending_alloc) r.unsupported = true;  // an allocation that threw was caught by the kernel
  ++r.noted_instructions;
  Event& e = r.events->emplace_back();
  e.kind = k;
  return e;
}

// tensor_scalar's scalar operand k (0, 1): its immediate, or its tile in slot 2 + k.
void note_scalar(Recorder& r, const ScalarOperand& s, Event& e, int k) {
  e.imm[k] = s.imm;
  e.scalar_tile[k] = s.is_tile;
  if (s.is_tile) note_tile(r, s.tile, e.t[2 + k], e.hbm[2 + k]);
}

Tile renamed(const Tile& t, std::int8_t hbm, std::span<const HbmOperand> ops) {
  if (hbm < 0) return t;
  Tile x = t;
  x.base = const_cast<std::byte*>(ops[static_cast<std::size_t>(hbm)].data) + reinterpret_cast<std::intptr_t>(t.base);
  return x;
}

ScalarOperand renamed_scalar(const Event& e, int k, std::span<const HbmOperand> ops) {
  if (!e.scalar_tile[k]) return ScalarOperand(e.imm[k]);
  return ScalarOperand(renamed(e.t[2 + k], e.hbm[2 + k], ops));
}

// The recorded allocation again, through the real allocator (its poison fill, dirty ranges, peak
// and operand-memo record); it must land where it landed when recorded.
void replay_alloc(NeuronCore& nc, const Event& e, bool place, std::int64_t used_after) {
  OnChipMemory& m = e.space == MemSpace::psum ? nc.psum() : nc.sbuf();
  if (place) place_next_alloc(m, e.t[0].offset_bytes, used_after);
  const std::int64_t* s = e.shape;
  const AllocFill fill = e.first_touch_writes ? AllocFill::none : e.fill;
  Tile t;
  switch (e.ndim) {
    case 1: t = m.alloc(e.dtype, e.partitions, {s[0]}, e.name, e.partition_start, fill); break;
    case 2: t = m.alloc(e.dtype, e.partitions, {s[0], s[1]}, e.name, e.partition_start, fill); break;
    case 3: t = m.alloc(e.dtype, e.partitions, {s[0], s[1], s[2]}, e.name, e.partition_start, fill); break;
    default: t = m.alloc(e.dtype, e.partitions, {s[0], s[1], s[2], s[3]}, e.name, e.partition_start, fill); break;
  }
  if (t.base != e.t[0].base)
    throw Error("program replay: allocation '" + e.name + "' landed elsewhere than when recorded");
  for (int k = 0; k < e.nrest; ++k)
    poison_onchip(m, e.rest[k][0], e.rest[k][1], e.rest[k][2], e.rest[k][3]);
}

void replay_event(NeuronCore& nc, const Event& e, std::span<const HbmOperand> ops, bool place) {
  switch (e.kind) {
    case Kind::alloc: return replay_alloc(nc, e, place, e.used_after);
    case Kind::free: return (e.space == MemSpace::psum ? nc.psum() : nc.sbuf()).free(e.t[0]);
    case Kind::dma_copy: return nc.dma_copy(renamed(e.t[0], e.hbm[0], ops), renamed(e.t[1], e.hbm[1], ops));
    case Kind::nc_matmul:
      return nc.nc_matmul(renamed(e.t[0], e.hbm[0], ops), renamed(e.t[1], e.hbm[1], ops), renamed(e.t[2], e.hbm[2], ops),
                          e.accumulate, e.perf_mode);
    case Kind::tensor_copy:
      return nc.tensor_copy(renamed(e.t[0], e.hbm[0], ops), renamed(e.t[1], e.hbm[1], ops), e.engine, e.opt);
    case Kind::tensor_scalar:
      return nc.tensor_scalar(renamed(e.t[0], e.hbm[0], ops), renamed(e.t[1], e.hbm[1], ops), e.op0,
                              renamed_scalar(e, 0, ops), e.op1, renamed_scalar(e, 1, ops), e.engine, e.reverse0,
                              e.reverse1, e.opt);
    case Kind::tensor_tensor:
      return nc.tensor_tensor(renamed(e.t[0], e.hbm[0], ops), renamed(e.t[1], e.hbm[1], ops),
                              renamed(e.t[2], e.hbm[2], ops), e.op0, e.engine, e.opt);
    case Kind::memset: return nc.memset(renamed(e.t[0], e.hbm[0], ops), e.value, e.engine);
  }
}


// ---- first-touch analysis (which allocation fills no instruction can observe) --------------------

// An on-chip operand's partitions [p0, p1) x bytes [lo, hi) (the trace's region hull).
struct Rect {
  MemSpace mem;
  std::int64_t p0, p1, lo, hi;
};
Rect rect_of(const Tile& t) {
  const Region g = region_inline(t, false);
  return {t.mem, g.p0, std::int64_t{g.p0} + g.np, static_cast<std::int64_t>(g.lo), static_cast<std::int64_t>(g.hi)};
}
bool meets(const Rect& a, const Rect& b) {
  return a.mem == b.mem && a.p0 < b.p1 && b.p0 < a.p1 && a.lo < b.hi && b.lo < a.hi;
}
bool inside(const Rect& a, const Rect& b) { return a.p0 >= b.p0 && a.p1 <= b.p1 && a.lo >= b.lo && a.hi <= b.hi; }

// The operands an instruction event reads (its destination too when it accumulates onto it).
int read_operands(const Event& e, const Tile* out[4]) {
  int n = 0;
  switch (e.kind) {
    case Kind::nc_matmul:
      if (e.accumulate) out[n++] = &e.t[0];
      out[n++] = &e.t[1];
      out[n++] = &e.t[2];
      break;
    case Kind::tensor_tensor:
      out[n++] = &e.t[1];
      out[n++] = &e.t[2];
      break;
    case Kind::tensor_scalar:
      out[n++] = &e.t[1];
      if (e.scalar_tile[0]) out[n++] = &e.t[2];
      if (e.scalar_tile[1]) out[n++] = &e.t[3];
      break;
    case Kind::dma_copy:
    case Kind::tensor_copy: out[n++] = &e.t[1]; break;
    default: break;
  }
  return n;
}

// True when no instruction after events[from] reads a byte of `whole` outside `written` before
// the tile is freed: the rest of the tile is then never read by this program, and its bytes keep
// their dirty record (onchip_dirty.hpp), so any later allocation refills them before any read.
bool rest_never_read(const std::vector<Event>& events, std::size_t from, const Event& a, const Rect& whole,
                     const Rect& written) {
  for (std::size_t j = from; j < events.size(); ++j) {
    const Event& e = events[j];
    if (e.kind == Kind::alloc) continue;
    if (e.kind == Kind::free) {
      if (e.space == a.space && e.t[0].offset_bytes == a.t[0].offset_bytes) return true;
      continue;
    }
    const Tile* reads[4];
    const int nr = read_operands(e, reads);
    for (int k = 0; k < nr; ++k) {
      if (reads[k]->mem == MemSpace::hbm) continue;
      const Rect r = rect_of(*reads[k]);
      if (meets(r, whole) && !inside(r, written)) return false;
    }
  }
  return true;
}

// What the first instruction touching allocation `a` (events[i]) does to it: when it writes a
// dense rectangle of the tile and reads none of it, the replay fills only the rest (the written
// bytes are the instruction's whatever the fill; nothing reads them before). Otherwise the full
// fill stays (a read first, a sparse or partial hull, or no touch before the free).
void analyse_first_touch(std::vector<Event>& events, std::size_t i) {
  Event& a = events[i];
  const Tile& t = a.t[0];
  const std::int64_t need = (t.free_size() * dtype_size(t.dtype) + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes;
  const Rect whole{t.mem, t.partition_start, std::int64_t{t.partition_start} + t.partitions, t.offset_bytes,
                   t.offset_bytes + need};
  for (std::size_t j = i + 1; j < events.size(); ++j) {
    const Event& e = events[j];
    if (e.kind == Kind::alloc) continue;
    if (e.kind == Kind::free) {
      if (e.space == a.space && e.t[0].offset_bytes == t.offset_bytes) return;
      continue;
    }
    const Tile* reads[4];
    const int nr = read_operands(e, reads);
    for (int k = 0; k < nr; ++k)
      if (reads[k]->mem != MemSpace::hbm && meets(rect_of(*reads[k]), whole)) return;
    const Tile& d = e.t[0];
    if (d.mem == MemSpace::hbm) continue;
    const Rect w = rect_of(d);
    if (!meets(w, whole)) continue;
    if (!d.free_contiguous() || d.is_partition_broadcast() || !inside(w, whole)) return;
    a.first_touch_writes = true;
    a.nrest = 0;
    const auto rest = [&](std::int64_t p0, std::int64_t p1, std::int64_t lo, std::int64_t hi) {
      if (p1 > p0 && hi > lo) {
        std::int32_t* r = a.rest[a.nrest++];
        r[0] = static_cast<std::int32_t>(p0), r[1] = static_cast<std::int32_t>(p1 - p0);
        r[2] = static_cast<std::int32_t>(lo), r[3] = static_cast<std::int32_t>(hi - lo);
      }
    };
    rest(whole.p0, whole.p1, whole.lo, w.lo);
    rest(whole.p0, whole.p1, w.hi, whole.hi);
    rest(whole.p0, w.p0, w.lo, w.hi);
    rest(w.p1, whole.p1, w.lo, w.hi);
    if (rest_never_read(events, j + 1, a, whole, w)) a.nrest = 0;
    return;
  }
}

// The on-chip operands of an instruction event, read or written (dst first).
int onchip_operands(const Event& e, const Tile* out[5]) {
  int n = 0;
  for (const Tile& t : e.t)  // unused slots keep Tile{} (no partitions)
    if (t.mem != MemSpace::hbm && t.partitions > 0) out[n++] = &t;
  return n;
}

// Marks the allocations no instruction touches between the allocation and its free, and their
// frees. A placed replay (allocators empty at the start, as when recorded) skips such a pair: no
// later allocation of the program moves (each is placed at its recorded offset), no instruction
// reads or writes the bytes, and the skipped poison fill is not observable — the bytes keep their
// dirty record (onchip_dirty.hpp), so any later allocation over them refills what it can read, and
// bytes no fill changes need no operand-memo invalidation. The peak the pair reached is folded in
// through Program::skipped_peak. At least one allocation is kept to carry that peak.
int space_index(MemSpace m) { return m == MemSpace::psum ? 1 : 0; }

void mark_untouched_allocations(Program& p) {
  std::vector<Event>& ev = p.events;
  std::int64_t skipped_peak[2] = {0, 0};
  bool kept_any[2] = {false, false};
  for (std::size_t i = 0; i < ev.size(); ++i) {
    Event& a = ev[i];
    if (a.kind != Kind::alloc) continue;
    const Tile& t = a.t[0];
    const std::int64_t need =
        (t.free_size() * dtype_size(t.dtype) + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes;
    const Rect whole{t.mem, t.partition_start, std::int64_t{t.partition_start} + t.partitions, t.offset_bytes,
                     t.offset_bytes + need};
    std::size_t free_at = 0;
    bool touched = false;
    for (std::size_t j = i + 1; j < ev.size() && !touched && free_at == 0; ++j) {
      const Event& e = ev[j];
      if (e.kind == Kind::alloc) continue;
      if (e.kind == Kind::free) {
        if (e.space == a.space && e.t[0].offset_bytes == t.offset_bytes) free_at = j;
        continue;
      }
      const Tile* ops[5];
      const int n = onchip_operands(e, ops);
      for (int k = 0; k < n && !touched; ++k) touched = meets(rect_of(*ops[k]), whole);
    }
    const int m = space_index(a.space);
    if (touched || free_at == 0) {
      kept_any[m] = true;
      continue;
    }
    a.untouched = true;
    ev[free_at].untouched = true;
    skipped_peak[m] = std::max(skipped_peak[m], a.used_after);
  }
  for (int m = 0; m < 2; ++m) {
    if (kept_any[m]) continue;
    for (Event& e : ev)
      if (space_index(e.space) == m && (e.kind == Kind::alloc || e.kind == Kind::free)) e.untouched = false;
    skipped_peak[m] = 0;
  }
  p.skipped_peak[0] = skipped_peak[0];
  p.skipped_peak[1] = skipped_peak[1];
}

}  // namespace

HbmOperand hbm_operand(const HbmTensor& t) {
  HbmOperand o;
  o.data = t.data();
  std::int64_t lo = 0, hi = 0;
  const auto& shape = t.shape();
  const auto& strides = t.strides();
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] <= 0) return {o.data, o.data, o.data};  // empty: reaches nothing
    const std::int64_t reach = (shape[d] - 1) * strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  const std::int64_t es = dtype_size(t.dtype());
  o.lo = o.data + lo * es;
  o.hi = o.data + (hi + 1) * es;
  return o;
}

bool any_overlap(std::span<const HbmOperand> ops) {
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (std::size_t j = i + 1; j < ops.size(); ++j)
      if (ops[i].lo < ops[j].hi && ops[j].lo < ops[i].hi) return true;
  return false;
}

void begin_recording(NeuronCore& nc, std::span<const HbmOperand> ops, Program& out) {
  out.events.clear();
  out.complete = false;
  out.core = &nc;
  out.sbuf_storage = nc.sbuf().storage();
  out.psum_storage = nc.psum().storage();
  out.starts_empty = nc.sbuf().used_bytes() == 0 && nc.psum().used_bytes() == 0;
  out.skipped_peak[0] = out.skipped_peak[1] = 0;
  auto* r = new Recorder{&nc, ops, &out, nc.instruction_count(), 0, false, t_recorder};
  r->events = r->outer == nullptr ? &recording_scratch() : &out.events;
  r->events->clear();
  t_recorder = r;
  __atomic_add_fetch(&g_recorders, 1, __ATOMIC_RELAXED);
}

bool recording_on_this_thread() { return t_recorder != nullptr; }

void end_recording(bool ok) {
  Recorder* r = t_recorder;
  t_recorder = r->outer;
  __atomic_sub_fetch(&g_recorders, 1, __ATOMIC_RELAXED);
  r->out->complete =
      ok && !r->unsupported && !r->pending_alloc && r->nc->instruction_count() - r->first_instruction == r->noted_instructions;
  if (r->events != &r->out->events) {
    // Exactly the events (assign reallocates only when the program's list is too small, and then
    // to the size asked), moved out of the scratch, which keeps its capacity up to a bound.
    if (r->out->complete) {
      try {
        r->out->events.assign(std::make_move_iterator(r->events->begin()), std::make_move_iterator(r->events->end()));
      } catch (...) {  // no memory for the copy: the program runs cold, as an incomplete recording does
        r->out->complete = false;
      }
    }
    r->events->clear();
    if (r->events->capacity() > kScratchEventsKept) std::vector<Event>().swap(*r->events);
  }
  if (!r->out->complete) r->out->events.clear();
  // Fills are skipped only where the instructions compute (timing-only runs write no bytes).
  if (r->out->complete && r->nc->config().execute)
    for (std::size_t i = 0; i < r->out->events.size(); ++i)
      if (r->out->events[i].kind == Kind::alloc && r->out->events[i].fill == AllocFill::poison)
        analyse_first_touch(r->out->events, i);
  if (r->out->complete && r->nc->config().execute && r->out->starts_empty) mark_untouched_allocations(*r->out);
  delete r;
}

void replay(NeuronCore& nc, const Program& p, std::span<const HbmOperand> ops) {
  if (&nc != p.core || nc.sbuf().storage() != p.sbuf_storage || nc.psum().storage() != p.psum_storage)
    throw Error("program replay: recorded on another core");
  const bool place = p.starts_empty && nc.sbuf().used_bytes() == 0 && nc.psum().used_bytes() == 0;
  if (!place) {
    for (const Event& e : p.events) replay_event(nc, e, ops, false);
    return;
  }
  struct Placing {  // g_placing raised for the loop, lowered on any exit
    Placing() { __atomic_add_fetch(&g_placing, 1, __ATOMIC_RELAXED); }
    ~Placing() { __atomic_sub_fetch(&g_placing, 1, __ATOMIC_RELAXED); }
  } placing;
  bool peak_folded[2] = {p.skipped_peak[0] == 0, p.skipped_peak[1] == 0};
  for (const Event& e : p.events) {
    if (e.untouched) continue;
    const int m = space_index(e.space);
    if (e.kind == Kind::alloc && !peak_folded[m]) {
      // Placed with the larger of its own and the skipped allocations' peaks (peak = the maximum).
      replay_alloc(nc, e, true, std::max(e.used_after, p.skipped_peak[m]));
      peak_folded[m] = true;
      continue;
    }
    replay_event(nc, e, ops, true);
  }
}

// ---- hooks ----------------------------------------------------------------------------------------

void note_alloc(const OnChipMemory& m, DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> shape,
                std::string_view name, std::int32_t partition_start, AllocFill fill) {
  Recorder* r = t_recorder;
  if (r == nullptr) return;
  if (&m != &r->nc->sbuf() && &m != &r->nc->psum()) {
    r->unsupported = true;
    return;
  }
  if (shape.size() < 1 || shape.size() > kMaxFreeDims) {
    r->unsupported = true;  // the allocator throws; nothing to replay
    return;
  }
  if (r->pending_alloc) r->unsupported = true;
  r->pending_alloc = true;
  Event& e = r->events->emplace_back();
  e.kind = Kind::alloc;
  e.space = m.space();
  e.dtype = dtype;
  e.partitions = partitions;
  e.partition_start = partition_start;
  e.fill = fill;
  e.ndim = static_cast<int>(shape.size());
  std::copy(shape.begin(), shape.end(), e.shape);
  e.name = std::string(name);
}

void note_alloc_result(const OnChipMemory& m, const Tile& t) {
  Recorder* r = t_recorder;
  if (r == nullptr || r->unsupported || r->events->empty()) return;
  r->pending_alloc = false;
  Event& e = r->events->back();
  if (e.kind != Kind::alloc || e.space != m.space()) {
    r->unsupported = true;
    return;
  }
  e.t[0] = t;
  e.used_after = m.used_bytes();
}

void note_free(const OnChipMemory& m, const Tile& t) {
  Recorder* r = t_recorder;
  if (r == nullptr) return;
  if (&m != &r->nc->sbuf() && &m != &r->nc->psum()) {
    r->unsupported = true;
    return;
  }
  if (r->pending_alloc) r->unsupported = true;
  Event& e = r->events->emplace_back();
  e.kind = Kind::free;
  e.space = m.space();
  e.t[0] = t;
}

void note_reset(const OnChipMemory&) {
  if (Recorder* r = t_recorder) r->unsupported = true;
}

void note_dma_copy(const NeuronCore& nc, const Tile& dst, const Tile& src) {
  Recorder* r = recorder_for(nc);
  if (r == nullptr) return;
  Event& e = next_instruction(*r, Kind::dma_copy);
  note_tile(*r, dst, e.t[0], e.hbm[0]);
  note_tile(*r, src, e.t[1], e.hbm[1]);
}

void note_nc_matmul(const NeuronCore& nc, const Tile& dst, const Tile& stationary, const Tile& moving, bool accumulate,
                    MatmulPerfMode perf_mode) {
  Recorder* r = recorder_for(nc);
  if (r == nullptr) return;
  Event& e = next_instruction(*r, Kind::nc_matmul);
  note_tile(*r, dst, e.t[0], e.hbm[0]);
  note_tile(*r, stationary, e.t[1], e.hbm[1]);
  note_tile(*r, moving, e.t[2], e.hbm[2]);
  e.accumulate = accumulate;
  e.perf_mode = perf_mode;
}

void note_tensor_copy(const NeuronCore& nc, const Tile& dst, const Tile& src, Engine engine, const InstrOptions& opt) {
  Recorder* r = recorder_for(nc);
  if (r == nullptr) return;
  Event& e = next_instruction(*r, Kind::tensor_copy);
  note_tile(*r, dst, e.t[0], e.hbm[0]);
  note_tile(*r, src, e.t[1], e.hbm[1]);
  e.engine = engine;
  e.opt = opt;
}

void note_tensor_scalar(const NeuronCore& nc, const Tile& dst, const Tile& src, AluOp op0, const ScalarOperand& s0,
                        AluOp op1, const ScalarOperand& s1, Engine engine, bool reverse0, bool reverse1,
                        const InstrOptions& opt) {
  Recorder* r = recorder_for(nc);
  if (r == nullptr) return;
  Event& e = next_instruction(*r, Kind::tensor_scalar);
  note_tile(*r, dst, e.t[0], e.hbm[0]);
  note_tile(*r, src, e.t[1], e.hbm[1]);
  note_scalar(*r, s0, e, 0);
  note_scalar(*r, s1, e, 1);
  e.op0 = op0;
  e.op1 = op1;
  e.engine = engine;
  e.reverse0 = reverse0;
  e.reverse1 = reverse1;
  e.opt = opt;
}

void note_tensor_tensor(const NeuronCore& nc, const Tile& dst, const Tile& a, const Tile& b, AluOp op, Engine engine,
                        const InstrOptions& opt) {
  Recorder* r = recorder_for(nc);
  if (r == nullptr) return;
  Event& e = next_instruction(*r, Kind::tensor_tensor);
  note_tile(*r, dst, e.t[0], e.hbm[0]);
  note_tile(*r, a, e.t[1], e.hbm[1]);
  note_tile(*r, b, e.t[2], e.hbm[2]);
  e.op0 = op;
  e.engine = engine;
  e.opt = opt;
}

void note_memset(const NeuronCore& nc, const Tile& dst, float value, Engine engine) {
  Recorder* r = recorder_for(nc);
  if (r == nullptr) return;
  Event& e = next_instruction(*r, Kind::memset);
  note_tile(*r, dst, e.t[0], e.hbm[0]);
  e.value = value;
  e.engine = engine;
}

}  // namespace trn::detail::replay
