// The fitted range of each law preset, and every answer saying when it lies outside it: the
// Epoch refit's range against the runs it was fitted on (the digitised CSV, read here), the
// Hoffmann and Muennighoff ranges against the papers' own words, the factors by hand, and the
// command line's answers (solve, optimal) listing what is extrapolated, nothing inside.

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/law_reach.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

// The catalog rounds each extreme outward to 4 significant figures: within 1e-3 of the data.
constexpr double kRangeRounding = 1e-3;

struct DataExtremes {
  double min_params = 1e300, max_params = 0.0, min_tokens = 1e300, max_tokens = 0.0;
};

// examples/chinchilla_fig4_epoch.csv: columns ..., "Model Size", "Training FLOP", ...; the
// tokens are C / (6 N), as Besiroglu et al. fit them.
DataExtremes epoch_runs_from_csv() {
  std::ifstream in(example("chinchilla_fig4_epoch.csv"));
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  {
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) header.push_back(cell);
  }
  const auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t size_column = column("Model Size");
  const std::size_t flop_column = column("Training FLOP");
  DataExtremes x;
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    std::string cell;
    while (std::getline(row, cell, ',')) cells.push_back(cell);
    const double params = std::stod(cells.at(size_column));
    const double tokens = std::stod(cells.at(flop_column)) / (6.0 * params);
    x.min_params = std::min(x.min_params, params);
    x.max_params = std::max(x.max_params, params);
    x.min_tokens = std::min(x.min_tokens, tokens);
    x.max_tokens = std::max(x.max_tokens, tokens);
    ++rows;
  }
  CHECK(rows == 245);
  return x;
}

}  // namespace

TEST_CASE("epoch2024's fitted range is that of the 245 runs it was refitted on") {
  const DataExtremes data = epoch_runs_from_csv();
  const FittedRange range = *loss_law_preset("epoch2024").fitted_range;
  // Outward: every run inside, and each bound within the rounding of the data's extreme.
  CHECK(*range.min_params <= data.min_params);
  CHECK(*range.max_params >= data.max_params);
  CHECK(*range.min_tokens <= data.min_tokens);
  CHECK(*range.max_tokens >= data.max_tokens);
  CHECK(*range.min_params == Approx(data.min_params).epsilon(kRangeRounding));
  CHECK(*range.max_params == Approx(data.max_params).epsilon(kRangeRounding));
  CHECK(*range.min_tokens == Approx(data.min_tokens).epsilon(kRangeRounding));
  CHECK(*range.max_tokens == Approx(data.max_tokens).epsilon(kRangeRounding));
}

TEST_CASE("the Hoffmann and Muennighoff ranges are the papers' own") {
  // Hoffmann et al. 2022, section 3: "70 million to over 16 billion parameters on 5 to 500
  // billion tokens"; Sardana's preset and the Table A3 refit are Hoffmann's law.
  for (const char* name : {"hoffmann2022", "hoffmann2022-a3", "sardana2024"}) {
    INFO(name);
    const FittedRange range = *loss_law_preset(name).fitted_range;
    CHECK(*range.min_params == 70e6);
    CHECK(*range.max_params == 16e9);
    CHECK(*range.min_tokens == 5e9);
    CHECK(*range.max_tokens == 500e9);
  }
  // Muennighoff et al. 2023, abstract: "up to 900 billion training tokens and 9 billion
  // parameter models"; no lower bound stated.
  const FittedRange m = *loss_law_preset("muennighoff2023").fitted_range;
  CHECK_FALSE(m.min_params.has_value());
  CHECK_FALSE(m.min_tokens.has_value());
  CHECK(*m.max_params == 9e9);
  CHECK(*m.max_tokens == 900e9);
}

TEST_CASE("what lies outside a law's range, and by how much") {
  const LossLaw hoffmann = loss_law_preset("hoffmann2022");
  CHECK(extrapolations(hoffmann, 1e9, 20e9).empty());
  CHECK(extrapolations(hoffmann, 16e9, 500e9).empty());  // the bounds are inside

  const auto above = extrapolations(hoffmann, 100e9, 2e12);
  REQUIRE(above.size() == 2);
  CHECK(above[0].quantity == "params");
  CHECK(above[0].factor() == Approx(100.0 / 16.0).epsilon(1e-15));
  CHECK(above[1].quantity == "tokens");
  CHECK(above[1].factor() == Approx(2000.0 / 500.0).epsilon(1e-15));

  const auto below = extrapolations(hoffmann, 10e6, 1e9);
  REQUIRE(below.size() == 2);
  CHECK(below[0].factor() == Approx(70.0 / 10.0).epsilon(1e-15));
  CHECK(below[1].factor() == Approx(5.0).epsilon(1e-15));
  CHECK(extrapolation_text(below[0]) == "params 10M, 7x below 70M");

  // Muennighoff states no lower bound: a small model is not called an extrapolation.
  CHECK(extrapolations(loss_law_preset("muennighoff2023"), 1e6, 1e8).empty());

  // A law given by its coefficients has no range: nothing is listed, and the note says why.
  LossLaw custom = hoffmann;
  custom.name = "custom";
  custom.fitted_range.reset();
  CHECK(extrapolations(custom, 1e12, 1e15).empty());
  const auto notes = report::reach_notes(custom, 1e12, 1e15);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("not known") != std::string::npos);
}

