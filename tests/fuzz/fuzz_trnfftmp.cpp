// The libFuzzer harness over trnfftMp's C API (distributed/trnfftMp, docs/scale-out.md section 9) on
// one rank (MPI singleton; MPI_COMM_SELF, MPI_COMM_NULL or no communicator): AttachComm, MakePlan2d/3d
// with fuzzed sizes, types (C2C / Z2Z / R2C / C2R / D2Z / Z2D), communicators, comm types and workSize
// pointers, or trnfft's trnfftMakePlan2d/3d on an attached handle; XtMalloc with fuzzed formats,
// XtMemcpy, XtExecDescriptor[C2C|Z2Z|R2C|C2R|D2Z|Z2D] with fuzzed directions and descriptors. Invariants beyond "no
// crash, no sanitizer report": every status follows the documented rules in argument order; a failing
// execution writes nothing (data and subFormat); a successful one matches a naive fp64 DFT of the whole
// array (one rank: both slab distributions are the whole array) within the plan's relative L2 bound
// (R2C: the half spectrum of the padded real rows; C2R: of the half spectrum of a real x, N x).
// One input in four goes to the box API (trnfftXtSetDistribution, box_case): fuzzed ranks, pointers,
// bounds and strides, the make call's box rules, and whole-domain boxes of any strides transformed
// (C2C / Z2Z, and the real types: the input box over the real domain, the output box over the half
// spectrum -- boxes fuzzed over the real sizes tile it when the last size is 1 or 2).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_mpi.hpp"
#include "trnfftMp.h"

