// libFuzzer harness over trnfft's C API (issue #14 "Bad input"): plan creation through every entry
// point (Plan1d/2d/3d/Many, Create + MakePlan1d/2d/3d/Many/Many64, XtMakePlanMany, Estimate*, GetSize*) with ranks,
// sizes, batches, embeds, strides and distances from the grammar of fuzz_input.hpp (mostly small,
// sometimes negative, zero or near INT32_MAX / INT64_MAX), transform types valid and any int, NULL
// pointers, precision modes, SetWorkArea / SetAutoAllocation / SetStream, then execution in place,
// out of place or with partially overlapping buffers, and destroyed or unknown handles.
//
// Buffers are allocated at exactly the span cuFFT's layout formula gives (docs/trnfft.md "C"), so an
// access outside it is an AddressSanitizer report. Invariants beyond "no crash, no hang, no sanitizer
// report":
//   - statuses are cuFFT's; a rejected call writes nothing (plan handle, workSize, data buffers are
//     byte-identical);
//   - an out-of-place execution never modifies its input (docs/trnfft.md: C2R included);
//   - a successful execution of a small transform agrees with the library's one oracle, FFTW in long
//     double (tests/reference/fft_reference.hpp: X[k] = sum_j x[j] exp(-+2 pi i jk/N)), in relative
//     L2 within 8x the mode's documented bound (docs/trnfft.md "Accuracy"), for every output element
//     that exactly one (batch, index) writes;
//   - Exec* of a destroyed or never-made plan is INVALID_PLAN.
//
// The layout of every harness (fuzz_input.hpp): the libFuzzer target fuzz_trnfft (tools/fuzz.sh) and
// the ctest fuzz_replay_trnfft, which replays the checked-in corpus tests/fuzz/corpus/trnfft/ and
// mutations of it (fuzz_replay.cpp).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "fft_reference.hpp"
#include "fuzz_input.hpp"
#include "trnfft.h"
#include "trnfftXt.h"

