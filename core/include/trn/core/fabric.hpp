// The device fabric per generation as data (one sourced row per generation, like hardware.hpp):
// how emulated Trainium devices talk to each other. One MPI rank of the distributed libraries
// (distributed/, docs/scale-out.md) is one emulated device (HardwareSpec::cores_per_device
// NeuronCores); every message it sends is also a `link_transfer` record in its trace
// (link_step.hpp), timed by this model:
//
//   step time      = latency + bytes / bandwidth            (one send over one hop or one EFA flow)
//   ring collective over p devices of one instance:
//                    (p - 1) x latency + (p - 1)/p x total bytes / ring bandwidth
//   ...spanning instances: the same with EFA's latency and the EFA bandwidth one device gets
//                    (instance EFA bandwidth / devices per instance).
//
// Devices of an instance sit on the NeuronLink torus (trn1/trn2: 4 x 4 2-D torus); a ring of
// devices along one torus dimension sends to its neighbour over one link in each direction, so the
// ring bandwidth per device is twice the per-direction link bandwidth (a bidirectional ring).
#pragma once
#include <cstdint>
#include <string_view>

#include "trn/core/hardware.hpp"

namespace trn {

struct FabricSpec {
  Generation generation;
  std::string_view instance;      // "trn1.32xlarge"
  std::string_view link;          // "NeuronLink-v2"
  std::string_view topology;      // "2-D torus 4 x 4"
  int devices_per_instance;       // 16
  int torus_rows, torus_cols;     // 4 x 4 (trn3: 0 x 0, a switch)
  int links_per_device;           // 4 on a 2-D torus
  double device_link_bytes_per_ns;  // published NeuronLink bandwidth per device (all links, both directions)
  double link_bytes_per_ns;       // one link, one direction (derived: device / links / 2)
  double link_latency_ns;         // one collective step over NeuronLink (assumed; docs/scale-out.md)
  std::string_view efa;           // "800 Gbps EFA"
  double efa_bytes_per_ns;        // EFA bandwidth of the whole instance
  double efa_latency_ns;          // one step between instances (assumed)
  // The ring bandwidth one device has in a collective: on the instance, both directions of one
  // torus link (a switch: the device's whole bandwidth, halved for the two directions); across
  // instances, its share of the instance's EFA bandwidth.
  double ring_bytes_per_ns(bool crosses_instances) const {
    if (crosses_instances) return efa_bytes_per_ns / devices_per_instance;
    return torus_rows > 0 ? 2.0 * link_bytes_per_ns : device_link_bytes_per_ns / 2.0;
  }
  double step_latency_ns(bool crosses_instances) const { return crosses_instances ? efa_latency_ns : link_latency_ns; }
};

const FabricSpec& fabric_spec(Generation g);

// Which devices a collective involves: `count` ranks of the communicator whose world ranks are
// first, first + stride, ...; ranks r and s share an instance when r / devices_per_instance ==
// s / devices_per_instance (ranks are placed on devices in order, docs/scale-out.md).
struct RankSet {
  int first = 0;
  int stride = 1;
  int count = 1;
  bool crosses_instances(const FabricSpec& f) const {
    const int last = first + stride * (count - 1);
    return first / f.devices_per_instance != last / f.devices_per_instance;
  }
};

// Modeled time of a ring allgather in which every device contributes its share of `total_bytes`
// (the gathered size): (p - 1) steps, each moving one share.
double allgather_ns(const FabricSpec& f, const RankSet& set, double total_bytes);
// A pipelined ring broadcast of `bytes` from one device to the others.
double broadcast_ns(const FabricSpec& f, const RankSet& set, double bytes);
// A small allreduce (an argument exchange): 2 (p - 1) latency-bound steps.
double small_allreduce_ns(const FabricSpec& f, const RankSet& set);

}  // namespace trn
