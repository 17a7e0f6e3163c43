// Where to keep a prompt's KV cache (problems/pricing/cache_plan.hpp): the catalog's figures
// against their datasheets and price pages, and the hold times at which the cheapest tier changes,
// found by root finding and checked against the closed-form crossing of two lines.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/pricing/cache_plan.hpp"
#include "scaleopt/scenario/cache_tier_catalog.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

const CacheTier& tier(const std::vector<CacheTier>& tiers, const std::string& id) {
  for (const CacheTier& t : tiers) {
    if (t.id == id) return t;
  }
  FAIL("no tier " << id);
  throw;
}

CacheOption line(const std::string& id, double rent, double retrieval) {
  CacheOption o;
  o.id = id;
  o.hold_usd_per_token_second = rent;
  o.retrieval_usd_per_token = retrieval;
  return o;
}

// The cheapest of `options` at `hold`, by direct comparison.
std::size_t cheapest(const std::vector<CacheOption>& options, double hold) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < options.size(); ++i) {
    if (options[i].usd_per_token(hold) < options[best].usd_per_token(hold)) best = i;
  }
  return best;
}

}  // namespace

TEST_CASE("cache tiers: capacities, bandwidths and prices as their sources print them",
          "[pricing][cache]") {
  const std::vector<CacheTier> tiers = scaleopt::builtin_cache_tiers();
  REQUIRE(tiers.size() == 3);
  const double gib = 1073741824.0, hour = 3600.0, month = 730.0 * hour;  // GCP bills 730 h
  // DGX H100: 2TB of DDR5 for 8 GPUs; H100 datasheet: PCIe Gen5 128GB/s both ways.
  CHECK(tier(tiers, "host-dram").capacity_bytes == 256e9);
  CHECK(tier(tiers, "host-dram").bytes_per_second == 64e9);
  CHECK(tier(tiers, "host-dram").drain_seconds() == 4.0);  // "DDR drains in seconds"
  CHECK(tier(tiers, "host-dram").usd_per_byte_second ==
        Approx(0.004237 / gib / hour).epsilon(1e-15));  // GCP N2 memory, $/GiB-hour
  // DGX H100: 8 x 3.84TB NVMe for 8 GPUs; Samsung PM1733: 7,000MB/s.
  CHECK(tier(tiers, "flash").drain_seconds() == Approx(3.84e12 / 7e9).epsilon(1e-15));  // 9.1 min
  CHECK(tier(tiers, "flash").usd_per_byte_second == Approx(0.08 / gib / month).epsilon(1e-15));
  // Seagate Exos X24: 24TB at 285MB/s sustained.
  CHECK(tier(tiers, "disk").drain_seconds() == Approx(24e12 / 285e6).epsilon(1e-15));  // 23.4 h
  CHECK(tier(tiers, "disk").usd_per_byte_second == Approx(0.04 / gib / month).epsilon(1e-15));
  for (const CacheTier& t : tiers) {
    INFO(t.id);
    CHECK_THAT(t.price_note, Catch::StartsWith("assumption"));
    CHECK_FALSE(t.source.empty());
  }
}

TEST_CASE("HBM as a tier: the replica's memory rented with its chips, drained in ~24 ms",
          "[pricing][cache]") {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), "h100-sxm");
  setup.chips = 8;
  const Roofline r = make_roofline(architecture_preset("llama3-70b"), setup, "t");
  const CacheTier hbm = hbm_tier(r, "H100 datasheet");
  CHECK(hbm.drain_seconds() == Approx(80e9 / 3.35e12).epsilon(1e-15));           // 23.9 ms
  CHECK(hbm.usd_per_byte_second == Approx(2.0 / 3600.0 / 80e9).epsilon(1e-15));  // $2/h per 80GB
  // A token of b bytes: rent b r per second held, retrieval b r D (the unit busy b / W seconds).
  const CacheOption o = storage_option(hbm, 327680.0);
  CHECK(o.hold_usd_per_token_second == Approx(327680.0 * 2.0 / 3600.0 / 80e9).epsilon(1e-15));
  CHECK(o.retrieval_usd_per_token ==
        Approx(327680.0 * 8 * 2.0 / 3600.0 / (8 * 3.35e12)).epsilon(1e-15));
}