namespace {

using ld = long double;

using trnfuzz::require;

long g_work_area[5];  // a caller-owned work area for SetWorkArea (never read back)

int clamp_int(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

bool is_status(trnfftResult r) {
  switch (r) {
    case TRNFFT_SUCCESS:
    case TRNFFT_INVALID_PLAN:
    case TRNFFT_ALLOC_FAILED:
    case TRNFFT_INVALID_TYPE:
    case TRNFFT_INVALID_VALUE:
    case TRNFFT_INTERNAL_ERROR:
    case TRNFFT_EXEC_FAILED:
    case TRNFFT_INVALID_SIZE:
    case TRNFFT_NOT_SUPPORTED: return true;
    default: return false;
  }
}

bool real_in(int t) { return t == TRNFFT_R2C || t == TRNFFT_D2Z; }
bool real_out(int t) { return t == TRNFFT_C2R || t == TRNFFT_Z2D; }
bool double_type(int t) { return t == TRNFFT_Z2Z || t == TRNFFT_D2Z || t == TRNFFT_Z2D; }

// Sizes the grammar favours: the DFT-GEMM leaf (<= 128), the four-step and Bluestein boundaries,
// primes, and mixed radices.
std::int64_t dimension(trnfuzz::Input& in, std::int64_t small, bool wide) {
  if (in.flag(6)) {
    static constexpr std::int64_t kSizes[] = {1, 2, 3, 5, 7, 17, 97, 128, 129, 130, 192, 255, 256, 257, 384, 1000, 1024, 4096};
    return kSizes[in.byte() % (sizeof kSizes / sizeof kSizes[0])];
  }
  return in.size(small, wide);
}

// What the harness asked for, in 64 bits, to compute the layouts independently of the library.
struct Request {
  int rank = 1;
  std::vector<std::int64_t> n, inembed, onembed;
  bool has_in = false, has_out = false, null_n = false;
  std::int64_t istride = 1, idist = 0, ostride = 1, odist = 0, batch = 1;
  int type = TRNFFT_C2C;
};

// One side's cuFFT layout: element (b, x) at b * dist + sum_i x_i * axis_stride[i].
struct SideLayout {
  std::vector<std::int64_t> logical;  // sizes of this side (last one n/2 + 1 on a complex R2C/C2R side)
  std::vector<std::int64_t> axis_stride;
  std::int64_t dist = 0;
  ld span = 0;  // elements the layout addresses (long double: it may be astronomically large)
};

SideLayout side_layout(const Request& q, bool input, bool in_place) {
  SideLayout s;
  const std::size_t d = q.n.size();
  const std::int64_t half = q.n[d - 1] / 2 + 1;
  const bool complex_side = input ? !real_in(q.type) : !real_out(q.type);
  s.logical = q.n;
  if (complex_side && (real_in(q.type) || real_out(q.type))) s.logical[d - 1] = half;
  const bool advanced = input ? q.has_in : q.has_out;
  s.axis_stride.assign(d, 1);
  if (!advanced) {
    // Natural: contiguous rows; real rows of an in-place R2C / C2R padded to 2 (n/2 + 1).
    const std::int64_t row = !complex_side && in_place && (real_in(q.type) || real_out(q.type)) ? 2 * half : s.logical[d - 1];
    ld dist = static_cast<ld>(row);
    for (std::size_t i = d - 1; i-- > 0;) {
      s.axis_stride[i] = s.axis_stride[i + 1] * (i + 1 == d - 1 ? row : s.logical[i + 1]);
      dist *= static_cast<ld>(s.logical[i]);
    }
    s.dist = static_cast<std::int64_t>(dist);
    s.span = dist * static_cast<ld>(q.batch);
    return s;
  }
  const std::vector<std::int64_t>& e = input ? q.inembed : q.onembed;
  const std::int64_t stride = input ? q.istride : q.ostride;
  ld a = static_cast<ld>(stride), span = 1 + static_cast<ld>(q.batch - 1) * static_cast<ld>(input ? q.idist : q.odist);
  for (std::size_t i = d; i-- > 0;) {
    span += static_cast<ld>(s.logical[i] - 1) * a;
    s.axis_stride[i] = a < 0x1p62L ? static_cast<std::int64_t>(a) : 0;
    a *= static_cast<ld>(e[i]);
  }
  s.dist = input ? q.idist : q.odist;
  s.span = span;
  return s;
}

// Offsets of every (batch, index) of a side, batch-major and row-major within a batch.
std::vector<std::int64_t> offsets(const SideLayout& s, std::int64_t batch) {
  std::int64_t per = 1;
  for (std::int64_t v : s.logical) per *= v;
  std::vector<std::int64_t> off;
  off.reserve(static_cast<std::size_t>(per * batch));
  const std::size_t d = s.logical.size();
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t flat = 0; flat < per; ++flat) {
      std::int64_t rem = flat, o = b * s.dist;
      for (std::size_t i = d; i-- > 0;) {
        o += (rem % s.logical[i]) * s.axis_stride[i];
        rem /= s.logical[i];
      }
      off.push_back(o);
    }
  return off;
}

// The reference: trnfft's one oracle (tests/reference/fft_reference.hpp), FFTW in long double, of
// one batch, x given on the full index space (complex, row-major), sign -1 forward / +1 inverse.
std::vector<std::complex<ld>> dft(const std::vector<std::int64_t>& n, const std::vector<std::complex<ld>>& x, int sign) {
  const std::vector<int> dims(n.begin(), n.end());
  return trnfft_test::fftwl_c2c(x, dims, 1, sign);
}

// The documented relative L2 bound of the plan's arithmetic (docs/trnfft.md "Accuracy"), per
// dimension pass: fp32 4 u32 log2 N, bf16x3 5e-6, bf16 2^-8, FP64 types 4 u64 log2 N.
ld mode_bound(int type, int precision, const std::vector<std::int64_t>& n) {
  ld log2n = 1;
  for (std::int64_t v : n) log2n += std::log2(static_cast<ld>(v));
  if (double_type(type)) return 4 * 0x1p-53L * log2n;
  if (precision == TRNFFT_PRECISION_BF16) return 0x1p-8L * std::sqrt(static_cast<ld>(3 * n.size()));
  if (precision == TRNFFT_PRECISION_BF16X3) return 5e-6L * std::sqrt(static_cast<ld>(3 * n.size()));
  return 4 * 0x1p-24L * log2n;
}

ld read_real(const unsigned char* base, std::int64_t elem, bool dbl) {
  if (dbl) {
    double v;
    std::memcpy(&v, base + elem * 8, 8);
    return v;
  }
  float v;
  std::memcpy(&v, base + elem * 4, 4);
  return v;
}
std::complex<ld> read_complex(const unsigned char* base, std::int64_t elem, bool dbl) {
  return {read_real(base, 2 * elem, dbl), read_real(base, 2 * elem + 1, dbl)};
}
void write_real(unsigned char* base, std::int64_t elem, bool dbl, float v) {
  if (dbl) {
    const double d = v;
    std::memcpy(base + elem * 8, &d, 8);
  } else {
    std::memcpy(base + elem * 4, &v, 4);
  }
}

constexpr ld kMaxExecElements = 1 << 16;  // per side: every flop is emulated, keep executions small
// Executions are emulated instruction by instruction (FP64: Ozaki slices), under ASan in the fuzz
// build: bound the points an execution transforms so that one input stays well under a second.
constexpr std::int64_t kMaxExecPoints = 1 << 13, kMaxExecPointsFp64 = 1 << 10;
constexpr std::int64_t kMaxCheckedPoints = 512;  // points per transform checked against the O(N^2) DFT

// The Xt API's 32F / 64F (inputtype, outputtype, executiontype) of a trnfftType; an unknown type is
// passed with TRN_R_32F as the execution type, which no family executes in.
void xt_types(int type, int* ti, int* to, int* te) {
  *ti = *to = type;
  *te = TRN_R_32F;
  switch (type) {
    case TRNFFT_C2C: *ti = *to = *te = TRN_C_32F; break;
    case TRNFFT_R2C: *ti = TRN_R_32F, *to = *te = TRN_C_32F; break;
    case TRNFFT_C2R: *ti = *te = TRN_C_32F, *to = TRN_R_32F; break;
    case TRNFFT_Z2Z: *ti = *to = *te = TRN_C_64F; break;
    case TRNFFT_D2Z: *ti = TRN_R_64F, *to = *te = TRN_C_64F; break;
    case TRNFFT_Z2D: *ti = *te = TRN_C_64F, *to = TRN_R_64F; break;
    default: break;
  }
}

struct Harness {
  trnfuzz::Input& in;
  std::vector<trnfftHandle> live;  // plans this input made (destroyed at the end)

