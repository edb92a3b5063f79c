// `trnsci profile`: one routine of any library on the emulator, printed as the one trn::Report (the
// plan(s) that ran, the modeled time, the per-engine profile), with the same flags for every routine
// (--shape, --mode, --target, --cores, --trace). docs/cli.md "profile".
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "profile.hpp"
#include "registry.hpp"
#include "trn/blas/blas.hpp"
#include "trn/blas/modes.hpp"
#include "trn/fft/fft.hpp"
#include "trn/rand/generator.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solver/solver.hpp"
#include "trn/sparse/sparse.hpp"
#include "trn/tensor/tensor.hpp"

namespace trnsci::cli {
namespace {

// What every routine's runner gets: the parsed flags.
struct ProfileArgs {
  std::vector<std::int64_t> dims;  // --shape, 1 to 3 positive sizes
  std::string mode, input;
  trn::Generation target = trn::Generation::trn1;
  int cores = 1;
  std::string label;               // header: what ran (mode, inputs), filled by the runner
};

std::int64_t dim(const ProfileArgs& a, std::size_t i) { return a.dims[std::min(i, a.dims.size() - 1)]; }

std::vector<float> random_values(std::size_t count, unsigned seed) { return blastest::uniform_f(count, seed); }

// A library's settings (any EmulatorSettings) on --target and --cores.
template <class S>
S emulator_settings(const ProfileArgs& a) {
  S s;
  s.target = a.target;
  s.num_cores = a.cores;
  return s;
}

// A symmetric n x n matrix with `shift` added to its diagonal (column-major).
std::vector<float> symmetric(std::int64_t n, float shift, unsigned seed) {
  std::vector<float> a = random_values(static_cast<std::size_t>(n * n), seed);
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < j; ++i) a[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(j + i * n)];
    a[static_cast<std::size_t>(j + j * n)] += shift;
  }
  return a;
}

// ---- trnblas ----------------------------------------------------------------------------------------

// The fp32-input GEMM mode named by --mode (nullptr: not one).
const trn::blas::ModeTraits* fp32_mode(const std::string& name) {
  const trn::blas::ModeTraits* t = trn::blas::mode_by_name(name);
  const bool ok = t != nullptr && t->mode != trn::blas::GemmMode::fp64_ozaki && t->mode != trn::blas::GemmMode::native;
  return ok ? t : nullptr;
}

trn::blas::Settings blas_settings(const ProfileArgs& a) {
  auto s = emulator_settings<trn::blas::Settings>(a);
  s.timing_only = true;  // the profile needs the trace, not the values
  return s;
}

trn::Report run_gemm(ProfileArgs& a) {
  const std::int64_t m = dim(a, 0), n = dim(a, 1), k = dim(a, 2);
  const trn::blas::Settings s = blas_settings(a);
  trn::blas::CallReport rep;
  std::vector<float> C(static_cast<std::size_t>(m * n));
  if (a.input != "f32") {
    // A and B stored in bf16/fp16 (GemmEx with 16-bit A and B): the DMA moves them as stored.
    const trn::DType dt = a.input == "bf16" ? trn::DType::bf16 : trn::DType::f16;
    std::vector<std::uint16_t> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n));
    trn::blas::gemm(s, trn::blas::GemmMode::native, trn::blas::Op::N, trn::blas::Op::N, m, n, k, 1.0f, {A.data(), dt, m},
                    {B.data(), dt, k}, 0.0f, {C.data(), trn::DType::f32, m}, &rep);
    a.label = "mode=native inputs=" + a.input;
    return rep;
  }
  std::vector<float> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n));
  trn::blas::gemm(s, fp32_mode(a.mode)->mode, trn::blas::Op::N, trn::blas::Op::N, m, n, k, 1.0f,
                  {A.data(), trn::DType::f32, m}, {B.data(), trn::DType::f32, k}, 0.0f, {C.data(), trn::DType::f32, m},
                  &rep);
  a.label = "mode=" + a.mode + " inputs=f32";
  return rep;
}

trn::Report run_syrk(ProfileArgs& a) {
  const std::int64_t n = dim(a, 1), k = dim(a, 2);
  trn::blas::CallReport rep;
  std::vector<float> A(static_cast<std::size_t>(n * k)), C(static_cast<std::size_t>(n * n));
  trn::blas::syrk(blas_settings(a), fp32_mode(a.mode)->mode, trn::blas::Uplo::lower, trn::blas::Op::N, n, k, 1.0f,
                  {A.data(), trn::DType::f32, n}, 0.0f, {C.data(), trn::DType::f32, n}, &rep);
  a.label = "mode=" + a.mode + " inputs=f32";
  return rep;
}

