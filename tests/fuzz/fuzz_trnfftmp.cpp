// The libFuzzer harness over trnfftMp's C API (distributed/trnfftMp, docs/scale-out.md section 9) on
// one rank (MPI singleton; MPI_COMM_SELF, MPI_COMM_NULL or no communicator): AttachComm, MakePlan2d/3d
// with fuzzed sizes, types, communicators, comm types and workSize pointers; XtMalloc with fuzzed
// formats, XtMemcpy, XtExecDescriptor with fuzzed directions and descriptors. Invariants beyond "no
// crash, no sanitizer report": every status follows the documented rules in argument order; a failing
// execution writes nothing (data and subFormat); a successful one matches a naive fp64 DFT of the whole
// array (one rank: both slab distributions are the whole array) within the plan's relative L2 bound.
#include <mpi.h>

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
  if (type != TRNFFT_C2C && type != TRNFFT_Z2Z) return TRNFFT_NOT_SUPPORTED;
  if (!comm_found && !comm_handle_given) return TRNFFT_INVALID_VALUE;
  if (comm_type != TRNFFT_COMM_MPI) return TRNFFT_INVALID_VALUE;
  if (!comm_valid || !ws) return TRNFFT_INVALID_VALUE;
  return TRNFFT_SUCCESS;
}

