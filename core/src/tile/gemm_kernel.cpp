// trn::tile GEMM collective, the pass plans (streaming and resident) and the launch (contract in
// trn/tile/gemm.hpp; the K-blocked plan is in gemm_k_blocked.cpp, the shared steps in gemm_steps.cpp).
#include <algorithm>
#include <string>

#include "gemm_internal.hpp"
#include "gemm_replay.hpp"
#include "trn/core/inline_launch.hpp"

namespace trn::tile {

namespace gemm_detail {
namespace {

bool tile_intersects(Triangle tri, std::int64_t j0, int tnj, std::int64_t i0, int tni) {
  if (tri == Triangle::lower) return i0 + tni - 1 >= j0;             // some i >= j
  if (tri == Triangle::upper) return i0 <= j0 + tnj - 1;             // some i <= j
  return true;
}

// Store of one evacuated output tile: SBUF slot -> C (restricted to the triangle).
void store_tile(ProgramState& st, const ProgramState::PendingStore& ps) {
  const ProgramState::EpilogueSlot& slot = st.epi[ps.slot];
  const OutTile& o = ps.tile;
  move_tile(st.nc, st.cast_out ? slot.out_c : slot.out, st.g.c, o.j0, o.i0, o.tnj, o.tni, st.g.triangle, /*to_hbm=*/true);
}

void issue_one_store(ProgramState& st) {
  if (st.stores.empty()) return;
  store_tile(st, st.stores.front());
  st.stores.erase(st.stores.begin());
}

// The output tiles of the pass starting at row i_begin; ti outer.
detail::WarmVector<OutTile> pass_tiles(const ProgramState& st, std::int64_t i_begin, int bm) {
  detail::WarmVector<OutTile> outs;
  for (int ti = 0; ti < (bm + st.TI - 1) / st.TI; ++ti)
    for (int tj = 0; tj < st.tiles_j; ++tj) {
      const std::int64_t j0 = st.j_begin + std::int64_t{tj} * st.TJ, i0 = i_begin + std::int64_t{ti} * st.TI;
      const int tnj = std::min(st.TJ, static_cast<int>(st.g.n - j0)), tni = std::min(st.TI, static_cast<int>(st.g.m - i0));
      outs.push_back({j0, i0, tnj, tni, tile_intersects(st.g.triangle, j0, tnj, i0, tni)});
    }
  return outs;
}

bool any_live(const std::vector<OutTile>& outs) {
  return std::any_of(outs.begin(), outs.end(), [](const OutTile& o) { return o.live; });
}

// The pass's accumulation groups: output tile t on bank t (fixed, so that the banks a pass
// evacuates are the ones the next pass fills first), each group empty.
void open_groups(ProgramState& st, const std::vector<OutTile>& outs) {
  st.accs.clear();
  for (std::size_t t = 0; t < outs.size(); ++t)
    st.accs.emplace_back(st.nc, (*st.banks)[static_cast<int>(t)].rows(0, outs[t].tnj).cols(0, outs[t].tni));
}

// Macro-kernel [jr, ir]: the micro-kernel over every live output tile of the pass.
void macro_kernel(ProgramState& st, const std::vector<OutTile>& outs, const std::vector<Tile>& b_terms,
                  const std::vector<Tile>& a_terms, std::int64_t i_begin, int tk) {
  for (std::size_t t = 0; t < outs.size(); ++t)
    if (outs[t].live) micro_kernel(st, outs[t], st.accs[t], b_terms, a_terms, st.j_begin, i_begin, tk);
}

// K loop [pc] of one pass: pack op(A) (and op(B), or the resident strip's next K tile during the
// first pass), then the macro-kernel.
void k_loop(ProgramState& st, const std::vector<OutTile>& outs, std::int64_t i_begin, int bm) {
  const BlockGemmArgs& g = st.g;
  for (int kt = 0; kt < st.k_tiles; ++kt) {
    const std::int64_t k0 = g.k_begin + std::int64_t{kt} * st.TK;
    const int tk = static_cast<int>(std::min<std::int64_t>(st.TK, g.k_end - k0));
    const OperandSlot& u = st.slots[static_cast<std::size_t>(kt % st.b.buffers)];
    pack_terms(st.nc, g, g.a_src, k0, tk, i_begin, bm, u.a_raw, u.a_res, u.a_terms, st.double_row);
    // op(B)'s terms of this K tile: the slot's own (not copied: a heap block per K tile), or views
    // of the resident strip's K tile.
    std::vector<Tile> strip_now;
    const std::vector<Tile>* b_now = &u.b_terms;
    if (st.b.resident) {
      for (const Tile& s : st.b_strip)
        strip_now.push_back(st.double_row ? s.slice(0, kt, 1).reshape({2, st.bn}) : s.slice(0, kt, 1).reshape({st.bn}));
      if (!st.strip_packed)
        pack_terms(st.nc, g, g.b_src, k0, tk, st.j_begin, st.bn, u.b_raw, u.b_res, strip_now, st.double_row);
      b_now = &strip_now;
    } else {
      pack_terms(st.nc, g, g.b_src, k0, tk, st.j_begin, st.bn, u.b_raw, u.b_res, u.b_terms, st.double_row);
    }
    issue_one_store(st);
    macro_kernel(st, outs, *b_now, u.a_terms, i_begin, tk);
  }
  st.strip_packed = true;
}

// Epilogue of one output tile: PSUM -> SBUF (times alpha; raw: the fp32 sums unscaled), + beta * C,
// cast; the store to C is queued (ProgramState::stores). Slots rotate between output tiles.
void epilogue(ProgramState& st, const OutTile& o, const Accumulator& acc, std::size_t slot_index) {
  // The slot is about to be overwritten: its pending store must be issued first.
  while (std::any_of(st.stores.begin(), st.stores.end(),
                     [&](const ProgramState::PendingStore& ps) { return ps.slot == slot_index; }))
    issue_one_store(st);
  const ProgramState::EpilogueSlot& slot = st.epi[slot_index];
  const Tile v = slot.out.rows(0, o.tnj).cols(0, o.tni);
  evacuate(st.nc, v, acc, st.g.raw ? 1.0f : st.g.alpha);
  add_beta_c_and_cast(st, o, v, slot);
  st.stores.push_back({o, slot_index});
}

// One K-tile buffer's operand tiles (fp32 staging and residuals in the split modes, then the terms).
void allocate_slot(ProgramState& st, AllocScope& sbuf, OperandSlot& u, int pass_bm) {
  const BlockGemmArgs& g = st.g;
  const int terms_a = static_cast<int>(g.a_src.size()) * g.split, terms_b = static_cast<int>(g.b_src.size()) * g.split;
  const DType term_dtype = g.split == 1 ? g.load : DType::bf16;
  if (g.split > 1) {
    for (std::size_t s = 0; s < g.a_src.size(); ++s) {
      u.a_raw.push_back(sbuf.alloc(DType::f32, st.TK, {pass_bm}, "op(A) fp32 tile"));
      u.a_res.push_back(sbuf.alloc(DType::f32, st.TK, {pass_bm}, "op(A) residual"));
    }
    for (std::size_t s = 0; s < g.b_src.size(); ++s) {
      u.b_raw.push_back(sbuf.alloc(DType::f32, st.TK, {st.bn}, "op(B) fp32 tile"));
      u.b_res.push_back(sbuf.alloc(DType::f32, st.TK, {st.bn}, "op(B) residual"));
    }
  }
  const int P = st.partitions_of(st.TK);
  auto term = [&](std::int64_t width, const char* what) {
    return st.double_row ? sbuf.alloc(term_dtype, P, {2, width}, what) : sbuf.alloc(term_dtype, P, {width}, what);
  };
  for (int t = 0; t < terms_a; ++t) u.a_terms.push_back(term(pass_bm, "op(A) term"));
  if (!st.b.resident)
    for (int t = 0; t < terms_b; ++t) u.b_terms.push_back(term(st.bn, "op(B) term"));
}

// Allocates the program's PSUM accumulators and SBUF tiles (the sizes plan_gemm accounted for).
void allocate(ProgramState& st, AllocScope& sbuf, AllocScope& psum, int pass_bm) {
  const BlockGemmArgs& g = st.g;
  st.banks.emplace(psum, st.b.tiles_i * st.b.tiles_j, st.TJ, st.TI, "gemm acc");
  const int terms_b = static_cast<int>(g.b_src.size()) * g.split;
  const DType term_dtype = g.split == 1 ? g.load : DType::bf16;
  if (st.compute) {
    st.slots.resize(static_cast<std::size_t>(st.b.buffers));
    for (OperandSlot& u : st.slots) allocate_slot(st, sbuf, u, pass_bm);
    if (st.b.resident) {
      // Strip slot program % strip_slots: [slot, k tile, (pair,) j] per term.
      const int slot = st.nc.program_id(0) % st.b.strip_slots;
      const int P = st.partitions_of(st.TK);
      for (int t = 0; t < terms_b; ++t)
        st.b_strip.push_back(
            st.double_row
                ? sbuf.alloc(term_dtype, P, {st.b.strip_slots, st.k_tiles, 2, st.bn}, "op(B) strips")
                      .slice(0, slot, 1)
                      .reshape({st.k_tiles, 2, st.bn})
                : sbuf.alloc(term_dtype, P, {st.b.strip_slots, st.k_tiles, st.bn}, "op(B) strips")
                      .slice(0, slot, 1)
                      .reshape({st.k_tiles, st.bn}));
    }
  }
  for (int e = 0; e < st.b.epilogue_slots; ++e) {
    ProgramState::EpilogueSlot slot;
    slot.out = sbuf.alloc(DType::f32, st.TJ, {st.TI}, "epilogue fp32");
    if (st.read_c) slot.cold = sbuf.alloc(DType::f32, st.TJ, {st.TI}, "C (beta)");
    slot.out_c = st.cast_out ? sbuf.alloc(g.c.dtype(), st.TJ, {st.TI}, "C out") : slot.out;
    st.epi.push_back(slot);
  }
}

// Program [jc] of the pass plans: a block of columns (and, streaming, of rows); its passes [ic]
// over the rows, each its K loop then the epilogue of its live output tiles.
void pass_program(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b) {
  ProgramState st(nc, g, b);
  // Streaming: program (j, i) owns one pass. Resident: program j owns all rows, in passes.
  st.j_begin = std::int64_t{nc.program_id(0)} * b.tiles_j * st.TJ;
  const std::int64_t pass_rows = std::int64_t{b.tiles_i} * st.TI;
  const std::int64_t i_first = b.resident ? 0 : std::int64_t{nc.program_id(1)} * pass_rows;
  const std::int64_t i_last = b.resident ? g.m : std::min(g.m, i_first + pass_rows);
  if (st.j_begin >= g.n || i_first >= g.m) return;
  st.bn = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.tiles_j} * st.TJ, g.n - st.j_begin));
  st.tiles_j = (st.bn + st.TJ - 1) / st.TJ;
  bool program_live = false;
  for (std::int64_t i0 = i_first; i0 < i_last && !program_live; i0 += pass_rows)
    program_live = any_live(pass_tiles(st, i0, static_cast<int>(std::min(pass_rows, i_last - i0))));
  if (!program_live) return;