  bool is_live(trnfftHandle h) const { return std::find(live.begin(), live.end(), h) != live.end(); }

  trnfftResult xt_get_size(trnfftHandle h, const Request& p, long long* np64, std::vector<long long>& ie64,
                           std::vector<long long>& oe64, int type, std::size_t* ws) {
    int ti = 0, to = 0, te = 0;
    xt_types(type, &ti, &to, &te);
    const auto dt = [](int t) { return static_cast<trnDataType_t>(t); };
    return trnfftXtGetSizeMany(h, p.rank, np64, p.has_in ? ie64.data() : nullptr, p.istride, p.idist, dt(ti),
                               p.has_out ? oe64.data() : nullptr, p.ostride, p.odist, dt(to), p.batch, ws, dt(te));
  }

  // The Xt work-area calls and the plan properties on a made plan: valid and fuzzed values, each a
  // cuFFT status; the plan keeps working (the caller executes it next).
  void xt_settings(trnfftHandle h) {
    trnfuzz::reach("xt_settings");
    void* areas[1] = {nullptr};
    const trnfftResult ra = trnfftXtSetWorkArea(h, in.flag(4) ? nullptr : areas);
    require(is_status(ra), "XtSetWorkArea status");
    std::size_t limit = in.u32();
    const int policy = in.flag(8) ? static_cast<int>(in.u32()) : in.byte() % 3;
    const trnfftResult rp =
        trnfftXtSetWorkAreaPolicy(h, static_cast<trnfftXtWorkAreaPolicy>(policy), in.flag(4) ? nullptr : &limit);
    require(is_status(rp), "XtSetWorkAreaPolicy status");
    const int prop = in.flag(8) ? static_cast<int>(in.u32()) : 1 + in.byte() % 2;
    const trnfftResult rs = trnfftSetPlanPropertyInt64(h, static_cast<trnfftProperty>(prop),
                                                       static_cast<long long>(in.u64()));
    require(is_status(rs), "SetPlanPropertyInt64 status");
    long long v = -77;
    const trnfftResult rg = trnfftGetPlanPropertyInt64(h, static_cast<trnfftProperty>(prop), &v);
    require(is_status(rg) && (rg == TRNFFT_SUCCESS || v == -77), "GetPlanPropertyInt64 wrote on failure");
    if (in.flag(4)) require(is_status(trnfftResetPlanProperty(h, static_cast<trnfftProperty>(prop))), "Reset status");
  }

  Request request() {
    Request q;
    const std::uint8_t rsel = in.byte();
    q.rank = rsel < 240 ? 1 + rsel % 3 : clamp_int(in.size(4, false));
    const bool wide = in.flag(4);
    const int r = std::clamp(q.rank, 1, 3);
    const std::int64_t small = r == 1 ? 48 : r == 2 ? 12 : 6;
    q.n.resize(static_cast<std::size_t>(r));
    for (auto& v : q.n) v = dimension(in, small, wide);
    q.null_n = in.flag(40);
    q.type = in.choice({TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, TRNFFT_Z2Z, TRNFFT_D2Z, TRNFFT_Z2D});
    q.batch = in.flag(5) ? in.size(4, wide) : 1 + in.byte() % 3;
    for (int side = 0; side < 2; ++side) {
      const bool adv = in.flag(3);
      (side == 0 ? q.has_in : q.has_out) = adv;
      std::vector<std::int64_t>& e = side == 0 ? q.inembed : q.onembed;
      std::int64_t& stride = side == 0 ? q.istride : q.ostride;
      std::int64_t& dist = side == 0 ? q.idist : q.odist;
      stride = in.flag(6) ? in.size(3, wide) : 1 + in.byte() % 2;
      if (!adv) {
        if (in.flag(2)) stride = 1;
        continue;
      }
      e.resize(static_cast<std::size_t>(r));
      ld per = 1;
      for (int i = 0; i < r; ++i) {
        std::int64_t logical = q.n[static_cast<std::size_t>(i)];
        const bool complex_side = side == 0 ? !real_in(q.type) : !real_out(q.type);
        if (i == r - 1 && complex_side && (real_in(q.type) || real_out(q.type)) && logical > 0) logical = logical / 2 + 1;
        // A near-natural embed: the logical extent nudged by -1..+2, saturating (the extent may be
        // INT64_MAX, and the harness itself must not overflow).
        const int nudge = in.byte() % 3 - (in.flag(16) ? 1 : 0);
        e[static_cast<std::size_t>(i)] =
            in.flag(12) ? in.size(8, wide)
                        : (logical > std::numeric_limits<std::int64_t>::max() - 2 ? logical : logical + nudge);
        per *= static_cast<ld>(i == 0 ? logical : e[static_cast<std::size_t>(i)]);
      }
      const ld natural = per * static_cast<ld>(stride);
      dist = in.flag(6) ? in.size(8, wide)
                        : (natural < 0x1p60L && natural >= 0 ? static_cast<std::int64_t>(natural) : 0) + in.byte() % 3 -
                              (in.flag(12) ? 1 : 0);
    }
    return q;
  }

