// One expansion per floating-point scalar type of the libraries' S/D/C/Z templates, for explicit
// instantiation and declaration blocks: TRN_FOR_EACH_SDCZ(M) is M(float) M(double)
// M(std::complex<float>) M(std::complex<double>).
#pragma once
#include <complex>

#define TRN_FOR_EACH_SDCZ(M) M(float) M(double) M(std::complex<float>) M(std::complex<double>)
// The same with each type's real type: M(float, float) M(double, double) M(std::complex<float>, float)
// M(std::complex<double>, double).
#define TRN_FOR_EACH_SDCZ_REAL(M) \
  M(float, float) M(double, double) M(std::complex<float>, float) M(std::complex<double>, double)
