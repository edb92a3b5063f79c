// trnfftMp's box API plan (pencil.hpp BoxPlan; docs/scale-out.md 9.8, cuFFTMp's
// cufftXtSetDistribution): every rank's input and output boxes, exchanged and checked, around a
// pencil plan.
//
// Algorithm: forward = redistribute(input boxes -> the pencil plan's A boxes), the pencil forward
// transform (A -> C), redistribute(C -> output boxes); inverse the other way round. Engines: the pencil plan's, plus one
// link_transfer per redistribution (an all-to-all over the whole communicator, or the HBM re-layout
// of the rank's own block when longer). Accuracy: the pencil
// plan's (the moves are exact). Real types: the input side (input boxes, A pencils) moves real
// elements, the output side (output boxes, C pencils) the half spectrum. Limits: the boxes of a 2-D
// complex transform have lower2 = 0, upper2 = 1, of a real one lower0 = 0, upper0 = 1.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "local.hpp"
#include "trn/core/error.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/report.hpp"
#include "trn/core/scratch.hpp"
#include "trn/fftmp/fftmp.hpp"
#include "trn/fftmp/pencil.hpp"

namespace trn::fftmp {

namespace {

using blasmp::detail::check_mpi;

// Every rank's box, from each rank's own (one MPI_Allgather of 9 integers).
std::vector<Box> gather_boxes(MPI_Comm comm, const Box& mine) {
  int p = 1;
  check_mpi(MPI_Comm_size(comm, &p), "MPI_Comm_size");
  std::array<std::int64_t, 9> v{};
  for (std::size_t d = 0; d < 3; ++d) v[d] = mine.lower[d], v[3 + d] = mine.upper[d], v[6 + d] = mine.strides[d];
  std::vector<std::int64_t> all(9 * static_cast<std::size_t>(p));
  check_mpi(MPI_Allgather(v.data(), 9, MPI_INT64_T, all.data(), 9, MPI_INT64_T, comm), "MPI_Allgather");
  std::vector<Box> boxes(static_cast<std::size_t>(p));
  for (std::size_t r = 0; r < boxes.size(); ++r)
    for (std::size_t d = 0; d < 3; ++d)
      boxes[r].lower[d] = all[9 * r + d], boxes[r].upper[d] = all[9 * r + 3 + d], boxes[r].strides[d] = all[9 * r + 6 + d];
  return boxes;
}

// The first rank whose layout is invalid, and why ("" when none).
std::string layouts_error(const std::vector<Box>& boxes, const char* side) {
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    const std::string why = box_layout_error(boxes[r]);
    if (!why.empty()) return std::string("rank ") + std::to_string(r) + "'s " + side + " box: " + why;
  }
  return "";
}

}  // namespace

BoxPlan::BoxPlan(const PencilSpec& spec, const Box& in_box, const Box& out_box, const fft::Settings& settings, MPI_Comm comm)
    : in_(in_box), out_(out_box) {
  // The pencil plan first: it exchanges the sizes, type and grid (UsageError on every rank when
  // they differ), so the boxes' allgather below has the same count on every rank.
  pencil_ = std::make_unique<PencilPlan>(spec, settings, comm);
  const MPI_Comm c = pencil_->comm();
  all_in_ = gather_boxes(c, in_box);
  all_out_ = gather_boxes(c, out_box);
  // A real type's input boxes tile the real domain, its output boxes the half spectrum.
  const Index3 out_dims = complex_dims(spec);
  std::string why = layouts_error(all_in_, "input");
  if (why.empty()) why = layouts_error(all_out_, "output");
  if (why.empty()) why = tiling_error(all_in_, spec.n).empty() ? "" : "input boxes: " + tiling_error(all_in_, spec.n);
  if (why.empty()) why = tiling_error(all_out_, out_dims).empty() ? "" : "output boxes: " + tiling_error(all_out_, out_dims);
  // The same gathered data on every rank: the same verdict, no further exchange needed.
  if (!why.empty()) throw UsageError("trnfftMp box plan: " + why);
  out_es_ = is_fp64(spec.type) ? 16 : 8;
  in_es_ = is_real(spec.type) ? out_es_ / 2 : out_es_;
  for (std::size_t r = 0; r < all_in_.size(); ++r)
    if (too_large_for_mpi(all_in_[r], in_es_) || too_large_for_mpi(all_out_[r], out_es_))
      throw NotSupportedError("trnfftMp box plan", "a box of 2 GiB or more (MPI's int message counts)", "smaller boxes");
  const PencilSpec& s = pencil_->spec();
  for (int r = 0; r < pencil_->ranks(); ++r) {
    all_a_.push_back(pencil_input_box(s, s.p1, s.p2, r));
    all_c_.push_back(pencil_boxes(complex_dims(s), s.p1, s.p2, r)[2]);
  }
}