TEST_CASE("the cheapest option switches where two cost lines cross", "[pricing][cache]") {
  // Three lines by hand: a (rent 1, retrieval 0), b (0.1, 10), c (0, 50); d never wins.
  // a = b at 10 / 0.9 = 11.11 s; b = c at 40 / 0.1 = 400 s.
  const std::vector<CacheOption> options{line("a", 1.0, 0.0), line("b", 0.1, 10.0),
                                         line("c", 0.0, 50.0), line("d", 0.5, 100.0)};
  const CachePlan plan = plan_cache(options, 60.0, 1.0, "t");
  REQUIRE(plan.status == Status::converged);
  CHECK(options[plan.cheapest].id == "b");
  REQUIRE(plan.switches.size() == 2);
  CHECK(plan.switches[0].from == 0);
  CHECK(plan.switches[0].to == 1);
  CHECK(plan.switches[0].hold_seconds == Approx(10.0 / 0.9).epsilon(1e-13));
  CHECK(plan.switches[1].from == 1);
  CHECK(plan.switches[1].to == 2);
  CHECK(plan.switches[1].hold_seconds == Approx(400.0).epsilon(1e-13));
}

TEST_CASE("cache tiers for the talk's model: every switch is a computed crossing",
          "[pricing][cache]") {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), "h100-sxm");
  setup.chips = 8;
  setup.precision = Precision::fp8;
  const Roofline r = make_roofline(architecture_preset("frontier-100b"), setup, "t");
  const double b = 1700.0;  // bytes per token
  std::vector<CacheOption> options{
      recompute_option(input_token_cost(r, prefill_token(r, 200e3)).usd),
      storage_option(hbm_tier(r, "H100 datasheet"), b)};
  for (const CacheTier& t : scaleopt::builtin_cache_tiers())
    options.push_back(storage_option(t, b));
  const CachePlan plan = plan_cache(options, 300.0, 200e3 * b, "t");
  REQUIRE(plan.status == Status::converged);
  CHECK(options[plan.cheapest].id == "flash");  // a five-minute hold

  // By hand, per token: cost(T) = b x rent x (T + drain); recompute = 2 N / F x $16/h.
  const double gib = 1073741824.0, hour = 3600.0, month = 730.0 * hour;
  struct Line {
    const char* id;
    double rent, drain;
  };
  const Line hbm{"hbm", 2.0 / hour / 80e9, 80e9 / 3.35e12};
  const Line dram{"host-dram", 0.004237 / gib / hour, 4.0};
  const Line flash{"flash", 0.08 / gib / month, 3.84e12 / 7e9};
  const Line disk{"disk", 0.04 / gib / month, 24e12 / 285e6};
  auto crossing = [&](const Line& x, const Line& y) {  // x rent > y rent
    return (y.rent * y.drain - x.rent * x.drain) / (x.rent - y.rent);
  };
  const double recompute_usd = 2 * 100e9 / (8 * 1979e12) * 8 * 2.0 / hour;
  const std::vector<std::pair<std::string, double>> expected{
      {"hbm", 0.0},
      {"host-dram", crossing(hbm, dram)},                                        // 0.72 s
      {"flash", crossing(dram, flash)},                                          // 10.5 s
      {"disk", crossing(flash, disk)},                                           // 23.1 h
      {"recompute", (recompute_usd / b - disk.rent * disk.drain) / disk.rent}};  // 26 d
  REQUIRE(plan.switches.size() == expected.size() - 1);
  for (std::size_t i = 0; i < plan.switches.size(); ++i) {
    const CacheSwitch& s = plan.switches[i];
    INFO("switch " << i << ": " << options[s.from].id << " -> " << options[s.to].id);
    CHECK(options[s.from].id == expected[i].first);
    CHECK(options[s.to].id == expected[i + 1].first);
    // Root in ln T to 52 bits against the hand closed form (a few roundings of each): 1e-12.
    CHECK(s.hold_seconds == Approx(expected[i + 1].second).epsilon(1e-12));
    CHECK(s.hold_seconds == Approx(s.closed_form_hold_seconds).epsilon(1e-12));
    // The choice does switch there: `from` is cheapest just before, `to` just after.
    CHECK(cheapest(options, s.hold_seconds * (1 - 1e-6)) == s.from);
    CHECK(cheapest(options, s.hold_seconds * (1 + 1e-6)) == s.to);
  }
}

TEST_CASE("a tier too small for the prompt is never chosen", "[pricing][cache]") {
  std::vector<CacheOption> options{line("small", 0.0, 1.0), line("big", 1.0, 2.0)};
  options[0].capacity_bytes = 10.0;
  const CachePlan plan = plan_cache(options, 1.0, 100.0, "t");
  CHECK_FALSE(plan.fits[0]);
  CHECK(options[plan.cheapest].id == "big");
  CHECK(plan.switches.empty());
  options[1].capacity_bytes = 10.0;
  CHECK_THROWS_WITH(plan_cache(options, 1.0, 100.0, "--"),
                    Catch::StartsWith("--context: the prompt's cache (100B) fits no tier"));
  CHECK_THROWS_WITH(plan_cache(options, 1e12, 1.0, "--"), Catch::StartsWith("--hold: must be"));
}
