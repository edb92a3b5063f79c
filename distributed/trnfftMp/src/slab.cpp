// trnfftMp slab transforms (fftmp.hpp; docs/scale-out.md "trnfftMp"): the local trnfft plans, the
// all-to-all transpose and the argument exchange.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "local.hpp"
#include "exchange.hpp"  // trnblasMp's argument exchange (one allreduce of status and arguments)
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/report.hpp"
#include "trn/core/scratch.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"  // boxes and redistribute: the single-device-order C2R's moves

namespace trn::fftmp {

namespace {

using blasmp::detail::agree;
using blasmp::detail::check_mpi;
using detail::alltoall_ns;
using detail::device_settings;
using detail::LocalPrediction;
using detail::predict_local;
using detail::run_local;

std::size_t elem_bytes(const SlabSpec& s) { return is_fp64(s.type) ? 16 : 8; }
fft::Type complex_type(fft::Type t) { return is_fp64(t) ? fft::Type::z2z : fft::Type::c2c; }

// A real side of step 1's plan: the padded rows of the INPLACE slab (last axis 2 (n/2 + 1) reals,
// cuFFT's advanced layout; embed[0] is not used by the formula).
fft::Layout padded_real_layout(const std::vector<std::int64_t>& trailing) {
  fft::Layout l;
  l.embed = trailing;
  l.embed.back() = 2 * (trailing.back() / 2 + 1);
  l.dist = 1;
  for (const std::int64_t e : l.embed) l.dist *= e;  // one plane: the leading sizes x the padded row
  return l;
}

// Step 1's plan: the trailing axes of `batch` planes; the complex side natural (dense), a real side
// (R2C input, C2R output) the padded rows.
fft::PlanSpec trailing_spec(const SlabSpec& s, std::int64_t batch) {
  fft::PlanSpec p;
  p.n.assign(s.n.begin() + 1, s.n.end());
  p.type = s.type;
  p.mode = s.mode;
  p.batch = batch;
  if (s.type == fft::Type::r2c || s.type == fft::Type::d2z) p.in = padded_real_layout(p.n);
  if (s.type == fft::Type::c2r || s.type == fft::Type::z2d) p.out = padded_real_layout(p.n);
  return p;
}
// Step 3's plan: axis 0 of the shuffled slab n0 x cols (cols = n1_loc x inner): stride cols, one
// complex transform per column.
fft::PlanSpec axis0_spec(const SlabSpec& s, std::int64_t cols) {
  fft::PlanSpec p;
  p.n = {s.n[0]};
  p.type = complex_type(s.type);
  p.mode = s.mode;
  p.batch = cols;
  p.in = p.out = fft::Layout{{s.n[0]}, cols, 1};
  return p;
}

// The 3-D C2R / Z2D in trnfft's single-device order (fftmp.hpp): with n0 = 1 or n1 = 1 the plain
// inverse (axis 0, then the trailing C2R plan) already has that order.
bool reordered_inverse(const SlabSpec& s) {
  return s.n.size() == 3 && (s.type == fft::Type::c2r || s.type == fft::Type::z2d) && s.n[0] > 1 && s.n[1] > 1;
}
// Its step 2: trnfft's 2-D plan n = {n0, n1} over the rank's E slab n0 x n1 x width (stride width):
// axis 1, then axis 0, as the single-device C2R's complex passes.
fft::PlanSpec e_plan_spec(const SlabSpec& s, std::int64_t width) {
  fft::PlanSpec p;
  p.n = {s.n[0], s.n[1]};
  p.type = complex_type(s.type);
  p.mode = s.mode;
  p.batch = width;
  p.in = p.out = fft::Layout{{s.n[0], s.n[1]}, width, 1};
  return p;
}
// Its step 4: trnfft's 1-D C2R of n2 over `rows` dense half-spectrum rows, writing padded rows.
fft::PlanSpec c2r_rows_spec(const SlabSpec& s, std::int64_t rows) {
  fft::PlanSpec p;
  p.n = {s.n[2]};
  p.type = s.type;
  p.mode = s.mode;
  p.batch = rows;
  p.out = padded_real_layout(p.n);
  return p;
}
// Every rank's slab of the half spectrum c (row-major) split along `axis`: 1 the shuffled slabs, 2
// the E slabs, 0 the (complex) n0 slabs.
std::vector<Box> slab_boxes(const std::vector<std::int64_t>& c, int ranks, int axis) {
  std::vector<Box> b;
  const auto a = static_cast<std::size_t>(axis);
  for (int q = 0; q < ranks; ++q) {
    Index3 lo{0, 0, 0}, hi{c[0], c[1], c[2]};
    lo[a] = slab_start(c[a], ranks, q);
    hi[a] = lo[a] + slab_count(c[a], ranks, q);
    b.push_back(dense_box(lo, hi, {0, 1, 2}));
  }
  return b;
}
// A move between two of those splits: the all-to-all, or the own block's re-layout when longer.
double slab_move_ns(Generation target, int ranks, const Moved& m) {
  return std::max(alltoall_ns(fabric_spec(target), RankSet{0, 1, ranks}, m.sent, m.received), detail::relayout_ns(target, m.kept));
}

// Copies `rows` runs of `len` bytes from src (rows src_stride apart) to dst (dst_stride apart): the
// pack before / unpack after the all-to-all (on a device: the DMA access pattern of the transfer).
void copy_rows(const char* src, std::int64_t src_stride, char* dst, std::int64_t dst_stride, std::int64_t rows,
               std::int64_t len) {
  for (std::int64_t r = 0; r < rows; ++r) std::memcpy(dst + r * dst_stride, src + r * src_stride, static_cast<std::size_t>(len));
}

int checked_int(std::int64_t bytes) {
  if (bytes > INT_MAX) throw NotSupportedError("trnfftMp transpose", "a message over 2 GiB", "any");
  return static_cast<int>(bytes);
}

// The byte counts and displacements of rank `rank`'s MPI_Alltoallv in a slab transpose (to_shuffled:
// n0 slabs -> c1 slabs; else back): the transpose's own arguments, and what the plan checks for every
// rank at plan time (slab_messages_fit) so that no rank throws alone just before the collective.
struct TransposeCounts {
  std::vector<std::int64_t> scount, sdisp, rcount, rdisp;
  std::int64_t sent = 0, received = 0;  // totals (own block included)
};
TransposeCounts transpose_counts(std::int64_t n0, std::int64_t c1, std::int64_t row, int ranks, int rank, bool to_shuffled) {
  const auto P = static_cast<std::size_t>(ranks);
  TransposeCounts t{std::vector<std::int64_t>(P), std::vector<std::int64_t>(P), std::vector<std::int64_t>(P),
                    std::vector<std::int64_t>(P), 0, 0};
  const std::int64_t n0_loc = slab_count(n0, ranks, rank), n1_loc = slab_count(c1, ranks, rank);
  for (int q = 0; q < ranks; ++q) {
    const auto u = static_cast<std::size_t>(q);
    const std::int64_t q0 = slab_count(n0, ranks, q), q1 = slab_count(c1, ranks, q);
    t.scount[u] = to_shuffled ? n0_loc * q1 * row : q0 * n1_loc * row;
    t.rcount[u] = to_shuffled ? q0 * n1_loc * row : n0_loc * q1 * row;
    t.sdisp[u] = to_shuffled ? t.sent : slab_start(n0, ranks, q) * n1_loc * row;
    t.rdisp[u] = t.received;
    t.sent += t.scount[u];
    t.received += t.rcount[u];
  }
  return t;
}

// True when every rank's counts and displacements of both transposes fit MPI's int (the same verdict
// on every rank: computed from the spec alone). O(P^2) integer work at plan time.
bool slab_messages_fit(std::int64_t n0, std::int64_t c1, std::int64_t row, int ranks) {
  for (int q = 0; q < ranks; ++q)
    for (const bool to_shuffled : {true, false}) {
      const TransposeCounts t = transpose_counts(n0, c1, row, ranks, q, to_shuffled);
      for (const std::vector<std::int64_t>* v : {&t.scount, &t.sdisp, &t.rcount, &t.rdisp})
        if (*std::max_element(v->begin(), v->end()) > INT_MAX) return false;
    }
  return true;
}

}  // namespace

bool is_real(fft::Type t) { return t == fft::Type::r2c || t == fft::Type::c2r || t == fft::Type::d2z || t == fft::Type::z2d; }
bool is_fp64(fft::Type t) { return t == fft::Type::z2z || t == fft::Type::d2z || t == fft::Type::z2d; }

std::vector<std::int64_t> complex_shape(const SlabSpec& s) {
  const bool three = s.n.size() == 3, real = is_real(s.type);
  if (three) return {s.n[0], s.n[1], real ? s.n[2] / 2 + 1 : s.n[2]};
  return {s.n[0], real ? s.n[1] / 2 + 1 : s.n[1], 1};
}

std::int64_t slab_count(std::int64_t n, int p, int r) { return n / p + (r < n % p ? 1 : 0); }
std::int64_t slab_start(std::int64_t n, int p, int r) { return r * (n / p) + std::min<std::int64_t>(r, n % p); }

namespace {
// predict_slab of the single-device-order C2R: exchange, shuffled -> E, the 2-D plan on E, E -> n0
// slabs, the 1-D C2R (each step needs the previous; the exchange is a link record before the first move).
void predict_reordered(const fft::Settings& s, const SlabSpec& spec, int ranks, int rank, SlabPlanInfo& p) {
  const std::vector<std::int64_t> c = complex_shape(spec);
  const std::int64_t width = slab_count(c[2], ranks, rank);
  const LocalPrediction e = predict_local(s, width, spec.n[0] * spec.n[1], [&](std::int64_t b) { return e_plan_spec(spec, b); });
  const LocalPrediction r = predict_local(s, p.n0_loc * spec.n[1], spec.n[2], [&](std::int64_t b) { return c2r_rows_spec(spec, b); });
  p.reordered = true;
  p.axis0_ns = e.ns;
  p.trailing_ns = r.ns;
  p.predicted_by_scaling = e.scaled || r.scaled;
  const std::size_t es = elem_bytes(spec), me = static_cast<std::size_t>(rank);
  const std::vector<Box> shuffled = slab_boxes(c, ranks, 1), e_slabs = slab_boxes(c, ranks, 2), n0_slabs = slab_boxes(c, ranks, 0);
  const Moved in = planned_moves(shuffled, e_slabs, me, es), out = planned_moves(e_slabs, n0_slabs, me, es);
  p.send_bytes = in.sent + out.sent;
  p.recv_bytes = in.received + out.received;
  p.kept_bytes = in.kept + out.kept;
  p.link_ns = slab_move_ns(s.target, ranks, in) + slab_move_ns(s.target, ranks, out);
  p.exchange_ns = small_allreduce_ns(fabric_spec(s.target), RankSet{0, 1, ranks});
  p.predicted_ns = p.exchange_ns + p.link_ns + p.axis0_ns + p.trailing_ns;
  p.roofline_ns = std::max(p.link_ns + p.exchange_ns, e.roofline_ns + r.roofline_ns);
  p.error_bound = e.bound + r.bound;
}
}  // namespace

SlabPlanInfo predict_slab(const fft::Settings& s0, const SlabSpec& spec, int ranks, int rank) {
  const fft::Settings s = device_settings(s0);
  SlabPlanInfo p;
  p.n = spec.n;
  p.type = spec.type;
  p.ranks = ranks;
  p.rank = rank;
  p.target = s.target;
  const std::vector<std::int64_t> c = complex_shape(spec);
  p.inner = c[2];
  p.n0_loc = slab_count(spec.n[0], ranks, rank);
  p.n1_loc = slab_count(c[1], ranks, rank);
  if (reordered_inverse(spec)) {
    predict_reordered(s, spec, ranks, rank, p);
    return p;
  }
  const std::int64_t plane = spec.n.size() == 3 ? spec.n[1] * spec.n[2] : spec.n[1], cols = p.n1_loc * p.inner;
  const LocalPrediction a = predict_local(s, p.n0_loc, plane, [&](std::int64_t b) { return trailing_spec(spec, b); });
  const LocalPrediction b = predict_local(s, cols, spec.n[0], [&](std::int64_t c) { return axis0_spec(spec, c); });
  p.trailing_ns = a.ns;
  p.axis0_ns = b.ns;
  p.predicted_by_scaling = a.scaled || b.scaled;
  const auto es = static_cast<double>(elem_bytes(spec));
  // Sent: my planes' rows of the others' n1 ranges; received: their planes' rows of my n1 range.
  p.send_bytes = static_cast<double>(p.n0_loc) * static_cast<double>(c[1] - p.n1_loc) * static_cast<double>(p.inner) * es;
  p.recv_bytes = static_cast<double>(spec.n[0] - p.n0_loc) * static_cast<double>(cols) * es;
  const FabricSpec& f = fabric_spec(s.target);
  const RankSet all{0, 1, ranks};
  // The own block (n0_loc x n1_loc rows) is re-laid out through HBM beside the link transfer.
  p.kept_bytes = static_cast<double>(p.n0_loc) * static_cast<double>(cols) * es;
  p.link_ns = std::max(alltoall_ns(f, all, p.send_bytes, p.recv_bytes), detail::relayout_ns(s.target, p.kept_bytes));
  p.exchange_ns = small_allreduce_ns(f, all);
  // The exchange (a latency-only link record) runs beside step 1, which does not wait for it; the
  // transpose waits for step 1's output, step 3 for the transpose.
  p.predicted_ns = std::max(p.exchange_ns, p.trailing_ns) + p.link_ns + p.axis0_ns;
  p.roofline_ns = std::max(p.link_ns + p.exchange_ns, a.roofline_ns + b.roofline_ns);
  // trnfft's bound is 4 u log2(N) over the whole size in fp32 (additive over the two plans' sizes) and
  // grows as sqrt(stages) in the bf16 modes (the sum is an upper bound of the whole plan's).
  p.error_bound = a.bound + b.bound;
  return p;
}

std::string SlabPlanInfo::print() const {
  char buf[768];
  const FabricSpec& f = fabric_spec(target);
  std::string shape = std::to_string(n[0]);
  for (std::size_t i = 1; i < n.size(); ++i) shape += "x" + std::to_string(n[i]);
  if (reordered) {
    std::snprintf(buf, sizeof buf,
                  "trnfftMp slab plan %s %s on %d %s devices (%.*s, %.*s), rank %d, the single-device C2R order: n1 slab %lld "
                  "-> all-to-all to axis-2 slabs, 2-D FFT (axis 1, axis 0) %.1f us, all-to-all to n0 slabs (both %.3g MB out / "
                  "%.3g MB in %.1f us), n0 slab %lld planes -> axis-2 C2R %.1f us; predicted %.1f us (communication %.1f%%), "
                  "roofline bound %.1f us%s; error bound %.2e",
                  shape.c_str(), fft::type_name(type), ranks, hardware_spec(target).name.data(),
                  static_cast<int>(f.instance.size()), f.instance.data(), static_cast<int>(f.link.size()), f.link.data(), rank,
                  static_cast<long long>(n1_loc), axis0_ns / 1e3, send_bytes / 1e6, recv_bytes / 1e6, link_ns / 1e3,
                  static_cast<long long>(n0_loc), trailing_ns / 1e3, predicted_ns / 1e3, 100.0 * comm_share(), roofline_ns / 1e3,
                  predicted_by_scaling ? " (local plans predicted at <= 2^20 points, scaled by the batch)" : "", error_bound);
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "trnfftMp slab plan %s %s on %d %s devices (%.*s, %.*s), rank %d: n0 slab %lld planes -> "
                "trailing-axes FFT %.1f us, all-to-all %.3g MB out / %.3g MB in %.1f us, n1 slab %lld -> axis-0 FFT "
                "%.1f us; predicted %.1f us (communication %.1f%%), roofline bound %.1f us%s; error bound %.2e",
                shape.c_str(), fft::type_name(type), ranks, hardware_spec(target).name.data(),
                static_cast<int>(f.instance.size()), f.instance.data(), static_cast<int>(f.link.size()), f.link.data(), rank,
                static_cast<long long>(n0_loc), trailing_ns / 1e3, send_bytes / 1e6, recv_bytes / 1e6, link_ns / 1e3,
                static_cast<long long>(n1_loc), axis0_ns / 1e3, predicted_ns / 1e3, 100.0 * comm_share(), roofline_ns / 1e3,
                predicted_by_scaling ? " (local plans predicted at <= 2^20 points, scaled by the batch)" : "", error_bound);
  return buf;
}

SlabPlan::SlabPlan(const SlabSpec& spec, const fft::Settings& settings, MPI_Comm comm)
    : spec_(spec), settings_(device_settings(settings)) {
  check_mpi(MPI_Comm_size(comm, &ranks_), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  const std::size_t d = spec.n.size();
  bool ok = (d == 2 || d == 3) && (spec.type == fft::Type::c2c || spec.type == fft::Type::z2z || is_real(spec.type));
  for (std::size_t i = 0; ok && i < d; ++i) ok = spec.n[i] >= 1 && spec.n[i] <= fft::kMaxDimension;
  std::vector<std::int64_t> args{static_cast<std::int64_t>(d), static_cast<int>(spec.type), static_cast<int>(spec.mode)};
  for (std::size_t i = 0; i < 3; ++i) args.push_back(i < d ? spec.n[i] : 0);
  const blasmp::detail::Agreement ag = agree(comm, ok ? 0 : 1, args);
  if (!ag.mpi_ok) throw Error("trnfftMp: MPI error in the plan's argument exchange");
  if (!ag.same) throw UsageError("trnfftMp plan: the ranks passed different sizes, types or precisions");
  if (ag.status != 0) throw UsageError("trnfftMp plan: rank 2 or 3, a known type, sizes in [1, 2^27] on every rank");
  const std::vector<std::int64_t> c = complex_shape(spec);
  c1_ = c[1];
  inner_ = c[2];
  // Every rank's transpose messages and displacements within MPI's int, decided here from the spec
  // (the same verdict on every rank: all throw, none waits in an MPI_Alltoallv a peer never reaches).
  if (!slab_messages_fit(spec.n[0], c1_, inner_ * static_cast<std::int64_t>(elem_bytes(spec)), ranks_))
    throw NotSupportedError("trnfftMp slab plan", "a transpose message or displacement of 2 GiB or more (MPI's int counts)",
                            "more ranks, or the pencil / box API");
  n0_loc_ = slab_count(spec.n[0], ranks_, rank_);
  n1_loc_ = slab_count(c1_, ranks_, rank_);
  reordered_ = reordered_inverse(spec);
  if (reordered_)  // every rank's E slab below 2 GiB too (the moves' messages are parts of the slabs)
    for (const Box& b : slab_boxes(c, ranks_, 2))
      if (too_large_for_mpi(b, elem_bytes(spec)))
        throw NotSupportedError("trnfftMp slab plan", "an axis-2 slab of 2 GiB or more (MPI's int counts)", "more ranks");
  // The duplicate first: MPI_Comm_dup is collective, and a local plan may throw on one rank only.
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  // The local plans (their own checks: a slab beyond trnfft's limits throws here, on this rank --
  // the C API exchanges that status too; the destructor does not run, so the duplicate is freed here).
  try {
    const std::int64_t width = slab_count(inner_, ranks_, rank_);  // the reordered C2R's E slab
    if (reordered_) {
      if (n0_loc_ > 0) trailing_ = std::make_unique<fft::Plan>(c2r_rows_spec(spec, n0_loc_ * c1_), settings_);
      if (width > 0) axis0_ = std::make_unique<fft::Plan>(e_plan_spec(spec, width), settings_);
    } else {
      if (n0_loc_ > 0) trailing_ = std::make_unique<fft::Plan>(trailing_spec(spec, n0_loc_), settings_);
      if (n1_loc_ > 0) axis0_ = std::make_unique<fft::Plan>(axis0_spec(spec, n1_loc_ * inner_), settings_);
    }
  } catch (...) {
    MPI_Comm_free(&comm_);
    throw;
  }
}

SlabPlan::~SlabPlan() {
  int finalized = 0;
  MPI_Finalized(&finalized);  // a plan outliving MPI (a static) leaks its communicator, nothing else
  if (comm_ != MPI_COMM_NULL && finalized == 0) MPI_Comm_free(&comm_);
}

std::int64_t SlabPlan::inplace_elements() const { return n0_loc_ * c1_ * inner_; }
std::int64_t SlabPlan::shuffled_elements() const { return spec_.n[0] * n1_loc_ * inner_; }

const SlabPlanInfo& SlabPlan::info() const {
  if (!info_) info_ = std::make_unique<SlabPlanInfo>(predict_slab(settings_, spec_, ranks_, rank_));
  return *info_;
}

double SlabPlan::error_bound() const { return info().error_bound; }

// send: the source slab (to_shuffled: the n0 slab n0_loc x n1 x inner, packed per destination;
// otherwise the shuffled slab n0 x n1_loc x inner, whose destination blocks are contiguous). recv:
// the destination slab (to_shuffled: received in place; otherwise through a buffer, unpacked).
void SlabPlan::transpose(const char* send, char* recv, bool to_shuffled, Trace& trace) const {
  const auto es = static_cast<std::int64_t>(elem_bytes(spec_));
  const std::int64_t n0 = spec_.n[0], n1 = c1_, row = inner_ * es;  // row: one c1 index's elements
  const auto P = static_cast<std::size_t>(ranks_);
  std::vector<int> scount(P), sdisp(P), rcount(P), rdisp(P);
  ScratchVector<char> packed, unpacked;
  // Checked for every rank at plan time (slab_messages_fit): checked_int cannot throw here.
  const TransposeCounts tc = transpose_counts(n0, n1, row, ranks_, rank_, to_shuffled);
  for (std::size_t u = 0; u < P; ++u) {
    scount[u] = checked_int(tc.scount[u]);
    sdisp[u] = checked_int(tc.sdisp[u]);
    rcount[u] = checked_int(tc.rcount[u]);
    rdisp[u] = checked_int(tc.rdisp[u]);
  }
  const std::int64_t soff = tc.sent, roff = tc.received;
  const char* sbuf = send;
  if (to_shuffled) {  // pack: for destination q, my planes' rows of q's n1 range
    packed.resize(static_cast<std::size_t>(soff));
    for (int q = 0; q < ranks_; ++q)
      copy_rows(send + slab_start(n1, ranks_, q) * row, n1 * row, packed.data() + sdisp[static_cast<std::size_t>(q)],
                slab_count(n1, ranks_, q) * row, n0_loc_, slab_count(n1, ranks_, q) * row);
    sbuf = packed.data();
  } else {
    unpacked.resize(static_cast<std::size_t>(roff));
  }
  char* rbuf = to_shuffled ? recv : unpacked.data();
  check_mpi(MPI_Alltoallv(sbuf, scount.data(), sdisp.data(), MPI_BYTE, rbuf, rcount.data(), rdisp.data(), MPI_BYTE, comm_),
            "MPI_Alltoallv");
  if (!to_shuffled)  // unpack: rank q's rows of my planes into my n0 slab
    for (int q = 0; q < ranks_; ++q)
      copy_rows(rbuf + rdisp[static_cast<std::size_t>(q)], slab_count(n1, ranks_, q) * row, recv + slab_start(n1, ranks_, q) * row,
                n1 * row, n0_loc_, slab_count(n1, ranks_, q) * row);
  const auto me = static_cast<std::size_t>(rank_);
  LinkTransfer t;
  t.name = to_shuffled ? "trnfftMp.transpose.to_n1_slabs" : "trnfftMp.transpose.to_n0_slabs";
  // The remote blocks over the link, the own block (packed, then received in place) re-laid out
  // through HBM beside them: the longer of the two (as the pencil transposes; on one rank the re-layout).
  t.ns = std::max(alltoall_ns(fabric_spec(settings_.target), RankSet{0, 1, ranks_}, static_cast<double>(soff - scount[me]),
                              static_cast<double>(roff - rcount[me])),
                  detail::relayout_ns(settings_.target, static_cast<double>(scount[me])));
  t.peers = blasmp::detail::peers_over(comm_);
  const std::int64_t src_bytes = (to_shuffled ? inplace_elements() : shuffled_elements()) * es;
  const std::int64_t dst_bytes = (to_shuffled ? shuffled_elements() : inplace_elements()) * es;
  if (src_bytes > 0) t.sends[0] = HostSpan(send, src_bytes);
  if (dst_bytes > 0) t.receives[0] = HostSpan(recv, dst_bytes);
  record_link_transfer(trace, t);
}

void SlabPlan::allgather(const void* local, void* global, bool shuffled) const {
  const auto es = static_cast<std::int64_t>(elem_bytes(spec_));
  const std::int64_t n0 = spec_.n[0], n1 = c1_, row = inner_ * es;
  const auto P = static_cast<std::size_t>(ranks_);
  std::vector<int> counts(P), displs(P);
  for (int q = 0; q < ranks_; ++q) {
    const std::int64_t rows = shuffled ? n0 * slab_count(n1, ranks_, q) : slab_count(n0, ranks_, q) * n1;
    const std::int64_t first = shuffled ? n0 * slab_start(n1, ranks_, q) : slab_start(n0, ranks_, q) * n1;
    counts[static_cast<std::size_t>(q)] = checked_int(rows * row);
    displs[static_cast<std::size_t>(q)] = checked_int(first * row);
  }
  ScratchVector<char> packed(shuffled ? static_cast<std::size_t>(n0 * n1 * row) : 0);
  char* to = shuffled ? packed.data() : static_cast<char*>(global);
  static char empty = 0;
  const void* from = local != nullptr ? local : &empty;
  check_mpi(MPI_Allgatherv(from, counts[static_cast<std::size_t>(rank_)], MPI_BYTE, to, counts.data(), displs.data(), MPI_BYTE,
                           comm_),
            "MPI_Allgatherv");
  if (shuffled)  // rank q's block n0 x q1 rows -> its n1 range of every plane
    for (int q = 0; q < ranks_; ++q)
      copy_rows(packed.data() + displs[static_cast<std::size_t>(q)], slab_count(n1, ranks_, q) * row,
                static_cast<char*>(global) + slab_start(n1, ranks_, q) * row, n1 * row, n0, slab_count(n1, ranks_, q) * row);
}

void SlabPlan::run_forward(const char* in, char* out, Trace& trace) const {
  const std::size_t es = elem_bytes(spec_);
  ScratchVector<char> slab(static_cast<std::size_t>(inplace_elements()) * es);  // step 1's output
  run_local(trailing_.get(), in, slab.data(), fft::kForward, trace);
  transpose(slab.data(), out, /*to_shuffled=*/true, trace);
  run_local(axis0_.get(), out, out, fft::kForward, trace);
}

// The single-device-order C2R (fftmp.hpp): shuffled -> E, the 2-D plan on E, E -> n0 slabs, the
// 1-D C2R into the padded rows. Each move one link_transfer record (as transpose()'s).
void SlabPlan::run_reordered_inverse(const char* in, char* out, Trace& trace) const {
  const std::size_t es = elem_bytes(spec_);
  const std::vector<std::int64_t> c = complex_shape(spec_);
  const std::vector<Box> shuffled = slab_boxes(c, ranks_, 1), e_slabs = slab_boxes(c, ranks_, 2), n0_slabs = slab_boxes(c, ranks_, 0);
  const auto me = static_cast<std::size_t>(rank_);
  ScratchVector<char> e(static_cast<std::size_t>(std::max<std::int64_t>(e_slabs[me].volume(), 1)) * es);
  ScratchVector<char> slab(static_cast<std::size_t>(std::max<std::int64_t>(inplace_elements(), 1)) * es);
  auto move = [&](const std::vector<Box>& from, const std::vector<Box>& to, const char* src, char* dst, const char* name) {
    LinkTransfer t;
    t.name = name;
    t.ns = slab_move_ns(settings_.target, ranks_, redistribute(comm_, from, to, es, src, dst));
    t.peers = blasmp::detail::peers_over(comm_);  // an all-to-all: starts when the last rank arrives
    if (from[me].volume() > 0) t.sends[0] = HostSpan(src, from[me].volume() * static_cast<std::int64_t>(es));
    if (to[me].volume() > 0) t.receives[0] = HostSpan(dst, to[me].volume() * static_cast<std::int64_t>(es));
    record_link_transfer(trace, t);
  };
  move(shuffled, e_slabs, in, e.data(), "trnfftMp.transpose.to_axis2_slabs");
  run_local(axis0_.get(), e.data(), e.data(), fft::kInverse, trace);
  move(e_slabs, n0_slabs, e.data(), slab.data(), "trnfftMp.transpose.to_n0_slabs");
  run_local(trailing_.get(), slab.data(), out, fft::kInverse, trace);
}

void SlabPlan::run_inverse(const char* in, char* out, Trace& trace) const {
  if (reordered_) return run_reordered_inverse(in, out, trace);
  const std::size_t es = elem_bytes(spec_);
  ScratchVector<char> shuffled(static_cast<std::size_t>(shuffled_elements()) * es);
  ScratchVector<char> slab(static_cast<std::size_t>(inplace_elements()) * es);
  run_local(axis0_.get(), in, shuffled.data(), fft::kInverse, trace);
  transpose(shuffled.data(), slab.data(), /*to_shuffled=*/false, trace);
  run_local(trailing_.get(), slab.data(), out, fft::kInverse, trace);
}

void SlabPlan::execute(const void* in, void* out, int direction, fft::ExecReport* report) const {
  const bool fwd = direction == fft::kForward;
  const std::int64_t in_elems = fwd ? inplace_elements() : shuffled_elements();
  const std::int64_t out_elems = fwd ? shuffled_elements() : inplace_elements();
  const bool local_ok = detail::direction_allowed(spec_.type, direction) && (in != nullptr || in_elems == 0) && (out != nullptr || out_elems == 0);
  detail::agree_execution(comm_, local_ok, direction,
                          "trnfftMp execute: direction must be -1 or +1 (R2C / D2Z: -1, C2R / Z2D: +1) and the data pointers non-NULL");
  Trace trace = detail::execution_trace(settings_.target, ranks_, comm_);
  // Empty slabs: a rank with nothing to send still takes part in the all-to-all (pointers unused).
  static char empty = 0;
  const char* i = in != nullptr ? static_cast<const char*>(in) : &empty;
  char* o = out != nullptr ? static_cast<char*>(out) : &empty;
  if (direction == fft::kForward)
    run_forward(i, o, trace);
  else
    run_inverse(i, o, trace);
  detail::finish_execution(report, std::move(trace), settings_, report != nullptr && report->plans_wanted ? print() : "");
}

namespace detail {

void agree_execution(MPI_Comm comm, bool local_ok, int direction, const char* bad) {
  const blasmp::detail::Agreement ag = agree(comm, local_ok ? 0 : 1, {direction});
  if (!ag.mpi_ok) throw Error("trnfftMp: MPI error in the execution's argument exchange");
  if (!ag.same) throw UsageError("trnfftMp execute: the ranks passed different directions");
  if (ag.status != 0) throw UsageError(bad);
}

Trace execution_trace(Generation target, int ranks, MPI_Comm comm) {
  Trace trace;
  LinkTransfer exchange;
  exchange.name = "trnfftMp.exchange";
  exchange.ns = small_allreduce_ns(fabric_spec(target), RankSet{0, 1, ranks});
  exchange.peers = blasmp::detail::peers_over(comm);
  record_link_transfer(trace, exchange);
  return trace;
}

void finish_execution(fft::ExecReport* report, Trace&& trace, const fft::Settings& settings, const std::string& plan_text) {
  if (report == nullptr) return;
  const bool plans = report->plans_wanted;
  *report = fft::ExecReport{};
  report->tensor_passes = trace.per_engine[static_cast<int>(Engine::tensor)];
  ReportSettings rs = ReportSettings::of(settings);
  rs.link_peers = &blasmp::peer_exchange();  // collective: waiting for peers (docs/scale-out.md section 7)
  finish_report(*report, std::move(trace), rs);
  if (plans) report->add_plan(plan_text);
}

}  // namespace detail

}  // namespace trn::fftmp
