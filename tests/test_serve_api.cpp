// scaleopt serve's request checks and JSON API without sockets (server/request_guard.hpp,
// server/api_handler.hpp, server/bounded_task_queue.hpp). The numbers are checked against the
// published figures the examples quote and hand arithmetic; the equality with `solve --json`
// and the sweep CSV is the ctest serve_answers_equal_the_command_line
// (tests/test_serve_answers.py), the sockets the ctest serve_hostile_requests.

#include <nlohmann/json.hpp>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/server/api_handler.hpp"
#include "scaleopt/server/bounded_task_queue.hpp"
#include "scaleopt/server/bundled_examples.hpp"
#include "scaleopt/server/request_guard.hpp"

using namespace scaleopt::server;
using nlohmann::json;

namespace {

RequestHead guard_post_head(std::string host, std::optional<std::string> length = "2") {
  RequestHead head;
  head.method = "POST";
  head.path = "/api/solve";
  head.host = std::move(host);
  head.content_length = std::move(length);
  return head;
}

int guard_status(const RequestHead& head, int port = 8080, const ServeOptions& options = {}) {
  const auto refusal = refuse_request(head, port, options);
  return refusal ? refusal->status : 0;
}

json api_json(const ApiAnswer& answer) {
  return json::parse(answer.body);
}

std::string api_error(const ApiAnswer& answer) {
  return api_json(answer).at("error").get<std::string>();
}

ApiAnswer api_post(const Api& api, const std::string& path, const json& body) {
  return api.handle("POST", path, body.dump());
}

}  // namespace

TEST_CASE("serve: Host must name this server on its port", "[serve]") {
  const ServeOptions options;
  for (const char* host : {"127.0.0.1:8080", "localhost:8080", "[::1]:8080", "LocalHost:8080"}) {
    CHECK(host_allowed(host, 8080, options));
  }
  // Another port, another name, a name that merely contains ours, no port at all.
  for (const char* host : {"127.0.0.1:8081", "evil.example:8080", "localhost.evil.example:8080",
                           "127.0.0.1", "localhost", ""}) {
    CHECK_FALSE(host_allowed(host, 8080, options));
  }
  // Port 80 is left out by browsers.
  CHECK(host_allowed("localhost", 80, options));
  ServeOptions named;
  named.allowed_hosts = {"planner.lab"};
  CHECK(host_allowed("planner.lab:8080", 8080, named));
  CHECK(host_allowed("PLANNER.lab:8080", 8080, named));
  CHECK_FALSE(host_allowed("planner.lab:8080", 8080, options));
}

TEST_CASE("serve: the guard's statuses", "[serve]") {
  CHECK(guard_status(guard_post_head("127.0.0.1:8080")) == 0);
  CHECK(guard_status(guard_post_head("evil.example:8080")) == 421);
  RequestHead no_host = guard_post_head("x");
  no_host.host.reset();
  CHECK(guard_status(no_host) == 400);

  RequestHead cross = guard_post_head("127.0.0.1:8080");
  cross.origin = "http://evil.example";
  CHECK(guard_status(cross) == 403);
  cross.origin = "null";  // a sandboxed frame or a file: page
  CHECK(guard_status(cross) == 403);
  cross.origin = "http://127.0.0.1:8080";  // the served origin: the page itself
  CHECK(guard_status(cross) == 0);
  cross.origin = "http://localhost:8080";  // another name of this server, not the page's
  CHECK(guard_status(cross) == 403);

  CHECK(guard_status(guard_post_head("127.0.0.1:8080", std::nullopt)) == 411);
  RequestHead chunked = guard_post_head("127.0.0.1:8080", std::nullopt);
  chunked.transfer_encoding = "chunked";
  CHECK(guard_status(chunked) == 411);
  // 1 MiB = 1048576 bytes is the limit: at it is fine, one past is refused.
  CHECK(guard_status(guard_post_head("127.0.0.1:8080", "1048576")) == 0);
  CHECK(guard_status(guard_post_head("127.0.0.1:8080", "1048577")) == 413);
  CHECK(guard_status(guard_post_head("127.0.0.1:8080", "99999999999999999999999999")) == 413);
  for (const char* bad : {"", "-1", "1e6", "12 ", "0x10"}) {
    CHECK(guard_status(guard_post_head("127.0.0.1:8080", bad)) == 400);
  }
  RequestHead get = guard_post_head("localhost:8080", std::nullopt);
  get.method = "GET";
  CHECK(guard_status(get) == 0);  // a GET needs no length
}