  // Makes a plan through one of the entry points; returns SUCCESS with *h set and *planned the
  // request as the library received it (32-bit entries clamp; Plan1d/2d/3d have no advanced layout
  // and 2d/3d no batch), or the status.
  trnfftResult make(const Request& q, int precision, trnfftHandle* h, Request* planned) {
    const int entry = in.byte() % 9;
    const bool null_ws = in.flag(16);
    std::size_t ws = 0xA5A5A5A5u;
    std::size_t* wsp = null_ws ? nullptr : &ws;
    const std::size_t ws0 = ws;
    const bool wide_entry = entry >= 4 && entry <= 5;
    Request p = q;
    if (!wide_entry) {
      for (auto* v : {&p.n, &p.inembed, &p.onembed})
        for (auto& x : *v) x = clamp_int(x);
      for (auto* x : {&p.istride, &p.idist, &p.ostride, &p.odist, &p.batch}) *x = clamp_int(*x);
    }
    std::vector<int> n32(p.n.begin(), p.n.end()), ie32(p.inembed.begin(), p.inembed.end()),
        oe32(p.onembed.begin(), p.onembed.end());
    std::vector<long long> n64(p.n.begin(), p.n.end()), ie64(p.inembed.begin(), p.inembed.end()),
        oe64(p.onembed.begin(), p.onembed.end());
    int* np = p.null_n ? nullptr : n32.data();
    long long* np64 = p.null_n ? nullptr : n64.data();
    int* iep = p.has_in ? ie32.data() : nullptr;
    int* oep = p.has_out ? oe32.data() : nullptr;
    // Any int reaches the library as a trnfftType: converted at each call (a prvalue, never an
    // enum-typed object whose load UBSan would flag).
    const auto type_of = [](int t) { return static_cast<trnfftType>(t); };
    const int type = p.type;
    const int b32 = clamp_int(p.batch);
    const int is = clamp_int(p.istride), id = clamp_int(p.idist), os = clamp_int(p.ostride), od = clamp_int(p.odist);
    const bool basic = entry == 0 || entry == 1 || entry == 6 || entry == 7;  // the 1d/2d/3d entry points
    if (basic && p.rank >= 1 && p.rank <= 3) {
      p.has_in = p.has_out = false;
      p.inembed.clear();
      p.onembed.clear();
      if (p.rank > 1) p.batch = 1;
      p.null_n = false;
    }
    *planned = p;
    if (std::getenv("TRNFFT_FUZZ_TRACE") != nullptr) {  // reproducing a report: what is planned
      std::fprintf(stderr, "entry %d rank %d type 0x%x batch %lld n", entry, p.rank, p.type, static_cast<long long>(p.batch));
      for (std::int64_t v : p.n) std::fprintf(stderr, " %lld", static_cast<long long>(v));
      std::fprintf(stderr, " in %d out %d\n", p.has_in, p.has_out);
    }
    trnfftResult r;
    const trnfftHandle sentinel = 0x5A5A5A5A;
    *h = sentinel;
    if (entry >= 6) {
      // Plan1d/2d/3d/Many: the handle is written only on success.
      if (basic && p.rank == 1) r = trnfftPlan1d(h, n32[0], type_of(type), b32);
      else if (basic && p.rank == 2) r = trnfftPlan2d(h, n32[0], n32[1], type_of(type));
      else if (basic && p.rank == 3) r = trnfftPlan3d(h, n32[0], n32[1], n32[2], type_of(type));
      else r = trnfftPlanMany(in.flag(30) ? nullptr : h, p.rank, np, iep, is, id, oep, os, od, type_of(type), b32);
      require(is_status(r), "PlanX returned a status outside cuFFT's");
      if (r != TRNFFT_SUCCESS) {
        require(*h == sentinel, "a failed trnfftPlan* wrote the plan handle");
        return r;
      }
      live.push_back(*h);
      return r;
    }
    r = trnfftCreate(h);
    require(r == TRNFFT_SUCCESS, "trnfftCreate failed");
    live.push_back(*h);
    if (precision >= 0) (void)trnfftSetPlanPrecision(*h, static_cast<trnfftPrecision_t>(precision));
    if (in.flag(4)) {
      // The size queries: on a created plan and plan-free, checked like MakePlan.
      std::size_t est = 0x3C3C3C3Cu;
      const trnfftResult re =
          in.flag(2) ? trnfftEstimateMany(p.rank, np, iep, is, id, oep, os, od, type_of(type), b32, null_ws ? nullptr : &est)
                     : in.flag(3) ? (trnfuzz::reach("xt_get_size"), xt_get_size(*h, p, np64, ie64, oe64, type, null_ws ? nullptr : &est))
                     : trnfftGetSizeMany64(*h, p.rank, np64, p.has_in ? ie64.data() : nullptr, p.istride, p.idist,
                                           p.has_out ? oe64.data() : nullptr, p.ostride, p.odist, type_of(type), p.batch,
                                           null_ws ? nullptr : &est);
      require(is_status(re), "Estimate/GetSize returned a status outside cuFFT's");
      require(re == TRNFFT_SUCCESS || est == 0x3C3C3C3Cu, "a failed Estimate/GetSize wrote workSize");
    }
    if (basic && p.rank == 1) r = trnfftMakePlan1d(*h, n32[0], type_of(type), b32, wsp);
    else if (basic && p.rank == 2) r = trnfftMakePlan2d(*h, n32[0], n32[1], type_of(type), wsp);
    else if (basic && p.rank == 3) r = trnfftMakePlan3d(*h, n32[0], n32[1], n32[2], type_of(type), wsp);
    else if (!wide_entry) r = trnfftMakePlanMany(*h, p.rank, np, iep, is, id, oep, os, od, type_of(type), b32, wsp);
    else if (entry == 5) {
      // Xt: the 32F / 64F type triple of a known trnfftType (the same plan as MakePlanMany64); an
      // unknown type is passed with TRN_R_32F as the execution type, which no family executes in.
      const auto dt = [](int t) { return static_cast<trnDataType_t>(t); };
      int ti = 0, to = 0, te = 0;
      xt_types(type, &ti, &to, &te);
      r = trnfftXtMakePlanMany(*h, p.rank, np64, p.has_in ? ie64.data() : nullptr, p.istride, p.idist, dt(ti),
                               p.has_out ? oe64.data() : nullptr, p.ostride, p.odist, dt(to), p.batch, wsp, dt(te));
    } else
      r = trnfftMakePlanMany64(*h, p.rank, np64, p.has_in ? ie64.data() : nullptr, p.istride, p.idist,
                               p.has_out ? oe64.data() : nullptr, p.ostride, p.odist, type_of(type), p.batch, wsp);
    require(is_status(r), "MakePlan returned a status outside cuFFT's");
    if (r != TRNFFT_SUCCESS) require(ws == ws0, "a failed MakePlan wrote workSize");
    return r;
  }

