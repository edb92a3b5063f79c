// trntensor.h: the plan cache (trntensorHandleResizePlanCache, ...WritePlanCacheToFile,
// ...ReadPlanCacheFromFile), trntensorPlanPreferenceGetAttribute, trntensorGetCudartVersion and the
// logger's SetFile / SetMask. Written with the C-shim kit like capi.cpp.
//
// A cache line holds the plans of one operation under one preference and target: the key is the
// operation's full text (kind, compute type, conjugation flags, every operand's data type, extents,
// strides and modes), the objective and the target; the value the plans (a contraction's lowering,
// a trinary contraction's order and steps). The file (docs/trntensor.md, "Plan cache"):
//   trntensor-plan-cache 1
//   lines <n>
//   <key> | <fingerprint>          (n times)
//   checksum <FNV-1a 64 of every byte before this line, 16 hex digits>
// Reading re-plans each key and requires the planner to reach the stored fingerprint, so a file
// written by another build or edited by hand is refused (IO_ERROR) rather than trusted.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <list>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "capi_detail.hpp"

namespace trntensor_capi {

namespace {

constexpr const char* kMagic = "trntensor-plan-cache";
constexpr int kFormatVersion = 1;
constexpr std::uint32_t kDefaultLines = 64;
constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
constexpr std::int64_t kMaxOperandElements = std::int64_t{1} << 31;  // a read entry larger than this is refused

bool cacheable(int kind) { return kind == kContraction || kind == kReduction || kind == kPermutation || kind == kTrinary; }

void put_operand(std::ostream& os, const trn::tensor::TensorDesc& d, const std::vector<std::int32_t>& modes) {
  os << ' ' << static_cast<int>(d.dtype) << ' ' << d.extents.size();
  for (auto e : d.extents) os << ' ' << e;
  for (auto s : d.strides) os << ' ' << s;
  for (auto m : modes) os << ' ' << m;
}

// Strict reader of one operand written by put_operand (the strides of a planned spec are explicit).
bool get_operand(std::istream& is, trn::tensor::TensorDesc* d, std::vector<std::int32_t>* modes) {
  int dt = -1;
  std::size_t rank = 0;
  if (!(is >> dt >> rank) || dt < 0 || dt > static_cast<int>(DataType::c64) || rank > 64) return false;
  d->dtype = static_cast<DataType>(dt);
  d->extents.resize(rank);
  d->strides.resize(rank);
  modes->resize(rank);
  std::int64_t elements = 1;
  for (auto& e : d->extents) {
    if (!(is >> e) || e <= 0) return false;
    elements = trn::cshim::checked_mul(elements, e);
    if (elements < 0 || elements > kMaxOperandElements) return false;
  }
  for (auto& s : d->strides)
    if (!(is >> s) || s < 0 || s > kMaxOperandElements) return false;
  for (auto& m : *modes)
    if (!(is >> m)) return false;
  return true;
}

// The cache key of an operation: its kind and spec, the objective and the settings the planner uses.
std::string key_of(int kind, int objective, const trn::blas::Settings& s, const trn::tensor::ContractionSpec* c,
                   const trn::tensor::TrinarySpec* t) {
  std::ostringstream os;
  os << kind << ' ' << objective << ' ' << static_cast<int>(s.target) << ' ' << static_cast<int>(s.numerics) << ' '
     << s.num_cores;
  if (c != nullptr) {
    os << ' ' << static_cast<int>(c->compute) << ' ' << c->conj_a << ' ' << c->conj_b;
    put_operand(os, c->a, c->modes_a);
    put_operand(os, c->b, c->modes_b);
    put_operand(os, c->c, c->modes_c);
    put_operand(os, c->d, c->modes_d);
  } else {
    os << ' ' << static_cast<int>(t->compute) << ' ' << t->conj_a << ' ' << t->conj_b << ' ' << t->conj_c;
    put_operand(os, t->a, t->modes_a);
    put_operand(os, t->b, t->modes_b);
    put_operand(os, t->c, t->modes_c);
    put_operand(os, t->d, t->modes_d);
    put_operand(os, t->e, t->modes_e);
  }
  return os.str();
}

std::string fingerprint_of(const trn::tensor::ContractionPlan& p) {
  std::ostringstream os;
  os << static_cast<int>(p.lowering()) << ' ' << p.swapped() << ' ' << p.m() << ' ' << p.n() << ' ' << p.k() << ' '
     << p.batch() << ' ' << p.workspace_bytes();
  return os.str();
}
std::string fingerprint_of(const trn::tensor::TrinaryContractionPlan& p) {
  return std::to_string(p.first_pair().first) + ' ' + std::to_string(p.first_pair().second) + ' ' +
         fingerprint_of(p.first()) + ' ' + fingerprint_of(p.second());
}

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace

// The plans of one cache line.
struct CacheLine {
  std::string key;
  trn::tensor::ContractionPlan plan;
  std::shared_ptr<const trn::tensor::TrinaryContractionPlan> trinary;
  std::string fingerprint() const { return trinary ? fingerprint_of(*trinary) : fingerprint_of(plan); }
};

// Least-recently-used lines, most recent first.
class PlanCache {
 public:
  bool find(const std::string& key, CacheLine* out) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = index_.find(key);
    if (it == index_.end()) return false;
    lines_.splice(lines_.begin(), lines_, it->second);
    *out = *it->second;
    return true;
  }
  void put(CacheLine line) {
    std::lock_guard<std::mutex> lock(mu_);
    put_locked(std::move(line));
  }
  void put_all(std::vector<CacheLine> lines) {  // in file order: the file's first line ends most recent
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) put_locked(std::move(*it));
  }
  void resize(std::uint32_t capacity) {
    std::lock_guard<std::mutex> lock(mu_);
    capacity_ = capacity;
    lines_.clear();
    index_.clear();
  }
  std::uint32_t capacity() const {
    std::lock_guard<std::mutex> lock(mu_);
    return capacity_;
  }
  std::vector<CacheLine> snapshot() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {lines_.begin(), lines_.end()};
  }

 private:
  void put_locked(CacheLine line) {
    if (capacity_ == 0) return;
    const auto old = index_.find(line.key);
    if (old != index_.end()) {
      lines_.erase(old->second);
      index_.erase(old);
    }
    lines_.push_front(std::move(line));
    index_[lines_.front().key] = lines_.begin();
    while (lines_.size() > capacity_) {
      index_.erase(lines_.back().key);
      lines_.pop_back();
    }
  }
  mutable std::mutex mu_;
  std::uint32_t capacity_ = kDefaultLines;
  std::list<CacheLine> lines_;
  std::unordered_map<std::string, std::list<CacheLine>::iterator> index_;
};

