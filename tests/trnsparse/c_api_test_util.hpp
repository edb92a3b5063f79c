// Shared by the trnsparse C API tests: a handle whose log lines are captured (g_lines) and whose
// last recorded error position can be read.
#pragma once
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "trnsparse.h"

namespace trnsparse_test {

inline std::vector<std::string> g_lines;
inline void capture(const char* msg) { g_lines.emplace_back(msg); }

struct Handle {
  trnsparseHandle_t h = nullptr;
  Handle() {
    trnsparseCreate(&h);
    trnsparseSetLoggerCallback(capture);
    g_lines.clear();
  }
  ~Handle() {
    trnsparseSetLoggerCallback(nullptr);
    trnsparseDestroy(h);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  int last_param() const {
    int p = -1;
    trnsparseGetLastErrorParameter(h, &p);
    return p;
  }
};

}  // namespace trnsparse_test

// NAME<T>(args...): the S / D / C / Z entry point trnsparse<X>NAME picked by the C++ element type
// T (float, double, std::complex<float>, std::complex<double>).
#define TRNSPARSE_TYPED_ENTRY(NAME)                                                           \
  template <class T, class... A>                                                             \
  trnsparseStatus_t NAME(A... a) {                                                           \
    if constexpr (std::is_same_v<T, float>) return trnsparseS##NAME(a...);                   \
    else if constexpr (std::is_same_v<T, double>) return trnsparseD##NAME(a...);             \
    else if constexpr (std::is_same_v<T, std::complex<float>>) return trnsparseC##NAME(a...); \
    else return trnsparseZ##NAME(a...);                                                      \
  }