namespace {

using trnfuzz::require;
using trnfuzz::ensure_mpi;
using cd = std::complex<double>;

// The unnormalised DFT of a row-major array over every axis (sign -1 forward), in fp64.
std::vector<cd> naive_dft(const std::vector<cd>& x, const std::vector<std::int64_t>& n, int sign) {
  std::vector<cd> cur = x;
  std::int64_t after = 1;
  for (std::size_t a = n.size(); a-- > 0;) {
    const std::int64_t len = n[a], before = static_cast<std::int64_t>(x.size()) / (len * after);
    std::vector<cd> next(cur.size());
    for (std::int64_t b = 0; b < before; ++b)
      for (std::int64_t c = 0; c < after; ++c)
        for (std::int64_t k = 0; k < len; ++k) {
          cd s = 0;
          for (std::int64_t j = 0; j < len; ++j)
            s += cur[static_cast<std::size_t>((b * len + j) * after + c)] *
                 std::polar(1.0, sign * 2.0 * M_PI * static_cast<double>((j * k) % len) / static_cast<double>(len));
          next[static_cast<std::size_t>((b * len + k) * after + c)] = s;
        }
    cur = std::move(next);
    after *= len;
  }
  return cur;
}

// The status MakePlan must return for these arguments (first failing check in argument order).
trnfftResult expected_make(bool live, const std::vector<std::int64_t>& n, int type, bool comm_found, bool comm_handle_given,
                           int comm_type, bool comm_valid, bool ws) {
  if (!live) return TRNFFT_INVALID_PLAN;
  for (std::int64_t v : n)
    if (v < 1 || v > (std::int64_t{1} << 27)) return TRNFFT_INVALID_SIZE;
  if (type != TRNFFT_C2C && type != TRNFFT_Z2Z && type != TRNFFT_R2C && type != TRNFFT_C2R && type != TRNFFT_D2Z &&
      type != TRNFFT_Z2D)
    return TRNFFT_INVALID_TYPE;
  if (!comm_found && !comm_handle_given) return TRNFFT_INVALID_VALUE;
  if (comm_type != TRNFFT_COMM_MPI) return TRNFFT_INVALID_VALUE;
  if (!comm_valid || !ws) return TRNFFT_INVALID_VALUE;
  return TRNFFT_SUCCESS;
}

bool is_real_type(int t) { return t == TRNFFT_R2C || t == TRNFFT_C2R || t == TRNFFT_D2Z || t == TRNFFT_Z2D; }
bool forward_type(int t) { return t == TRNFFT_R2C || t == TRNFFT_D2Z; }
bool inverse_type(int t) { return t == TRNFFT_C2R || t == TRNFFT_Z2D; }

// The whole array's shapes: complex {n0, c1, inner} (the half spectrum of a real type), real rows.
struct Shapes {
  std::vector<std::int64_t> c;  // complex_shape of docs/scale-out.md 9
  std::int64_t rows = 0, len = 0, padded = 0;  // real: rows of the last axis, its length, padded length
  std::int64_t complex_total() const { return c[0] * c[1] * c[2]; }
};
Shapes shapes_of(const std::vector<std::int64_t>& n, bool real) {
  Shapes s;
  const bool three = n.size() == 3;
  s.c = three ? std::vector<std::int64_t>{n[0], n[1], real ? n[2] / 2 + 1 : n[2]}
              : std::vector<std::int64_t>{n[0], real ? n[1] / 2 + 1 : n[1], 1};
  s.len = n.back();
  s.rows = n[0] * (three ? n[1] : 1);
  s.padded = 2 * (s.len / 2 + 1);
  return s;
}

// The fp64 half spectrum (last axis kept to len/2 + 1) of a full complex spectrum.
std::vector<cd> half_of(const std::vector<cd>& full, const Shapes& s) {
  std::vector<cd> h(static_cast<std::size_t>(s.rows * (s.len / 2 + 1)));
  for (std::int64_t r = 0; r < s.rows; ++r)
    for (std::int64_t k = 0; k <= s.len / 2; ++k)
      h[static_cast<std::size_t>(r * (s.len / 2 + 1) + k)] = full[static_cast<std::size_t>(r * s.len + k)];
  return h;
}

// The data an execution gets (complex elements T; a real side is padded rows of T's value_type)
// and the fp64 result it must give: C2C the DFT; R2C the half spectrum of a real x (padding: junk
// it must not read); C2R the half spectrum of a real x in, N x out.
template <class T>
void make_case(trnfuzz::Input& in, const std::vector<std::int64_t>& n, int type, int direction, std::vector<T>* data,
               std::vector<cd>* want) {
  using R = typename T::value_type;
  const Shapes s = shapes_of(n, is_real_type(type));
  data->assign(static_cast<std::size_t>(s.complex_total()), T(0, 0));
  auto small = [&] { return static_cast<int>(in.byte() % 9) - 4; };
  if (!is_real_type(type)) {
    for (auto& v : *data) v = T(static_cast<R>(small()), static_cast<R>(small()));
    *want = naive_dft(std::vector<cd>(data->begin(), data->end()), n, direction);
    return;
  }
  std::vector<cd> x(static_cast<std::size_t>(s.rows * s.len));
  for (auto& v : x) v = cd(small(), 0);
  if (forward_type(type)) {
    R* re = reinterpret_cast<R*>(data->data());
    for (std::int64_t r = 0; r < s.rows; ++r)
      for (std::int64_t k = 0; k < s.padded; ++k)
        re[r * s.padded + k] = k < s.len ? static_cast<R>(x[static_cast<std::size_t>(r * s.len + k)].real()) : R(1e3);
    *want = half_of(naive_dft(x, n, -1), s);
    return;
  }
  const std::vector<cd> h = half_of(naive_dft(x, n, -1), s);  // exact in fp64 up to rounding
  for (std::size_t i = 0; i < h.size(); ++i) (*data)[i] = T(static_cast<R>(h[i].real()), static_cast<R>(h[i].imag()));
  want->assign(static_cast<std::size_t>(s.rows * s.padded), cd(0, 0));
  double points = 1;
  for (auto v : n) points *= static_cast<double>(v);
  for (std::int64_t r = 0; r < s.rows; ++r)
    for (std::int64_t k = 0; k < s.len; ++k)
      (*want)[static_cast<std::size_t>(r * s.padded + k)] = points * x[static_cast<std::size_t>(r * s.len + k)];
}

// The result compared with `want` (relative L2; absolute when the reference is near zero). A real
// output's padding is not the transform's (skipped).
template <class T>
void check_result(const std::vector<T>& y, const std::vector<cd>& want, const std::vector<std::int64_t>& n, int type, bool fp64) {
  using R = typename T::value_type;
  const Shapes s = shapes_of(n, is_real_type(type));
  double num = 0, den = 0;
  if (inverse_type(type)) {
    const R* re = reinterpret_cast<const R*>(y.data());
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (static_cast<std::int64_t>(i) % s.padded >= s.len) continue;
      num += std::norm(cd(re[i], 0) - want[i]);
      den += std::norm(want[i]);
    }
  } else {
    for (std::size_t i = 0; i < want.size(); ++i) {
      num += std::norm(cd(y[i]) - want[i]);
      den += std::norm(want[i]);
    }
  }
  const double bound = (fp64 ? 1e-13 : 4e-5) * std::max(1.0, std::sqrt(den));
  require(std::sqrt(num) <= bound, "a successful execution matches the naive DFT");
}