namespace {

std::mutex g_cache_create;
PlanCache& cache_of(trntensorHandle* h) {
  std::lock_guard<std::mutex> lock(g_cache_create);
  if (!h->plan_cache) h->plan_cache = std::make_shared<PlanCache>();
  return *h->plan_cache;
}

// Plans one parsed key; false when the key is malformed or the planner refuses it.
bool plan_key(const trn::blas::Settings& handle_settings, const std::string& key, CacheLine* line) {
  std::istringstream is(key);
  int kind = -1, objective = -1, target = -1, numerics = -1, cores = 0, compute = -1;
  if (!(is >> kind >> objective >> target >> numerics >> cores >> compute) || !cacheable(kind) ||
      (objective != TRNTENSOR_OBJECTIVE_DEFAULT && objective != TRNTENSOR_OBJECTIVE_MODELED_TIME) ||
      target != static_cast<int>(handle_settings.target) || numerics != static_cast<int>(handle_settings.numerics) ||
      cores != handle_settings.num_cores || compute < 0 || compute > static_cast<int>(ComputeType::bf16x9))
    return false;
  const trn::blas::Settings* model = objective == TRNTENSOR_OBJECTIVE_MODELED_TIME ? &handle_settings : nullptr;
  line->key = key;
  try {
    if (kind == kTrinary) {
      trn::tensor::TrinarySpec t;
      t.compute = static_cast<ComputeType>(compute);
      if (!(is >> t.conj_a >> t.conj_b >> t.conj_c) || !get_operand(is, &t.a, &t.modes_a) ||
          !get_operand(is, &t.b, &t.modes_b) || !get_operand(is, &t.c, &t.modes_c) ||
          !get_operand(is, &t.d, &t.modes_d) || !get_operand(is, &t.e, &t.modes_e))
        return false;
      line->trinary = std::make_shared<const trn::tensor::TrinaryContractionPlan>(t, model);
    } else {
      trn::tensor::ContractionSpec c;
      c.compute = static_cast<ComputeType>(compute);
      if (!(is >> c.conj_a >> c.conj_b) || !get_operand(is, &c.a, &c.modes_a) || !get_operand(is, &c.b, &c.modes_b) ||
          !get_operand(is, &c.c, &c.modes_c) || !get_operand(is, &c.d, &c.modes_d))
        return false;
      line->plan = trn::tensor::ContractionPlan(c, kind == kContraction || kind == kReduction || kind == kPermutation ? model : nullptr);
    }
  } catch (const std::exception&) {
    return false;  // the planner refused the spec
  }
  std::string rest;
  return !(is >> rest);  // nothing after the last operand
}

// Parses a whole cache file; false (with the reason) on any defect, the cache untouched.
bool parse_cache_file(const trn::blas::Settings& s, const std::string& text, std::vector<CacheLine>* lines,
                      std::string* why) {
  const std::size_t tail = text.rfind("checksum ");
  if (tail == std::string::npos || (tail > 0 && text[tail - 1] != '\n')) return *why = "no checksum line", false;
  std::uint64_t stored = 0;
  char extra = 0;
  if (std::sscanf(text.c_str() + tail, "checksum %16" SCNx64 "%c", &stored, &extra) < 1 ||
      (extra != 0 && extra != '\n') || text.find('\n', tail) < text.size() - 1)
    return *why = "malformed checksum line", false;
  if (fnv1a(std::string_view(text).substr(0, tail)) != stored) return *why = "checksum mismatch (corrupt file)", false;
  std::istringstream is(text.substr(0, tail));
  std::string magic, word, line;
  int version = 0;
  std::uint64_t n = 0;
  if (!std::getline(is, line)) return *why = "empty file", false;
  std::istringstream head(line);
  if (!(head >> magic >> version) || magic != kMagic) return *why = "not a trntensor plan cache file", false;
  if (version != kFormatVersion) return *why = "format version " + std::to_string(version) + " (this build reads 1)", false;
  if (!std::getline(is, line) || std::sscanf(line.c_str(), "lines %" SCNu64, &n) != 1 || n > (1u << 20))
    return *why = "malformed line count", false;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!std::getline(is, line)) return *why = "truncated: " + std::to_string(i) + " of " + std::to_string(n) + " lines", false;
    const std::size_t bar = line.find(" | ");
    CacheLine c;
    if (bar == std::string::npos || !plan_key(s, line.substr(0, bar), &c))
      return *why = "line " + std::to_string(i + 1) + ": not a plan this handle can make", false;
    if (c.fingerprint() != line.substr(bar + 3))
      return *why = "line " + std::to_string(i + 1) + ": the planner chooses differently (another build)", false;
    lines->push_back(std::move(c));
  }
  if (std::getline(is, line)) return *why = "more lines than announced", false;
  return true;
}

}  // namespace