trn::Report run_dgemm(ProfileArgs& a) {
  const std::int64_t m = dim(a, 0), n = dim(a, 1), k = dim(a, 2);
  trn::blas::Settings s = blas_settings(a);
  s.timing_only = false;  // the slice count depends on the data
  std::vector<double> A(static_cast<std::size_t>(m * k), 0.5), B(static_cast<std::size_t>(k * n), 0.25),
      C(static_cast<std::size_t>(m * n));
  trn::blas::CallReport rep;
  trn::blas::dgemm(s, trn::blas::Op::N, trn::blas::Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &rep);
  a.label = "mode=ozaki inputs=f64";
  return rep;
}

// ---- trnfft -----------------------------------------------------------------------------------------

trn::Report run_fft(ProfileArgs& a) {
  trn::fft::PlanSpec spec;
  spec.n = a.dims;
  spec.type = trn::fft::Type::c2c;
  spec.mode = fp32_mode(a.mode)->mode;
  trn::fft::Settings fs;
  fs.target = a.target;
  const trn::fft::Plan plan(spec, fs);
  std::int64_t points = 1;
  for (std::int64_t d : a.dims) points *= d;
  std::vector<float> data = random_values(static_cast<std::size_t>(2 * points), 7);
  trn::fft::ExecReport rep;
  plan.execute(data.data(), data.data(), trn::fft::kForward, &rep);
  a.label = "c2c forward mode=" + a.mode;
  return rep;
}

// ---- trnsolver --------------------------------------------------------------------------------------

trn::Report run_syevj(ProfileArgs& a) {
  const std::int64_t n = dim(a, 0);
  std::vector<float> A = symmetric(n, 0.0f, 3), W(static_cast<std::size_t>(n));
  trn::solver::CallReport rep;
  trn::solver::ssyevj(emulator_settings<trn::solver::Settings>(a), true, trn::solver::Uplo::lower, n, A.data(), n, W.data(), {}, &rep);
  a.label = "fp32 eigenvalues and vectors";
  return rep;
}

trn::Report run_potrf(ProfileArgs& a) {
  const std::int64_t n = dim(a, 0);
  std::vector<float> A = symmetric(n, 2.0f * static_cast<float>(n), 4);  // diagonally dominant: SPD
  trn::solver::CallReport rep;
  trn::solver::spotrf(emulator_settings<trn::solver::Settings>(a), trn::solver::Uplo::lower, n, A.data(), n, &rep);
  a.label = "fp32 lower";
  return rep;
}

trn::Report run_getrf(ProfileArgs& a) {
  const std::int64_t m = dim(a, 0), n = a.dims.size() > 1 ? a.dims[1] : m;
  std::vector<float> A = random_values(static_cast<std::size_t>(m * n), 5);
  std::vector<int> ipiv(static_cast<std::size_t>(std::min(m, n)));
  trn::solver::CallReport rep;
  trn::solver::sgetrf(emulator_settings<trn::solver::Settings>(a), m, n, A.data(), m, ipiv.data(), &rep);
  a.label = "fp32 partial pivoting";
  return rep;
}

trn::Report run_geqrf(ProfileArgs& a) {
  const std::int64_t m = dim(a, 0), n = a.dims.size() > 1 ? a.dims[1] : m;
  std::vector<float> A = random_values(static_cast<std::size_t>(m * n), 6), tau(static_cast<std::size_t>(std::min(m, n)));
  trn::solver::CallReport rep;
  trn::solver::geqrf(emulator_settings<trn::solver::Settings>(a), m, n, A.data(), m, tau.data(), &rep);
  a.label = "fp32 blocked Householder";
  return rep;
}

// ---- trnsparse --------------------------------------------------------------------------------------

