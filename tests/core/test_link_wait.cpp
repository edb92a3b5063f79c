// Waiting for peers (link_step.hpp LinkPeerExchange, docs/scale-out.md section 7): a link record
// tagged with its peers starts at max(this device's arrival, the exchange's answer); the wait is
// counted apart (Profile::link_wait_*), drawn on a "waiting for peers" track, and a schedule without
// an exchange (or an untagged record) is the schedule it always was. Times by hand, in modeled ns.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "trn/core/core.hpp"
#include "trn/core/cost_model.hpp"
#include "trn/core/link_step.hpp"
#include "trn/core/perfetto_ranks.hpp"
#include "trn/core/report.hpp"

using namespace trn;

namespace {

// A peer exchange that answers a fixed time and remembers what it was asked.
struct FixedPeers final : LinkPeerExchange {
  double answer = 0;
  std::vector<double> arrivals;
  std::vector<LinkPeers> asked;
  double not_before(const LinkPeers& p, double arrival_ns) override {
    arrivals.push_back(arrival_ns);
    asked.push_back(p);
    return answer;
  }
};

// L1: 50 ns alone (untagged); L2: 30 ns, a broadcast from root 1 of group 3 (arrives at 50, after L1
// on the device's link).
Trace two_transfers() {
  Trace t;
  record_link_transfer(t, LinkTransfer{.name = "test.l1", .ns = 50});
  record_link_transfer(t, LinkTransfer{.name = "test.l2", .ns = 30, .peers = {.group = 3, .root = 1}});
  return t;
}

CostModelOptions with(LinkPeerExchange* peers, bool timeline = false) {
  CostModelOptions o;
  o.target = Generation::trn1;
  o.num_cores = 1;
  o.keep_timeline = timeline;
  o.link_peers = peers;
  return o;
}

}  // namespace

TEST(LinkWait, TagsTravelInTheRecordAndUntaggedRecordsAreUnchanged) {
  const Trace t = two_transfers();
  EXPECT_EQ(link_peers_of(t.instructions[0]).group, -1);
  EXPECT_EQ(link_peers_of(t.instructions[0]).root, -1);
  EXPECT_EQ(t.instructions[0].partitions, 0);  // an untagged record: the fields it always had
  EXPECT_EQ(t.instructions[0].matmul_m, 0);
  EXPECT_EQ(link_peers_of(t.instructions[1]).group, 3);
  EXPECT_EQ(link_peers_of(t.instructions[1]).root, 1);
}

TEST(LinkWait, AReceiverStartsWhenTheRootArrives) {
  const Trace t = two_transfers();
  FixedPeers peers;
  peers.answer = 120;  // the root reached the broadcast at 120 ns
  const Schedule s = schedule_trace(t, with(&peers, true));
  // By hand: L1 [0, 50]; L2 arrives at 50, waits 70, runs [120, 150].
  EXPECT_EQ(s.profile.total_ns, 150.0);
  EXPECT_EQ(s.profile.link_waits, 1);
  EXPECT_EQ(s.profile.link_wait_ns, 70.0);
  EXPECT_EQ(s.profile.link_wait_critical_ns, 70.0);
  EXPECT_EQ(s.profile.link_ns, 80.0);
  EXPECT_EQ(s.profile.link_critical_ns, 80.0);
  ASSERT_EQ(s.timeline.size(), 2u);
  EXPECT_EQ(s.timeline[1].start_ns, 120.0);
  EXPECT_EQ(s.timeline[1].end_ns, 150.0);
  EXPECT_EQ(s.timeline[1].wait_ns, 70.0);
  EXPECT_EQ(s.timeline[0].wait_ns, 0.0);
  // Asked once per schedule pass (as written, then the reorder comparison), never for L1, with the
  // device's own arrival and the record's tag.
  ASSERT_EQ(peers.arrivals.size(), 2u);
  EXPECT_EQ(peers.arrivals[0], 50.0);
  EXPECT_EQ(peers.arrivals[1], 50.0);
  EXPECT_EQ(peers.asked[0].group, 3);
  EXPECT_EQ(peers.asked[0].root, 1);
  EXPECT_EQ(s.profile.as_written_total_ns, 150.0);
  EXPECT_EQ(s.profile.reorder_total_ns, 150.0);
  // The profile's waiting entry.
  EXPECT_NE(s.profile.summary().find("waiting  for peers in 1 transfers: 0.070 us (critical 0.070 us)"), std::string::npos)
      << s.profile.summary();
  // The rank's Perfetto events: a "waiting for peers" track with the wait ending where L2 starts.
  const std::string ev = perfetto_rank_events(t, s, 2);
  EXPECT_NE(ev.find("\"name\":\"waiting for peers\""), std::string::npos);
  EXPECT_NE(ev.find("\"name\":\"wait: test.l2\",\"cat\":\"wait\",\"pid\":2,\"tid\":90003,\"ts\":0.0500,\"dur\":0.0700"), std::string::npos)
      << ev;
}

TEST(LinkWait, AnEarlierPeerCostsNothingAndNoExchangeIsTheOldSchedule) {
  const Trace t = two_transfers();
  FixedPeers early;
  early.answer = 10;  // the root arrived before this device did
  const Profile p = schedule_trace(t, with(&early)).profile;
  EXPECT_EQ(p.total_ns, 80.0);
  EXPECT_EQ(p.link_waits, 0);
  EXPECT_EQ(p.link_wait_ns, 0.0);
  EXPECT_EQ(p.summary().find("waiting"), std::string::npos);
  const Profile alone = schedule_trace(t, with(nullptr)).profile;
  EXPECT_EQ(alone.total_ns, 80.0);
  EXPECT_EQ(alone.link_wait_ns, 0.0);
}

TEST(LinkWait, APeerScheduleIsNeverMemoisedAndReportSettingsCarryTheExchange) {
  const Trace t = two_transfers();
  FixedPeers peers;
  peers.answer = 120;
  ReportSettings rs;
  rs.target = Generation::trn1;
  rs.link_peers = &peers;
  EXPECT_EQ(model_trace(t, rs).total_ns, 150.0);
  peers.answer = 200;  // the same trace again: asked again (the answer depends on the other ranks)
  EXPECT_EQ(model_trace(t, rs).total_ns, 230.0);
  EXPECT_EQ(peers.arrivals.size(), 4u);
  Profile sum = model_trace(t, rs);
  append_sequential(sum, model_trace(t, rs));
  EXPECT_EQ(sum.link_wait_ns, 2 * 150.0);
  EXPECT_EQ(sum.link_waits, 2);
}
