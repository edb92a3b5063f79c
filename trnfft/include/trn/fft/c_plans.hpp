// trnfft's C plan handles seen from C++: for trnfftMp (distributed/trnfftMp), whose distributed plan
// lives beside a trnfftCreate handle, as cuFFTMp's plans are cuFFT handles (docs/scale-out.md
// "trnfftMp"). Implemented in trnfft/src/capi.cpp.
#pragma once
#include "trn/fft/fft.hpp"

namespace trn::fft::detail {

// Whether `handle` is a live plan handle of the C API; if so, its emulation settings
// (trnfftSetTarget ...) and precision (trnfftSetPlanPrecision) into *settings and *mode.
bool c_plan_settings(int handle, Settings* settings, Mode* mode);
// A function trnfftDestroy calls with every handle it destroys (one hook; nullptr: none).
void set_c_destroy_hook(void (*hook)(int handle));

// A trnfftMakePlan2d / 3d / Many / Many64 call as its caller made it (n: the rank's sizes when n is
// non-NULL and rank in [1, 3], else empty; natural_layout: inembed and onembed NULL).
struct MakePlanCall {
  const char* fn;
  int rank;
  std::vector<std::int64_t> n;
  bool natural_layout;
  int type;
  std::int64_t batch;
  std::size_t* work_size;
};
// A function those entry points call first, without any lock held (one hook; nullptr: none): it
// returns true when it took the call, its status in *status. trnfftMp's: a handle with an attached
// communicator makes a distributed plan (cuFFTMp's cufftMpAttachComm, then cufftMakePlan3d).
void set_c_make_plan_hook(bool (*hook)(int handle, const MakePlanCall& call, int* status));

}  // namespace trn::fft::detail