void cached_plan(trntensorHandle* h, const trntensorOperationDescriptor* desc, const trntensorPlanPreference* pref,
                 trn::tensor::ContractionPlan* plan, std::shared_ptr<const trn::tensor::TrinaryContractionPlan>* trinary) {
  const bool use = cacheable(desc->kind) && pref->cache != TRNTENSOR_CACHE_MODE_NONE;
  std::string key;
  if (use) {
    key = desc->kind == kTrinary ? key_of(desc->kind, pref->objective, h->settings, nullptr, &desc->trinary->spec())
                                 : key_of(desc->kind, pref->objective, h->settings, &desc->plan.spec(), nullptr);
    CacheLine hit;
    if (cache_of(h).find(key, &hit)) {
      *plan = desc->kind == kTrinary ? desc->plan : std::move(hit.plan);
      *trinary = desc->kind == kTrinary ? std::move(hit.trinary) : desc->trinary;
      return;
    }
  }
  *plan = plan_under(h, desc, pref);
  *trinary = trinary_under(h, desc, pref);
  if (use) cache_of(h).put({key, desc->kind == kTrinary ? trn::tensor::ContractionPlan{} : *plan,
                            desc->kind == kTrinary ? *trinary : nullptr});
}

// The body of trntensorHandleReadPlanCacheFromFile once the file is read: all lines or none.
trntensorStatus_t read_plan_cache_text(trntensorHandle* h, const std::string& text, std::uint32_t* numCachelinesRead) {
  const char* fn = "trntensorHandleReadPlanCacheFromFile";
  std::vector<CacheLine> lines;
  std::string why;
  bool ok = false;
  const trntensorStatus_t st =
      trn::cshim::guarded(g_log, fn, kStatusMap, [&] { ok = parse_cache_file(h->settings, text, &lines, &why); });
  if (st != TRNTENSOR_STATUS_SUCCESS) return st;
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &h->last_error_param);
  check.require_or(ok, TRNTENSOR_STATUS_IO_ERROR, "TRNTENSOR_STATUS_IO_ERROR", "plan cache file: " + why);
  if (!check) return check.status();
  const auto n = static_cast<std::uint32_t>(lines.size());
  cache_of(h).put_all(std::move(lines));
  *numCachelinesRead = n;
  return TRNTENSOR_STATUS_SUCCESS;
}

}  // namespace trntensor_capi

