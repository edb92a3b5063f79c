#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace trnsci::cli {

namespace {

std::string num(double v, int prec = 3) {
  if (std::isnan(v)) return "-";
  char b[64];
  std::snprintf(b, sizeof b, (std::fabs(v) >= 1e4 || (std::fabs(v) < 1e-3 && v != 0)) ? "%.*e" : "%.*g", prec, v);
  return b;
}

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

nlohmann::json device_json(const DeviceCost& d) {
  if (!d.present) return nullptr;
  nlohmann::json j;
  j["target"] = d.target;
  j["total_ns"] = d.total_ns;
  j["tensor_utilization"] = d.tensor_utilization;
  nlohmann::json busy, util;
  for (int e = 0; e < trn::kEngineCount; ++e) {
    const std::string name(trn::engine_name(static_cast<trn::Engine>(e)));
    busy[name] = d.busy_ns[e];
    util[name] = d.utilization[e];
  }
  j["busy_ns"] = busy;
  j["utilization"] = util;
  // The work the emulator bound is computed from (bench_columns.hpp):
  // what tools/bench_sweep.py reads to say what bounds a row's host time.
  j["tensor_flops"] = d.tensor_flops;
  j["element_ops"] = d.element_ops;
  j["dma_bytes"] = d.dma_bytes;
  j["host_flops"] = d.host_flops;
  j["host_bytes"] = d.host_bytes;
  j["host_roundtrip_ns"] = d.host_roundtrip_ns;
  j["instructions"] = d.instructions;
  j["host_steps"] = d.host_steps;
  return j;
}

double finite_or(double v, double alt) { return std::isfinite(v) ? v : alt; }

// ---- SVG charts -----------------------------------------------------------------------------------

constexpr int kW = 760, kH = 380, kL = 70, kR = 250, kT = 30, kB = 50;
const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

struct LogAxis {
  double lo, hi;  // log10 range
  double map(double v, double a, double b) const { return a + (std::log10(v) - lo) / (hi - lo) * (b - a); }
};
LogAxis log_axis(const std::vector<double>& vals) {
  double mn = 1e300, mx = -1e300;
  for (double v : vals)
    if (v > 0 && std::isfinite(v)) {
      mn = std::min(mn, v);
      mx = std::max(mx, v);
    }
  if (mn > mx) return {0, 1};
  double lo = std::floor(std::log10(mn)), hi = std::ceil(std::log10(mx));
  if (hi <= lo) hi = lo + 1;
  return {lo, hi};
}

std::string axes(const LogAxis& x, const LogAxis& y, const std::string& xlabel, const std::string& ylabel) {
  std::ostringstream s;
  s << "<rect x='" << kL << "' y='" << kT << "' width='" << kW - kL - kR << "' height='" << kH - kT - kB
    << "' fill='#fafafa' stroke='#999'/>";
  for (int d = static_cast<int>(x.lo); d <= static_cast<int>(x.hi); ++d) {
    const double px = x.map(std::pow(10.0, d), kL, kW - kR);
    s << "<line x1='" << px << "' y1='" << kT << "' x2='" << px << "' y2='" << kH - kB << "' stroke='#e3e3e3'/>"
      << "<text x='" << px << "' y='" << kH - kB + 16 << "' font-size='11' text-anchor='middle'>1e" << d << "</text>";
  }
  for (int d = static_cast<int>(y.lo); d <= static_cast<int>(y.hi); ++d) {
    const double py = y.map(std::pow(10.0, d), kH - kB, kT);
    s << "<line x1='" << kL << "' y1='" << py << "' x2='" << kW - kR << "' y2='" << py << "' stroke='#e3e3e3'/>"
      << "<text x='" << kL - 6 << "' y='" << py + 4 << "' font-size='11' text-anchor='end'>1e" << d << "</text>";
  }
  s << "<text x='" << (kL + kW - kR) / 2 << "' y='" << kH - 10 << "' font-size='12' text-anchor='middle'>" << esc(xlabel)
    << "</text><text transform='translate(16," << (kT + kH - kB) / 2 << ") rotate(-90)' font-size='12' "
       "text-anchor='middle'>"
    << esc(ylabel) << "</text>";
  return s.str();
}

std::string svg_open(const std::string& id, const std::string& title) {
  return "<figure><h3>" + esc(title) + "</h3><svg class='chart' id='" + id + "' data-title='" + esc(title) +
         "' xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(kW) + "' height='" + std::to_string(kH) +
         "' viewBox='0 0 " + std::to_string(kW) + " " + std::to_string(kH) + "'><title>" + esc(title) + "</title>";
}

struct Point {
  double x, y;
  std::string series, label;
};

// Scatter on log-log axes, one colour per series, optional dashed bound lines per series.
std::string scatter(const std::string& id, const std::string& title, const std::string& xl, const std::string& yl,
                    const std::vector<Point>& pts, const std::map<std::string, std::vector<std::pair<double, double>>>& bounds,
                    bool connect) {
  std::vector<double> xs, ys;
  for (const auto& p : pts) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  for (const auto& [s, b] : bounds)
    for (const auto& [x, y] : b) {
      xs.push_back(x);
      ys.push_back(y);
    }
  const LogAxis ax = log_axis(xs), ay = log_axis(ys);
  std::map<std::string, int> color;
  for (const auto& p : pts) color.emplace(p.series, static_cast<int>(color.size()));
  std::ostringstream s;
  s << svg_open(id, title) << axes(ax, ay, xl, yl);
  for (const auto& [series, b] : bounds) {
    if (b.empty()) continue;
    const int c = color.count(series) ? color[series] : 0;
    s << "<polyline class='bound' fill='none' stroke-dasharray='5,4' stroke='" << kPalette[c % 10] << "' points='";
    for (const auto& [x, y] : b) s << ax.map(x, kL, kW - kR) << "," << ay.map(y, kH - kB, kT) << " ";
    s << "'/>";
  }
  if (connect)
    for (const auto& [series, c] : color) {
      std::vector<std::pair<double, double>> line;
      for (const auto& p : pts)
        if (p.series == series && p.x > 0 && p.y > 0) line.emplace_back(p.x, p.y);
      std::sort(line.begin(), line.end());
      if (line.size() < 2) continue;
      s << "<polyline fill='none' stroke='" << kPalette[c % 10] << "' points='";
      for (const auto& [x, y] : line) s << ax.map(x, kL, kW - kR) << "," << ay.map(y, kH - kB, kT) << " ";
      s << "'/>";
    }
  for (const auto& p : pts) {
    if (!(p.x > 0) || !(p.y > 0)) continue;
    s << "<circle class='mark' r='5' cx='" << ax.map(p.x, kL, kW - kR) << "' cy='" << ay.map(p.y, kH - kB, kT)
      << "' fill='" << kPalette[color[p.series] % 10] << "'><title>" << esc(p.label) << "</title></circle>";
  }
  int row = 0;
  for (const auto& [series, c] : color) {
    const int y = kT + 10 + 16 * row++;
    s << "<circle r='4' cx='" << kW - kR + 14 << "' cy='" << y - 4 << "' fill='" << kPalette[c % 10] << "'/><text x='"
      << kW - kR + 24 << "' y='" << y << "' font-size='11'>" << esc(series.substr(0, 38)) << "</text>";
  }
  s << "</svg></figure>";
  return s.str();
}

// Horizontal grouped bars: utilization per engine for each labelled run.
std::string engine_bars(const std::string& id, const std::string& title,
                        const std::vector<std::pair<std::string, DeviceCost>>& runs) {
  const int row_h = 14 * trn::kEngineCount + 10;
  const int h = kT + 30 + row_h * static_cast<int>(std::max<std::size_t>(runs.size(), 1));
  std::ostringstream s;
  s << "<figure><h3>" << esc(title) << "</h3><svg class='chart' id='" << id << "' data-title='" << esc(title)
    << "' xmlns='http://www.w3.org/2000/svg' width='" << kW << "' height='" << h << "' viewBox='0 0 " << kW << " " << h
    << "'><title>" << esc(title) << "</title>";
  const int x0 = 200, x1 = kW - 120;
  for (int pct = 0; pct <= 100; pct += 25) {
    const double x = x0 + (x1 - x0) * pct / 100.0;
    s << "<line x1='" << x << "' y1='" << kT << "' x2='" << x << "' y2='" << h - 20 << "' stroke='#e3e3e3'/><text x='"
      << x << "' y='" << h - 6 << "' font-size='11' text-anchor='middle'>" << pct << "%</text>";
  }
  int y = kT;
  for (const auto& [label, d] : runs) {
    s << "<text x='" << x0 - 8 << "' y='" << y + 10 << "' font-size='11' text-anchor='end'>" << esc(label) << "</text>";
    for (int e = 0; e < trn::kEngineCount; ++e) {
      const double u = std::clamp(d.utilization[e], 0.0, 1.0);
      s << "<rect class='mark' x='" << x0 << "' y='" << y + 14 * e << "' height='12' width='" << std::max(1.0, (x1 - x0) * u)
        << "' fill='" << kPalette[e] << "'><title>" << esc(label) << " " << trn::engine_name(static_cast<trn::Engine>(e))
        << " " << num(100 * u, 3) << "%</title></rect>";
    }
    y += row_h;
  }
  for (int e = 0; e < trn::kEngineCount; ++e)
    s << "<rect x='" << x1 + 10 << "' y='" << kT + 16 * e << "' width='10' height='10' fill='" << kPalette[e]
      << "'/><text x='" << x1 + 24 << "' y='" << kT + 9 + 16 * e << "' font-size='11'>"
      << trn::engine_name(static_cast<trn::Engine>(e)) << "</text>";
  s << "</svg></figure>";
  return s.str();
}

}  // namespace