// A block-tridiagonal BSR matrix of order n (16 x 16 blocks) with random values.
struct BandedBsr {
  std::vector<std::int32_t> offsets, columns;
  std::vector<float> values;
  trn::sparse::BsrView view;
  explicit BandedBsr(std::int64_t n) {
    constexpr std::int64_t kBlock = 16;
    const std::int64_t nb = (n + kBlock - 1) / kBlock;
    offsets.push_back(0);
    for (std::int64_t r = 0; r < nb; ++r) {
      for (std::int64_t c = std::max<std::int64_t>(0, r - 1); c <= std::min(nb - 1, r + 1); ++c)
        columns.push_back(static_cast<std::int32_t>(c));
      offsets.push_back(static_cast<std::int32_t>(columns.size()));
    }
    values = random_values(columns.size() * kBlock * kBlock, 6);
    view.brows = view.bcols = nb;
    view.bnnz = static_cast<std::int64_t>(columns.size());
    view.row_block = view.col_block = kBlock;
    view.offsets = offsets.data();
    view.columns = columns.data();
    view.values = values.data();
  }
  std::int64_t order() const { return view.brows * view.row_block; }
};

trn::Report run_spmm(ProfileArgs& a) {
  const BandedBsr A(dim(a, 0));
  const std::int64_t n = A.order(), cols = a.dims.size() > 1 ? a.dims[1] : 64;
  std::vector<float> B = random_values(static_cast<std::size_t>(n * cols), 8), C(static_cast<std::size_t>(n * cols));
  trn::sparse::CallReport rep;
  trn::sparse::spmm(emulator_settings<trn::sparse::Settings>(a), trn::sparse::Op::N, trn::sparse::Op::N, 1.0f, A.view,
                    {B.data(), trn::DType::f32, n, cols, n}, 0.0f, {C.data(), trn::DType::f32, n, cols, n}, &rep);
  a.label = "block-tridiagonal BSR (16x16 blocks) x dense " + std::to_string(n) + "x" + std::to_string(cols);
  return rep;
}

trn::Report run_spmv(ProfileArgs& a) {
  const BandedBsr A(dim(a, 0));
  const std::int64_t n = A.order();
  std::vector<float> x = random_values(static_cast<std::size_t>(n), 9), y(static_cast<std::size_t>(n));
  trn::sparse::CallReport rep;
  trn::sparse::spmv(emulator_settings<trn::sparse::Settings>(a), trn::sparse::Op::N, 1.0f, A.view, x.data(), trn::DType::f32, 0.0f, y.data(),
                    trn::DType::f32, &rep);
  a.label = "block-tridiagonal BSR (16x16 blocks)";
  return rep;
}

// ---- trntensor --------------------------------------------------------------------------------------

trn::Report run_einsum(ProfileArgs& a) {
  const std::int64_t m = dim(a, 0), n = dim(a, 1), k = dim(a, 2);
  // A matrix chain: the path decides which product runs first.
  std::vector<float> A = random_values(static_cast<std::size_t>(m * k), 10), B = random_values(static_cast<std::size_t>(k * n), 11),
                     C = random_values(static_cast<std::size_t>(n * m), 12), out(static_cast<std::size_t>(m * m));
  namespace tt = trn::tensor;
  tt::EinsumReport rep;
  tt::einsum(blas_settings(a), "ij,jk,kl->il", {{A.data(), {m, k}, {}}, {B.data(), {k, n}, {}}, {C.data(), {n, m}, {}}},
             {out.data(), {m, m}, {}}, tt::DataType::f32, tt::ComputeType::f32, tt::PathStrategy::automatic, &rep);
  a.label = "'ij,jk,kl->il' f32";
  return rep;
}

trn::Report run_contraction(ProfileArgs& a) {
  // D[n,b,a] = sum_k A[a,b,k] B[k,n] with a permuted output (TTGT lowering).
  const std::int64_t m = dim(a, 0), n = dim(a, 1), k = dim(a, 2), b = 4, am = std::max<std::int64_t>(1, m / b);
  namespace tt = trn::tensor;
  tt::ContractionSpec s;
  s.a = {{am, b, k}, {}, tt::DataType::f32};
  s.b = {{k, n}, {}, tt::DataType::f32};
  s.d = s.c = {{n, b, am}, {}, tt::DataType::f32};
  s.modes_a = {'a', 'b', 'k'};
  s.modes_b = {'k', 'n'};
  s.modes_c = s.modes_d = {'n', 'b', 'a'};
  s.compute = tt::ComputeType::f32;
  const tt::ContractionPlan plan(s);
  std::vector<float> A = random_values(static_cast<std::size_t>(am * b * k), 13),
                     B = random_values(static_cast<std::size_t>(k * n), 14), D(static_cast<std::size_t>(n * b * am));
  trn::blas::CallReport rep;
  plan.execute(blas_settings(a), 1.0, A.data(), B.data(), 0.0, D.data(), D.data(), nullptr, 0, &rep);
  rep.plan = plan.print(&rep.profile) + (rep.plan.empty() ? "" : "\n" + rep.plan);
  a.label = "'abk,kn->nba' f32";
  return rep;
}