  void execute(trnfftHandle h, const Request& q, int precision) {
    const int t = q.type;
    const bool dbl = double_type(t);
    const int call_type = in.flag(10) ? in.choice({TRNFFT_C2C, TRNFFT_R2C, TRNFFT_C2R, TRNFFT_Z2Z, TRNFFT_D2Z, TRNFFT_Z2D}) : t;
    const int direction = t == TRNFFT_C2C || t == TRNFFT_Z2Z ? in.choice({TRNFFT_FORWARD, TRNFFT_INVERSE})
                                                            : (real_in(t) ? TRNFFT_FORWARD : TRNFFT_INVERSE);
    const std::uint8_t placement = in.byte() % 8;  // 0-3 out of place, 4-5 in place, 6 partial overlap, 7 NULL
    const bool in_place = placement == 4 || placement == 5;
    const SideLayout li = side_layout(q, true, in_place), lo = side_layout(q, false, in_place);
    if (li.span > kMaxExecElements || lo.span > kMaxExecElements || li.span < 1 || lo.span < 1) return;
    std::int64_t points = q.batch;
    for (std::int64_t v : q.n) points *= v;
    if (points > (dbl ? kMaxExecPointsFp64 : kMaxExecPoints)) return;
    const std::size_t scalar = dbl ? 8 : 4;
    const std::size_t ibytes = static_cast<std::size_t>(li.span) * scalar * (real_in(t) ? 1 : 2);
    const std::size_t obytes = static_cast<std::size_t>(lo.span) * scalar * (real_out(t) ? 1 : 2);
    std::size_t ioff = 0, ooff = 0, total;
    if (in_place) {
      total = std::max(ibytes, obytes);
    } else if (placement == 6) {
      ooff = scalar * (1 + in.byte() % 7);  // the output starts inside the input: cuFFT leaves this undefined
      total = std::max(ibytes, ooff + obytes);
    } else {
      ooff = ibytes;
      total = ibytes + obytes;
    }
    std::vector<unsigned char> buf(total);
    // Input values: fill every element of the input side (and the rest with a marker).
    for (std::size_t i = 0; i + 4 <= total; i += 4) {
      const float marker = -77.0f;
      std::memcpy(&buf[i], &marker, 4);
    }
    const std::vector<std::int64_t> ioffs = offsets(li, q.batch);
    const int fi = real_in(t) ? 1 : 2;
    for (std::int64_t o : ioffs)
      for (int c = 0; c < fi; ++c) write_real(buf.data() + ioff, o * fi + c, dbl, in.value());
    // C2R reads a half spectrum: make it Hermitian on the planes where the full spectrum needs it
    // (last index 0 and n/2), so that the real output is defined (FFTW's and cuFFT's C2R assume it).
    if (real_out(t)) hermitian(buf.data() + ioff, li, q, dbl);
    const std::vector<unsigned char> before = buf;
    void* ip = buf.data() + ioff;
    void* op = in_place ? ip : static_cast<void*>(buf.data() + ooff);
    if (placement == 7) (in.flag(2) ? ip : op) = nullptr;
    trnfftResult r;
    switch (call_type) {
      case TRNFFT_C2C: r = trnfftExecC2C(h, static_cast<trnfftComplex*>(ip), static_cast<trnfftComplex*>(op), direction); break;
      case TRNFFT_R2C: r = trnfftExecR2C(h, static_cast<trnfftReal*>(ip), static_cast<trnfftComplex*>(op)); break;
      case TRNFFT_C2R: r = trnfftExecC2R(h, static_cast<trnfftComplex*>(ip), static_cast<trnfftReal*>(op)); break;
      case TRNFFT_Z2Z:
        r = trnfftExecZ2Z(h, static_cast<trnfftDoubleComplex*>(ip), static_cast<trnfftDoubleComplex*>(op), direction);
        break;
      case TRNFFT_D2Z: r = trnfftExecD2Z(h, static_cast<trnfftDoubleReal*>(ip), static_cast<trnfftDoubleComplex*>(op)); break;
      case TRNFFT_Z2D: r = trnfftExecZ2D(h, static_cast<trnfftDoubleComplex*>(ip), static_cast<trnfftDoubleReal*>(op)); break;
      default: r = trnfftExecC2C(h, static_cast<trnfftComplex*>(ip), static_cast<trnfftComplex*>(op), in.choice({0, 2})); break;
    }
    require(is_status(r), "Exec returned a status outside cuFFT's");
    if (r != TRNFFT_SUCCESS) {
      require(buf == before, "a failed Exec modified its buffers");
      require(call_type != t || ip == nullptr || op == nullptr || (direction != -1 && direction != 1) ||
                r == TRNFFT_ALLOC_FAILED,
            "a valid Exec call failed");
      trnfuzz::reach("exec_rejected");
      return;
    }
    require(call_type == t && ip != nullptr && op != nullptr, "Exec accepted a wrong type or a NULL pointer");
    trnfuzz::reach("exec_ok");
    if (placement == 6) return;  // overlapping buffers: only memory safety is defined
    if (!in_place)
      require(std::memcmp(buf.data(), before.data(), ibytes) == 0, "an out-of-place Exec modified its input");
    if (!in_place || same_positions(li, lo, q, t)) compare(buf.data() + ooff, before.data() + ioff, li, lo, q, dbl, direction, precision);
  }

