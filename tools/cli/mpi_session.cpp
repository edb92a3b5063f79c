// The CLI's MPI session (mpi_session.hpp): start / gather / broadcast, and CaseResult packing.
#include "mpi_session.hpp"

#include <cstdlib>
#include <cstring>
#include <type_traits>

#ifdef TRNSCI_CLI_MPI
#include <mpi.h>
#endif

namespace trnsci::cli::mp {

namespace {
bool g_started = false;
int g_rank = 0, g_size = 1;

// Bytes in and out, in field order.
struct Writer {
  std::string out;
  template <class T>
  void put(const T& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put_string(const std::string& s) {
    put(s.size());
    out += s;
  }
};
struct Reader {
  const std::string& in;
  std::size_t at = 0;
  template <class T>
  void get(T& v) {
    if (at + sizeof v <= in.size()) std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
  }
  void get_string(std::string& s) {
    std::size_t n = 0;
    get(n);
    if (at + n <= in.size()) s.assign(in, at, n);
    at += n;
  }
};
// Both directions walk the fields in one order (one list, no second copy to keep in step): a
// Writer's or a Reader's field(v) for every member, numbers as bytes, strings length-prefixed.
template <class IO>
struct Fields {
  IO& io;
  template <class T>
  Fields& operator()(T& v) {
    if constexpr (std::is_same_v<std::remove_cv_t<T>, std::string>) {
      if constexpr (std::is_same_v<IO, Writer>)
        io.put_string(v);
      else
        io.get_string(v);
    } else if constexpr (std::is_same_v<IO, Writer>) {
      io.put(v);
    } else {
      io.get(v);
    }
    return *this;
  }
};
template <class IO, class D>
void device_fields(Fields<IO> f, D& d) {
  f(d.present)(d.target)(d.total_ns)(d.tensor_utilization)(d.busy_ns)(d.utilization);
  f(d.roofline)(d.roofline_engine)(d.roofline_ns)(d.cores)(d.host_roundtrip_ns);
  f(d.tensor_flops)(d.element_ops)(d.dma_bytes)(d.host_flops)(d.host_bytes)(d.instructions)(d.host_steps);
}
template <class IO, class R>
void case_fields(Fields<IO> f, R& r) {
  f(r.measured)(r.bound)(r.lower)(r.pass)(r.note)(r.host_seconds);
  device_fields(f, r.device);
}
template <class IO, class R>
void bench_fields(Fields<IO> f, R& r) {
  f(r.error)(r.error_metric)(r.host_seconds)(r.flops)(r.native_seconds)(r.native_name)(r.timing_only);
  f(r.dense_ns)(r.dense_name)(r.crossover_density)(r.crossover_text);
  device_fields(f, r.device);
}
}  // namespace

std::string pack(const CaseResult& r) {
  Writer w;
  case_fields(Fields<Writer>{w}, r);
  return w.out;
}

CaseResult unpack(const std::string& bytes) {
  CaseResult r;
  Reader rd{bytes};
  case_fields(Fields<Reader>{rd}, r);
  return r;
}

std::string pack(const BenchResult& r) {
  Writer w;
  bench_fields(Fields<Writer>{w}, r);
  return w.out;
}

BenchResult unpack_bench(const std::string& bytes) {
  BenchResult r;
  Reader rd{bytes};
  bench_fields(Fields<Reader>{rd}, r);
  return r;
}

bool launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

#ifdef TRNSCI_CLI_MPI

void start(bool want) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!want || initialized != 0) return;
  MPI_Init(nullptr, nullptr);
  g_started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
}

void finish() {
  if (g_started) MPI_Finalize();
  g_started = false;
}

std::vector<std::pair<std::size_t, std::string>> gather(const std::vector<std::pair<std::size_t, std::string>>& mine) {
  if (!g_started || g_size == 1) return mine;
  Writer w;  // (index, packed) pairs, length-prefixed
  for (const auto& [i, s] : mine) {
    w.put(i);
    w.put_string(s);
  }
  const int len = static_cast<int>(w.out.size());
  std::vector<int> lens(static_cast<std::size_t>(g_size)), displs(lens.size());
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t r = 0; r < lens.size(); ++r) {
    displs[r] = total;
    total += lens[r];
  }
  std::string all(g_rank == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(w.out.data(), len, MPI_BYTE, all.data(), lens.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<std::pair<std::size_t, std::string>> out;
  if (g_rank != 0) return out;
  Reader rd{all};
  while (rd.at < all.size()) {
    std::pair<std::size_t, std::string> p;
    rd.get(p.first);
    rd.get_string(p.second);
    out.push_back(std::move(p));
  }
  return out;
}

int broadcast(int value) {
  if (g_started) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

#else

void start(bool) {}
void finish() {}
std::vector<std::pair<std::size_t, std::string>> gather(const std::vector<std::pair<std::size_t, std::string>>& mine) {
  return mine;
}
int broadcast(int value) { return value; }

#endif

bool active() { return g_started; }
int rank() { return g_rank; }
int size() { return g_size; }

}  // namespace trnsci::cli::mp