void print_validation_table(const std::vector<ValidationRecord>& v, const RunInfo& info) {
  std::printf("\n%-6s %-18s %-26s %-24s %-13s %10s %21s  %s\n", "suite", "op", "mode", "shape", "metric", "measured",
              "accepted", "result");
  int pass = 0;
  for (const auto& rec : v) {
    pass += rec.r.pass;
    std::printf("%-6s %-18s %-26s %-24s %-13s %10s %21s  %s\n", rec.c->suite.c_str(), rec.c->op.c_str(),
                rec.c->mode.substr(0, 26).c_str(), rec.c->shape.substr(0, 24).c_str(), rec.c->metric.c_str(),
                num(rec.r.measured).c_str(), bound_text(rec.r).c_str(), rec.r.pass ? "PASS" : "FAIL");
  }
  std::map<std::string, std::pair<int, int>> per;
  for (const auto& rec : v) {
    auto& p = per[rec.c->suite];
    p.first += rec.r.pass;
    ++p.second;
  }
  std::printf("\nsummary (%s, %s, %.1f s):", info.size.c_str(), info.suites.c_str(), info.seconds);
  for (const auto& [s, p] : per) std::printf("  %s %d/%d", s.c_str(), p.first, p.second);
  std::printf("  -> %d/%zu passed%s\n", pass, v.size(), pass == static_cast<int>(v.size()) ? "" : "  (FAILURES ABOVE)");
  for (const auto& rec : v)
    if (!rec.r.pass)
      std::printf("  FAIL %s %s %s %s: %s (accepted %s) %s\n", rec.c->suite.c_str(), rec.c->op.c_str(), rec.c->mode.c_str(),
                  rec.c->shape.c_str(), num(rec.r.measured).c_str(), bound_text(rec.r).c_str(), rec.r.note.c_str());
}

