// `trnsci profile`: any routine of any library, printed as the one trn::Report (profile.cpp).
#pragma once
#include <string>

namespace trnsci::cli {

struct ProfileFlags {
  std::string op;
  std::string shape;       // empty: the routine's default
  std::string mode;        // empty: bf16 (GEMM routines), fp32 (fft)
  std::string target = "trn1";
  std::string trace_path;  // Perfetto/Chrome trace-event JSON, when not empty
  std::string input = "f32";
  int cores = 1;
  // Host round-trip rates (docs/cost-model.md section 7): > 0 (fixed: >= 0) replaces the target's.
  double host_gflops = 0;     // --host-gflops: host fp64 GFLOP/s (= flop/ns)
  double host_link_gbps = 0;  // --host-link-gbps: host link GB/s per direction (= byte/ns)
  double host_fixed_ns = -1;  // --host-fixed-ns: fixed cost of one round trip
};

// Runs f.op and prints its report; 0, or 2 for a usage error (message on stderr).
int run_profile(const ProfileFlags& f);
// The routines run_profile knows, comma-separated (for --help and errors).
std::string profile_op_list();

// The distributed routines (profile_mp.cpp, built with MPI): gemm_mp, potrf_mp, getrf_mp, geqrf_mp,
// fft_mp. run_profile hands them to run_profile_mp (under mpirun; --trace: one merged trace).
bool is_profile_mp_op(const std::string& op);
std::string profile_mp_op_list();
const char* profile_mp_default_shape(const std::string& op);

}  // namespace trnsci::cli