  st.set_work();
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  allocate(st, sbuf, psum, static_cast<int>(std::min(pass_rows, i_last - i_first)));

  int epi_slot = 0;
  for (std::int64_t i_begin = i_first; i_begin < i_last; i_begin += pass_rows) {
    const int bm = static_cast<int>(std::min(pass_rows, i_last - i_begin));
    const detail::WarmVector<OutTile> outs = pass_tiles(st, i_begin, bm);
    if (!any_live(outs)) continue;
    open_groups(st, outs);
    if (st.compute) k_loop(st, outs, i_begin, bm);
    for (std::size_t t = 0; t < outs.size(); ++t) {
      if (!outs[t].live) continue;
      epilogue(st, outs[t], st.accs[t], static_cast<std::size_t>(epi_slot));
      epi_slot = (epi_slot + 1) % b.epilogue_slots;
    }
  }
  while (!st.stores.empty()) issue_one_store(st);
}

}  // namespace

// The launch's host work (trn/core/inline_launch.hpp): its programs, and per problem its
// multiply-adds over every term pair and the elements of its op(A)/op(B) terms and of C.
double launch_gemm_work(const std::vector<BlockGemmArgs>& problems, const std::array<int, 3>& grid) {
  double macs = 0, elements = 0;
  for (const BlockGemmArgs& g : problems) {
    const double m = static_cast<double>(g.m), n = static_cast<double>(g.n);
    const double k = g.multiply ? static_cast<double>(g.k_end - g.k_begin) : 0.0;
    macs += static_cast<double>(g.pairs.size()) * m * n * k;
    elements += static_cast<double>(g.a_src.size()) * m * k + static_cast<double>(g.b_src.size()) * k * n + m * n;
  }
  return launch_work(static_cast<double>(grid[0]) * grid[1] * grid[2], macs, elements);
}
}  // namespace gemm_detail