namespace {
// The emulator-bound and native ratios of a row (NaN when the row has none).
double emulator_ratio(const BenchRecord& r, const HostRates& h) {
  const double b = r.r.timing_only ? 0 : emulator_bound_seconds(r.r.device, h);
  return b > 0 ? r.r.host_seconds / b : NAN;
}
double native_ratio(const BenchRecord& r) {
  return r.r.native_seconds > 0 ? r.r.host_seconds / r.r.native_seconds : NAN;
}
double roofline_of(const BenchRecord& r) { return r.r.device.present && r.r.device.roofline > 0 ? r.r.device.roofline : NAN; }
}  // namespace

namespace {
// Issue #28: the sparse rows' dense crossover (tools/cli/sparse_columns.hpp), after the table.
void print_crossovers(const std::vector<BenchRecord>& b) {
  bool header = false;
  for (const auto& r : b) {
    if (r.r.dense_name.empty()) continue;
    if (!header)
      std::printf("\ndense crossover (issue #28): the density where the dense TensorE path (modeled) is as fast as the "
                  "row's sparse path (modeled); the sparse path is faster below it\n");
    header = true;
    std::printf("  %s %s %s %s %s: sparse %s us; dense %s %s us; crossover density %s\n", r.c->suite.c_str(), r.c->op.c_str(),
                r.c->variant.c_str(), r.c->shape.c_str(), r.target.c_str(), num(r.r.device.total_ns * 1e-3).c_str(),
                r.r.dense_name.c_str(), num(r.r.dense_ns * 1e-3).c_str(),
                r.r.crossover_text.empty() ? "-" : r.r.crossover_text.c_str());
  }
}
}  // namespace