void BoxPlan::move(const std::vector<Box>& from, const std::vector<Box>& to, std::size_t es, const void* src, void* dst,
                   const char* name, Trace& trace) const {
  const Moved m = redistribute(pencil_->comm(), from, to, es, src, dst);
  // The remote blocks over the link, the own block re-laid out through HBM beside them (pencil.hpp).
  const bool local = m.sent == 0 && m.received == 0;
  const int me = pencil_->rank();
  const Generation target = pencil_->settings().target;
  LinkTransfer t;
  t.name = name;
  t.ns = std::max(local ? 0 : detail::alltoall_ns(fabric_spec(target), RankSet{0, 1, pencil_->ranks()}, m.sent, m.received),
                  detail::relayout_ns(target, m.kept));
  t.peers = blasmp::detail::peers_over(pencil_->comm());
  const auto u = static_cast<std::size_t>(me);
  if (from[u].span() > 0) t.sends[0] = HostSpan(static_cast<const char*>(src), from[u].span() * static_cast<std::int64_t>(es));
  if (to[u].span() > 0) t.receives[0] = HostSpan(static_cast<const char*>(dst), to[u].span() * static_cast<std::int64_t>(es));
  record_link_transfer(trace, t);
}

void BoxPlan::execute(const void* in, void* out, int direction, fft::ExecReport* report) const {
  const bool fwd = direction == fft::kForward;
  const Box& src_box = fwd ? in_ : out_;
  const Box& dst_box = fwd ? out_ : in_;
  const bool local_ok = detail::direction_allowed(pencil_->spec().type, direction) && (in != nullptr || src_box.volume() == 0) &&
                        (out != nullptr || dst_box.volume() == 0);
  detail::agree_execution(pencil_->comm(), local_ok, direction,
                          "trnfftMp box execute: direction must be -1 or +1 (R2C / D2Z: -1, C2R / Z2D: +1) and the data pointers non-NULL");
  const fft::Settings& settings = pencil_->settings();
  Trace trace = detail::execution_trace(settings.target, pencil_->ranks(), pencil_->comm());
  const std::size_t es_first = fwd ? in_es_ : out_es_, es_last = fwd ? out_es_ : in_es_;
  const int me = pencil_->rank();
  const Box& first = (fwd ? all_a_ : all_c_)[static_cast<std::size_t>(me)];
  const Box& last = (fwd ? all_c_ : all_a_)[static_cast<std::size_t>(me)];
  ScratchVector<char> x(static_cast<std::size_t>(std::max<std::int64_t>(first.span(), 1)) * es_first);
  ScratchVector<char> y(static_cast<std::size_t>(std::max<std::int64_t>(last.span(), 1)) * es_last);
  static char empty[16] = {};
  move(fwd ? all_in_ : all_out_, fwd ? all_a_ : all_c_, es_first, in != nullptr ? in : empty, x.data(), "trnfftMp.box.to_pencils",
       trace);
  pencil_->run(x.data(), y.data(), direction, trace);
  move(fwd ? all_c_ : all_a_, fwd ? all_out_ : all_in_, es_last, y.data(), out != nullptr ? out : empty,
       "trnfftMp.box.from_pencils", trace);
  detail::finish_execution(report, std::move(trace), settings, report != nullptr && report->plans_wanted ? print() : "");
}

std::string BoxPlan::print() const {
  return "trnfftMp box plan (input box " + std::to_string(in_.volume()) + " elements, output box " +
         std::to_string(out_.volume()) + " elements, redistributed to / from the pencils): " + pencil_->print();
}

}  // namespace trn::fftmp