TEST_CASE("serve: the bundled examples are examples/*.toml, byte for byte", "[serve]") {
  std::set<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(SCALEOPT_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() == ".toml") files.insert(entry.path().stem().string());
  }
  std::set<std::string> embedded;
  for (const BundledExample& e : bundled_examples()) {
    embedded.insert(std::string(e.name));
    CHECK(e.text == read_file(example((std::string(e.name) + ".toml").c_str())));
  }
  CHECK(embedded == files);

  const Api api{ServeOptions{}};
  const ApiAnswer answer = api.handle("GET", "/api/examples", "");
  REQUIRE(answer.status == 200);
  const json listed = api_json(answer).at("examples");
  CHECK(std::set<std::string>(listed.begin(), listed.end()) == files);
  CHECK(api_json(answer).at("served").is_null());
}

TEST_CASE("serve: /api/solve answers an example with the published optimum", "[serve]") {
  const Api api{ServeOptions{}};
  // examples/sardana_cost.toml quotes Sardana et al. (2024): N = 2.053e10, D = 3.302e12, to the
  // 4 digits printed (relative 5e-4 covers the rounding of the last digit).
  ApiAnswer answer = api_post(api, "/api/solve", {{"example", "sardana_cost"}});
  REQUIRE(answer.status == 200);
  json j = api_json(answer);
  CHECK(j.at("scenario") == "examples/sardana_cost.toml");
  CHECK(j.at("status") == "converged");
  CHECK(j.at("params").get<double>() == Approx(2.053e10).epsilon(5e-4));
  CHECK(j.at("pretrain_tokens").get<double>() == Approx(3.302e12).epsilon(5e-4));
  // 1e10 requests of 1000 + 250 tokens: 1.25e13 tokens (exact in binary to 1 ulp).
  CHECK(j.at("inference_tokens").get<double>() == Approx(1.25e13).epsilon(1e-15));

  // "set" as --set: twice the requests, twice the tokens served; a number as a JSON number.
  answer = api_post(api, "/api/solve",
                    {{"example", "sardana_cost"}, {"set", {{"inference.requests", 2e10}}}});
  REQUIRE(answer.status == 200);
  CHECK(api_json(answer).at("inference_tokens").get<double>() == Approx(2.5e13).epsilon(1e-15));

  // The same scenario posted as text: the same numbers, under the posted name.
  const ApiAnswer posted =
      api_post(api, "/api/solve", {{"scenario", read_file(example("sardana_cost.toml"))}});
  REQUIRE(posted.status == 200);
  j = api_json(posted);
  CHECK(j.at("scenario") == "posted scenario");
  CHECK(j.at("params").get<double>() == Approx(2.053e10).epsilon(5e-4));
}

TEST_CASE("serve: the scenario given on the command line answers a body naming none", "[serve]") {
  const Api api{ServeOptions{},
                ServedScenario{"mine.toml", read_file(example("sardana_cost.toml"))}};
  const ApiAnswer answer = api_post(api, "/api/solve", json::object());
  REQUIRE(answer.status == 200);
  CHECK(api_json(answer).at("scenario") == "mine.toml");
  CHECK(api_json(api.handle("GET", "/api/examples", "")).at("served") == "mine.toml");
  // Without one, such a body is refused.
  CHECK(api_post(Api{ServeOptions{}}, "/api/solve", json::object()).status == 400);
}