void print_bench_table(const std::vector<BenchRecord>& b, const RunInfo& info) {
  const HostRates& h = info.host;
  std::printf("\nhost rates (emulator bound): SGEMM %.1f GFLOP/s, stream %.2f Gelem/s (fp32 y = ax + y), copy %.2f GB/s, "
              "%d threads, %s\n", h.sgemm_flops_per_s * 1e-9, h.stream_elements_per_s * 1e-9, h.copy_bytes_per_s * 1e-9, h.threads,
              bench_clock() == BenchClock::process_cpu ? "process CPU seconds (--clock cpu)" : "wall seconds");
  std::printf("emu x = host s / emulator bound; native x = host s / the native library's; roofline = device us / "
              "max engine bound (engine)\n");
  std::printf("\n%-5s %-6s %-10s %-10s %-6s %11s %10s %10s %12s %8s %7s %8s %8s %-7s  %s\n", "suite", "op", "variant", "shape",
              "target", "error", "host s", "host GF/s", "device us", "TensorE", "emu x", "native x", "roofline", "bound",
              "busy us: Tensor/Vector/Scalar/GpSimd/DMA");
  std::vector<std::string> misses;
  for (const auto& r : b) {
    std::printf("%-5s %-6s %-10s %-10s %-6s %11s %10s %10s %12s %7.1f%% %7s %8s %8s %-7s  ", r.c->suite.c_str(), r.c->op.c_str(),
                r.c->variant.c_str(), r.c->shape.c_str(), r.target.c_str(), num(r.r.error).c_str(),
                num(r.r.host_seconds).c_str(), num(r.r.flops / std::max(r.r.host_seconds, 1e-12) * 1e-9).c_str(),
                num(r.r.device.total_ns * 1e-3).c_str(), 100.0 * r.r.device.tensor_utilization,
                num(emulator_ratio(r, h), 3).c_str(), num(native_ratio(r), 3).c_str(), num(roofline_of(r), 3).c_str(),
                r.r.device.roofline_engine.c_str());
    for (int e = 0; e < trn::kEngineCount; ++e) std::printf("%s%s", e ? "/" : "", num(r.r.device.busy_ns[e] * 1e-3, 3).c_str());
    std::printf("\n");
    const double target = roofline_target(*r.c, r.target);
    if (roofline_of(r) > target)
      misses.push_back(r.c->suite + " " + r.c->op + " " + r.c->variant + " " + r.c->shape + " " + r.target + ": roofline " +
                       num(roofline_of(r), 3) + " > " + num(target, 3) + ": " + roofline_reason(r.r.device));
  }
  if (!misses.empty()) {
    std::printf("\nrows above their roofline target (issue #30: GEMM 4096x8192x8192 1.15 trn1 / 1.05 trn2, FFT 1.05, "
                "others 1.5 at their large size), and why:\n");
    for (const auto& m : misses) std::printf("  %s\n", m.c_str());
  }
  print_crossovers(b);
  std::printf("\n%zu variants in %.1f s\n", b.size(), info.seconds);
}