// ---- trnrand ----------------------------------------------------------------------------------------

template <void (*Call)(trn::rand::Generator&, std::size_t)>
trn::Report run_rand(ProfileArgs& a) {
  trn::rand::GeneratorOptions o;
  o.engines.target = a.target;
  o.engines.num_cores = a.cores;
  trn::rand::Generator g(o);
  g.set_seed(1234);
  Call(g, static_cast<std::size_t>(dim(a, 0)));
  a.label = "Philox4x32-10, seed 1234";
  return g.last_report();
}
void rand_uniform(trn::rand::Generator& g, std::size_t n) {
  std::vector<float> v(n);
  g.uniform(v);
}
void rand_normal(trn::rand::Generator& g, std::size_t n) {
  std::vector<float> v(n);
  g.normal(v, 0.0f, 1.0f);
}
void rand_log_normal(trn::rand::Generator& g, std::size_t n) {
  std::vector<float> v(n);
  g.log_normal(v, 0.0f, 1.0f);
}
void rand_exponential(trn::rand::Generator& g, std::size_t n) {
  std::vector<float> v(n);
  g.exponential(v, 1.0f);
}
void rand_poisson(trn::rand::Generator& g, std::size_t n) {
  std::vector<std::uint32_t> v(n);
  g.poisson(v, 4.0);
}
void rand_bernoulli(trn::rand::Generator& g, std::size_t n) {
  std::vector<std::uint32_t> v(n);
  g.bernoulli(v, 0.25);
}
void rand_generate(trn::rand::Generator& g, std::size_t n) {
  std::vector<std::uint32_t> v(n);
  g.generate(v);
}

using Runner = trn::Report (*)(ProfileArgs&);
struct ProfileOp {
  const char* name;
  const char* library;
  const char* shape;          // what --shape means
  const char* default_shape;  // when --shape is not given
  bool takes_mode;            // --mode selects a GEMM mode
  Runner run;
};

// Every routine `trnsci profile` runs, one row each.
const std::vector<ProfileOp>& profile_ops() {
  static const std::vector<ProfileOp> ops = {
      {"gemm", "trnblas", "MxNxK", "1024", true, run_gemm},
      {"syrk", "trnblas", "_xNxK (C is N x N)", "1024", true, run_syrk},
      {"dgemm", "trnblas", "MxNxK", "1024", false, run_dgemm},
      {"fft", "trnfft", "N, N1xN2 or N1xN2xN3 (c2c)", "4096", true, run_fft},
      {"syevj", "trnsolver", "N", "128", false, run_syevj},
      {"potrf", "trnsolver", "N", "512", false, run_potrf},
      {"getrf", "trnsolver", "M or MxN", "512", false, run_getrf},
      {"spmm", "trnsparse", "N or NxCOLS (A: N x N)", "1024x64", false, run_spmm},
      {"spmv", "trnsparse", "N", "4096", false, run_spmv},
      {"einsum", "trntensor", "MxNxK", "256x64x128", false, run_einsum},
      {"contraction", "trntensor", "MxNxK", "256", false, run_contraction},
      {"uniform", "trnrand", "COUNT", "1048576", false, run_rand<rand_uniform>},
      {"normal", "trnrand", "COUNT", "1048576", false, run_rand<rand_normal>},
      {"log_normal", "trnrand", "COUNT", "1048576", false, run_rand<rand_log_normal>},
      {"exponential", "trnrand", "COUNT", "1048576", false, run_rand<rand_exponential>},
      {"poisson", "trnrand", "COUNT", "1048576", false, run_rand<rand_poisson>},
      {"bernoulli", "trnrand", "COUNT", "1048576", false, run_rand<rand_bernoulli>},
      {"generate", "trnrand", "COUNT", "1048576", false, run_rand<rand_generate>},
      {"geqrf", "trnsolver", "M or MxN", "1024x256", false, run_geqrf},
  };
  return ops;
}

