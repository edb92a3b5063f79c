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

}  // namespace trn::fft::detail