std::string to_json(const std::vector<ValidationRecord>& v, const std::vector<BenchRecord>& b, const RunInfo& info) {
  nlohmann::json j;
  j["schema"] = "trnsci.report/1";
  j["command"] = info.command;
  j["size"] = info.size;
  j["suites"] = info.suites;
  j["seconds"] = info.seconds;
  nlohmann::json cases = nlohmann::json::array();
  int passed = 0;
  for (const auto& rec : v) {
    passed += rec.r.pass;
    nlohmann::json c;
    c["suite"] = rec.c->suite;
    c["library"] = rec.c->library;
    c["op"] = rec.c->op;
    c["mode"] = rec.c->mode;
    c["shape"] = rec.c->shape;
    c["metric"] = rec.c->metric;
    c["measured"] = finite_or(rec.r.measured, -1.0);
    c["bound"] = finite_or(rec.r.bound, -1.0);
    c["lower"] = finite_or(rec.r.lower, -1.0);
    c["accepted"] = bound_text(rec.r);
    c["bound_text"] = rec.c->bound_text;
    c["experiment"] = rec.c->experiment;
    c["pass"] = rec.r.pass;
    c["note"] = rec.r.note;
    c["host_seconds"] = rec.r.host_seconds;
    c["device"] = device_json(rec.r.device);
    cases.push_back(c);
  }
  j["cases"] = cases;
  j["summary"] = {{"total", v.size()}, {"passed", passed}, {"failed", static_cast<int>(v.size()) - passed}};
  nlohmann::json bench = nlohmann::json::array();
  for (const auto& r : b) {
    nlohmann::json x;
    x["suite"] = r.c->suite;
    x["library"] = r.c->library;
    x["op"] = r.c->op;
    x["variant"] = r.c->variant;
    x["shape"] = r.c->shape;
    x["target"] = r.target;
    x["error"] = finite_or(r.r.error, -1.0);
    x["error_metric"] = r.r.error_metric;
    x["host_seconds"] = r.r.host_seconds;
    x["flops"] = r.r.flops;
    x["device"] = device_json(r.r.device);
    x["emulator_bound_s"] = r.r.timing_only ? 0.0 : emulator_bound_seconds(r.r.device, info.host);
    x["emulator_ratio"] = finite_or(emulator_ratio(r, info.host), -1.0);
    x["native"] = r.r.native_name;
    x["native_seconds"] = r.r.native_seconds;
    x["native_ratio"] = finite_or(native_ratio(r), -1.0);
    x["roofline"] = finite_or(roofline_of(r), -1.0);
    x["roofline_engine"] = r.r.device.roofline_engine;
    x["roofline_target"] = roofline_target(*r.c, r.target);
    x["roofline_reason"] = roofline_of(r) > roofline_target(*r.c, r.target) ? roofline_reason(r.r.device) : "";
    x["timing_only"] = r.r.timing_only;
    x["dense"] = r.r.dense_name;  // issue #28: the sparse rows' dense crossover
    x["dense_ns"] = finite_or(r.r.dense_ns, -1.0);
    x["crossover_density"] = finite_or(r.r.crossover_density, -1.0);
    x["crossover"] = r.r.crossover_text;
    bench.push_back(x);
  }
  j["bench"] = bench;
  if (info.command == "bench")
    j["host_rates"] = {{"sgemm_flops_per_s", info.host.sgemm_flops_per_s},
                       {"stream_elements_per_s", info.host.stream_elements_per_s},
                       {"copy_bytes_per_s", info.host.copy_bytes_per_s},
                       {"threads", info.host.threads},
                       {"clock", bench_clock() == BenchClock::process_cpu ? "cpu" : "wall"}};
  return j.dump(2);
}