// "N", "AxB" or "AxBxC" with positive integers (at most 12 digits each).
bool parse_dims(const std::string& s, std::vector<std::int64_t>* dims) {
  dims->clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find('x', start);
    const std::string part = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (dims->size() == 3 || part.empty() || part.size() > 12 || part.find_first_not_of("0123456789") != std::string::npos)
      return false;
    dims->push_back(std::stoll(part));
    if (dims->back() <= 0) return false;
    if (end == std::string::npos) return true;
    start = end + 1;
  }
}

}  // namespace

std::string profile_op_list() {
  std::string s;
  for (const ProfileOp& o : profile_ops()) s += (s.empty() ? "" : ", ") + std::string(o.name);
#ifdef TRNSCI_CLI_MPI
  s += ", " + profile_mp_op_list();
#endif
  return s;
}

#ifdef TRNSCI_CLI_MPI
int run_profile_mp(const ProfileFlags& f, const std::vector<std::int64_t>& dims, trn::Generation target);
#endif

int run_profile(const ProfileFlags& f) {
#ifdef TRNSCI_CLI_MPI
  if (is_profile_mp_op(f.op)) {  // the distributed routines: profile_mp.cpp
    std::vector<std::int64_t> dims;
    trn::Generation target = trn::Generation::trn1;
    const std::string shape = f.shape.empty() ? profile_mp_default_shape(f.op) : f.shape;
    if (!parse_dims(shape, &dims) || !trn::parse_generation(f.target, &target)) {
      std::fprintf(stderr, "trnsci profile: bad --shape '%s' or --target '%s'\n", shape.c_str(), f.target.c_str());
      return 2;
    }
    return run_profile_mp(f, dims, target);
  }
#endif
  const auto& ops = profile_ops();
  const auto op = std::find_if(ops.begin(), ops.end(), [&](const ProfileOp& o) { return f.op == o.name; });
  if (op == ops.end()) {
    std::fprintf(stderr, "trnsci profile: unknown operation '%s' (%s)\n", f.op.c_str(), profile_op_list().c_str());
    return 2;
  }
  ProfileArgs a;
  const std::string shape = f.shape.empty() ? op->default_shape : f.shape;
  if (!parse_dims(shape, &a.dims)) {
    std::fprintf(stderr, "trnsci profile: --shape must be N or MxNxK with positive integers (got '%s'; %s: %s)\n",
                 shape.c_str(), op->name, op->shape);
    return 2;
  }
  if (!trn::parse_generation(f.target, &a.target)) {
    std::fprintf(stderr, "trnsci profile: unknown target '%s' (trn1, trn2, trn3)\n", f.target.c_str());
    return 2;
  }
  a.mode = f.mode.empty() ? (f.op == "fft" ? "fp32" : "bf16") : f.mode;
  if (op->takes_mode && fp32_mode(a.mode) == nullptr) {
    std::string names;
    for (const auto& t : trn::blas::mode_table())
      if (fp32_mode(t.name) != nullptr) names += (names.empty() ? "" : ", ") + std::string(t.name);
    std::fprintf(stderr, "trnsci profile: unknown mode '%s' (%s)\n", a.mode.c_str(), names.c_str());
    return 2;
  }
  a.input = f.input;
  a.cores = f.cores;
  const double t0 = now_seconds();
  trn::Report rep = op->run(a);
  const double host = seconds_since(t0);
  // The one Report, modeled on the whole device of --cores cores (idle ones share HBM), with the
  // schedule's timeline kept for the Perfetto trace.
  trn::ReportSettings rs{a.target, a.cores};
  rs.schedule_over_cores = true;
  rs.keep_timeline = !f.trace_path.empty();
  rs.host.fp64_flops_per_ns = f.host_gflops;
  rs.host.link_bytes_per_ns = f.host_link_gbps;
  rs.host.roundtrip_ns = f.host_fixed_ns;
  trn::finish_report(rep, rs);
  std::printf("trnsci profile %s (%s) %s %s target=%s cores=%d (emulation %.2f s host)\n", op->name, op->library,
              shape.c_str(), a.label.c_str(), f.target.c_str(), a.cores, host);
  std::printf("%s", rep.print().c_str());
  if (!f.trace_path.empty()) {
    if (!write_file(f.trace_path, trn::perfetto_json(rep.trace, trn::Schedule{rep.profile, rep.timeline}))) return 2;
    std::printf("Perfetto trace: %s (open in ui.perfetto.dev)\n", f.trace_path.c_str());
  }
  return 0;
}

}  // namespace trnsci::cli
