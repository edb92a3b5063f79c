// Fabric table (docs/scale-out.md "Fabric model"; tags: docs/references.md). One row per generation.
// Sources:
//  - TRN1ARCH (Amazon EC2 Trn1/Trn1n architecture): trn1.32xlarge has 16 Trainium chips, NeuronLink-v2
//    384 GiB/s per device (trn1n: 768), EFA 800 Gbps (trn1n: 1,600), chips on a 2-D torus.
//  - TRN2ARCH (Amazon EC2 Trn2 architecture): trn2.48xlarge has 16 Trainium2 chips on a 4 x 4 2-D torus
//    of NeuronLink-v3; ARCH3: 4 NeuronLink-v3 per device; NCV2's trainium2 page: NeuronLink-v3
//    1.28 TB/s per chip; EFA: 3.2 Tbps per trn2.48xlarge (EC2 Trn2 instance page, EFAv3).
//  - TRN3ARCH / trainium3 page: NeuronLink-v4 2.56 TB/s per device, NeuronSwitch-v1 all-to-all in a
//    UltraServer of four 16-device servers (no torus); its EFA bandwidth is not published (assumed as trn2).
// Derived: 384 GiB/s = 412.3 B/ns; one link, one direction = device / 4 links / 2 directions
// (the published per-device figure read as the sum over links and directions, an assumption):
// 51.5 B/ns (trn1), 160 B/ns (trn2). 800 Gbps = 100 B/ns, 3.2 Tbps = 400 B/ns.
// Assumed (no AWS figure): a NeuronLink collective step costs 1500 ns (DMABW's ~1300 ns
// semaphore-to-start of the DMA that moves it, plus ~200 ns for the hop); an EFA step 10 us (a
// typical small-message MPI latency over SRD). docs/scale-out.md states the expected error.
#include "trn/core/fabric.hpp"

#include <algorithm>

namespace trn {

namespace {
constexpr FabricSpec kTrn1Fabric{
    .generation = Generation::trn1, .instance = "trn1.32xlarge", .link = "NeuronLink-v2",
    .topology = "2-D torus 4 x 4", .devices_per_instance = 16, .torus_rows = 4, .torus_cols = 4,
    .links_per_device = 4, .device_link_bytes_per_ns = 412.3, .link_bytes_per_ns = 51.5, .link_latency_ns = 1500.0,
    .efa = "EFA 800 Gbps", .efa_bytes_per_ns = 100.0, .efa_latency_ns = 10000.0};

constexpr FabricSpec kTrn2Fabric{
    .generation = Generation::trn2, .instance = "trn2.48xlarge", .link = "NeuronLink-v3",
    .topology = "2-D torus 4 x 4", .devices_per_instance = 16, .torus_rows = 4, .torus_cols = 4,
    .links_per_device = 4, .device_link_bytes_per_ns = 1280.0, .link_bytes_per_ns = 160.0, .link_latency_ns = 1500.0,
    .efa = "EFAv3 3.2 Tbps", .efa_bytes_per_ns = 400.0, .efa_latency_ns = 10000.0};

constexpr FabricSpec kTrn3Fabric{
    .generation = Generation::trn3, .instance = "Trn3 Gen1 UltraServer server (16 devices)", .link = "NeuronLink-v4",
    .topology = "all-to-all (NeuronSwitch-v1)", .devices_per_instance = 16, .torus_rows = 0, .torus_cols = 0,
    .links_per_device = 0, .device_link_bytes_per_ns = 2560.0, .link_bytes_per_ns = 1280.0, .link_latency_ns = 1500.0,
    .efa = "EFA (not published; assumed as trn2)", .efa_bytes_per_ns = 400.0, .efa_latency_ns = 10000.0};
}  // namespace

const FabricSpec& fabric_spec(Generation g) {
  switch (g) {
    case Generation::trn2: return kTrn2Fabric;
    case Generation::trn3: return kTrn3Fabric;
    default: return kTrn1Fabric;
  }
}

double allgather_ns(const FabricSpec& f, const RankSet& set, double total_bytes) {
  if (set.count <= 1) return 0.0;
  const bool x = set.crosses_instances(f);
  const double p = set.count;
  return (p - 1) * f.step_latency_ns(x) + (p - 1) / p * total_bytes / f.ring_bytes_per_ns(x);
}

double broadcast_ns(const FabricSpec& f, const RankSet& set, double bytes) {
  if (set.count <= 1) return 0.0;
  const bool x = set.crosses_instances(f);
  // Pipelined ring: the message in p - 1 chunks streams through the ring; the last device has it
  // after (p - 1) latencies and one message time plus one chunk per further hop.
  const double p = set.count;
  const double chunk = bytes / std::max(1.0, p - 1);
  return (p - 1) * f.step_latency_ns(x) + (bytes + (p - 2) * chunk) / f.ring_bytes_per_ns(x);
}

double small_allreduce_ns(const FabricSpec& f, const RankSet& set) {
  if (set.count <= 1) return 0.0;
  return 2.0 * (set.count - 1) * f.step_latency_ns(set.crosses_instances(f));
}

}  // namespace trn