// The status of an execution: exec 0 generic, 1 C2C, 2 Z2Z, 3 R2C, 4 C2R, 5 D2Z, 6 Z2D.
trnfftResult expected_exec(int exec, int type, bool null_in, int direction, int format) {
  static const int kExecType[7] = {-1, TRNFFT_C2C, TRNFFT_Z2Z, TRNFFT_R2C, TRNFFT_C2R, TRNFFT_D2Z, TRNFFT_Z2D};
  if (exec != 0 && kExecType[exec] != type) return TRNFFT_INVALID_TYPE;
  if (null_in) return TRNFFT_INVALID_VALUE;
  const bool dir_ok = forward_type(type)   ? direction == TRNFFT_FORWARD
                      : inverse_type(type) ? direction == TRNFFT_INVERSE
                                           : direction == TRNFFT_FORWARD || direction == TRNFFT_INVERSE;
  if (!dir_ok) return TRNFFT_INVALID_VALUE;
  if (format != (direction == TRNFFT_FORWARD ? TRNFFT_XT_FORMAT_INPLACE : TRNFFT_XT_FORMAT_INPLACE_SHUFFLED))
    return TRNFFT_INVALID_VALUE;
  return TRNFFT_SUCCESS;
}

trnfftResult run_exec(int exec, trnfftHandle h, trnLibXtDesc* input, trnLibXtDesc* output, int direction) {
  switch (exec) {
    case 1: return trnfftXtExecDescriptorC2C(h, input, output, direction);
    case 2: return trnfftXtExecDescriptorZ2Z(h, input, output, direction);
    case 3: return trnfftXtExecDescriptorR2C(h, input, output);
    case 4: return trnfftXtExecDescriptorC2R(h, input, output);
    case 5: return trnfftXtExecDescriptorD2Z(h, input, output);
    case 6: return trnfftXtExecDescriptorZ2D(h, input, output);
    default: return trnfftXtExecDescriptor(h, input, output, direction);
  }
}

