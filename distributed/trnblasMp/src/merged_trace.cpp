// The merged multi-rank Perfetto trace (trn/blasmp/merged_trace.hpp; docs/scale-out.md section 11).
#include "trn/blasmp/merged_trace.hpp"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "exchange.hpp"
#include "trn/blasmp/blasmp.hpp"
#include "trn/core/perfetto_ranks.hpp"
#include "trn/core/error.hpp"

namespace trn::blasmp {

std::string merged_trace_path() {
  const char* p = std::getenv(kMergedTraceEnv);
  return p != nullptr ? std::string(p) : std::string();
}

std::string merged_perfetto_json(MPI_Comm comm, const Report& r, Generation target) {
  int rank = 0, size = 1;
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  // The call's report settings (trnblas's CallReport::finish on the device settings): the rank's
  // device, all its NeuronCores; the timeline kept this time.
  ReportSettings rs;
  rs.target = target;
  rs.cores = hardware_spec(target).cores_per_device;
  rs.link_peers = &peer_exchange();  // the report's own waits for peers (collective, as the call's model pass)
  Schedule sched;
  sched.profile = model_trace(r.trace, rs, &sched.timeline);
  const std::string mine = perfetto_rank_events(r.trace, sched, rank);
  if (mine.size() > static_cast<std::size_t>(INT_MAX)) throw NotSupportedError("merged trace", "a rank's part over 2 GiB", "any");
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  detail::check_mpi(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm), "MPI_Gather");
  long long total = 0;
  for (int q = 0; q < size && rank == 0; ++q) {
    displs[static_cast<std::size_t>(q)] = static_cast<int>(total);
    total += lens[static_cast<std::size_t>(q)];
  }
  if (total > INT_MAX) throw NotSupportedError("merged trace", "a trace over 2 GiB", "any");
  std::string all(static_cast<std::size_t>(total), '\0');
  detail::check_mpi(MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm),
                    "MPI_Gatherv");
  if (rank != 0) return {};
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  for (int q = 0; q < size; ++q) {
    const auto n = static_cast<std::size_t>(lens[static_cast<std::size_t>(q)]);
    if (n == 0) continue;
    if (!first) out += ",\n";
    first = false;
    out.append(all, static_cast<std::size_t>(displs[static_cast<std::size_t>(q)]), n);
  }
  out += "\n]}\n";
  return out;
}

bool write_merged_trace(MPI_Comm comm, const Report& r, Generation target, const std::string& path) {
  const std::string json = merged_perfetto_json(comm, r, target);
  int rank = 0;
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  int ok = 0;
  if (rank == 0) {
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
      ok = std::fwrite(json.data(), 1, json.size(), f) == json.size() ? 1 : 0;
      ok = std::fclose(f) == 0 ? ok : 0;
    }
  }
  detail::check_mpi(MPI_Bcast(&ok, 1, MPI_INT, 0, comm), "MPI_Bcast");
  return ok != 0;
}

}  // namespace trn::blasmp
