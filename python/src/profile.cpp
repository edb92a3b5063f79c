// trnsci.Profile: the modeled cost of one call (trnProfile_t of the library's GetLastProfile, the
// same numbers `trnsci profile` prints) with its kept trace: to_perfetto(path) writes the Chrome
// trace-event JSON of the cost model's schedule (trn::perfetto_json), timeline() gives the schedule
// as arrays for the SVG of Profile._repr_html_ (python/trnsci/profile.py).
#include <cstdio>
#include <fstream>

#include "common.hpp"
#include "trn/core/cost_model.hpp"
#include "trn/core/hardware.hpp"

namespace trnsci::py {
namespace {

trn::Schedule schedule_of(const CapturedReport& r) {
  trn::CostModelOptions opt;
  opt.target = r.settings.target;
  opt.host = r.settings.host;
  opt.keep_timeline = true;
  if (r.settings.schedule_over_cores) opt.num_cores = r.settings.cores;
  return trn::schedule_trace(r.trace, opt);
}

// Engine keys of the Profile's dicts, in trnEngine_t order (the timeline adds "host").
constexpr const char* kEngineKeys[trn::kEngineCount] = {"tensor", "vector", "scalar", "gpsimd", "dma"};

py::dict per_engine(const double* v) {
  py::dict d;
  for (int e = 0; e < trn::kEngineCount; ++e) d[kEngineKeys[e]] = v[e];
  return d;
}

// Profile::roofline_engine's name ("DMA", "TensorE", "host") as a key of the dicts.
std::string roofline_key(const trn::Profile& q) {
  const std::string_view name = q.roofline_engine();
  for (int e = 0; e < trn::kEngineCount; ++e)
    if (name == trn::engine_name(static_cast<trn::Engine>(e))) return kEngineKeys[e];
  return std::string(name);
}

std::string target_name(const trnProfile_t& c) {
  trn::Generation g = static_cast<trn::Generation>(c.target);
  if (c.target < TRN_TARGET_TRN1 || c.target > TRN_TARGET_TRN3) return "unknown";
  return std::string(trn::hardware_spec(g).name);
}

void write_perfetto(const ProfileData& p, const std::string& path) {
  const CapturedReport& r = p.timeline_report();
  std::string json;
  {
    py::gil_scoped_release nogil;
    json = trn::perfetto_json(r.trace, schedule_of(r));
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) raise_argument("Profile.to_perfetto", 1, "path", "cannot open '" + path + "' for writing");
  out << json;
  if (!out) raise_argument("Profile.to_perfetto", 1, "path", "cannot write '" + path + "'");
}

// The schedule as columns (core, engine, start_ns, end_ns, opcode), engine instructions only.
py::dict timeline(const ProfileData& p) {
  const CapturedReport& r = p.timeline_report();
  trn::Schedule s;
  {
    py::gil_scoped_release nogil;
    s = schedule_of(r);
  }
  const auto& ins = r.trace.instructions;
  const auto n = static_cast<py::ssize_t>(ins.size());
  py::array_t<std::int32_t> core(n), engine(n);
  py::array_t<double> start(n), end(n);
  py::array_t<std::int32_t> opcode(n);
  auto c = core.mutable_unchecked<1>();
  auto e = engine.mutable_unchecked<1>();
  auto b = start.mutable_unchecked<1>();
  auto f = end.mutable_unchecked<1>();
  auto o = opcode.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < n; ++i) {
    const auto& in = ins[static_cast<std::size_t>(i)];
    c(i) = in.core;
    e(i) = in.opcode == trn::Opcode::host_compute ? trn::kEngineCount : static_cast<std::int32_t>(in.engine);
    b(i) = s.timeline[static_cast<std::size_t>(i)].start_ns;
    f(i) = s.timeline[static_cast<std::size_t>(i)].end_ns;
    o(i) = static_cast<std::int32_t>(in.opcode);
  }
  py::list engines, opcodes;
  for (const char* k : kEngineKeys) engines.append(k);
  engines.append("host");
  for (int k = 0; k <= static_cast<int>(trn::Opcode::host_compute); ++k)
    opcodes.append(std::string(trn::opcode_name(static_cast<trn::Opcode>(k))));
  py::dict d;
  d["core"] = core;
  d["engine"] = engine;
  d["start_ns"] = start;
  d["end_ns"] = end;
  d["opcode"] = opcode;
  d["engine_names"] = engines;
  d["opcode_names"] = opcodes;
  d["total_ns"] = s.profile.total_ns;
  return d;
}

const Registrar kProfile("", [](py::module_& m) {
  using P = ProfileData;
  py::class_<P, std::shared_ptr<P>>(m, "Profile", "Modeled cost of one call (docs/python.md, docs/cost-model.md)")
      .def_property_readonly("library", &P::library)
      .def_property_readonly("routine", &P::routine)
      .def_property_readonly("target", [](const P& p) { return target_name(p.c()); })
      .def_property_readonly("modeled_ns", [](const P& p) { return p.c().total_ns; }, "modeled time of the call, ns")
      .def_property_readonly("modeled_us", [](const P& p) { return p.c().total_ns * 1e-3; })
      .def_property_readonly("busy_ns", [](const P& p) { return per_engine(p.c().busy_ns); }, "per-engine busy time, ns")
      .def_property_readonly("roofline_ns", [](const P& p) { return per_engine(p.c().roofline_ns); })
      .def_property_readonly("utilization", [](const P& p) {
        const trn::Profile q = p.profile();
        py::dict d;
        for (int e = 0; e < trn::kEngineCount; ++e) {
          d[kEngineKeys[e]] = q.utilization(static_cast<trn::Engine>(e));
        }
        return d;
      })
      .def_property_readonly("instructions", [](const P& p) {
        py::dict d;
        for (int e = 0; e < trn::kEngineCount; ++e)
          d[kEngineKeys[e]] = p.c().instructions_per_engine[e];
        return d;
      })
      .def_property_readonly("total_instructions", [](const P& p) { return p.c().instructions; })
      .def_property_readonly("flops", [](const P& p) { return p.c().flops; })
      .def_property_readonly("tensor_flops", [](const P& p) { return p.c().tensor_flops; })
      .def_property_readonly("dma_bytes", [](const P& p) { return p.c().dma_bytes; })
      .def_property_readonly("cores", [](const P& p) { return p.c().cores; })
      .def_property_readonly("host_steps", [](const P& p) { return p.c().host_steps; })
      .def_property_readonly("host_roundtrip_ns", [](const P& p) { return p.c().host_roundtrip_ns; })
      .def_property_readonly("host_flops", [](const P& p) { return p.c().host_flops; })
      .def_property_readonly("roofline", [](const P& p) { return p.profile().roofline(); },
                             "modeled time / roofline bound (>= 1; 1 = at the busiest engine's peak)")
      .def_property_readonly("roofline_bound_ns", [](const P& p) { return p.profile().roofline_bound_ns(); })
      .def_property_readonly("roofline_engine", [](const P& p) { return roofline_key(p.profile()); })
      .def_property_readonly("plan", &P::plan, "the plan(s) that ran, one per line")
      .def_property_readonly("reports", [](const P& p) { return p.reports().size(); },
                             "number of reports the call modeled (the timeline shows the last)")
      .def("summary", [](const P& p) { return p.profile().summary(); }, "the per-engine summary `trnsci profile` prints")
      .def("to_perfetto", &write_perfetto, py::arg("path"),
           "Writes the call's schedule as Chrome trace-event JSON (open in ui.perfetto.dev)")
      .def("timeline", &timeline, "The cost model's schedule as arrays (core, engine, start_ns, end_ns, opcode)")
      .def("__repr__", [](const P& p) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "<trnsci.Profile %s.%s on %s: %.3f us, roofline x%.2f (%s)>", p.library().c_str(),
                      p.routine().c_str(), target_name(p.c()).c_str(), p.c().total_ns * 1e-3, p.profile().roofline(),
                      roofline_key(p.profile()).c_str());
        return std::string(buf);
      });
});

}  // namespace
}  // namespace trnsci::py