void gemm_block_kernel(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b) {
  if (b.k_blocked)
    gemm_detail::k_blocked_program(nc, g, b);
  else
    gemm_detail::pass_program(nc, g, b);
}

LaunchResult launch_gemm(const LaunchConfig& base, const std::vector<BlockGemmArgs>& problems, GemmPlan* plan_out) {
  // A one-program launch may replay its recorded program (gemm_replay.hpp): same instructions.
  gemm_detail::WarmGemm* warm = gemm_detail::warm_gemm_entry(base, problems);
  const GemmPlan* warm_plan = warm != nullptr ? gemm_detail::warm_gemm_plan(*warm) : nullptr;
  // The warm entry's plan is used in place (a copy was a heap block for its `why` text per call); the
  // entry is not touched again until this thread's next launch_gemm.
  GemmPlan fresh;
  if (warm_plan == nullptr) fresh = plan_launch(hardware_spec(base.core.generation), problems);
  const GemmPlan& plan = warm_plan != nullptr ? *warm_plan : fresh;
  if (plan_out != nullptr) *plan_out = plan;
  LaunchConfig lc = base;
  lc.grid = plan.grid;
  const BlockShape b = plan.block;
  if (plan.grid != std::array<int, 3>{1, 1, 1}) {
    warm = nullptr;
    // Several small programs (the Ozaki products of a small fp64 call): on the calling thread.
    lc.host_threads = inline_host_threads(lc.host_threads, gemm_detail::launch_gemm_work(problems, plan.grid));
  }
  LaunchResult r;
  try {
    r = launch(lc, [&](NeuronCore& nc) {
      if (warm != nullptr) return gemm_detail::warm_gemm_run(nc, *warm, problems.front(), b, plan);
      gemm_block_kernel(nc, problems[static_cast<std::size_t>(nc.program_id(2))], b);
    });
  } catch (...) {
    if (warm != nullptr) gemm_detail::warm_gemm_drop(*warm);
    throw;
  }
  // The plan's SBUF accounting must cover what the kernel allocated: otherwise a shape near the
  // capacity could pass planning and overflow SBUF inside the kernel.
  if (r.sbuf_peak_bytes > plan.sbuf_bytes)
    throw Error("tile::launch_gemm: plan under-counts SBUF: kernel used " + std::to_string(r.sbuf_peak_bytes) +
                " B/partition, plan " + std::to_string(plan.sbuf_bytes) + " (" + plan.print() + ")");
  return r;
}

}  // namespace trn::tile
