// trnfftMp pencil decomposition (pencil.hpp; docs/scale-out.md 9.6): the grid choice, the pencils,
// the prediction and the execution (three dense 1-D trnfft passes, two sub-communicator all-to-alls).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <vector>

#include "exchange.hpp"  // trnblasMp's argument exchange
#include "local.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/report.hpp"
#include "trn/core/scratch.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"

namespace trn::fftmp {

namespace {

using blasmp::detail::agree;
using blasmp::detail::check_mpi;
using detail::alltoall_ns;
using detail::device_settings;

std::size_t elem_bytes(fft::Type t) { return is_fp64(t) ? 16 : 8; }  // a complex element (the transposes')
fft::Type complex_type(fft::Type t) { return is_fp64(t) ? fft::Type::z2z : fft::Type::c2c; }

// Each stage's whole axis and storage order (pencil.hpp): A axis 2, B axis 1, C axis 0.
constexpr std::array<int, 3> kAxis{2, 1, 0};
constexpr std::array<std::array<int, 3>, 3> kOrder{{{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}};

// The plan of one stage's pass: n = {n_axis}, a dense batch of the box's other elements. A real
// transform's axis-2 pass is trnfft's R2C / C2R (D2Z / Z2D) plan of length n2 between the dense real
// pencil (rows of n2 reals) and the dense half-spectrum pencil (rows of n2/2 + 1); axes 1 and 0 are
// complex passes on the half spectrum.
fft::PlanSpec pass_spec(const PencilSpec& s, int stage, std::int64_t batch) {
  fft::PlanSpec p;
  const std::int64_t len = s.n[static_cast<std::size_t>(kAxis[static_cast<std::size_t>(stage)])];
  p.n = {len};
  p.type = stage == 0 ? s.type : complex_type(s.type);
  p.mode = s.mode;
  p.batch = batch;
  return p;
}

std::int64_t pass_batch(const Box& b, int stage) {
  const int axis = kAxis[static_cast<std::size_t>(stage)];
  return b.extent(axis) > 0 ? b.volume() / b.extent(axis) : 0;
}

// The ranks of row p1 (stride 1) and of column p2 (stride P2) as fabric rank sets.
RankSet row_set(int p1, int p2_count) { return RankSet{p1 * p2_count, 1, p2_count}; }
RankSet col_set(int p2, int p1_count, int p2_count) { return RankSet{p2, p2_count, p1_count}; }

// Elements member `me` sends to / receives from the other members moving from[] to to[] (one box per
// member; the larger direction), and those it keeps (*kept).
double larger_direction(const std::vector<Box>& from, const std::vector<Box>& to, std::size_t me, double* kept) {
  const Moved m = planned_moves(from, to, me, 1);
  *kept = m.kept;
  return std::max(m.sent, m.received);
}

std::vector<int> row_members(int p1, int p2c) {
  std::vector<int> m;
  for (int q = 0; q < p2c; ++q) m.push_back(p1 * p2c + q);
  return m;
}
std::vector<int> col_members(int p2, int p1c, int p2c) {
  std::vector<int> m;
  for (int q = 0; q < p1c; ++q) m.push_back(q * p2c + p2);
  return m;
}

std::vector<int> all_members(int ranks) {
  std::vector<int> m(static_cast<std::size_t>(ranks));
  for (int q = 0; q < ranks; ++q) m[static_cast<std::size_t>(q)] = q;
  return m;
}
std::size_t index_of(const std::vector<int>& members, int rank) {
  return static_cast<std::size_t>(std::find(members.begin(), members.end(), rank) - members.begin());
}

// Stage `stage`'s pencil of each member.
std::vector<Box> stage_boxes(const Index3& n, int p1c, int p2c, const std::vector<int>& members, int stage) {
  std::vector<Box> b;
  for (const int q : members) b.push_back(pencil_boxes(n, p1c, p2c, q)[static_cast<std::size_t>(stage)]);
  return b;
}

// The reordered C2R (pencil.hpp): a C2R / Z2D whose axes 0 and 1 are both longer than 1 (with one of
// them of length 1, the plain inverse's order axis 0, 1, 2 is already the single-device C2R's).
bool reordered_inverse(const PencilSpec& s) {
  return (s.type == fft::Type::c2r || s.type == fft::Type::z2d) && s.n[0] > 1 && s.n[1] > 1;
}

// The E box of `rank` on the half spectrum cn: all n0 x all n1 x sub-slab p1 of P1 of the axis-2
// slab p2 of P2; stored axis 1 contiguous (E1, the axis-1 pass) or axis 0 contiguous (E0).
constexpr std::array<int, 3> kOrderE1{2, 0, 1}, kOrderE0{2, 1, 0};
Box e_box(const Index3& cn, int p1c, int p2c, int rank, bool axis1_contiguous) {
  const int p1 = rank / p2c, p2 = rank % p2c;
  const std::int64_t c0 = slab_start(cn[2], p2c, p2), cc = slab_count(cn[2], p2c, p2);
  const std::int64_t e0 = c0 + slab_start(cc, p1c, p1), e1 = e0 + slab_count(cc, p1c, p1);
  return dense_box({0, 0, e0}, {cn[0], cn[1], e1}, axis1_contiguous ? kOrderE1 : kOrderE0);
}
std::vector<Box> e_boxes(const Index3& cn, int p1c, int p2c, const std::vector<int>& members, bool axis1_contiguous) {
  std::vector<Box> b;
  for (const int q : members) b.push_back(e_box(cn, p1c, p2c, q, axis1_contiguous));
  return b;
}

// The batch of stage `stage`'s pass (axis 2, 1, 0) of this rank: its pencil's, or on E (the reordered C2R).
std::int64_t stage_batch(const PencilSpec& s, const Index3& cn, int rank, int stage) {
  const auto st = static_cast<std::size_t>(stage);
  if (stage == 0 || !reordered_inverse(s)) return pass_batch(pencil_boxes(cn, s.p1, s.p2, rank)[st], stage);
  const std::int64_t len = cn[static_cast<std::size_t>(kAxis[st])];
  return e_box(cn, s.p1, s.p2, rank, true).volume() / len;
}

// A pass is the identity (no plan) on an axis of length 1, except a real transform's axis 2 (the
// R2C / C2R changes the element type).
bool needs_pass(const PencilSpec& s, int stage) {
  return s.n[static_cast<std::size_t>(kAxis[static_cast<std::size_t>(stage)])] > 1 || (stage == 0 && is_real(s.type));
}

bool valid_spec(const PencilSpec& s, int ranks) {
  bool ok = s.type == fft::Type::c2c || s.type == fft::Type::z2z || is_real(s.type);
  for (const std::int64_t v : s.n) ok = ok && v >= 1 && v <= fft::kMaxDimension;
  ok = ok && static_cast<double>(s.n[0]) * static_cast<double>(s.n[1]) * static_cast<double>(s.n[2]) <= kMaxPencilPoints;
  const bool auto_grid = s.p1 == 0 && s.p2 == 0;
  return ok && (auto_grid || (s.p1 >= 1 && s.p2 >= 1 && static_cast<std::int64_t>(s.p1) * s.p2 == ranks));
}

}  // namespace

Index3 complex_dims(const PencilSpec& s) { return {s.n[0], s.n[1], is_real(s.type) ? s.n[2] / 2 + 1 : s.n[2]}; }

Box pencil_input_box(const PencilSpec& s, int p1, int p2, int rank) { return pencil_boxes(s.n, p1, p2, rank)[0]; }

std::array<int, 2> choose_grid(const Index3& n, int ranks) {
  if (ranks <= std::min(n[0], n[1])) return {ranks, 1};
  std::array<int, 2> best{ranks, 1}, best_fit{0, 0};
  for (int p2 = 1; p2 * p2 <= ranks; ++p2) {
    if (ranks % p2 != 0) continue;
    const int p1 = ranks / p2;
    best = {p1, p2};  // the last divisor <= sqrt(P): the most square
    if (p1 <= std::min(n[0], n[1]) && p2 <= std::min(n[1], n[2])) best_fit = {p1, p2};
  }
  return best_fit[0] > 0 ? best_fit : best;
}

std::array<Box, 3> pencil_boxes(const Index3& n, int p1c, int p2c, int rank) {
  const int p1 = rank / p2c, p2 = rank % p2c;
  const std::int64_t a0 = slab_start(n[0], p1c, p1), a1 = a0 + slab_count(n[0], p1c, p1);
  const std::int64_t b0 = slab_start(n[1], p2c, p2), b1 = b0 + slab_count(n[1], p2c, p2);
  const std::int64_t c0 = slab_start(n[2], p2c, p2), c1 = c0 + slab_count(n[2], p2c, p2);
  const std::int64_t d0 = slab_start(n[1], p1c, p1), d1 = d0 + slab_count(n[1], p1c, p1);
  return {dense_box({a0, b0, 0}, {a1, b1, n[2]}, kOrder[0]), dense_box({a0, 0, c0}, {a1, n[1], c1}, kOrder[1]),
          dense_box({0, d0, c0}, {n[0], d1, c1}, kOrder[2])};
}

double PencilPlanInfo::comm_ns() const {
  if (reordered) return row_link_ns + col_link_ns + relayout_ns + exchange_ns;  // nothing overlaps the exchange
  return row_link_ns + col_link_ns + std::max(0.0, exchange_ns - axis_ns[0]);
}

namespace {
// The time of one move: the all-to-all over `set` of the larger direction (bytes), or the own block's
// HBM re-layout (kept bytes) when longer.
double move_ns(const FabricSpec& f, Generation target, const RankSet& set, double bytes, double kept_bytes) {
  return std::max(bytes > 0 ? alltoall_ns(f, set, bytes, bytes) : 0, detail::relayout_ns(target, kept_bytes));
}

// The two transposes of the plain decomposition (A <-> B over the row, B <-> C over the column).
void predict_transposes(const FabricSpec& f, const PencilSpec& spec, const Index3& cn, int rank, double es, PencilPlanInfo& p) {
  const int p1 = rank / spec.p2, p2 = rank % spec.p2;
  const std::vector<int> row = row_members(p1, spec.p2), col = col_members(p2, spec.p1, spec.p2);
  double row_kept = 0, col_kept = 0;
  p.row_bytes = es * larger_direction(stage_boxes(cn, spec.p1, spec.p2, row, 0), stage_boxes(cn, spec.p1, spec.p2, row, 1),
                                      index_of(row, rank), &row_kept);
  p.col_bytes = es * larger_direction(stage_boxes(cn, spec.p1, spec.p2, col, 1), stage_boxes(cn, spec.p1, spec.p2, col, 2),
                                      index_of(col, rank), &col_kept);
  p.row_link_ns = move_ns(f, p.target, row_set(p1, spec.p2), p.row_bytes, es * row_kept);
  p.col_link_ns = move_ns(f, p.target, col_set(p2, spec.p1, spec.p2), p.col_bytes, es * col_kept);
}

// The reordered C2R's moves (pencil.hpp): C -> E1 over the column, E1 -> E0 locally, E0 -> A over all.
void predict_reordered_moves(const FabricSpec& f, const PencilSpec& spec, const Index3& cn, int ranks, int rank, double es,
                             PencilPlanInfo& p) {
  const int p2 = rank % spec.p2;
  const std::vector<int> col = col_members(p2, spec.p1, spec.p2), all = all_members(ranks);
  double col_kept = 0, all_kept = 0;
  p.col_bytes = es * larger_direction(stage_boxes(cn, spec.p1, spec.p2, col, 2), e_boxes(cn, spec.p1, spec.p2, col, true),
                                      index_of(col, rank), &col_kept);
  p.row_bytes = es * larger_direction(e_boxes(cn, spec.p1, spec.p2, all, false), stage_boxes(cn, spec.p1, spec.p2, all, 0),
                                      static_cast<std::size_t>(rank), &all_kept);
  p.col_link_ns = move_ns(f, p.target, col_set(p2, spec.p1, spec.p2), p.col_bytes, es * col_kept);
  p.row_link_ns = move_ns(f, p.target, RankSet{0, 1, ranks}, p.row_bytes, es * all_kept);
  p.relayout_ns = detail::relayout_ns(p.target, es * static_cast<double>(e_box(cn, spec.p1, spec.p2, rank, true).volume()));
}
}  // namespace

PencilPlanInfo predict_pencil(const fft::Settings& s0, const PencilSpec& spec0, int ranks, int rank) {
  const fft::Settings s = device_settings(s0);
  PencilSpec spec = spec0;
  if (spec.p1 == 0 || spec.p2 == 0) {
    const std::array<int, 2> g = choose_grid(spec.n, ranks);
    spec.p1 = g[0], spec.p2 = g[1];
  }
  PencilPlanInfo p;
  p.n = spec.n, p.type = spec.type, p.ranks = ranks, p.rank = rank, p.p1 = spec.p1, p.p2 = spec.p2, p.target = s.target;
  p.reordered = reordered_inverse(spec);
  const Index3 cn = complex_dims(spec);  // the transposes move the (half) spectrum
  std::array<Box, 3> boxes = pencil_boxes(cn, spec.p1, spec.p2, rank);
  if (p.reordered) boxes[1] = e_box(cn, spec.p1, spec.p2, rank, true);  // the passes of axes 1 and 0 run on E
  double roof = 0;
  for (int stage = 0; stage < 3; ++stage) {
    const auto st = static_cast<std::size_t>(stage);
    p.extents[st] = {boxes[st].extent(0), boxes[st].extent(1), boxes[st].extent(2)};
    const std::int64_t len = spec.n[static_cast<std::size_t>(kAxis[st])];
    if (!needs_pass(spec, stage)) continue;  // the identity: no plan
    const detail::LocalPrediction l = detail::predict_local(s, stage_batch(spec, cn, rank, stage), len,
                                                            [&](std::int64_t b) { return pass_spec(spec, stage, b); });
    p.axis_ns[st] = l.ns;
    p.error_bound += l.bound;
    p.predicted_by_scaling = p.predicted_by_scaling || l.scaled;
    roof += l.roofline_ns;
  }
  const FabricSpec& f = fabric_spec(s.target);
  const double es = static_cast<double>(elem_bytes(spec.type));
  p.exchange_ns = small_allreduce_ns(f, RankSet{0, 1, ranks});
  if (p.reordered) {
    predict_reordered_moves(f, spec, cn, ranks, rank, es, p);
    p.predicted_ns = p.exchange_ns + p.col_link_ns + p.axis_ns[1] + p.relayout_ns + p.axis_ns[2] + p.row_link_ns + p.axis_ns[0];
    p.roofline_ns = std::max(p.row_link_ns + p.col_link_ns + p.relayout_ns + p.exchange_ns, roof);
    return p;
  }
  predict_transposes(f, spec, cn, rank, es, p);
  p.predicted_ns = std::max(p.exchange_ns, p.axis_ns[0]) + p.row_link_ns + p.axis_ns[1] + p.col_link_ns + p.axis_ns[2];
  p.roofline_ns = std::max(p.row_link_ns + p.col_link_ns + p.exchange_ns, roof);
  return p;
}

namespace {
// The reordered C2R's plan text (pencil.hpp): its moves and passes in execution order.
std::string print_reordered(const PencilPlanInfo& i) {
  char buf[1024];
  const FabricSpec& f = fabric_spec(i.target);
  std::snprintf(buf, sizeof buf,
                "trnfftMp pencil plan %lldx%lldx%lld %s on %d %s devices (%.*s, %.*s), grid %d x %d, rank %d, the single-device "
                "C2R order: C %lldx%lldx%lld -> column all-to-all (%d ranks) %.3g MB %.1f us, E %lldx%lldx%lld -> axis-1 FFT %.1f us, "
                "re-layout %.1f us, axis-0 FFT %.1f us, all-to-all (%d ranks) %.3g MB %.1f us, A %lldx%lldx%lld -> axis-2 C2R %.1f us; "
                "predicted %.1f us (communication %.1f%%), roofline bound %.1f us%s; error bound %.2e",
                static_cast<long long>(i.n[0]), static_cast<long long>(i.n[1]), static_cast<long long>(i.n[2]), fft::type_name(i.type),
                i.ranks, hardware_spec(i.target).name.data(), static_cast<int>(f.instance.size()), f.instance.data(),
                static_cast<int>(f.link.size()), f.link.data(), i.p1, i.p2, i.rank, static_cast<long long>(i.extents[2][0]),
                static_cast<long long>(i.extents[2][1]), static_cast<long long>(i.extents[2][2]), i.p1, i.col_bytes / 1e6,
                i.col_link_ns / 1e3, static_cast<long long>(i.extents[1][0]), static_cast<long long>(i.extents[1][1]),
                static_cast<long long>(i.extents[1][2]), i.axis_ns[1] / 1e3, i.relayout_ns / 1e3, i.axis_ns[2] / 1e3, i.ranks,
                i.row_bytes / 1e6, i.row_link_ns / 1e3, static_cast<long long>(i.extents[0][0]), static_cast<long long>(i.extents[0][1]),
                static_cast<long long>(i.extents[0][2]), i.axis_ns[0] / 1e3, i.predicted_ns / 1e3, 100.0 * i.comm_share(),
                i.roofline_ns / 1e3, i.predicted_by_scaling ? " (local plans predicted at <= 2^20 points, scaled by the batch)" : "",
                i.error_bound);
  return buf;
}
}  // namespace

std::string PencilPlanInfo::print() const {
  if (reordered) return print_reordered(*this);
  char buf[1024];
  const FabricSpec& f = fabric_spec(target);
  std::snprintf(buf, sizeof buf,
                "trnfftMp pencil plan %lldx%lldx%lld %s on %d %s devices (%.*s, %.*s), grid %d x %d, rank %d: "
                "A %lldx%lldx%lld -> axis-2 FFT %.1f us, row all-to-all (%d ranks) %.3g MB %.1f us, B %lldx%lldx%lld -> "
                "axis-1 FFT %.1f us, column all-to-all (%d ranks) %.3g MB %.1f us, C %lldx%lldx%lld -> axis-0 FFT %.1f us; "
                "predicted %.1f us (communication %.1f%%), roofline bound %.1f us%s; error bound %.2e",
                static_cast<long long>(n[0]), static_cast<long long>(n[1]), static_cast<long long>(n[2]), fft::type_name(type),
                ranks, hardware_spec(target).name.data(), static_cast<int>(f.instance.size()), f.instance.data(),
                static_cast<int>(f.link.size()), f.link.data(), p1, p2, rank, static_cast<long long>(extents[0][0]),
                static_cast<long long>(extents[0][1]), static_cast<long long>(extents[0][2]), axis_ns[0] / 1e3, p2,
                row_bytes / 1e6, row_link_ns / 1e3, static_cast<long long>(extents[1][0]), static_cast<long long>(extents[1][1]),
                static_cast<long long>(extents[1][2]), axis_ns[1] / 1e3, p1, col_bytes / 1e6, col_link_ns / 1e3,
                static_cast<long long>(extents[2][0]), static_cast<long long>(extents[2][1]), static_cast<long long>(extents[2][2]),
                axis_ns[2] / 1e3, predicted_ns / 1e3, 100.0 * comm_share(), roofline_ns / 1e3,
                predicted_by_scaling ? " (local plans predicted at <= 2^20 points, scaled by the batch)" : "", error_bound);
  return buf;
}

PencilPlan::PencilPlan(const PencilSpec& spec, const fft::Settings& settings, MPI_Comm comm)
    : spec_(spec), settings_(device_settings(settings)) {
  int ranks = 1;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  const bool ok = valid_spec(spec, ranks);
  const blasmp::detail::Agreement ag = agree(comm, ok ? 0 : 1, {spec.n[0], spec.n[1], spec.n[2], static_cast<int>(spec.type),
                                                                static_cast<int>(spec.mode), spec.p1, spec.p2});
  if (!ag.mpi_ok) throw Error("trnfftMp: MPI error in the pencil plan's argument exchange");
  if (!ag.same) throw UsageError("trnfftMp pencil plan: the ranks passed different sizes, types, precisions or grids");
  if (ag.status != 0)
    throw UsageError("trnfftMp pencil plan: a known type, sizes in [1, 2^27] and at most 2^48 points, a grid p1 x p2 = the communicator's size (or 0 x 0)");
  if (spec_.p1 == 0) {
    const std::array<int, 2> g = choose_grid(spec.n, ranks);
    spec_.p1 = g[0], spec_.p2 = g[1];
  }
  p1_ = spec_.p1, p2_ = spec_.p2;
  cn_ = complex_dims(spec_);
  boxes_ = pencil_boxes(cn_, p1_, p2_, rank_);
  reordered_ = reordered_inverse(spec_);
  in_box_ = pencil_input_box(spec_, p1_, p2_, rank_);
  // Every rank's (complex) pencils below 2 GiB (MPI's int counts): the same verdict on every rank.
  for (int q = 0; q < ranks; ++q)
    for (const Box& b : pencil_boxes(cn_, p1_, p2_, q))
      if (too_large_for_mpi(b, elem_bytes(spec_.type)))
        throw NotSupportedError("trnfftMp pencil plan", "a pencil of 2 GiB or more (MPI's int message counts)", "more ranks");
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  // Row p1 (key p2: the row rank is p2), column p2 (key p1).
  check_mpi(MPI_Comm_split(comm_, rank_ / p2_, rank_ % p2_, &row_), "MPI_Comm_split");
  check_mpi(MPI_Comm_split(comm_, rank_ % p2_, rank_ / p2_, &col_), "MPI_Comm_split");
  // The local plans may fail on one rank only (a pencil beyond trnfft's limits): the failure is
  // exchanged, so every rank throws (its own error, or that another rank's plan failed) and none
  // goes on to a collective its peers never reach.
  std::exception_ptr failure;
  try {
    for (int stage = 0; stage < 3; ++stage) {
      const auto st = static_cast<std::size_t>(stage);
      const std::int64_t batch = stage_batch(spec_, cn_, rank_, stage);
      if (batch > 0 && needs_pass(spec_, stage))
        axis_[st] = std::make_unique<fft::Plan>(pass_spec(spec_, stage, batch), settings_);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  const blasmp::detail::Agreement built = agree(comm_, failure ? 1 : 0, {});
  if (built.status == 0 && built.mpi_ok) return;
  for (MPI_Comm* c : {&row_, &col_, &comm_}) MPI_Comm_free(c);
  if (failure) std::rethrow_exception(failure);
  throw UsageError("trnfftMp pencil plan: another rank's local plan failed (its pencil is beyond trnfft's limits)");
}

PencilPlan::~PencilPlan() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized != 0) return;
  for (MPI_Comm* c : {&row_, &col_, &comm_})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

const PencilPlanInfo& PencilPlan::info() const {
  if (!info_) info_ = std::make_unique<PencilPlanInfo>(predict_pencil(settings_, spec_, p1_ * p2_, rank_));
  return *info_;
}

// The boxes of stage `stage` of the members of this rank's row (or column), in sub-communicator order.
std::vector<Box> PencilPlan::member_boxes(int stage, bool row) const {
  const int p1 = rank_ / p2_, p2 = rank_ % p2_;
  std::vector<Box> b;
  for (const int q : row ? row_members(p1, p2_) : col_members(p2, p1_, p2_))
    b.push_back(pencil_boxes(cn_, p1_, p2_, q)[static_cast<std::size_t>(stage)]);
  return b;
}

void PencilPlan::move_boxes(MPI_Comm sub, const RankSet& set, const std::vector<Box>& from, const std::vector<Box>& to, int me,
                            const char* src, char* dst, const char* name, Trace& trace) const {
  const Moved m = redistribute(sub, from, to, elem_bytes(spec_.type), src, dst);
  // The remote blocks over the link, the own block re-laid out through HBM beside them (a row of one
  // rank: the re-layout alone); the record's spans keep the next pass after the previous one.
  const bool local = m.sent == 0 && m.received == 0;
  LinkTransfer t;
  t.name = name;
  t.ns = std::max(local ? 0 : alltoall_ns(fabric_spec(settings_.target), set, m.sent, m.received),
                  detail::relayout_ns(settings_.target, m.kept));
  t.peers = blasmp::detail::peers_over(sub);
  const auto es = static_cast<std::int64_t>(elem_bytes(spec_.type));
  const auto u = static_cast<std::size_t>(me);
  if (from[u].span() > 0) t.sends[0] = HostSpan(src, from[u].span() * es);
  if (to[u].span() > 0) t.receives[0] = HostSpan(dst, to[u].span() * es);
  record_link_transfer(trace, t);
}

void PencilPlan::transpose(MPI_Comm sub, const RankSet& set, int from, int to, const char* src, char* dst, const char* name,
                           Trace& trace) const {
  const bool row = sub == row_;
  const int me = row ? rank_ % p2_ : rank_ / p2_;  // the rank in the row (key p2) or column (key p1)
  move_boxes(sub, set, member_boxes(from, row), member_boxes(to, row), me, src, dst, name, trace);
}

// The reordered C2R (pencil.hpp): C -> E1 (column), axis 1, E1 -> E0 (local), axis 0, E0 -> A (every
// rank) into a half-spectrum scratch pencil, then the C2R pass writing the real pencil.
void PencilPlan::run_reordered_inverse(const char* in, char* out, Trace& trace) const {
  const std::size_t es = elem_bytes(spec_.type);
  const int p2 = rank_ % p2_, ranks = p1_ * p2_;
  const std::vector<int> col = col_members(p2, p1_, p2_), all = all_members(ranks);
  const Box e1 = e_box(cn_, p1_, p2_, rank_, true), e0 = e_box(cn_, p1_, p2_, rank_, false);
  ScratchVector<char> b1(static_cast<std::size_t>(std::max<std::int64_t>(e1.span(), 1)) * es);
  ScratchVector<char> b0(b1.size());
  ScratchVector<char> a(static_cast<std::size_t>(std::max<std::int64_t>(boxes_[0].span(), 1)) * es);
  move_boxes(col_, col_set(p2, p1_, p2_), stage_boxes(cn_, p1_, p2_, col, 2), e_boxes(cn_, p1_, p2_, col, true),
             rank_ / p2_, in, b1.data(), "trnfftMp.pencil.column_transpose", trace);
  detail::run_local(axis_[1].get(), b1.data(), b1.data(), fft::kInverse, trace);
  move_boxes(MPI_COMM_SELF, RankSet{rank_, 1, 1}, {e1}, {e0}, 0, b1.data(), b0.data(), "trnfftMp.pencil.relayout", trace);
  detail::run_local(axis_[2].get(), b0.data(), b0.data(), fft::kInverse, trace);
  move_boxes(comm_, RankSet{0, 1, ranks}, e_boxes(cn_, p1_, p2_, all, false), stage_boxes(cn_, p1_, p2_, all, 0), rank_,
             b0.data(), a.data(), "trnfftMp.pencil.all_to_all", trace);
  detail::run_local(axis_[0].get(), a.data(), out, fft::kInverse, trace);
}

void PencilPlan::run(const void* in, void* out, int direction, Trace& trace) const {
  const std::size_t es = elem_bytes(spec_.type);
  const int p1 = rank_ / p2_, p2 = rank_ % p2_;
  const RankSet rows = row_set(p1, p2_), cols = col_set(p2, p1_, p2_);
  ScratchVector<char> a(static_cast<std::size_t>(std::max<std::int64_t>(boxes_[0].span(), 1)) * es);
  ScratchVector<char> b(static_cast<std::size_t>(std::max<std::int64_t>(boxes_[1].span(), 1)) * es);
  const auto* i = static_cast<const char*>(in);
  auto* o = static_cast<char*>(out);
  if (direction == fft::kForward) {
    if (axis_[0]) detail::run_local(axis_[0].get(), i, a.data(), direction, trace);
    else if (boxes_[0].span() > 0) std::memcpy(a.data(), i, static_cast<std::size_t>(boxes_[0].span()) * es);
    transpose(row_, rows, 0, 1, a.data(), b.data(), "trnfftMp.pencil.row_transpose", trace);
    detail::run_local(axis_[1].get(), b.data(), b.data(), direction, trace);
    transpose(col_, cols, 1, 2, b.data(), o, "trnfftMp.pencil.column_transpose", trace);
    detail::run_local(axis_[2].get(), o, o, direction, trace);
    return;
  }
  if (reordered_) return run_reordered_inverse(i, o, trace);
  ScratchVector<char> c(static_cast<std::size_t>(std::max<std::int64_t>(boxes_[2].span(), 1)) * es);
  if (axis_[2]) detail::run_local(axis_[2].get(), i, c.data(), direction, trace);
  else if (boxes_[2].span() > 0) std::memcpy(c.data(), i, static_cast<std::size_t>(boxes_[2].span()) * es);
  transpose(col_, cols, 2, 1, c.data(), b.data(), "trnfftMp.pencil.column_transpose", trace);
  detail::run_local(axis_[1].get(), b.data(), b.data(), direction, trace);
  // A complex A pencil is received in place; a real transform's half spectrum into scratch, from which
  // the C2R pass writes the real pencil.
  char* a_dst = is_real(spec_.type) ? a.data() : o;
  transpose(row_, rows, 1, 0, b.data(), a_dst, "trnfftMp.pencil.row_transpose", trace);
  detail::run_local(axis_[0].get(), a_dst, o, direction, trace);
}


void PencilPlan::execute(const void* in, void* out, int direction, fft::ExecReport* report) const {
  const bool fwd = direction == fft::kForward;
  const bool local_ok = detail::direction_allowed(spec_.type, direction) && (in != nullptr || (fwd ? in_box_ : boxes_[2]).volume() == 0) &&
                        (out != nullptr || (fwd ? boxes_[2] : in_box_).volume() == 0);
  detail::agree_execution(comm_, local_ok, direction,
                          "trnfftMp pencil execute: direction must be -1 or +1 (R2C / D2Z: -1, C2R / Z2D: +1) and the data pointers non-NULL");
  Trace trace = detail::execution_trace(settings_.target, p1_ * p2_, comm_);
  static char empty[16] = {};
  run(in != nullptr ? in : empty, out != nullptr ? out : empty, direction, trace);
  detail::finish_execution(report, std::move(trace), settings_, report != nullptr && report->plans_wanted ? print() : "");
}

}  // namespace trn::fftmp