  // In place with different element positions on the two sides: each transform reads what an
  // earlier one may have written, so only the identical-layout case (and natural layouts) is checked.
  static bool same_positions(const SideLayout& li, const SideLayout& lo, const Request& q, int t) {
    if (!q.has_in && !q.has_out) return true;
    return !real_in(t) && !real_out(t) && li.axis_stride == lo.axis_stride && li.dist == lo.dist;
  }

  static void hermitian(unsigned char* base, const SideLayout& li, const Request& q, bool dbl) {
    const std::size_t d = q.n.size();
    const std::int64_t last = q.n[d - 1];
    std::int64_t outer = 1;
    for (std::size_t i = 0; i + 1 < d; ++i) outer *= q.n[i];
    for (std::int64_t b = 0; b < q.batch; ++b)
      for (std::int64_t kl : {std::int64_t{0}, last % 2 == 0 ? last / 2 : std::int64_t{-1}}) {
        if (kl < 0) continue;
        for (std::int64_t f = 0; f < outer; ++f) {
          // The index -k (mod n) over the leading axes.
          std::int64_t r = f, g = 0, mul = 1, o = b * li.dist + kl * li.axis_stride[d - 1], om = o;
          std::vector<std::int64_t> k(d - 1);
          for (std::size_t i = d - 1; i-- > 0;) {
            k[i] = r % q.n[i];
            r /= q.n[i];
          }
          for (std::size_t i = d - 1; i-- > 0;) {
            const std::int64_t neg = (q.n[i] - k[i]) % q.n[i];
            g += neg * mul;
            mul *= q.n[i];
            o += k[i] * li.axis_stride[i];
            om += neg * li.axis_stride[i];
          }
          if (g < f) continue;  // the pair was set from its partner
          const std::complex<ld> v = read_complex(base, o, dbl);
          write_real(base, 2 * o + 1, dbl, g == f ? 0.0f : static_cast<float>(v.imag()));
          write_real(base, 2 * om, dbl, static_cast<float>(v.real()));
          write_real(base, 2 * om + 1, dbl, g == f ? 0.0f : -static_cast<float>(v.imag()));
          if (dbl && g != f) {  // keep the double's bits exact: copy, do not round through float
            double re, im;
            std::memcpy(&re, base + 2 * o * 8, 8);
            std::memcpy(&im, base + (2 * o + 1) * 8, 8);
            im = -im;
            std::memcpy(base + 2 * om * 8, &re, 8);
            std::memcpy(base + (2 * om + 1) * 8, &im, 8);
          }
        }
      }
  }