TEST_CASE("serve: bad requests are 400 with one line naming what is wrong", "[serve]") {
  const Api api{ServeOptions{}};
  const auto refused = [&](const std::string& body, const std::string& says,
                           const std::string& path = "/api/solve") {
    const ApiAnswer answer = api.handle("POST", path, body);
    CHECK(answer.status == 400);
    const std::string error = api_error(answer);
    CHECK(error.find('\n') == std::string::npos);
    INFO(error);
    CHECK(error.find(says) != std::string::npos);
  };
  refused("", "empty");
  refused("{", "not JSON");
  refused("\"x\"", "object");
  refused(std::string(1000, '[') + std::string(1000, ']'), "nested");
  refused(R"({"example": "sardana_cost", "scenario": "x"})", "not both");
  refused(R"({"example": "../examples/sardana_cost"})", "unknown example");
  refused(R"({"example": ["sardana_cost"]})", "example: expected a string");
  refused(R"({"example": "sardana_cost", "set": [1]})", "set: expected an object");
  refused(R"({"example": "sardana_cost", "set": {"training.mfu": null}})", "training.mfu");
  refused(R"({"example": "sardana_cost", "set": {"no.such.key": 1}})", "unknown key");
  refused(R"({"example": "sardana_cost", "set": {"a=b": 1}})", "'='");
  refused(R"({"example": "sardana_cost", "set": {"training.mfu": 7}})", "training.mfu");
  refused(R"({"example": "sardana_cost", "vary": "x"})", "unknown key");
  // A posted scenario may not name a file, in its text or through "set".
  refused(R"({"scenario": "[law]\nfile = \"/etc/passwd\"\n"})", "law.file");
  refused(R"({"example": "sardana_cost", "set": {"law.file": "/etc/passwd"}})", "law.file");
  // Keys as deep as the loader refuses in a file.
  std::string deep = "a";
  for (int i = 0; i < 60'000; ++i) deep += ".a";
  refused(json{{"scenario", deep + " = 1\n"}}.dump(), "nested");
  refused(json{{"example", "sardana_cost"}, {"set", {{deep, 1}}}}.dump(), "unknown key");
  refused(R"({"example": "sardana_cost"})", "vary: required", "/api/sweep");
  refused(R"({"example": "sardana_cost", "vary": 3})", "vary", "/api/sweep");
  refused(R"({"example": "sardana_cost", "vary": "inference.requests=1e9..1e11:20000"})", "points",
          "/api/sweep");

  CHECK(api.handle("GET", "/api/solve", "").status == 405);
  CHECK(api.handle("POST", "/api/examples", "{}").status == 405);
  CHECK(api.handle("GET", "/etc/passwd", "").status == 404);
  // Invalid UTF-8 quoted in a message is replaced, not thrown over.
  const ApiAnswer bytes = api.handle("POST", "/api/solve", "{\"example\": \"\xff\xfe\"}");
  CHECK(bytes.status == 400);
}

