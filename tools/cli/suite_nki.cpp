// Validation and benchmark suite "nki": the public NKI tutorial kernels (aws-neuron/nki-samples, MIT-0,
// not in the repository) run UNMODIFIED through the Python front end trnsci.nki (docs/nki.md). Each
// case runs `python3 -m trnsci.nki._cases <case> <target> <tutorials>` (python/trnsci/nki/_cases.py)
// and reads its `key=value` lines: attention forward v8 (automatic allocation) and v9 / v10 (every
// tile placed by nki.compiler.sbuf/psum.mod_alloc) against a float64 numpy reference with the
// tutorial's atol, and the matmul tutorial's modeled trn1 latency against its published figure.
//
// Registered only when the Python package was built (TRNSCI_NKI_PYTHONPATH exists) and the tutorials
// folder is found ($TRNSCI_NKI_SAMPLES, else shared/nki-samples/tutorials beside the source tree);
// `trnsci validate --list` then shows the suite.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "registry.hpp"

namespace trnsci::cli {
namespace {

// $TRNSCI_NKI_SAMPLES, else shared/nki-samples/tutorials beside the source tree or one level up (a
// worktree), as python/tests/test_nki_tutorials.py looks.
std::string tutorials_folder() {
  const char* env = std::getenv("TRNSCI_NKI_SAMPLES");
  const std::filesystem::path src(TRNSCI_NKI_SOURCE_DIR);
  for (const std::filesystem::path& dir :
       {env != nullptr && *env != '\0' ? std::filesystem::path(env) : std::filesystem::path(),
        src.parent_path() / "shared/nki-samples/tutorials", src.parent_path().parent_path() / "shared/nki-samples/tutorials"}) {
    std::error_code ec;
    if (!dir.empty() && std::filesystem::is_directory(dir / "attention_fwd_performance", ec)) return dir.string();
  }
  return "";
}

bool python_available() {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::path(TRNSCI_NKI_PYTHONPATH) / "trnsci" / "nki" / "_cases.py", ec);
}

// Runs one case of python/trnsci/nki/_cases.py; its key=value lines (empty map when it failed, with
// the failure in "error").
std::map<std::string, std::string> run_case(const std::string& name, const std::string& target) {
  const std::string cmd = "PYTHONPATH='" + std::string(TRNSCI_NKI_PYTHONPATH) + "' PYTHONDONTWRITEBYTECODE=1 '" +
                          TRNSCI_NKI_PYTHON + "' -m trnsci.nki._cases " + name + " " + target + " '" +
                          tutorials_folder() + "' 2>&1";
  std::map<std::string, std::string> kv;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {{"error", "popen failed"}};
  std::array<char, 4096> line{};
  std::string last;
  while (std::fgets(line.data(), static_cast<int>(line.size()), pipe) != nullptr) {
    std::string s(line.data());
    if (!s.empty() && s.back() == '\n') s.pop_back();
    const auto eq = s.find('=');
    if (eq != std::string::npos && eq > 0 && s.find(' ') > eq) kv[s.substr(0, eq)] = s.substr(eq + 1);
    last = s;
  }
  const int status = ::pclose(pipe);
  if (status != 0 || kv.count("measured") == 0) return {{"error", "python case failed: " + last}};
  return kv;
}

double number(const std::map<std::string, std::string>& kv, const char* key) {
  const auto it = kv.find(key);
  return it == kv.end() ? NAN : std::strtod(it->second.c_str(), nullptr);
}

// "a,b,c,d,e" (tensor, vector, scalar, gpsimd, dma: core's Engine order) into out.
void per_engine(const std::map<std::string, std::string>& kv, const char* key, std::array<double, trn::kEngineCount>* out) {
  if (kv.count(key) == 0) return;
  const char* p = kv.at(key).c_str();
  for (int e = 0; e < trn::kEngineCount && *p != '\0'; ++e) {
    char* end = nullptr;
    (*out)[e] = std::strtod(p, &end);
    p = *end == ',' ? end + 1 : end;
  }
}

DeviceCost device_of(const std::map<std::string, std::string>& kv) {
  DeviceCost d;
  d.present = kv.count("modeled_ns") != 0;
  d.target = kv.count("target") != 0 ? kv.at("target") : "";
  d.total_ns = number(kv, "modeled_ns");
  d.roofline = number(kv, "roofline");
  d.roofline_engine = kv.count("roofline_engine") != 0 ? kv.at("roofline_engine") : "";
  d.tensor_flops = number(kv, "tensor_flops");
  d.dma_bytes = number(kv, "dma_bytes");
  per_engine(kv, "busy_ns", &d.busy_ns);
  per_engine(kv, "roofline_ns", &d.roofline_ns);
  for (int e = 0; e < trn::kEngineCount; ++e) d.utilization[e] = d.total_ns > 0 ? d.busy_ns[e] / d.total_ns : 0;
  d.tensor_utilization = d.utilization[static_cast<int>(trn::Engine::tensor)];
  d.cores = std::max(1, static_cast<int>(number(kv, "cores")));
  return d;
}

CaseResult validate(const std::string& name) {
  const double t0 = now_seconds();
  const auto kv = run_case(name, "trn1");
  CaseResult r;
  if (kv.count("error") != 0) {
    r.note = kv.at("error");
    r.host_seconds = seconds_since(t0);
    return r;  // pass = false
  }
  r.measured = number(kv, "measured");
  r.bound = number(kv, "bound");
  r.pass = kv.at("pass") == "1";
  r.note = kv.count("note") != 0 ? kv.at("note") : "";
  r.host_seconds = seconds_since(t0);
  r.device = device_of(kv);
  return r;
}

BenchResult bench(const std::string& name, trn::Generation target) {
  const double t0 = now_seconds();
  const auto kv = run_case(name, std::string(trn::hardware_spec(target).name));
  BenchResult b;
  b.error_metric = "max_abs";
  b.host_seconds = seconds_since(t0);
  if (kv.count("error") != 0) return b;
  b.error = number(kv, "measured");
  b.flops = number(kv, "tensor_flops");
  b.device = device_of(kv);
  return b;
}

void add_nki(Registry& reg) {
  if (!python_available() || tutorials_folder().empty()) return;
  auto add = reg.adder("nki", "trnsci.nki");
  for (const char* v : {"v8", "v9", "v10"})
    add({.op = std::string("attn_fwd_") + v, .mode = std::string(v) == "v8" ? "fp32, NKI tutorial" : "fp32, mod_alloc",
         .shape = "128 x 1024", .metric = "max_abs_error", .bound_text = "<= 1e-2 (the tutorial's atol)",
         .experiment = "NKI attention tutorial vs its numpy reference", .run = [v] {
           return validate(std::string("attention_") + v);
         }});
  for (const char* k : {"block_free_dimension", "fully_optimized", "tiled", "hoist_load"})
    add({.op = std::string("nki_matmul_") + k, .mode = "16-bit, trn1, timing-only", .shape = "8192x4096x8192",
         .metric = "rel_error", .bound_text = "|modeled / published - 1| <= 0.20",
         .experiment = "NKI matmul tutorial's published trn1 latency", .full_only = true,  // ~9-40 s each
         .run = [k] { return validate(std::string("matmul_") + k); }});
  for (const char* v : {"v8", "v9", "v10"})
    reg.add(BenchCase{.suite = "nki", .library = "trnsci.nki", .op = std::string("attn_fwd_") + v,
                      .variant = std::string(v) == "v8" ? "fp32, NKI tutorial" : "fp32, mod_alloc", .shape = "128 x 1024",
                      .run = [v](trn::Generation target) { return bench(std::string("attention_") + v, target); }});
}

const Registrar kRegistrar(add_nki);

}  // namespace
}  // namespace trnsci::cli
