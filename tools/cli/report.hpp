// Reports of `trnsci validate` / `trnsci bench`: console table, JSON (schema in docs/cli.md) and a
// self-contained HTML page with SVG charts (no network, no external assets).
#pragma once
#include <string>
#include <vector>

#include "bench_columns.hpp"
#include "registry.hpp"

namespace trnsci::cli {

struct ValidationRecord {
  const ValidationCase* c;
  CaseResult r;
};
struct BenchRecord {
  const BenchCase* c;
  std::string target;
  BenchResult r;
};

struct RunInfo {
  std::string command;  // "validate" or "bench"
  std::string size;     // quick | full
  std::string suites;
  double seconds = 0;
  HostRates host;  // bench: the host rates the emulator-bound column uses (measured once per run)
};

void print_validation_table(const std::vector<ValidationRecord>& v, const RunInfo& info);
void print_bench_table(const std::vector<BenchRecord>& b, const RunInfo& info);
std::string to_json(const std::vector<ValidationRecord>& v, const std::vector<BenchRecord>& b, const RunInfo& info);
std::string to_html(const std::vector<ValidationRecord>& v, const std::vector<BenchRecord>& b, const RunInfo& info);

}  // namespace trnsci::cli
