// Reading training runs from CSV: named columns in any order, quoted cells, blank lines,
// and every malformed file refused with its line.

#include <catch2/catch.hpp>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/runs_csv.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

const RunsCsvColumns kTokenColumns{.params = "N", .tokens = "D", .flops = "", .loss = "loss"};

std::string error_reading(const std::string& path, const RunsCsvColumns& columns = kTokenColumns) {
  try {
    read_runs_csv(path, columns);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("runs are read by column name, with quotes, blank lines, CRLF and suffixes", "[csv]") {
  const TempFile file("good.csv",
                      "id,loss,\"N\", D ,note\r\n"
                      "a,2.5,70B,1.4T,\"first, with a comma\"\r\n"
                      "\r\n"
                      "b, 3.25 ,1e8,2000000000,x\r\n");
  const RunsCsv csv = read_runs_csv(file.path(), kTokenColumns);
  REQUIRE(csv.runs.size() == 2);
  CHECK(csv.runs[0].params == 70e9);
  CHECK(csv.runs[0].tokens == 1.4e12);
  CHECK(csv.runs[0].loss == 2.5);
  CHECK(csv.runs[1].params == 1e8);
  CHECK(csv.runs[1].tokens == 2e9);
  CHECK(csv.runs[1].loss == 3.25);
  CHECK(csv.last_line == 4);
}

TEST_CASE("with a compute column, D = C / (6 N)", "[csv]") {
  const TempFile file("flops.csv", "N,C,loss\n1e9,6e19,2.5\n");
  const RunsCsv csv =
      read_runs_csv(file.path(), {.params = "N", .tokens = "", .flops = "C", .loss = "loss"});
  REQUIRE(csv.runs.size() == 1);
  CHECK(csv.runs[0].tokens == Approx(1e10).epsilon(1e-15));
}

TEST_CASE("doubles are read correctly rounded", "[csv]") {
  // The parser's own float reader accumulates digits and is off in the last bits; cells go
  // through std::from_chars instead.
  const TempFile file("digits.csv", "N,D,loss\n6795600349.289497,9.993852799709755e+18,0.1\n");
  const RunsCsv csv = read_runs_csv(file.path(), kTokenColumns);
  CHECK(csv.runs[0].params == 6795600349.289497);
  CHECK(csv.runs[0].tokens == 9.993852799709755e+18);
  CHECK(csv.runs[0].loss == 0.1);
}

TEST_CASE("malformed CSV files are refused with the file, the line and the column", "[csv]") {
  const std::string header = "N,D,loss\n";
  const TempFile ragged_short("short.csv", header + "1e9,2e10,2.5\n1e9,2e10\n");
  CHECK(error_reading(ragged_short.path()) ==
        ragged_short.path() + ":3: ragged row: fewer cells than the header has columns");
  const TempFile ragged_long("long.csv", header + "1e9,2e10,2.5,7\n");
  CHECK(error_reading(ragged_long.path()) ==
        ragged_long.path() + ":2: ragged row: more cells than the header has columns");
  const TempFile text("text.csv", header + "1e9,2e10,2.5\n1e9,2e10,abc\n");
  CHECK_THAT(error_reading(text.path()),
             Catch::StartsWith(text.path() + ":3: column 'loss' (loss_col): cannot read 'abc'"));
  const TempFile empty_cell("empty_cell.csv", header + "1e9,,2.5\n");
  CHECK_THAT(error_reading(empty_cell.path()),
             Catch::StartsWith(empty_cell.path() + ":2: column 'D' (tokens_col): cannot read ''"));
  const TempFile zero("zero.csv", header + "1e9,2e10,2.5\n\n0,2e10,2.5\n");
  CHECK(error_reading(zero.path()) ==
        zero.path() + ":4: column 'N' (params_col): must be positive, got 0");
  const TempFile negative("negative.csv", header + "1e9,2e10,-2.5\n");
  CHECK(error_reading(negative.path()) ==
        negative.path() + ":2: column 'loss' (loss_col): must be positive, got -2.5");
  const TempFile infinite("infinite.csv", header + "1e9,inf,2.5\n");
  CHECK_THAT(error_reading(infinite.path()), Catch::StartsWith(infinite.path() + ":2: column 'D'"));
  const TempFile quote("quote.csv", header + "1e9,\"2e10,2.5\n");
  CHECK(error_reading(quote.path()) == quote.path() + ":2: a quoted cell is not closed");
}

TEST_CASE("headers without the named columns, and empty files, are refused", "[csv]") {
  const TempFile missing("missing.csv", "N,tokens,loss\n1e9,2e10,2.5\n");
  CHECK(error_reading(missing.path()) ==
        missing.path() + ":1: no column 'D' (named by tokens_col) in the header");
  const TempFile twice("twice.csv", "N,D,loss,D\n1e9,2e10,2.5,1\n");
  CHECK(error_reading(twice.path()) == twice.path() + ":1: column 'D' appears twice in the header");
  const TempFile empty("empty.csv", "");
  CHECK(error_reading(empty.path()) ==
        empty.path() + ":1: empty file: expected a header line naming the columns");
  const TempFile blank("blank.csv", "\n  \n");
  CHECK(error_reading(blank.path()) ==
        blank.path() + ":1: empty file: expected a header line naming the columns");
  const TempFile header_only("header_only.csv", "N,D,loss\n");
  CHECK(error_reading(header_only.path()) ==
        header_only.path() + ":1: no data rows after the header");
  CHECK_THAT(error_reading("no/such/runs.csv"),
             Catch::StartsWith("no/such/runs.csv: cannot open the file (No such file"));
}

TEST_CASE("column flags must name three different columns", "[csv]") {
  const TempFile file("flags.csv", "N,D,C,loss\n1e9,2e10,1.2e20,2.5\n");
  CHECK(error_reading(file.path(), {.params = "N", .tokens = "D", .flops = "C", .loss = "loss"}) ==
        "give exactly one of tokens_col (training tokens D) and flops_col (training compute "
        "C = 6 N D)");
  CHECK_THAT(error_reading(file.path(), {.params = "N", .tokens = "", .flops = "", .loss = "loss"}),
             Catch::StartsWith("give exactly one of tokens_col"));
  CHECK(error_reading(file.path(), {.params = "", .tokens = "D", .flops = "", .loss = "loss"}) ==
        "params_col: required (the column of model sizes N)");
  CHECK(error_reading(file.path(), {.params = "N", .tokens = "N", .flops = "", .loss = "loss"}) ==
        "tokens_col: same column as params_col ('N')");
  CHECK(
      error_reading(file.path(), {.params = "N", .tokens = "", .flops = "loss", .loss = "loss"}) ==
      "flops_col: same column as loss_col ('loss')");
}