using namespace trntensor_capi;

extern "C" {

trntensorStatus_t trntensorHandleResizePlanCache(trntensorHandle_t handle, const uint32_t numEntries) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  return trn::cshim::guarded(g_log, "trntensorHandleResizePlanCache", kStatusMap,
                             [&] { cache_of(handle).resize(numEntries); });
}

trntensorStatus_t trntensorHandleWritePlanCacheToFile(const trntensorHandle_t handle, const char filename[]) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorHandleWritePlanCacheToFile";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(filename != nullptr && filename[0] != '\0', 1, "filename");
  if (!check) return check.status();
  std::string body;
  const trntensorStatus_t st = trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    const std::vector<CacheLine> lines = cache_of(handle).snapshot();
    body = std::string(kMagic) + ' ' + std::to_string(kFormatVersion) + "\nlines " + std::to_string(lines.size()) + '\n';
    for (const CacheLine& l : lines) body += l.key + " | " + l.fingerprint() + '\n';
    char sum[40];
    std::snprintf(sum, sizeof sum, "checksum %016" PRIx64 "\n", fnv1a(body));
    body += sum;
  });
  if (st != TRNTENSOR_STATUS_SUCCESS) return st;
  std::ofstream out(filename, std::ios::binary | std::ios::trunc);
  out << body;
  out.close();
  check.require_or(static_cast<bool>(out), TRNTENSOR_STATUS_IO_ERROR, "TRNTENSOR_STATUS_IO_ERROR",
                   std::string("cannot write ") + filename);
  return check.status();
}

trntensorStatus_t trntensorHandleReadPlanCacheFromFile(trntensorHandle_t handle, const char filename[],
                                                       uint32_t* numCachelinesRead) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  const char* fn = "trntensorHandleReadPlanCacheFromFile";
  Check check(g_log, fn, TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  check.require(filename != nullptr && filename[0] != '\0', 1, "filename").not_null(numCachelinesRead, 2, "numCachelinesRead");
  if (!check) return check.status();
  std::ifstream in(filename, std::ios::binary);
  std::string text;
  if (in) {
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  check.require_or(static_cast<bool>(in) && text.size() <= kMaxFileBytes, TRNTENSOR_STATUS_IO_ERROR,
                   "TRNTENSOR_STATUS_IO_ERROR", std::string("cannot read ") + filename + " (or larger than 64 MiB)");
  if (!check) return check.status();
  return read_plan_cache_text(handle, text, numCachelinesRead);
}

trntensorStatus_t trntensorPlanPreferenceGetAttribute(const trntensorHandle_t handle,
                                                      const trntensorPlanPreference_t pref,
                                                      trntensorPlanPreferenceAttribute_t attr, void* buf,
                                                      size_t sizeInBytes) {
  if (!g_handles.contains(handle)) return TRNTENSOR_STATUS_NOT_INITIALIZED;
  Check check(g_log, "trntensorPlanPreferenceGetAttribute", TRNTENSOR_STATUS_INVALID_VALUE, &handle->last_error_param);
  const int a = trn::cshim::enum_value(attr);
  check.require(g_prefs.contains(pref), 1, "pref")
      .one_of(a, {0, 1, 2, 3, 4, 5, TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE}, 2, "attr")
      .not_null(buf, 3, "buf")
      .require(sizeInBytes == sizeof(std::int32_t), 4, "sizeInBytes");
  if (!check) return check.status();
  const std::int32_t v = a == TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE       ? pref->autotune
                         : a == TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE        ? pref->cache
                         : a == TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT ? pref->incremental
                         : a == TRNTENSOR_PLAN_PREFERENCE_ALGO              ? pref->algo
                         : a == TRNTENSOR_PLAN_PREFERENCE_KERNEL_RANK       ? pref->kernel_rank
                         : a == TRNTENSOR_PLAN_PREFERENCE_JIT               ? pref->jit
                                                                            : pref->objective;
  std::memcpy(buf, &v, sizeof v);
  return TRNTENSOR_STATUS_SUCCESS;
}

size_t trntensorGetCudartVersion(void) { return TRNTENSOR_CUDART_VERSION; }

}  // extern "C"