TEST_CASE("serve: /api/sweep rows keyed like the CSV, on the grid asked for", "[serve]") {
  const Api api{ServeOptions{}};
  const ApiAnswer answer =
      api_post(api, "/api/sweep",
               {{"example", "sardana_cost"}, {"vary", "inference.requests=1e9..1e11:log:3"}});
  REQUIRE(answer.status == 200);
  const json j = api_json(answer);
  const json& rows = j.at("rows");
  REQUIRE(rows.size() == 3);
  const json& columns = j.at("columns");
  CHECK(columns[0] == "point");
  CHECK(columns[1] == "points");
  CHECK(columns[2] == "inference.requests");
  // A log axis from 1e9 to 1e11 in 3 points: 1e9, sqrt(1e9 * 1e11) = 1e10, 1e11 (the ends
  // exact, the middle within a few ulps of exp's rounding).
  const double expected[] = {1e9, 1e10, 1e11};
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(rows[i].size() == columns.size());
    CHECK(rows[i].at("point") == i);
    CHECK(rows[i].at("points") == 3);
    CHECK(rows[i].at("inference.requests").get<double>() == Approx(expected[i]).epsilon(1e-14));
    CHECK(rows[i].at("status") == "converged");
  }
  // The middle point is the example at 1e10 requests, the published optimum.
  CHECK(rows[1].at("params").get<double>() == Approx(2.053e10).epsilon(5e-4));
  // More requests served, a smaller model trained longer (Sardana et al.'s finding).
  CHECK(rows[2].at("params").get<double>() < rows[0].at("params").get<double>());

  // "PATH=LO:HI:COUNT" is the same grid as "PATH=LO..HI:COUNT".
  const ApiAnswer colons = api_post(
      api, "/api/sweep", {{"example", "sardana_cost"}, {"vary", "inference.requests=1e9:1e11:4"}});
  const ApiAnswer dots = api_post(
      api, "/api/sweep", {{"example", "sardana_cost"}, {"vary", "inference.requests=1e9..1e11:4"}});
  REQUIRE(colons.status == 200);
  CHECK(colons.body == dots.body);
  CHECK(api_json(colons).at("rows")[1].at("inference.requests").get<double>() ==
        Approx(1e9 + (1e11 - 1e9) / 3).epsilon(1e-15));
}

TEST_CASE("serve: a request past its time limit is 503", "[serve]") {
  ServeOptions options;
  options.time_limit = std::chrono::milliseconds{0};  // past before the first point
  const Api api{options};
  const ApiAnswer answer =
      api_post(api, "/api/sweep",
               {{"example", "sardana_cost"}, {"vary", "inference.requests=1e9..1e11:50"}});
  CHECK(answer.status == 503);
  CHECK(api_error(answer).find("time limit") != std::string::npos);
}

