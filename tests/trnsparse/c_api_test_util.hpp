// Shared by the trnsparse C API tests: a handle whose log lines are captured (g_lines) and whose
// last recorded error position can be read.
#pragma once
#include <string>
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
