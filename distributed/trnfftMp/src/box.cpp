// trnfftMp boxes (pencil.hpp; docs/scale-out.md 9.8): box layouts, the tiling check of the box API
// and the box-to-box redistribution (one MPI_Alltoallv) that the pencil transposes and the box
// plan's input / output moves all are.
//
// Algorithm: rank r sends rank q the intersection of its source box with q's destination box, packed
// in row-major order of the intersection; q unpacks it with its own strides. Intersections of
// disjoint tilings partition the data, so each element moves exactly once.
// Engines: none (messages; the caller records the link_transfer). Accuracy: exact (copies).
// Limits: one message below 2 GiB (NotSupportedError beyond).
#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "trn/core/error.hpp"
#include "trn/core/scratch.hpp"
#include "trn/fftmp/pencil.hpp"

namespace trn::fftmp {

namespace {

using blasmp::detail::check_mpi;

Box intersect(const Box& a, const Box& b) {
  Box r = a;
  for (std::size_t d = 0; d < 3; ++d) {
    r.lower[d] = std::max(a.lower[d], b.lower[d]);
    r.upper[d] = std::max(r.lower[d], std::min(a.upper[d], b.upper[d]));
  }
  return r;
}

std::int64_t offset_in(const Box& layout, std::int64_t i, std::int64_t j, std::int64_t k) {
  return (i - layout.lower[0]) * layout.strides[0] + (j - layout.lower[1]) * layout.strides[1] +
         (k - layout.lower[2]) * layout.strides[2];
}

// Copies `region` (inside `layout`) between the layout's buffer and a packed row-major buffer:
// pack = true reads the layout, false writes it. One run of axis 2 at a time.
void copy_region(char* base, const Box& layout, const Box& region, char* packed, std::size_t es, bool pack) {
  const std::int64_t e2 = region.extent(2);
  const std::int64_t s2 = layout.strides[2] * static_cast<std::int64_t>(es);
  for (std::int64_t i = region.lower[0]; i < region.upper[0]; ++i)
    for (std::int64_t j = region.lower[1]; j < region.upper[1]; ++j) {
      char* at = base + offset_in(layout, i, j, region.lower[2]) * static_cast<std::int64_t>(es);
      if (s2 == static_cast<std::int64_t>(es)) {
        if (pack) std::memcpy(packed, at, static_cast<std::size_t>(e2) * es);
        else std::memcpy(at, packed, static_cast<std::size_t>(e2) * es);
        packed += e2 * static_cast<std::int64_t>(es);
        continue;
      }
      for (std::int64_t k = 0; k < e2; ++k, packed += es, at += s2) {
        if (pack) std::memcpy(packed, at, es);
        else std::memcpy(at, packed, es);
      }
    }
}

int checked_int(std::int64_t bytes) {
  if (bytes > INT_MAX) throw NotSupportedError("trnfftMp redistribution", "a message over 2 GiB", "any");
  return static_cast<int>(bytes);
}

// True when two boxes share an element.
bool overlap(const Box& a, const Box& b) { return intersect(a, b).volume() > 0; }

}  // namespace

// Saturating at INT64_MAX (boxes are checked by box_layout_error before use; this keeps an
// unchecked one from overflowing).
std::int64_t Box::volume() const {
  std::int64_t v = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    if (upper[d] <= lower[d]) return 0;
    std::int64_t e = 0;
    if (__builtin_sub_overflow(upper[d], lower[d], &e) || __builtin_mul_overflow(v, e, &v)) v = INT64_MAX;
  }
  return v;
}

std::int64_t Box::span() const {
  if (volume() == 0) return 0;
  std::int64_t s = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    std::int64_t reach = 0;
    if (__builtin_mul_overflow(upper[d] - lower[d] - 1, strides[d], &reach) || __builtin_add_overflow(s, reach, &s)) return INT64_MAX;
  }
  return s;
}

Box dense_box(const Index3& lower, const Index3& upper, const std::array<int, 3>& order) {
  Box b;
  b.lower = lower;
  b.upper = upper;
  std::int64_t s = 1;
  for (int i = 2; i >= 0; --i) {
    const auto d = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
    b.strides[d] = s;
    s *= std::max<std::int64_t>(upper[d] - lower[d], 1);
  }
  return b;
}