TEST_CASE("answers list what they extrapolate, and nothing inside the range") {
  // 1e21 FLOPs on epoch2024's frontier: about 3B parameters and 60B tokens, inside.
  const CliRun inside = run_cli({"optimal", "--compute", "1e21", "--json"});
  REQUIRE(inside.status == 0);
  CHECK(inside.json()["extrapolated"].empty());
  CHECK(run_cli({"optimal", "--compute", "1e21"}).out.find("extrapolated") == std::string::npos);

  const CliRun outside = run_cli({"optimal", "--compute", "1e25", "--json"});
  REQUIRE(outside.status == 0);
  const auto answer = outside.json();
  REQUIRE(answer["extrapolated"].size() == 2);
  CHECK(answer["extrapolated"][0]["quantity"] == "params");
  CHECK(answer["extrapolated"][0]["value"].get<double>() == answer["params"].get<double>());
  CHECK(answer["extrapolated"][0]["factor"].get<double>() ==
        Approx(answer["params"].get<double>() / 16.19e9).epsilon(1e-12));
  CHECK(run_cli({"optimal", "--compute", "1e25"}).out.find("extrapolated") != std::string::npos);

  // The talk's frontier question: 100B parameters and hundreds of trillions of tokens.
  const CliRun solve = run_cli({"solve", example("frontier_100x.toml"), "--json"});
  REQUIRE(solve.status == 0);
  const auto solved = solve.json();
  REQUIRE(solved["extrapolated"].size() == 2);
  CHECK(solved["extrapolated"][0]["value"].get<double>() == solved["active_params"].get<double>());
  CHECK(solved["extrapolated"][1]["value"].get<double>() ==
        solved["pretrain_tokens"].get<double>());
  CHECK(solved["optimum"]["extrapolated"].size() == 2);
  CHECK_FALSE(solved["law"]["fitted_range"].is_null());
}

TEST_CASE("a fitted law keeps the range of its runs, through its law file") {
  const DataExtremes data = epoch_runs_from_csv();
  const TempDir dir("law_reach_fit");
  const std::string law_path = dir.file("fit.toml");
  const CliRun fit =
      run_cli({"fit", example("chinchilla_fig4_epoch.csv"), "--params-col", "Model Size",
               "--flops-col", "Training FLOP", "--loss-col", "loss", "--emit-law", law_path});
  REQUIRE(fit.status == 0);
  const LossLaw law = read_law_file(law_path);
  REQUIRE(law.fitted_range.has_value());
  // The same runs' extremes: D = C / (6 N) is computed the same way, within an ulp or two,
  // and the file prints 17 digits.
  CHECK(*law.fitted_range->min_params == Approx(data.min_params).epsilon(1e-15));
  CHECK(*law.fitted_range->max_params == Approx(data.max_params).epsilon(1e-15));
  CHECK(*law.fitted_range->min_tokens == Approx(data.min_tokens).epsilon(1e-14));
  CHECK(*law.fitted_range->max_tokens == Approx(data.max_tokens).epsilon(1e-14));

  const CliRun far = run_cli({"optimal", "--compute", "1e25", "--law-file", law_path, "--json"});
  REQUIRE(far.status == 0);
  CHECK(far.json()["extrapolated"].size() == 2);
}

TEST_CASE("a law file's fitted_range refuses bad bounds with the key named") {
  const TempDir dir("law_reach_bad");
  const std::string head = "[law]\nE = 1.8\nA = 480\nB = 2000\nalpha = 0.35\nbeta = 0.36\n";
  const std::pair<const char*, const char*> cases[] = {
      {"[law.fitted_range]\nmin_params = -1\n", "law.fitted_range.min_params"},
      {"[law.fitted_range]\nmax_tokens = \"1e400\"\n", "law.fitted_range.max_tokens"},
      {"[law.fitted_range]\nmin_params = 2e9\nmax_params = 1e9\n", "law.fitted_range.min_params"},
      {"[law.fitted_range]\nmax_param = 1e9\n", "law.fitted_range.max_param"},
  };
  for (const auto& [table, key] : cases) {
    INFO(table);
    const std::string path = dir.file("law.toml");
    std::ofstream(path) << head << table;
    try {
      read_law_file(path);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(key) != std::string::npos);
    }
  }
}

TEST_CASE("law_extrapolation: a column of every answer, by hand") {
  // The frontier answer's largest factor: the tokens', D / 317.8B for epoch2024.
  const CliRun solve = run_cli({"solve", example("frontier_100x.toml"), "--json"});
  REQUIRE(solve.status == 0);
  const auto j = solve.json();
  CHECK(j["law_extrapolation"].get<double>() ==
        Approx(j["pretrain_tokens"].get<double>() / 317.8e9).epsilon(1e-12));
  // Inside the range: 1.
  CHECK(law_extrapolation(loss_law_preset("hoffmann2022"), 1e9, 20e9) == 1.0);
  // A preset with its coefficients typed over is another law: no range, null with a reason.
  const CliRun typed =
      run_cli({"solve", example("sardana_cost.toml"), "--set", "law.alpha=0.34", "--json"});
  REQUIRE(typed.status == 0);
  const auto t = typed.json();
  CHECK(t["law"]["fitted_range"].is_null());
  CHECK(t["law_extrapolation"].is_null());
  CHECK(t["unavailable"]["law_extrapolation"].get<std::string>().find("no fitted range") !=
        std::string::npos);
  // A sweep's column.
  const TempDir dir("law_reach_sweep");
  const std::string out = dir.file("sweep.csv");
  REQUIRE(run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                   "inference.requests=1e8..1e12:log:3", "--out", out})
              .status == 0);
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("law_extrapolation") != std::string::npos);
}