template <class T>
void exec_case(trnfuzz::Input& in, trnfftHandle h, const std::vector<std::int64_t>& n, bool fp64) {
  const int format = in.choice({TRNFFT_XT_FORMAT_INPLACE, TRNFFT_XT_FORMAT_INPLACE_SHUFFLED, TRNFFT_XT_FORMAT_INPLACE,
                                TRNFFT_XT_FORMAT_INPLACE_SHUFFLED, TRNFFT_XT_FORMAT_DISTRIBUTED_INPUT});
  trnLibXtDesc* a = nullptr;
  const trnfftResult ms = trnfftXtMalloc(h, &a, static_cast<trnfftXtSubFormat>(format));
  require((ms == TRNFFT_SUCCESS) == (format == TRNFFT_XT_FORMAT_INPLACE || format == TRNFFT_XT_FORMAT_INPLACE_SHUFFLED),
          "XtMalloc status follows the format rule");
  if (ms != TRNFFT_SUCCESS) return;
  trnfuzz::reach("malloc_ok");
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  require(a->descriptor->size[0] >= static_cast<std::size_t>(total) * sizeof(T), "the descriptor holds the slab");
  std::vector<T> x(static_cast<std::size_t>(total));
  for (auto& v : x) v = T(static_cast<int>(in.byte() % 9) - 4, static_cast<int>(in.byte() % 9) - 4);
  require(trnfftXtMemcpy(h, a, x.data(), TRNFFT_COPY_HOST_TO_DEVICE) == TRNFFT_SUCCESS, "XtMemcpy H2D");
  const bool second = in.flag(3), null_in = in.flag(16);
  trnLibXtDesc* b = a;
  if (second) require(trnfftXtMalloc(h, &b, TRNFFT_XT_FORMAT_INPLACE) == TRNFFT_SUCCESS, "second XtMalloc");
  // Mostly the direction the data's distribution asks for (else any direction, 0 or a random int).
  const int direction = in.flag(4) ? in.choice({TRNFFT_FORWARD, TRNFFT_INVERSE, 0})
                                   : (format == TRNFFT_XT_FORMAT_INPLACE ? TRNFFT_FORWARD : TRNFFT_INVERSE);
  const int exec = in.byte() % 4 % 3;  // generic (twice as often), C2C, Z2Z
  std::vector<char> before(b->descriptor->size[0]);
  std::memcpy(before.data(), b->descriptor->data[0], before.size());
  const int fmt_before = b->subFormat;
  trnLibXtDesc* input = null_in ? nullptr : a;
  const trnfftResult es = exec == 0   ? trnfftXtExecDescriptor(h, input, b, direction)
                          : exec == 1 ? trnfftXtExecDescriptorC2C(h, input, b, direction)
                                      : trnfftXtExecDescriptorZ2Z(h, input, b, direction);
  trnfftResult want = TRNFFT_SUCCESS;
  if ((exec == 1 && fp64) || (exec == 2 && !fp64))
    want = TRNFFT_INVALID_TYPE;
  else if (null_in || (direction != TRNFFT_FORWARD && direction != TRNFFT_INVERSE) ||
           format != (direction == TRNFFT_FORWARD ? TRNFFT_XT_FORMAT_INPLACE : TRNFFT_XT_FORMAT_INPLACE_SHUFFLED))
    want = TRNFFT_INVALID_VALUE;
  require(es == want, "XtExecDescriptor status follows the rules");
  if (es != TRNFFT_SUCCESS) {
    trnfuzz::reach("exec_rejected");
    require(std::memcmp(before.data(), b->descriptor->data[0], before.size()) == 0 && b->subFormat == fmt_before,
            "a failing execution writes nothing");
  } else {
    trnfuzz::reach("exec_ok");
    require(b->subFormat == (direction == TRNFFT_FORWARD ? TRNFFT_XT_FORMAT_INPLACE_SHUFFLED : TRNFFT_XT_FORMAT_INPLACE),
            "the output's distribution after the transform");
    std::vector<T> y(x.size());
    require(trnfftXtMemcpy(h, y.data(), b, TRNFFT_COPY_DEVICE_TO_HOST) == TRNFFT_SUCCESS, "XtMemcpy D2H");
    if (total <= 512) {
      const std::vector<cd> ref = naive_dft(std::vector<cd>(x.begin(), x.end()), n, direction);
      double num = 0, den = 0;
      for (std::size_t i = 0; i < ref.size(); ++i) {
        num += std::norm(cd(y[i]) - ref[i]);
        den += std::norm(ref[i]);
      }
      // The plan bound is relative L2; the integer inputs may sum to zero (then absolute).
      const double bound = (fp64 ? 1e-13 : 4e-5) * std::max(1.0, std::sqrt(den));
      require(std::sqrt(num) <= bound, "a successful execution matches the naive DFT");
    }
  }
  if (second) require(trnfftXtFree(b) == TRNFFT_SUCCESS, "XtFree second");
  require(trnfftXtFree(a) == TRNFFT_SUCCESS, "XtFree");
  require(trnfftXtFree(a) == TRNFFT_INVALID_VALUE, "XtFree twice");
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() {
  return {{"make_ok", 20}, {"make_rejected", 20}, {"malloc_ok", 10}, {"exec_ok", 5}, {"exec_rejected", 5}};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ensure_mpi();
  trnfuzz::Input in(data, size);
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
  const int type = in.choice({TRNFFT_C2C, TRNFFT_Z2Z, TRNFFT_C2C, TRNFFT_R2C, 0x77});
  const int which = in.byte() % 3;  // &self, NULL (the attached one), &MPI_COMM_NULL
  void* ch = which == 0 ? static_cast<void*>(&self) : which == 2 ? static_cast<void*>(&null_comm) : nullptr;
  const int ct = in.choice({TRNFFT_COMM_MPI, TRNFFT_COMM_MPI, TRNFFT_COMM_NONE});
  const bool ws_given = !in.flag(16);
  size_t ws = 0;
  const bool fits = n[0] <= 64 && n[1] <= 64 && (!three || n[2] <= 64);  // beyond: trnfft's limits may refuse
  auto narrow = [](std::int64_t v) { return static_cast<int>(std::max<std::int64_t>(std::min<std::int64_t>(v, 1 << 30), -(1 << 30))); };
  const trnfftResult st =
      three ? trnfftMpMakePlan3d(h, narrow(n[0]), narrow(n[1]), narrow(n[2]), static_cast<trnfftType>(type), ch,
                                 static_cast<trnfftMpCommType>(ct), ws_given ? &ws : nullptr)
            : trnfftMpMakePlan2d(h, narrow(n[0]), narrow(n[1]), static_cast<trnfftType>(type), ch,
                                 static_cast<trnfftMpCommType>(ct), ws_given ? &ws : nullptr);
  for (auto& v : n) v = narrow(v);
  const bool comm_found = which == 0 || which == 2 || attached;
  const trnfftResult want = expected_make(live, n, type, comm_found, which != 1, ct, which == 0 || (which == 1 && attached), ws_given);
  if (fits || want != TRNFFT_SUCCESS)
    require(st == want, "MakePlan status follows the rules in argument order");
  trnfuzz::reach("make_rejected", st != TRNFFT_SUCCESS);
  if (st == TRNFFT_SUCCESS) {
    trnfuzz::reach("make_ok");
    require(ws > 0, "workSize reports the slab copies");
    std::int64_t total = 1;
    for (auto v : n) total *= v;
    if (total > 4096) {  // large plans: made, not run (a fuzz input stays fast)
      require(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy");
      return 0;
    }
    if (type == TRNFFT_Z2Z)
      exec_case<std::complex<double>>(in, h, n, true);
    else
      exec_case<std::complex<float>>(in, h, n, false);
  }
  if (live) require(trnfftDestroy(h) == TRNFFT_SUCCESS, "trnfftDestroy");
  return 0;
}