std::string box_layout_error(const Box& b) {
  for (std::size_t d = 0; d < 3; ++d) {  // first: nothing below overflows
    if (b.lower[d] < 0 || b.upper[d] > kMaxBoxIndex) return "a bound outside [0, 2^27] on axis " + std::to_string(d);
    if (b.upper[d] < b.lower[d]) return "lower > upper on axis " + std::to_string(d);
    if (b.strides[d] < 1 || b.strides[d] > kMaxBoxStride) return "a stride outside [1, 2^31] on axis " + std::to_string(d);
  }
  if (b.volume() == 0) return "";  // an empty box has no addresses
  std::array<int, 3> axes{0, 1, 2};
  std::sort(axes.begin(), axes.end(), [&](int x, int y) { return b.strides[static_cast<std::size_t>(x)] < b.strides[static_cast<std::size_t>(y)]; });
  std::int64_t reach = 0;  // the largest offset reached by the faster axes, plus one
  for (const int d : axes) {
    if (b.extent(d) <= 1) continue;
    if (b.strides[static_cast<std::size_t>(d)] < std::max<std::int64_t>(reach, 1)) return "strides that make two elements share an address";
    reach = b.strides[static_cast<std::size_t>(d)] * b.extent(d);
  }
  return "";
}

bool too_large_for_mpi(const Box& b, std::size_t es) {
  return static_cast<double>(b.volume()) * static_cast<double>(es) > static_cast<double>(INT_MAX);
}

std::string tiling_error(const std::vector<Box>& boxes, const Index3& shape) {
  std::int64_t total = 0, want = 1;
  for (std::size_t d = 0; d < 3; ++d) want *= shape[d];  // the plan's sizes: at most 2^48 points
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    const bool empty = boxes[r].lower[0] >= boxes[r].upper[0] || boxes[r].lower[1] >= boxes[r].upper[1] ||
                       boxes[r].lower[2] >= boxes[r].upper[2];
    for (std::size_t d = 0; d < 3; ++d)
      if (!empty && (boxes[r].lower[d] < 0 || boxes[r].upper[d] > shape[d]))
        return "rank " + std::to_string(r) + "'s box leaves the domain on axis " + std::to_string(d);
    total += boxes[r].volume();  // inside the domain: at most its size
  }
  for (std::size_t r = 0; r < boxes.size(); ++r)
    for (std::size_t q = r + 1; q < boxes.size(); ++q)
      if (overlap(boxes[r], boxes[q])) return "the boxes of ranks " + std::to_string(r) + " and " + std::to_string(q) + " overlap";
  // Inside the domain and disjoint: they tile it exactly when their volumes add up to it.
  if (total != want) return "the boxes leave " + std::to_string(want - total) + " elements of the domain uncovered";
  return "";
}

Moved planned_moves(const std::vector<Box>& from, const std::vector<Box>& to, std::size_t me, std::size_t es) {
  Moved m;
  const auto e = static_cast<double>(es);
  for (std::size_t q = 0; q < from.size(); ++q) {
    if (q == me) {
      m.kept = e * static_cast<double>(intersect(from[me], to[me]).volume());
      continue;
    }
    m.sent += e * static_cast<double>(intersect(from[me], to[q]).volume());
    m.received += e * static_cast<double>(intersect(from[q], to[me]).volume());
  }
  return m;
}

Moved redistribute(MPI_Comm comm, const std::vector<Box>& from, const std::vector<Box>& to, std::size_t es,
                   const void* src, void* dst) {
  int me = 0, p = 1;
  check_mpi(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &p), "MPI_Comm_size");
  const auto P = static_cast<std::size_t>(p), u = static_cast<std::size_t>(me);
  std::vector<int> scount(P), sdisp(P), rcount(P), rdisp(P);
  std::int64_t soff = 0, roff = 0;
  Moved moved;
  for (std::size_t q = 0; q < P; ++q) {
    const std::int64_t sb = intersect(from[u], to[q]).volume() * static_cast<std::int64_t>(es);
    const std::int64_t rb = intersect(from[q], to[u]).volume() * static_cast<std::int64_t>(es);
    scount[q] = checked_int(sb);
    sdisp[q] = checked_int(soff);
    rcount[q] = checked_int(rb);
    rdisp[q] = checked_int(roff);
    soff += sb;
    roff += rb;
    if (q != u) moved.sent += static_cast<double>(sb), moved.received += static_cast<double>(rb);
    else moved.kept = static_cast<double>(sb);
  }
  ScratchVector<char> sbuf(static_cast<std::size_t>(std::max<std::int64_t>(soff, 1))), rbuf(static_cast<std::size_t>(std::max<std::int64_t>(roff, 1)));
  char* s = const_cast<char*>(static_cast<const char*>(src));  // read only (pack = true)
  for (std::size_t q = 0; q < P; ++q)
    if (scount[q] > 0) copy_region(s, from[u], intersect(from[u], to[q]), sbuf.data() + sdisp[q], es, true);
  check_mpi(MPI_Alltoallv(sbuf.data(), scount.data(), sdisp.data(), MPI_BYTE, rbuf.data(), rcount.data(), rdisp.data(), MPI_BYTE, comm),
            "MPI_Alltoallv");
  for (std::size_t q = 0; q < P; ++q)
    if (rcount[q] > 0) copy_region(static_cast<char*>(dst), to[u], intersect(from[q], to[u]), rbuf.data() + rdisp[q], es, false);
  return moved;
}

}  // namespace trn::fftmp