TEST_CASE("serve: the task queue refuses on its own thread once full", "[serve]") {
  BoundedTaskQueue queue(1, 1);  // one worker, one connection waiting
  std::mutex mutex;
  std::condition_variable released;
  bool release = false;
  std::atomic<int> refused{0}, served{0};
  const auto job = [&] {
    if (queue.refusing()) {
      ++refused;
      return;
    }
    std::unique_lock lock(mutex);
    released.wait(lock, [&] { return release; });
    ++served;
  };
  queue.enqueue(job);  // taken by the worker, which blocks
  // Until the worker has taken it, the first job may still be waiting.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  queue.enqueue(job);  // waits
  queue.enqueue(job);  // the queue is full: refused
  queue.enqueue(job);  // refused
  for (int i = 0; i < 200 && refused < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(refused == 2);
  CHECK(served == 0);
  {
    const std::lock_guard lock(mutex);
    release = true;
  }
  released.notify_all();
  queue.shutdown();
  CHECK(served == 2);
  CHECK(refused == 2);
  CHECK_FALSE(queue.refusing());
}

TEST_CASE("serve: /api/example gives a bundled example's TOML by name only", "[serve]") {
  const Api api{ServeOptions{}};
  const ApiAnswer answer = api.handle("GET", "/api/example", "", {{"name", "sardana_cost"}});
  REQUIRE(answer.status == 200);
  const json j = api_json(answer);
  CHECK(j.at("file") == "examples/sardana_cost.toml");
  // The text of the file in the source tree, byte for byte.
  CHECK(j.at("text") == read_file(example("sardana_cost.toml")));
  CHECK(api.handle("GET", "/api/example", "", {{"name", "../examples/sardana_cost"}}).status ==
        400);
  CHECK(api.handle("GET", "/api/example", "", {{"name", "/etc/passwd"}}).status == 400);
  CHECK(api.handle("GET", "/api/example", "").status == 400);
  CHECK(api.handle("GET", "/api/example", "", {{"file", "sardana_cost"}}).status == 400);
  CHECK(api.handle("GET", "/api/example", "", {{"name", "a"}, {"name", "b"}}).status == 400);
  CHECK(api.handle("POST", "/api/example", "{}").status == 405);
  // A misspelt parameter of a GET that takes none is refused, not ignored.
  CHECK(api.handle("GET", "/api/examples", "", {{"nmae", "x"}}).status == 400);
}

TEST_CASE("serve: /api/served gives the command line's scenario, 404 without", "[serve]") {
  const std::string text = read_file(example("sardana_cost.toml"));
  const Api served{ServeOptions{}, ServedScenario{"mine.toml", text}};
  const ApiAnswer answer = served.handle("GET", "/api/served", "");
  REQUIRE(answer.status == 200);
  CHECK(api_json(answer).at("file") == "mine.toml");
  CHECK(api_json(answer).at("text") == text);
  CHECK(Api{ServeOptions{}}.handle("GET", "/api/served", "").status == 404);
}

TEST_CASE("serve: /api/keys lists the registry with units, defaults and ranges", "[serve]") {
  const Api api{ServeOptions{}};
  const ApiAnswer answer = api.handle("GET", "/api/keys", "");
  REQUIRE(answer.status == 200);
  const json j = api_json(answer);
  const auto key = [&](const std::string& path) {
    for (const json& k : j.at("keys")) {
      if (k.at("path") == path) return k;
    }
    FAIL("no key " << path);
    return json();
  };
  // docs/scenario.md: training.mfu is a number in [0.001, 1] whose default 0.4 is assumed, on a
  // linear slider; inference.rate a rate (stored per second) that spans decades.
  const json mfu = key("training.mfu");
  CHECK(mfu.at("kind") == "number");
  CHECK(mfu.at("unit") == "number");
  CHECK(mfu.at("assumed") == true);
  CHECK(mfu.at("default") == "0.4");
  CHECK(mfu.at("range").at("lower") == 0.001);
  CHECK(mfu.at("range").at("upper") == 1.0);
  CHECK(mfu.at("log_scale") == false);
  const json rate = key("inference.rate");
  CHECK(rate.at("unit") == "1/s");
  CHECK(rate.at("log_scale") == true);
  CHECK(rate.at("range").at("upper").is_null());  // no upper bound: infinity is null in JSON
  // A menu: the catalog's chips.
  const json hardware = key("training.hardware");
  CHECK(hardware.at("kind") == "text");
  const std::vector<std::string> chips = hardware.at("choices");
  CHECK(std::find(chips.begin(), chips.end(), "h100-sxm") != chips.end());
  CHECK(std::find(chips.begin(), chips.end(), "b200") != chips.end());
  CHECK(api.handle("POST", "/api/keys", "{}").status == 405);
}

TEST_CASE("serve: /api/inputs gives a scenario's inputs with their values", "[serve]") {
  const Api api{ServeOptions{}};
  const auto input = [](const json& j, const std::string& path) {
    for (const json& i : j.at("inputs")) {
      if (i.at("path") == path) return i;
    }
    FAIL("no input " << path);
    return json();
  };
  // examples/frontier_100x.toml: rate = "50M/s" (5e7 per second), mfu = 0.4 given,
  // training.goodput not given (its default 1 is listed as assumed), the chips h100-sxm.
  ApiAnswer answer = api_post(api, "/api/inputs", {{"example", "frontier_100x"}});
  REQUIRE(answer.status == 200);
  json j = api_json(answer);
  CHECK(j.at("scenario") == "examples/frontier_100x.toml");
  CHECK(input(j, "inference.rate").at("value") == 5e7);
  CHECK(input(j, "inference.rate").at("given") == true);
  CHECK(input(j, "training.mfu").at("value") == 0.4);
  CHECK(input(j, "training.mfu").at("assumed") == false);
  CHECK(input(j, "training.goodput").at("assumed") == true);
  CHECK(input(j, "training.goodput").at("value") == 1.0);
  // The chip's own fields, from the catalog: the H100 SXM datasheet's 80 GB
  // (costmodel/data/hardware.toml, decimal GB).
  CHECK(input(j, "hardware.h100-sxm.hbm").at("value") == 80e9);
  bool law_menu = false;
  for (const json& menu : j.at("menus")) {
    if (menu.at("path") == "training.hardware") CHECK(menu.at("value") == "h100-sxm");
    if (menu.at("path") == "law.preset") {
      law_menu = true;
      CHECK(menu.at("value") == "epoch2024");
    }
  }
  CHECK(law_menu);

  // With "set" as /api/solve takes it: a value with its unit, read as the file would read it.
  answer = api_post(api, "/api/inputs",
                    {{"example", "frontier_100x"},
                     {"set", {{"inference.rate", "100M/s"}, {"inference.hardware", "b200"}}}});
  REQUIRE(answer.status == 200);
  j = api_json(answer);
  CHECK(input(j, "inference.rate").at("value") == 1e8);
  CHECK(input(j, "hardware.b200.hbm").at("value").get<double>() > 0.0);
  // Bad values are the same 400 as /api/solve's.
  const ApiAnswer bad = api_post(
      api, "/api/inputs", {{"example", "frontier_100x"}, {"set", {{"inference.rate", "x"}}}});
  CHECK(bad.status == 400);
  CHECK(api_error(bad) ==
        api_error(api_post(api, "/api/solve",
                           {{"example", "frontier_100x"}, {"set", {{"inference.rate", "x"}}}})));
}

TEST_CASE("serve: /api/sweep gives only the columns asked for", "[serve]") {
  const Api api{ServeOptions{}};
  const json all = api_json(
      api_post(api, "/api/sweep",
               {{"example", "sardana_cost"}, {"vary", "inference.requests=1e9..1e11:log:3"}}));
  // Asked in another order than the CSV's: given in the CSV's.
  const ApiAnswer answer = api_post(api, "/api/sweep",
                                    {{"example", "sardana_cost"},
                                     {"vary", "inference.requests=1e9..1e11:log:3"},
                                     {"columns", {"pretrain_tokens", "params"}}});
  REQUIRE(answer.status == 200);
  const json j = api_json(answer);
  CHECK(j.at("columns") ==
        json({"point", "points", "inference.requests", "params", "pretrain_tokens"}));
  REQUIRE(j.at("rows").size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const json& row = j.at("rows")[i];
    CHECK(row.size() == 5);
    // The same points as the full answer's: the filter drops keys, it computes nothing.
    for (const char* key : {"point", "inference.requests", "params", "pretrain_tokens"}) {
      CHECK(row.at(key) == all.at("rows")[i].at(key));
    }
  }
  // The middle point is the published optimum (Sardana et al. 2024, N = 2.053e10).
  CHECK(j.at("rows")[1].at("params").get<double>() == Approx(2.053e10).epsilon(5e-4));

  const auto refused = [&](const json& columns, const std::string& says) {
    const ApiAnswer bad = api_post(api, "/api/sweep",
                                   {{"example", "sardana_cost"},
                                    {"vary", "inference.requests=1e9..1e11:log:3"},
                                    {"columns", columns}});
    CHECK(bad.status == 400);
    INFO(api_error(bad));
    CHECK(api_error(bad).find(says) != std::string::npos);
  };
  refused({"parms"}, "'parms' is not a column of this sweep");
  // optimum.* are columns of equal-cost sweeps only.
  refused({"optimum.params"}, "not a column");
  refused(json::array(), "non-empty list");
  refused("params", "non-empty list");
  refused({1}, "list of strings");
}