template <class T>
void exec_case(trnfuzz::Input& in, trnfftHandle h, const std::vector<std::int64_t>& n, int type, bool fp64) {
  const int format = in.choice({TRNFFT_XT_FORMAT_INPLACE, TRNFFT_XT_FORMAT_INPLACE_SHUFFLED, TRNFFT_XT_FORMAT_INPLACE,
                                TRNFFT_XT_FORMAT_INPLACE_SHUFFLED, TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT});
  trnLibXtDesc* a = nullptr;
  const trnfftResult ms = trnfftXtMalloc(h, &a, static_cast<trnfftXtSubFormat>(format));
  require((ms == TRNFFT_SUCCESS) == (format == TRNFFT_XT_FORMAT_INPLACE || format == TRNFFT_XT_FORMAT_INPLACE_SHUFFLED),
          "XtMalloc status follows the format rule");
  if (ms != TRNFFT_SUCCESS) return;
  trnfuzz::reach("malloc_ok");
  // Mostly the direction the data's distribution asks for (else any direction, 0 or a random int).
  const int direction = in.flag(4) ? in.choice({TRNFFT_FORWARD, TRNFFT_INVERSE, 0})
                                   : (format == TRNFFT_XT_FORMAT_INPLACE ? TRNFFT_FORWARD : TRNFFT_INVERSE);
  std::vector<T> x;
  std::vector<cd> want;
  make_case(in, n, type, direction == TRNFFT_INVERSE ? 1 : -1, &x, &want);
  require(a->descriptor->size[0] >= x.size() * sizeof(T), "the descriptor holds the slab");
  require(trnfftXtMemcpy(h, a, x.data(), TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS, "XtMemcpy H2D");
  const bool second = in.flag(3), null_in = in.flag(16);
  trnLibXtDesc* b = a;
  if (second) require(trnfftXtMalloc(h, &b, TRNFFT_XT_FORMAT_INPLACE) == TRNFFT_SUCCESS, "second XtMalloc");
  const int pick = in.byte() % 10;
  const int exec = pick < 4 ? 0 : pick - 3;  // generic 4 in 10, each typed one 1 in 10
  std::vector<char> before(b->descriptor->size[0]);
  std::memcpy(before.data(), b->descriptor->data[0], before.size());
  const int fmt_before = b->subFormat;
  trnLibXtDesc* input = null_in ? nullptr : a;
  const int dir_used = exec >= 3 ? (exec % 2 == 1 ? TRNFFT_FORWARD : TRNFFT_INVERSE) : direction;
  const trnfftResult es = run_exec(exec, h, input, b, direction);
  require(es == expected_exec(exec, type, null_in, dir_used, format), "XtExecDescriptor status follows the rules");
  if (es != TRNFFT_SUCCESS) {
    trnfuzz::reach("exec_rejected");
    require(std::memcmp(before.data(), b->descriptor->data[0], before.size()) == 0 && b->subFormat == fmt_before,
            "a failing execution writes nothing");
  } else {
    trnfuzz::reach(is_real_type(type) ? "exec_real_ok" : "exec_ok");
    require(b->subFormat == (dir_used == TRNFFT_FORWARD ? TRNFFT_XT_FORMAT_INPLACE_SHUFFLED : TRNFFT_XT_FORMAT_INPLACE),
            "the output's distribution after the transform");
    std::vector<T> y(x.size());
    require(trnfftXtMemcpy(h, y.data(), b, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H");
    if (want.size() <= 512) check_result(y, want, n, type, fp64);
  }
  if (second) require(trnfftXtFree(b) == TRNFFT_SUCCESS, "XtFree second");
  require(trnfftXtFree(a) == TRNFFT_SUCCESS, "XtFree");
  require(trnfftXtFree(a) == TRNFFT_INVALID_VALUE, "XtFree twice");
}

// ---- the box API (trnfftXtSetDistribution; docs/scale-out.md 9.8) on one rank ----------------------
// One rank's boxes tile the domain only when each is the whole domain: anything else is INVALID_VALUE.
struct FuzzBox {
  long long lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1}, strides[3] = {1, 1, 1};
};

// A box over n (rank 2: axis 2 is [0, 1)): mostly the whole domain; its strides row-major dense,
// axis-reversed dense, row-major padded, or small arbitrary values (0 and shared addresses included).
FuzzBox fuzz_box(trnfuzz::Input& in, const std::vector<std::int64_t>& n) {
  FuzzBox b;
  const std::size_t rank = n.size();
  for (std::size_t d = 0; d < rank; ++d) {
    b.lower[d] = in.flag(8) ? static_cast<long long>(in.byte() % 3) - 1 : 0;
    b.upper[d] = n[d] + (in.flag(8) ? static_cast<long long>(in.byte() % 3) - 1 : 0);
  }
  const int mode = in.byte() % 4;
  long long stride = 1;
  for (std::size_t i = 0; i < rank; ++i) {
    const std::size_t d = mode == 1 ? i : rank - 1 - i;  // mode 1: axis 0 fastest
    b.strides[d] = mode == 3 ? static_cast<long long>(in.byte() % 5) : stride;
    stride *= std::max<long long>(b.upper[d] - b.lower[d], 1) + (mode == 2 ? 2 : 0);
  }
  return b;
}

// The documented layout rule, checked by enumeration: bounds in [0, 2^27], lower <= upper, strides
// in [1, 2^31], and no two elements at one offset (whatever the order of the strides).
bool layout_rule(const FuzzBox& b, std::size_t rank, bool* ordered) {
  *ordered = true;
  long long count = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    if (b.upper[d] < b.lower[d] || b.lower[d] < 0 || b.upper[d] > (1LL << 27)) *ordered = false;
    count *= std::max<long long>(b.upper[d] - b.lower[d], 0);
  }
  if (!*ordered) return false;
  for (std::size_t d = 0; d < rank; ++d)
    if (b.strides[d] < 1 || b.strides[d] > (1LL << 31)) return false;
  if (count == 0) return true;
  std::vector<long long> offsets;
  const long long e1 = b.upper[1] - b.lower[1], e2 = rank == 3 ? b.upper[2] - b.lower[2] : 1;
  for (long long i = 0; i < b.upper[0] - b.lower[0]; ++i)
    for (long long j = 0; j < e1; ++j)
      for (long long k = 0; k < e2; ++k) offsets.push_back(i * b.strides[0] + j * b.strides[1] + (rank == 3 ? k * b.strides[2] : 0));
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end();
}
// The rule with the nesting the library asks for (docs: each stride at least the previous stride
// times its extent, axes of extent <= 1 free; an empty box has no addresses); implies layout_rule's.
bool nested_rule(const FuzzBox& b, std::size_t rank) {
  std::vector<std::pair<long long, long long>> axes;  // (stride, extent) of the axes of extent > 1
  for (std::size_t d = 0; d < rank; ++d)
    if (b.upper[d] == b.lower[d]) return true;
  for (std::size_t d = 0; d < rank; ++d)
    if (b.upper[d] - b.lower[d] > 1) axes.emplace_back(b.strides[d], b.upper[d] - b.lower[d]);
  std::sort(axes.begin(), axes.end());
  long long reach = 1;
  for (const auto& [stride, extent] : axes) {
    if (stride < reach) return false;
    reach = stride * extent;
  }
  return true;
}

bool whole_domain(const FuzzBox& b, const std::vector<std::int64_t>& n) {
  for (std::size_t d = 0; d < n.size(); ++d)
    if (b.lower[d] != 0 || b.upper[d] != n[d]) return false;
  return true;
}
long long span_of(const FuzzBox& b, std::size_t rank) {
  long long s = 1;
  for (std::size_t d = 0; d < rank; ++d) s += (b.upper[d] - b.lower[d] - 1) * b.strides[d];
  return s;
}
long long offset_of(const FuzzBox& b, const std::vector<std::int64_t>& n, std::int64_t flat) {
  const std::int64_t k = n.size() == 3 ? flat % n[2] : 0, rest = n.size() == 3 ? flat / n[2] : flat;
  return (rest / n[1]) * b.strides[0] + (rest % n[1]) * b.strides[1] + (n.size() == 3 ? k * b.strides[2] : 0);
}

// A forward transform between two whole-domain boxes with any valid strides: the naive DFT at every
// element of the output box, the output descriptor's gaps untouched (out of place), and the
// inverse on DISTRIBUTED_INPUT data rejected with nothing written.
template <class T>
void box_exec(trnfuzz::Input& in, trnfftHandle h, const std::vector<std::int64_t>& n, const FuzzBox& bi, const FuzzBox& bo,
              bool fp64) {
  trnLibXtDesc* a = nullptr;
  trnLibXtDesc* b = nullptr;
  require(trnfftXtMalloc(h, &a, TRNFFT_XT_FORMAT_INPLACE) == TRNFFT_INVALID_VALUE, "XtMalloc INPLACE on a box plan");
  require(trnfftXtMalloc(h, &a, TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT) == TRNFFT_SUCCESS, "XtMalloc DISTRIBUTED_INPUT");
  const std::size_t rank = n.size();
  const long long si = span_of(bi, rank), so = span_of(bo, rank);
  require(a->descriptor->size[0] >= static_cast<std::size_t>(std::max(si, so)) * sizeof(T), "the descriptor holds both boxes");
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  std::vector<cd> x(static_cast<std::size_t>(total));
  for (auto& v : x) v = cd(static_cast<int>(in.byte() % 9) - 4, static_cast<int>(in.byte() % 9) - 4);
  std::vector<T> host(static_cast<std::size_t>(si), T(77, 77));
  for (std::int64_t f = 0; f < total; ++f) host[static_cast<std::size_t>(offset_of(bi, n, f))] = T(x[static_cast<std::size_t>(f)]);
  require(trnfftXtMemcpy(h, a, host.data(), TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS, "XtMemcpy H2D (box)");
  std::vector<char> before(a->descriptor->size[0]);
  std::memcpy(before.data(), a->descriptor->data[0], before.size());
  require(trnfftXtExecDescriptor(h, a, a, TRNFFT_INVERSE) == TRNFFT_INVALID_VALUE &&
              std::memcmp(before.data(), a->descriptor->data[0], before.size()) == 0,
          "an inverse on DISTRIBUTED_INPUT data is rejected and writes nothing");
  const bool in_place = in.flag(2);
  if (!in_place) require(trnfftXtMalloc(h, &b, TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT) == TRNFFT_SUCCESS, "XtMalloc DISTRIBUTED_OUTPUT");
  trnLibXtDesc* out = in_place ? a : b;
  const trnfftResult es = fp64 ? trnfftXtExecDescriptorZ2Z(h, a, out, TRNFFT_FORWARD) : trnfftXtExecDescriptorC2C(h, a, out, TRNFFT_FORWARD);
  require(es == TRNFFT_SUCCESS && out->subFormat == TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT, "a box forward succeeds");
  trnfuzz::reach("box_exec_ok");
  std::vector<T> y(static_cast<std::size_t>(so));
  require(trnfftXtMemcpy(h, y.data(), out, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H (box)");
  const std::vector<cd> want = naive_dft(x, n, -1);
  std::vector<char> in_box(static_cast<std::size_t>(so), 0);
  double num = 0, den = 0;
  for (std::int64_t f = 0; f < total; ++f) {
    const auto o = static_cast<std::size_t>(offset_of(bo, n, f));
    in_box[o] = 1;
    num += std::norm(cd(y[o]) - want[static_cast<std::size_t>(f)]);
    den += std::norm(want[static_cast<std::size_t>(f)]);
  }
  require(std::sqrt(num) <= (fp64 ? 1e-13 : 4e-5) * std::max(1.0, std::sqrt(den)), "a box forward matches the naive DFT");
  if (!in_place)
    for (std::size_t e = 0; e < y.size(); ++e) require(in_box[e] != 0 || y[e] == T(0, 0), "only the output box is written");
  if (b != nullptr) require(trnfftXtFree(b) == TRNFFT_SUCCESS, "XtFree (box output)");
  require(trnfftXtFree(a) == TRNFFT_SUCCESS, "XtFree (box)");
}

// A real transform between whole-domain boxes (the real input box over n, the complex output box over
// the half spectrum c): R2C / D2Z DISTRIBUTED_INPUT -> OUTPUT against the naive DFT's half, C2R / Z2D
// OUTPUT -> INPUT of that half spectrum against N x; the wrong direction rejected, nothing written;
// the descriptor holds both boxes in bytes (real span x sizeof(R), complex span x sizeof(C)).
template <class R>
void box_exec_real(trnfuzz::Input& in, trnfftHandle h, const std::vector<std::int64_t>& n, const std::vector<std::int64_t>& c,
                   const FuzzBox& bi, const FuzzBox& bo, int type) {
  using C = std::complex<R>;
  const bool fwd = forward_type(type), fp64 = sizeof(R) == 8;
  const std::size_t rank = n.size();
  const long long si = span_of(bi, rank), so = span_of(bo, rank);
  std::int64_t total = 1, half_total = 1;
  for (auto v : n) total *= v;
  for (auto v : c) half_total *= v;
  std::vector<cd> x(static_cast<std::size_t>(total));
  for (auto& v : x) v = cd(static_cast<int>(in.byte() % 9) - 4, 0);
  const std::vector<cd> full = naive_dft(x, n, -1);
  std::vector<cd> half(static_cast<std::size_t>(half_total));
  for (std::int64_t f = 0; f < half_total; ++f)
    half[static_cast<std::size_t>(f)] = full[static_cast<std::size_t>((f / c.back()) * n.back() + f % c.back())];
  const int in_fmt = fwd ? TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT : TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT;
  const int out_fmt = fwd ? TRNFFT_XT_FORMAT_DISTRIBUTED_OUTPUT : TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT;
  trnLibXtDesc* a = nullptr;
  trnLibXtDesc* b = nullptr;
  require(trnfftXtMalloc(h, &a, static_cast<trnfftXtSubFormat>(in_fmt)) == TRNFFT_SUCCESS, "XtMalloc (real box)");
  require(a->descriptor->size[0] >= std::max(static_cast<std::size_t>(si) * sizeof(R), static_cast<std::size_t>(so) * sizeof(C)),
          "the descriptor holds the real and the complex box");
  std::vector<R> real_host(static_cast<std::size_t>(si), R(77));
  std::vector<C> complex_host(static_cast<std::size_t>(so), C(77, 77));
  for (std::int64_t f = 0; f < total && fwd; ++f) real_host[static_cast<std::size_t>(offset_of(bi, n, f))] = R(x[static_cast<std::size_t>(f)].real());
  for (std::int64_t f = 0; f < half_total && !fwd; ++f) complex_host[static_cast<std::size_t>(offset_of(bo, c, f))] = C(half[static_cast<std::size_t>(f)]);
  require(trnfftXtMemcpy(h, a, fwd ? static_cast<void*>(real_host.data()) : static_cast<void*>(complex_host.data()),
                         TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS,
          "XtMemcpy H2D (real box)");
  std::vector<char> before(a->descriptor->size[0]);
  std::memcpy(before.data(), a->descriptor->data[0], before.size());
  require(trnfftXtExecDescriptor(h, a, a, fwd ? TRNFFT_INVERSE : TRNFFT_FORWARD) == TRNFFT_INVALID_VALUE &&
              std::memcmp(before.data(), a->descriptor->data[0], before.size()) == 0,
          "a real box plan's other direction is rejected and writes nothing");
  const bool in_place = in.flag(2);
  if (!in_place) require(trnfftXtMalloc(h, &b, static_cast<trnfftXtSubFormat>(out_fmt)) == TRNFFT_SUCCESS, "XtMalloc (real box out)");
  trnLibXtDesc* out = in_place ? a : b;
  const trnfftResult es = fwd ? (fp64 ? trnfftXtExecDescriptorD2Z(h, a, out) : trnfftXtExecDescriptorR2C(h, a, out))
                              : (fp64 ? trnfftXtExecDescriptorZ2D(h, a, out) : trnfftXtExecDescriptorC2R(h, a, out));
  require(es == TRNFFT_SUCCESS && out->subFormat == out_fmt, "a real box transform succeeds");
  trnfuzz::reach("box_exec_real_ok");
  double num = 0, den = 0;
  if (fwd) {
    std::vector<C> y(static_cast<std::size_t>(so));
    require(trnfftXtMemcpy(h, y.data(), out, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H (R2C box)");
    for (std::int64_t f = 0; f < half_total; ++f) {
      num += std::norm(cd(y[static_cast<std::size_t>(offset_of(bo, c, f))]) - half[static_cast<std::size_t>(f)]);
      den += std::norm(half[static_cast<std::size_t>(f)]);
    }
  } else {
    std::vector<R> y(static_cast<std::size_t>(si));
    require(trnfftXtMemcpy(h, y.data(), out, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H (C2R box)");
    for (std::int64_t f = 0; f < total; ++f) {
      const cd want = static_cast<double>(total) * x[static_cast<std::size_t>(f)];
      num += std::norm(cd(y[static_cast<std::size_t>(offset_of(bi, n, f))], 0) - want);
      den += std::norm(want);
    }
  }
  require(std::sqrt(num) <= (fp64 ? 1e-13 : 4e-5) * std::max(1.0, std::sqrt(den)), "a real box transform matches the naive DFT");
  if (b != nullptr) require(trnfftXtFree(b) == TRNFFT_SUCCESS, "XtFree (real box output)");
  require(trnfftXtFree(a) == TRNFFT_SUCCESS, "XtFree (real box)");
}

// SetDistribution with fuzzed rank, pointers and boxes (statuses in argument order), then the make
// call (its own checks first, then the box rules: rank, tiling -- a real type's output box against the
// half spectrum) and, when made, box_exec / box_exec_real.
void box_case(trnfuzz::Input& in) {
  trnfftHandle h = TRNFFT_PLAN_NULL;
  require(trnfftCreate(&h) == TRNFFT_SUCCESS, "trnfftCreate (box)");
  const bool three = in.flag(2);
  std::vector<std::int64_t> n;
  for (int i = 0; i < (three ? 3 : 2); ++i) n.push_back(1 + in.byte() % 5);
  const FuzzBox bi = fuzz_box(in, n), bo = fuzz_box(in, n);
  const int rank = in.flag(8) ? in.choice({1, 4, 0}) : static_cast<int>(n.size());
  const int null_at = in.flag(8) ? 2 + in.byte() % 6 : 0;  // which pointer (position 2..7) is NULL
  const long long* ptrs[6] = {bi.lower, bi.upper, bo.lower, bo.upper, bi.strides, bo.strides};
  if (null_at != 0) ptrs[null_at - 2] = nullptr;
  const trnfftResult ss = trnfftXtSetDistribution(h, rank, ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5]);
  const std::size_t r = rank == 2 || rank == 3 ? static_cast<std::size_t>(rank) : 0;
  bool ordered_in = true, ordered_out = true;
  const bool layout_in = r != 0 && layout_rule(bi, r, &ordered_in) && nested_rule(bi, r);
  const bool layout_out = r != 0 && layout_rule(bo, r, &ordered_out) && nested_rule(bo, r);
  const bool set = r != 0 && null_at == 0 && ordered_in && ordered_out && layout_in && layout_out;
  require((ss == TRNFFT_SUCCESS) == set && (set || ss == TRNFFT_INVALID_VALUE), "XtSetDistribution status follows the rules");
  trnfuzz::reach(set ? "box_set" : "box_set_rejected");
  MPI_Comm self = MPI_COMM_SELF;
  // The fourth choice is a real type (one more byte picks which: inputs of the other types keep their bytes).
  int type = in.choice({TRNFFT_C2C, TRNFFT_Z2Z, TRNFFT_C2C, TRNFFT_R2C});
  if (type == TRNFFT_R2C) type = in.choice({TRNFFT_R2C, TRNFFT_C2R, TRNFFT_D2Z, TRNFFT_Z2D});
  std::vector<std::int64_t> c = n;  // the output boxes' domain: a real type's half spectrum
  if (is_real_type(type)) c.back() = n.back() / 2 + 1;
  size_t ws = 0;
  const trnfftResult st = three ? trnfftMpMakePlan3d(h, static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<int>(n[2]),
                                                     static_cast<trnfftType>(type), &self, TRNFFT_COMM_MPI, &ws)
                                : trnfftMpMakePlan2d(h, static_cast<int>(n[0]), static_cast<int>(n[1]), static_cast<trnfftType>(type),
                                                     &self, TRNFFT_COMM_MPI, &ws);
  trnfftResult want = TRNFFT_SUCCESS;
  const bool complex_type = type == TRNFFT_C2C || type == TRNFFT_Z2Z;
  if (type != TRNFFT_C2C && type != TRNFFT_Z2Z && type != TRNFFT_R2C && type != TRNFFT_C2R && type != TRNFFT_D2Z &&
      type != TRNFFT_Z2D)
    want = TRNFFT_INVALID_TYPE;
  else if (set && r != n.size()) want = TRNFFT_INVALID_VALUE;
  else if (set && !(whole_domain(bi, n) && whole_domain(bo, c))) want = TRNFFT_INVALID_VALUE;
  require(st == want, "MakePlan with boxes: status follows the rules");
  if (st == TRNFFT_SUCCESS && set) {
    require(trnfftXtSetDistribution(h, rank, bi.lower, bi.upper, bo.lower, bo.upper, bi.strides, bo.strides) == TRNFFT_INVALID_PLAN,
            "XtSetDistribution after the make call");
    if (type == TRNFFT_Z2Z) box_exec<std::complex<double>>(in, h, n, bi, bo, true);
    else if (complex_type) box_exec<std::complex<float>>(in, h, n, bi, bo, false);
    else if (type == TRNFFT_D2Z || type == TRNFFT_Z2D) box_exec_real<double>(in, h, n, c, bi, bo, type);
    else box_exec_real<float>(in, h, n, c, bi, bo, type);
  }
  require(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy (box)");
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"make_ok", 20},     {"make_rejected", 20},   {"malloc_ok", 10},   {"exec_ok", 5}, {"exec_real_ok", 5},
          {"exec_rejected", 5}, {"box_set_rejected", 3}, {"box_set", 5},      {"box_exec_ok", 2},
          {"box_exec_real_ok", 1}};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ensure_mpi();
  trnfuzz::Input in(data, size);
  if (in.flag(4)) {  // the box API, one input in four
    box_case(in);
    return 0;
  }
  trnfftHandle h = TRNFFT_PLAN_NULL;
  require(trnfftCreate(&h) == TRNFFT_SUCCESS, "trnfftCreate");
  MPI_Comm self = MPI_COMM_SELF, null_comm = MPI_COMM_NULL;
  bool attached = false;
  if (in.flag(3)) {  // AttachComm with fuzzed arguments
    const int ct = in.choice({TRNFFT_COMM_MPI, TRNFFT_COMM_NONE, 9});
    const int which = in.byte() % 3;  // self, MPI_COMM_NULL, NULL pointer
    void* ch = which == 0 ? static_cast<void*>(&self) : which == 1 ? static_cast<void*>(&null_comm) : nullptr;
    const trnfftResult as = trnfftMpAttachComm(h, static_cast<trnfftMpCommType>(ct), ch);
    attached = ct == TRNFFT_COMM_MPI && which == 0;
    require((as == TRNFFT_SUCCESS) == attached, "AttachComm status follows the rules");
  }
  const bool live = !in.flag(16);
  if (!live) trnfftDestroy(h);
  const bool three = in.flag(2);
  std::vector<std::int64_t> n;
  for (int i = 0; i < (three ? 3 : 2); ++i) n.push_back(in.size(6, true));
  const int type = in.choice({TRNFFT_C2C, TRNFFT_Z2Z, TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, TRNFFT_D2Z, TRNFFT_Z2D, 0x77});
  const int which = in.byte() % 3;  // &self, NULL (the attached one), &MPI_COMM_NULL
  void* ch = which == 0 ? static_cast<void*>(&self) : which == 2 ? static_cast<void*>(&null_comm) : nullptr;
  const int ct = in.choice({TRNFFT_COMM_MPI, TRNFFT_COMM_MPI, TRNFFT_COMM_NONE});
  const bool ws_given = !in.flag(16);
  size_t ws = 0;
  const bool fits = n[0] <= 64 && n[1] <= 64 && (!three || n[2] <= 64);  // beyond: trnfft's limits may refuse
  auto narrow = [](std::int64_t v) { return static_cast<int>(std::max<std::int64_t>(std::min<std::int64_t>(v, 1 << 30), -(1 << 30))); };
  // cuFFTMp's order: trnfft's own MakePlan on the attached handle (comm: the attached one; NULL workSize allowed).
  const bool hooked = attached && in.flag(3);
  const trnfftResult st =
      hooked  ? (three ? trnfftMakePlan3d(h, narrow(n[0]), narrow(n[1]), narrow(n[2]), static_cast<trnfftType>(type), ws_given ? &ws : nullptr)
                       : trnfftMakePlan2d(h, narrow(n[0]), narrow(n[1]), static_cast<trnfftType>(type), ws_given ? &ws : nullptr))
      : three ? trnfftMpMakePlan3d(h, narrow(n[0]), narrow(n[1]), narrow(n[2]), static_cast<trnfftType>(type), ch,
                                 static_cast<trnfftMpCommType>(ct), ws_given ? &ws : nullptr)
            : trnfftMpMakePlan2d(h, narrow(n[0]), narrow(n[1]), static_cast<trnfftType>(type), ch,
                                 static_cast<trnfftMpCommType>(ct), ws_given ? &ws : nullptr);
  for (auto& v : n) v = narrow(v);
  const bool comm_found = which == 0 || which == 2 || attached;
  const trnfftResult want = hooked ? expected_make(live, n, type, true, false, TRNFFT_COMM_MPI, true, true)
                                   : expected_make(live, n, type, comm_found, which != 1, ct, which == 0 || (which == 1 && attached), ws_given);
  if (fits || want != TRNFFT_SUCCESS)
    require(st == want, "MakePlan status follows the rules in argument order");
  trnfuzz::reach("make_rejected", st != TRNFFT_SUCCESS);
  if (st == TRNFFT_SUCCESS) {
    trnfuzz::reach("make_ok");
    require(ws > 0 || (hooked && !ws_given), "workSize reports the slab copies");
    std::int64_t total = 1;
    for (auto v : n) total *= v;
    if (total > 4096) {  // large plans: made, not run (a fuzz input stays fast)
      require(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy");
      return 0;
    }
    if (type == TRNFFT_Z2Z || type == TRNFFT_D2Z || type == TRNFFT_Z2D)
      exec_case<std::complex<double>>(in, h, n, type, true);
    else
      exec_case<std::complex<float>>(in, h, n, type, false);
  }
  if (live) require(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy");
  return 0;
}