std::string to_html(const std::vector<ValidationRecord>& v, const std::vector<BenchRecord>& b, const RunInfo& info) {
  std::ostringstream h;
  int passed = 0;
  for (const auto& rec : v) passed += rec.r.pass;
  h << "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>trnsci " << esc(info.command)
    << " report</title><style>"
       "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}"
       "table{border-collapse:collapse;font-size:13px;margin:8px 0 24px}"
       "th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}th{background:#f0f0f0}"
       "td.num{text-align:right;font-family:monospace;white-space:nowrap}tr.fail td{background:#fde2e2}tr.pass td.res{color:#137333}"
       "tr.fail td.res{color:#b00020;font-weight:bold}.cards{display:flex;gap:16px}"
       ".card{border:1px solid #ddd;border-radius:8px;padding:12px 18px}.big{font-size:28px;font-weight:bold}"
       "figure{display:inline-block;margin:0 24px 24px 0;vertical-align:top}h3{margin:4px 0;font-size:15px}"
       "</style></head><body>";
  h << "<h1>trnsci " << esc(info.command) << " report</h1><div class='cards'>";
  if (!v.empty())
    h << "<div class='card'><div>validation cases</div><div class='big'>" << passed << " / " << v.size()
      << " passed</div></div>";
  if (!b.empty()) h << "<div class='card'><div>benchmark variants</div><div class='big'>" << b.size() << "</div></div>";
  h << "<div class='card'><div>size / suites</div><div class='big'>" << esc(info.size) << " / " << esc(info.suites)
    << "</div></div><div class='card'><div>host time</div><div class='big'>" << num(info.seconds, 3)
    << " s</div></div></div>";

  // Charts.
  h << "<h2>Charts</h2>";
  std::vector<Point> pareto;
  std::vector<std::pair<std::string, DeviceCost>> util;
  for (const auto& r : b)
    if (r.r.device.present) {
      pareto.push_back({r.r.device.total_ns * 1e-3, r.r.error, r.c->op + " " + r.c->variant,
                        r.c->variant + " " + r.c->shape + " " + r.target + ": " + num(r.r.error) + " at " +
                            num(r.r.device.total_ns * 1e-3) + " us"});
      util.emplace_back(r.c->op + " " + r.c->variant + " " + r.c->shape + " " + r.target, r.r.device);
    }
  for (const auto& rec : v)
    if (rec.r.device.present && rec.c->metric == "normwise_rel" && rec.c->op == "gemm") {
      pareto.push_back({rec.r.device.total_ns * 1e-3, rec.r.measured, rec.c->op + " " + rec.c->mode,
                        rec.c->mode + " " + rec.c->shape + ": " + num(rec.r.measured) + " at " +
                            num(rec.r.device.total_ns * 1e-3) + " us"});
      if (b.empty() && rec.c->size >= 1024) util.emplace_back(rec.c->op + " " + rec.c->mode + " " + rec.c->shape, rec.r.device);
    }
  h << scatter("pareto", "Error vs modeled device time per mode (Pareto)", "modeled device time (us)", "relative error",
               pareto, {}, true);
  std::vector<Point> sized;
  std::map<std::string, std::vector<std::pair<double, double>>> bounds;
  for (const auto& rec : v)
    if (rec.c->size > 0) {
      const std::string series = rec.c->op + " " + rec.c->mode;
      sized.push_back({rec.c->size, std::max(rec.r.measured, 1e-20), series, series + " " + rec.c->shape + ": " + num(rec.r.measured)});
      if (std::isfinite(rec.r.bound) && rec.r.bound > 0) bounds[series].emplace_back(rec.c->size, rec.r.bound);
    }
  for (auto& [s, pts] : bounds) std::sort(pts.begin(), pts.end());
  h << scatter("size", "Error vs size against the bound (dashed)", "size", "measured metric", sized, bounds, true);
  if (util.size() > 10) util.resize(10);
  h << engine_bars("engines", "Per-engine utilization (modeled)", util);

  // Per-library tables.
  std::map<std::string, std::vector<const ValidationRecord*>> by_lib;
  for (const auto& rec : v) by_lib[rec.c->library].push_back(&rec);
  for (const auto& [lib, recs] : by_lib) {
    h << "<h2>" << esc(lib) << "</h2><table><tr><th>op</th><th>mode</th><th>shape</th><th>metric</th><th>measured</th>"
         "<th>accepted</th><th>bound from</th><th>result</th><th>experiment / note</th></tr>";
    for (const auto* rec : recs)
      h << "<tr class='" << (rec->r.pass ? "pass" : "fail") << "'><td>" << esc(rec->c->op) << "</td><td>"
        << esc(rec->c->mode) << "</td><td>" << esc(rec->c->shape) << "</td><td>" << esc(rec->c->metric)
        << "</td><td class='num'>" << num(rec->r.measured) << "</td><td class='num'>" << esc(bound_text(rec->r)) << "</td><td>"
        << esc(rec->c->bound_text) << "</td><td class='res'>" << (rec->r.pass ? "PASS" : "FAIL") << "</td><td>"
        << esc(rec->c->experiment) << (rec->c->experiment.empty() ? "" : "; ") << esc(rec->r.note) << "</td></tr>";
    h << "</table>";
  }
  if (!b.empty()) {
    h << "<h2>Benchmarks</h2><table><tr><th>op</th><th>variant</th><th>shape</th><th>target</th><th>error</th>"
         "<th>host s</th><th>host GFLOP/s</th><th>device us</th><th>TensorE util</th><th>host / emulator bound</th>"
         "<th>host / native</th><th>roofline (bound engine)</th></tr>";
    for (const auto& r : b)
      h << "<tr><td>" << esc(r.c->op) << "</td><td>" << esc(r.c->variant) << "</td><td>" << esc(r.c->shape)
        << "</td><td>" << esc(r.target) << "</td><td class='num'>" << num(r.r.error) << "</td><td class='num'>"
        << num(r.r.host_seconds) << "</td><td class='num'>"
        << num(r.r.flops / std::max(r.r.host_seconds, 1e-12) * 1e-9) << "</td><td class='num'>"
        << num(r.r.device.total_ns * 1e-3) << "</td><td class='num'>" << num(100 * r.r.device.tensor_utilization)
        << "%</td><td class='num'>" << num(emulator_ratio(r, info.host)) << "</td><td class='num'>" << num(native_ratio(r))
        << "</td><td class='num'>" << num(roofline_of(r)) << " " << esc(r.r.device.roofline_engine) << "</td></tr>";
    h << "</table>";
  }
  // Self-check used by the browser test: what the browser actually laid out.
  h << "<pre id='render-check'>not rendered</pre><script>"
       "window.addEventListener('load',function(){var out=[];"
       "document.querySelectorAll('svg.chart').forEach(function(s){var bb=s.getBBox();"
       "var marks=s.querySelectorAll('.mark');var drawn=0;marks.forEach(function(m){var b=m.getBBox();"
       "if(b.width>0&&b.height>0)drawn++;});"
       "out.push('chart '+s.id+' title=\"'+s.getAttribute('data-title')+'\" width='+Math.round(bb.width)+"
       "' height='+Math.round(bb.height)+' marks='+drawn);});"
       "document.getElementById('render-check').textContent=out.join('\\n');});</script>";
  h << "</body></html>\n";
  return h.str();
}

}  // namespace trnsci::cli