  static void compare(const unsigned char* out, const unsigned char* inb, const SideLayout& li, const SideLayout& lo,
                      const Request& q, bool dbl, int direction, int precision) {
    std::int64_t total = 1;
    for (std::int64_t v : q.n) total *= v;
    if (total > kMaxCheckedPoints || total * total * q.batch > (std::int64_t{1} << 20)) return;
    const int t = q.type;
    const std::size_t d = q.n.size();
    const std::int64_t last = q.n[d - 1], half = last / 2 + 1;
    const std::vector<std::int64_t> ioffs = offsets(li, q.batch), ooffs = offsets(lo, q.batch);
    // An output layout in which two (batch, index) pairs share a position has no defined result (cuFFT
    // and FFTW leave overlapping outputs undefined; a multi-pass plan may use the output as its
    // intermediate, so even the positions written once can depend on the order of the batches): only
    // memory safety is checked then. (An earlier "last writer wins" check failed on such a layout in a
    // long run: n = 4 x 8, batch 3, ostride 2, odist 8, onembed 6 x 10.)
    std::vector<std::int64_t> sorted = ooffs;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return;
    const std::int64_t per_in = static_cast<std::int64_t>(ioffs.size()) / q.batch;
    const std::int64_t per_out = static_cast<std::int64_t>(ooffs.size()) / q.batch;
    ld err2 = 0, ref2 = 0, xmax = 0, xmin = std::numeric_limits<ld>::infinity();
    for (std::int64_t b = 0; b < q.batch; ++b) {
      // The full-index-space input of this batch.
      std::vector<std::complex<ld>> x(static_cast<std::size_t>(total));
      for (std::int64_t f = 0; f < total; ++f) {
        std::int64_t kl = f % last, lead = f / last;
        std::complex<ld> v;
        if (real_out(t)) {
          // Hermitian extension of the half spectrum: X[k] = conj(X[-k]) for k_last >= n/2 + 1.
          if (kl < half) {
            v = read_complex(inb, ioffs[static_cast<std::size_t>(b * per_in + lead * half + kl)], dbl);
          } else {
            std::int64_t r = lead, neg = 0, mul = 1;
            for (std::size_t i = d - 1; i-- > 0;) {
              neg += ((q.n[i] - r % q.n[i]) % q.n[i]) * mul;
              mul *= q.n[i];
              r /= q.n[i];
            }
            v = std::conj(read_complex(inb, ioffs[static_cast<std::size_t>(b * per_in + neg * half + (last - kl))], dbl));
          }
        } else if (real_in(t)) {
          v = read_real(inb, ioffs[static_cast<std::size_t>(b * per_in + f)], dbl);
        } else {
          v = read_complex(inb, ioffs[static_cast<std::size_t>(b * per_in + f)], dbl);
        }
        if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) return;  // only finite data have a reference
        const ld m = std::max(std::fabs(v.real()), std::fabs(v.imag()));
        xmax = std::max(xmax, m);
        if (m != 0) xmin = std::min(xmin, m);
        x[static_cast<std::size_t>(f)] = v;
      }
      const std::vector<std::complex<ld>> y = dft(q.n, x, real_in(t) ? -1 : real_out(t) ? 1 : direction);
      for (std::int64_t f = 0; f < per_out; ++f) {
        const std::int64_t o = ooffs[static_cast<std::size_t>(b * per_out + f)];
        std::int64_t full = f;
        if (real_in(t)) full = f / half * last + f % half;
        const std::complex<ld> ref = y[static_cast<std::size_t>(full)];
        const std::complex<ld> got = real_out(t) ? std::complex<ld>(read_real(out, o, dbl), 0) : read_complex(out, o, dbl);
        const std::complex<ld> want = real_out(t) ? std::complex<ld>(ref.real(), 0) : ref;
        err2 += std::norm(got - want);
        ref2 += std::norm(want);
      }
    }
    // The documented bounds are for data of one scale; data spanning more than 2^40 between their
    // smallest and largest nonzero magnitude, or near fp32's range ends, are only checked for
    // finiteness of the result where the reference is representable.
    const ld lo_lim = dbl ? 0x1p-900L : 0x1p-60L, hi_lim = dbl ? 0x1p900L : 0x1p60L;
    if (xmax == 0 || xmax > hi_lim || xmin < lo_lim || xmax / xmin > 0x1p40L) return;
    trnfuzz::reach("dft_checked");
    const ld bound = 8 * mode_bound(t, dbl ? TRNFFT_PRECISION_FP32 : precision, q.n);
    if (!(err2 <= bound * bound * ref2 + 1e-300L)) {
      std::fprintf(stderr, "fuzz_trnfft: relative L2 error %Lg > %Lg (type 0x%x, rank %zu, n0 %lld, batch %lld)\n",
                   std::sqrt(err2 / std::max(ref2, 1e-300L)), bound, t, d, static_cast<long long>(q.n[0]),
                   static_cast<long long>(q.batch));
      require(false, "a successful Exec disagrees with FFTW long double");
    }
  }

  void run() {
    for (int step = 0; step < 3 && !in.empty(); ++step) {
      const Request q = request();
      const int precision = in.flag(3) ? in.choice({TRNFFT_PRECISION_FP32, TRNFFT_PRECISION_BF16, TRNFFT_PRECISION_BF16X3}) : -1;
      // A valid plan beyond 2^16 points is legal but slow to make here (MakePlan's dry run of the
      // cost model is emulated instruction by instruction, under ASan): not made. Plans beyond the
      // limits (2^27 per size, 2^24 points) are made, and must be rejected quickly.
      {
        // make() picks the entry point after this test, and the 2d / 3d ones ignore the batch: a plan
        // whose sizes alone hold 2^16 < points <= 2^24 is legal whatever the batch (seed 2 found
        // 256^3 Z2D with batch 3: ~265 s and > 4 GB under ASan through MakePlan3d).
        std::int64_t points = 1;
        bool sizes_ok = q.rank >= 1 && q.rank <= 3;
        for (std::int64_t v : q.n) {
          sizes_ok = sizes_ok && v >= 1 && v <= (std::int64_t{1} << 27);
          points = v >= 1 && points <= (std::int64_t{1} << 40) / v ? points * v : std::int64_t{1} << 41;
        }
        const std::int64_t batch = q.batch >= 1 ? q.batch : 1;
        const std::int64_t batched = points <= (std::int64_t{1} << 40) / batch ? points * batch : std::int64_t{1} << 41;
        const auto slow_but_legal = [](std::int64_t m) { return m > (std::int64_t{1} << 16) && m <= (std::int64_t{1} << 24); };
        if (sizes_ok && (slow_but_legal(batched) || (q.rank > 1 && slow_but_legal(points)))) continue;
      }
      trnfftHandle h = TRNFFT_PLAN_NULL;
      Request p;
      const trnfftResult r = make(q, precision, &h, &p);
      if (r != TRNFFT_SUCCESS) {
        trnfuzz::reach("plan_rejected");
        // A created-but-unmade plan: every Exec is INVALID_PLAN and writes nothing.
        if (is_live(h)) {
          float x[4] = {1, 2, 3, 4};
          require(trnfftExecC2C(h, reinterpret_cast<trnfftComplex*>(x), reinterpret_cast<trnfftComplex*>(x), -1) ==
                          TRNFFT_INVALID_PLAN &&
                      x[0] == 1 && x[3] == 4,
                  "Exec of an unmade plan did not return INVALID_PLAN untouched");
        }
        continue;
      }
      trnfuzz::reach("plan_ok");
      // Plan settings cuFFT programs make: work area, auto allocation, stream (recorded only).
      if (in.flag(4)) require(trnfftSetWorkArea(h, in.flag(2) ? nullptr : g_work_area) == TRNFFT_SUCCESS, "SetWorkArea failed");
      if (in.flag(4)) require(trnfftSetAutoAllocation(h, static_cast<int>(in.u32())) == TRNFFT_SUCCESS, "SetAutoAllocation failed");
      if (in.flag(8)) require(trnfftSetStream(h, nullptr) == TRNFFT_SUCCESS, "SetStream failed");
      if (h % 5 == 0) xt_settings(h);  // keyed on the handle: no input byte spent deciding
      int prec = precision;
      if (in.flag(6)) {
        const int p = in.choice({TRNFFT_PRECISION_FP32, TRNFFT_PRECISION_BF16, TRNFFT_PRECISION_BF16X3});
        const trnfftResult rp = trnfftSetPlanPrecision(h, static_cast<trnfftPrecision_t>(p));
        require(is_status(rp), "SetPlanPrecision returned a status outside cuFFT's");
        if (rp == TRNFFT_SUCCESS) prec = p;
      }
      trnfftPrecision_t got{};
      require(trnfftGetPlanPrecision(h, &got) == TRNFFT_SUCCESS, "GetPlanPrecision failed");
      prec = static_cast<int>(got);
      std::size_t ws = 0;
      require(trnfftGetSize(h, &ws) == TRNFFT_SUCCESS, "GetSize of a made plan failed");
      if (in.flag(16)) {
        char text[64];
        std::memset(text, 'x', sizeof text);
        const std::size_t cap = in.byte() % sizeof text;
        const trnfftResult rd = trnfftGetPlanDescription(h, cap == 0 ? nullptr : text, cap);
        require(rd == TRNFFT_SUCCESS || rd == TRNFFT_INVALID_VALUE, "GetPlanDescription status");
        if (cap > 0 && rd != TRNFFT_INVALID_VALUE) require(std::memchr(text, '\0', cap) != nullptr, "description not terminated");
      }
      const int runs = 1 + in.byte() % 2;
      for (int k = 0; k < runs && !in.empty(); ++k) execute(h, p, prec);
      if (in.flag(3)) {
        // Destroyed: every later call is INVALID_PLAN.
        require(trnfftDestroy(h) == TRNFFT_SUCCESS, "Destroy of a live plan failed");
        live.erase(std::find(live.begin(), live.end(), h));
        float x[4] = {1, 2, 3, 4};
        require(trnfftExecC2C(h, reinterpret_cast<trnfftComplex*>(x), reinterpret_cast<trnfftComplex*>(x), -1) ==
                    TRNFFT_INVALID_PLAN,
                "Exec of a destroyed plan");
        require(trnfftDestroy(h) == TRNFFT_INVALID_PLAN, "double Destroy");
        std::size_t ws2 = 7;
        require(trnfftGetSize(h, &ws2) == TRNFFT_INVALID_PLAN && ws2 == 7, "GetSize of a destroyed plan");
      }
    }
  }
};

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"plan_ok", 130}, {"plan_rejected", 160}, {"exec_ok", 34}, {"exec_rejected", 7}, {"dft_checked", 28},
          {"xt_settings", 20}, {"xt_get_size", 2}};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input in(data, size);
  Harness hs{in, {}};
  hs.run();
  for (trnfftHandle h : hs.live) trnfftDestroy(h);
  return 0;
}
