// Files from someone else and outputs into shared folders (docs/reliability.md, "Hostile
// input"): an output never overwrites a file being read and never replaces a device, a FIFO or
// a symbolic link; bad names are one line and exit 2, never a crash; every input is read with
// a size limit and a pipe never hangs. tests/hostile_files.sh drives the real executable over
// the same kinds of cases, as a user without root's permissions too.

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_runner.hpp"
#include "file_text.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/input_file.hpp"
#include "temp_file.hpp"

namespace {

namespace fs = std::filesystem;

std::string source(const std::string& relative) {
  return std::string(SCALEOPT_SOURCE_DIR) + "/" + relative;
}

// Every name under `dir` with its type: what a failed command must leave as it was.
std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const auto type = entry.symlink_status().type();
    names.insert(entry.path().lexically_relative(dir).string() + " " +
                 std::to_string(static_cast<int>(type)));
  }
  return names;
}

bool is_fifo(const std::string& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && S_ISFIFO(status.st_mode);
}

bool is_character_device(const std::string& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && S_ISCHR(status.st_mode);
}

// 130 points: three blocks of 64, so shards 1/2 and 2/2 both have rows.
std::vector<std::string> sweep_args(const std::string& scenario, const std::string& out) {
  return {"sweep", scenario, "--vary", "inference.requests=1e8..1e12:log:130", "--out", out};
}

std::vector<std::string> fit_flops_args(const std::string& runs) {
  return {"fit", runs, "--params-col", "N", "--flops-col", "C", "--loss-col", "loss"};
}

// The files of a shared folder: scenarios, runs and two shards of a sweep.
struct Fixture {
  TempDir dir;
  std::string scenario, uncertain, serving, runs, shard_a, shard_b;
  explicit Fixture(const std::string& name)
      : dir(name),
        scenario(dir.file("s.toml")),
        uncertain(dir.file("u.toml")),
        serving(dir.file("g.toml")),
        runs(dir.file("runs.csv")),
        shard_a(dir.file("a.csv")),
        shard_b(dir.file("b.csv")) {
    fs::copy_file(source("examples/sardana_cost.toml"), scenario);
    fs::copy_file(source("examples/frontier_uncertain.toml"), uncertain);
    fs::copy_file(source("examples/gemini_200k.toml"), serving);
    // Epoch's runs, their columns renamed to one word each for fit_flops_args.
    std::string epoch = read_file(source("tests/data/chinchilla_fig4_epoch.csv"));
    write_text(runs, "x,y,color,N,C,hex_color,loss" + epoch.substr(epoch.find('\n')));
    auto shard = [&](const std::string& out, const char* which) {
      auto args = sweep_args(scenario, out);
      args.insert(args.end(), {"--shard", which});
      REQUIRE(run_cli(args).status == 0);
    };
    shard(shard_a, "1/2");
    shard(shard_b, "2/2");
  }
  std::string merged() const {
    const CliRun run = run_cli({"merge", shard_a, shard_b, "-o", dir.file("reference.csv")});
    REQUIRE(run.status == 0);
    std::string text = read_file(dir.file("reference.csv"));
    fs::remove(dir.file("reference.csv"));
    return text;
  }
};

struct RefusedCase {
  std::vector<std::string> args;
  std::string message;  // stderr after "scaleopt: error: "
};

void check_refused(const std::vector<RefusedCase>& cases, const fs::path& dir) {
  for (const RefusedCase& c : cases) {
    const auto before = listing(dir);
    const CliRun run = run_cli(c.args);
    INFO(c.args[0] << " " << c.args[1] << ": " << run.err);
    CHECK(is_one_line_error(run));
    CHECK(run.err == "scaleopt: error: " + c.message + "\n");
    CHECK(listing(dir) == before);
  }
}

}  // namespace

TEST_CASE("outputs: a file being read is refused as an output, by any name", "[files]") {
  Fixture f("same_file");
  const std::string dir = f.dir.path.string();
  fs::create_symlink(f.scenario, f.dir.file("s.link"));
  fs::create_hard_link(f.scenario, f.dir.file("s.hard"));
  fs::create_directory(f.dir.file("sub"));
  fs::create_symlink(f.scenario, f.dir.file("s.svg"));
  fs::create_symlink(f.scenario, f.dir.file("s.html"));
  fs::create_symlink(f.shard_a, f.dir.file("a.svg"));
  fs::create_hard_link(f.shard_b, f.dir.file("b.hard"));
  // A scenario named like the partial file of --out t, and one named like plot's script.
  fs::copy_file(f.scenario, f.dir.file("t.partial"));
  fs::create_directory(f.dir.file("scripts"));
  fs::copy_file(f.scenario, f.dir.file("scripts/isoloss.gp"));
  const std::string scenario_text = read_file(f.scenario);
  const std::string uncertain_text = read_file(f.uncertain);
  const std::string serving_text = read_file(f.serving);
  const std::string runs_text = read_file(f.runs);
  const std::string a_text = read_file(f.shard_a);
  const std::string b_text = read_file(f.shard_b);

  auto fit_emit = fit_flops_args(f.runs);
  fit_emit.insert(fit_emit.end(), {"--emit-law", f.runs});
  const std::string read_as = " being read; choose another output";
  check_refused(
      {
          {sweep_args(f.scenario, f.scenario),
           "--out: " + f.scenario + " is the scenario file" + read_as},
          {sweep_args(f.scenario, dir + "/sub/../s.toml"),
           "--out: " + dir + "/sub/../s.toml is the scenario file" + read_as},
          {sweep_args(f.scenario, f.dir.file("s.link")),
           "--out: " + f.dir.file("s.link") + " is the scenario file" + read_as},
          {sweep_args(f.scenario, f.dir.file("s.hard")),
           "--out: " + f.dir.file("s.hard") + " is the scenario file" + read_as},
          {sweep_args(f.dir.file("t.partial"), f.dir.file("t")),
           "--out: " + f.dir.file("t.partial") + " is the scenario file" + read_as},
          {{"uncertainty", f.uncertain, "--samples", "10", "--out", f.uncertain},
           "--out: " + f.uncertain + " is the scenario file" + read_as},
          {fit_emit, "--emit-law: " + f.runs + " is the runs file" + read_as},
          {{"merge", f.shard_a, f.shard_b, "-o", f.shard_a},
           "--out: " + f.shard_a + " is one of the shards" + read_as},
          {{"merge", f.shard_a, f.shard_b, "-o", f.dir.file("b.hard")},
           "--out: " + f.dir.file("b.hard") + " is one of the shards" + read_as},
          {{"pricing", "curve", f.serving, "--out", f.serving},
           "--out: " + f.serving + " is the scenario file" + read_as},
          {{"plot", "isoloss", f.scenario, "--out", f.dir.file("s.svg")},
           "--out: " + f.dir.file("s.svg") + " is the scenario file" + read_as},
          {{"plot", "sweep", f.shard_a, "--out", f.dir.file("a.svg")},
           "--out: " + f.dir.file("a.svg") + " is the sweep file" + read_as},
          {{"plot", "isoloss", f.dir.file("scripts/isoloss.gp"), "--script", f.dir.file("scripts"),
            "--out", "isoloss.svg"},
           "--script: " + f.dir.file("scripts/isoloss.gp") + " is the scenario file" + read_as},
          {{"report", f.scenario, "--out", f.dir.file("s.html")},
           "--out: " + f.dir.file("s.html") + " is the scenario file" + read_as},
      },
      f.dir.path);
  CHECK(read_file(f.scenario) == scenario_text);
  CHECK(read_file(f.dir.file("t.partial")) == scenario_text);
  CHECK(read_file(f.dir.file("scripts/isoloss.gp")) == scenario_text);
  CHECK(read_file(f.uncertain) == uncertain_text);
  CHECK(read_file(f.serving) == serving_text);
  CHECK(read_file(f.runs) == runs_text);
  CHECK(read_file(f.shard_a) == a_text);
  CHECK(read_file(f.shard_b) == b_text);
  CHECK(fs::is_symlink(f.dir.file("s.link")));
  CHECK(fs::is_symlink(f.dir.file("s.svg")));
}

TEST_CASE("outputs: a FIFO is written in place, never replaced by a file", "[files]") {
  Fixture f("fifo_out");
  const std::string merged = f.merged();
  const std::string fifo = f.dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);

  SECTION("with a reader, the text goes through the FIFO") {
    // Opened before the command writes, without waiting for a writer, with a buffer that
    // holds the whole text, so the command finishes before anything is read.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    REQUIRE(reader >= 0);
    REQUIRE(::fcntl(reader, F_SETPIPE_SZ, 1 << 20) >= static_cast<int>(merged.size()));
    const CliRun run = run_cli({"merge", f.shard_a, f.shard_b, "-o", fifo});
    CHECK(run.status == 0);
    std::string got(1 << 20, '\0');
    const ssize_t n = ::read(reader, got.data(), got.size());
    ::close(reader);
    got.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    CHECK(got == merged);
    CHECK(is_fifo(fifo));
  }
  SECTION("without a reader, one line at once instead of waiting for ever") {
    const auto before = listing(f.dir.path);
    const CliRun run = run_cli({"merge", f.shard_a, f.shard_b, "-o", fifo});
    CHECK(is_one_line_error(run));
    CHECK(run.err ==
          "scaleopt: error: --out: cannot write " + fifo + ": a FIFO that no process is reading\n");
    CHECK(listing(f.dir.path) == before);
  }
  SECTION("a sweep, whose rows wait in OUT.partial beside OUT, refuses it") {
    const auto before = listing(f.dir.path);
    const CliRun run = run_cli(sweep_args(f.scenario, fifo));
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::StartsWith("scaleopt: error: --out: " + fifo +
                                          " is not a regular file (a device or FIFO)"));
    CHECK(listing(f.dir.path) == before);
    CHECK(is_fifo(fifo));
  }
}

TEST_CASE("outputs: a device is written in place; a full one is a one-line error", "[files]") {
  Fixture f("device_out");
  // Devices made for this test, beside its files: the system's /dev/null and /dev/full are
  // never at risk, even if the code under test did replace its target.
  const std::string null_device = f.dir.file("null");
  const std::string full_device = f.dir.file("full");
  if (::mknod(null_device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full_device.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
    WARN("cannot make device nodes here (needs CAP_MKNOD): device outputs not tested");
    return;
  }
  const CliRun to_null = run_cli({"merge", f.shard_a, f.shard_b, "-o", null_device});
  CHECK(to_null.status == 0);
  CHECK(is_character_device(null_device));

  const auto before = listing(f.dir.path);
  const CliRun to_full = run_cli({"merge", f.shard_a, f.shard_b, "-o", full_device});
  CHECK(is_one_line_error(to_full));
  CHECK(to_full.err ==
        "scaleopt: error: --out: cannot write " + full_device + ": No space left on device\n");
  CHECK(is_character_device(full_device));
  CHECK(listing(f.dir.path) == before);
}

TEST_CASE("outputs: a symbolic link is written through, the link kept", "[files]") {
  Fixture f("link_out");
  const std::string merged = f.merged();
  const std::string target = f.dir.file("target.csv");
  const std::string link = f.dir.file("link.csv");
  write_text(target, "old\n");
  fs::create_symlink(target, link);
  const CliRun run = run_cli({"merge", f.shard_a, f.shard_b, "-o", link});
  CHECK(run.status == 0);
  CHECK(fs::is_symlink(link));
  CHECK(read_file(target) == merged);

  // The same through a sweep, whose rows are renamed into place from OUT.partial otherwise.
  write_text(target, "old\n");
  CHECK(run_cli(sweep_args(f.scenario, link)).status == 0);
  CHECK(fs::is_symlink(link));
  CHECK(read_file(target) == merged);
  CHECK_FALSE(fs::exists(link + ".partial"));
}

TEST_CASE("outputs: bad names are one line and exit 2, never a crash, and leave nothing",
          "[files]") {
  Fixture f("bad_output_names");
  const std::string dir = f.dir.path.string();
  const std::string long_name = f.dir.file(std::string(300, 'x'));  // longer than NAME_MAX
  const std::string loop = f.dir.file("loop");
  fs::create_symlink(loop, loop);
  fs::create_symlink(f.dir.file("loop.svg"), f.dir.file("loop.svg"));
  fs::create_symlink(f.dir.file("loop.html"), f.dir.file("loop.html"));
  fs::create_symlink(f.dir.file("nothing.csv"), f.dir.file("dangling.csv"));
  fs::create_directory(f.dir.file("folder.csv"));
  const std::string too_long = ": File name too long";
  const std::string looping = ": Too many levels of symbolic links";
  auto fit_emit = [&](const std::string& law) {
    auto args = fit_flops_args(f.runs);
    args.insert(args.end(), {"--emit-law", law});
    return args;
  };
  check_refused(
      {
          {sweep_args(f.scenario, long_name), "--out: cannot write " + long_name + too_long},
          {sweep_args(f.scenario, loop), "--out: cannot write " + loop + looping},
          {sweep_args(f.scenario, f.dir.file("folder.csv")),
           "--out: cannot write " + f.dir.file("folder.csv") + ": it is a directory"},
          {sweep_args(f.scenario, f.dir.file("no/such/out.csv")),
           "--out: cannot write " + f.dir.file("no/such/out.csv") + ": No such file or directory"},
          {sweep_args(f.scenario, ""), "--out: empty file name (see scaleopt --help)"},
          {{"merge", f.shard_a, "-o", long_name}, "--out: cannot write " + long_name + too_long},
          {{"merge", f.shard_a, "-o", loop}, "--out: cannot write " + loop + looping},
          {{"merge", f.shard_a, "-o", f.dir.file("dangling.csv")},
           "--out: cannot write " + f.dir.file("dangling.csv") +
               ": a symbolic link to a file that does not exist"},
          {{"merge", f.shard_a, "-o", ""}, "--out: empty file name (see scaleopt --help)"},
          {{"uncertainty", f.uncertain, "--samples", "10", "--out", long_name},
           "--out: cannot write " + long_name + too_long},
          {{"uncertainty", f.uncertain, "--samples", "10", "--out", loop},
           "--out: cannot write " + loop + looping},
          {{"uncertainty", f.uncertain, "--out", ""},
           "--out: empty file name (see scaleopt --help)"},
          {fit_emit(long_name), "--emit-law: cannot write " + long_name + too_long},
          {fit_emit(loop), "--emit-law: cannot write " + loop + looping},
          {fit_emit(""), "--emit-law: empty file name (see scaleopt --help)"},
          {{"pricing", "curve", f.serving, "--out", loop}, "--out: cannot write " + loop + looping},
          {{"pricing", "curve", f.serving, "--out", ""},
           "--out: empty file name (see scaleopt --help)"},
          {{"plot", "isoloss", f.scenario, "--out", long_name + ".svg"},
           "--out: cannot write " + long_name + ".svg" + too_long},
          {{"plot", "isoloss", f.scenario, "--out", f.dir.file("loop.svg")},
           "--out: cannot write " + f.dir.file("loop.svg") + looping},
          {{"report", f.scenario, "--out", f.dir.file("loop.html")},
           "--out: cannot write " + f.dir.file("loop.html") + looping},
          {{"report", f.scenario, "--out", long_name + ".html"},
           "--out: cannot write " + long_name + ".html" + too_long},
      },
      f.dir.path);
}

TEST_CASE("outputs: a name just within NAME_MAX is written (its temporary name is cut)",
          "[files]") {
  Fixture f("name_max_output");
  const std::string name = f.dir.file(std::string(255, 'y'));
  const CliRun run = run_cli({"merge", f.shard_a, f.shard_b, "-o", name});
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK(read_file(name) == f.merged());
}

TEST_CASE("plot --script creates only the last folder of its path", "[files]") {
  Fixture f("script_folder");
  const std::string deep = f.dir.file("missing/child");
  const auto before = listing(f.dir.path);
  const CliRun refused =
      run_cli({"plot", "isoloss", f.scenario, "--script", deep, "--out", "isoloss.svg"});
  CHECK(is_one_line_error(refused));
  CHECK(refused.err == "scaleopt: error: --script: cannot create " + deep +
                           ": its parent directory does not exist (only the last directory of "
                           "the path is created)\n");
  CHECK(listing(f.dir.path) == before);

  const std::string fresh = f.dir.file("fresh");
  const CliRun made =
      run_cli({"plot", "isoloss", f.scenario, "--script", fresh, "--out", "isoloss.svg"});
  INFO(made.err);
  CHECK(made.status == 0);
  CHECK(fs::exists(fresh + "/isoloss.gp"));
}

TEST_CASE("inputs: a directory, a loop, a long or missing name are one line naming the path",
          "[files]") {
  Fixture f("bad_inputs");
  const std::string folder = f.dir.file("folder");
  fs::create_directory(folder);
  const std::string loop = f.dir.file("loop");
  fs::create_symlink(loop, loop);
  const std::string long_name = f.dir.file(std::string(300, 'z'));
  const std::string out = f.dir.file("out.csv");
  const std::string is_dir = ": is a directory, not a file";
  auto with_vary = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--vary", "inference.requests=1e8..1e12:3", "--out", out});
    return args;
  };
  check_refused(
      {
          {{"cost", folder}, folder + is_dir},
          {{"solve", folder}, folder + is_dir},
          {{"sensitivity", folder}, folder + is_dir},
          {{"uncertainty", folder}, folder + is_dir},
          {with_vary({"sweep", folder}), folder + is_dir},
          {{"pricing", "curve", folder}, folder + is_dir},
          {{"pricing", "ratio", folder}, folder + is_dir},
          {{"plot", "isoloss", folder, "--out", f.dir.file("p.svg")}, folder + is_dir},
          {{"plot", "sweep", folder, "--out", f.dir.file("p.svg")}, folder + is_dir},
          {{"report", folder, "--out", f.dir.file("r.html")}, folder + is_dir},
          {fit_flops_args(folder), folder + is_dir},
          {{"merge", f.shard_a, folder, "-o", out}, folder + is_dir},
          {{"optimal", "--compute", "1e24", "--law-file", folder},
           "--law-file: " + folder + is_dir},
          {{"cost", loop}, loop + ": cannot open the file (Too many levels of symbolic links)"},
          {{"merge", loop, "-o", out},
           loop + ": cannot open the file (Too many levels of symbolic links)"},
          {{"cost", long_name}, long_name + ": cannot open the file (File name too long)"},
          {fit_flops_args(long_name), long_name + ": cannot open the file (File name too long)"},
          {{"cost", f.dir.file("missing.toml")},
           f.dir.file("missing.toml") + ": cannot open the file (No such file or directory)"},
      },
      f.dir.path);
}

TEST_CASE("inputs: each kind of file is read up to its limit, named in the refusal", "[files]") {
  TempDir dir("input_limits");
  // Sparse files just over each limit: refused from their size, before a byte is read.
  auto sparse = [&](const std::string& name, std::uintmax_t size) {
    const std::string path = dir.file(name);
    write_text(path, "");
    fs::resize_file(path, size);
    return path;
  };
  const std::string scenario = sparse("big.toml", (std::uintmax_t{4} << 20) + 1);
  const std::string runs = sparse("big.csv", (std::uintmax_t{256} << 20) + 1);
  const std::string shard = sparse("big_shard.csv", (std::uintmax_t{4} << 30) + 1);
  check_refused(
      {
          {{"cost", scenario},
           scenario + ": larger than 4 MiB, the limit for a scenario or law file (TOML): is it "
                      "the right file?"},
          {{"optimal", "--compute", "1e24", "--law-file", scenario},
           "--law-file: " + scenario +
               ": larger than 4 MiB, the limit for a scenario or law file (TOML): is it the "
               "right file?"},
          {fit_flops_args(runs), runs +
                                     ": larger than 256 MiB, the limit for a file of training runs "
                                     "(CSV): is it the right file?"},
          // merge streams its shards (a shard may pass 4 GiB): its bound is the length of a
          // line, and these zeros are one line.
          {{"merge", shard, "-o", dir.file("out.csv")},
           shard + ":1: a line longer than 1 MiB: is it the right file?"},
          {{"plot", "sweep", shard, "--out", dir.file("out.svg")},
           shard + ": larger than 4 GiB, the limit for a sweep file (CSV): is it the right "
                   "file?"},
          // A device without end is read up to the limit only.
          {{"cost", "/dev/zero"},
           "/dev/zero: larger than 4 MiB, the limit for a scenario or law file (TOML): is it "
           "the right file?"},
      },
      dir.path);

  // At the limit exactly, the file is read (and found not to be TOML).
  const std::string at_limit = sparse("at_limit.toml", std::uintmax_t{4} << 20);
  const CliRun read = run_cli({"cost", at_limit});
  CHECK(is_one_line_error(read));
  CHECK_THAT(read.err, !Catch::Contains("larger than"));
}

TEST_CASE("inputs: a pipe or device is never waited on for ever", "[files]") {
  using scaleopt::kTomlInput;
  using scaleopt::read_input_file;
  TempDir dir("input_fifo");
  const std::string fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const auto start = std::chrono::steady_clock::now();
  // Nobody has it open for writing: it reads as empty, at once.
  CHECK(read_input_file(fifo, kTomlInput).empty());
  // A writer that says something and then nothing: given up after the silence allowed.
  const int writer = ::open(fifo.c_str(), O_RDWR);
  REQUIRE(writer >= 0);
  REQUIRE(::write(writer, "a = 1\n", 6) == 6);
  CHECK_THROWS_WITH(
      read_input_file(fifo, kTomlInput, "--law-file", std::chrono::milliseconds(100)),
      "--law-file: " + fifo + ": no data for 0.1 s (a pipe or device that nobody writes to?)");
  // Closed by its writer: what it wrote is the file (`holder` keeps the pipe, and so the
  // text, alive between the writer's close and the read).
  REQUIRE(::write(writer, "b = 2\n", 6) == 6);
  const int holder = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(holder >= 0);
  ::close(writer);
  CHECK(read_input_file(fifo, kTomlInput) == "b = 2\n");
  ::close(holder);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));

  // Through the command line: a FIFO nobody writes to is an empty scenario, not a hang.
  const CliRun run = run_cli({"cost", fifo});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::StartsWith("scaleopt: error: " + fifo + ": "));
}

TEST_CASE("sweep --resume: an OUT.partial that is a symbolic link is refused, its file untouched",
          "[files]") {
  Fixture f("partial_link");
  // Someone's file without a final newline: resuming through the link would cut its "unfinished
  // last line", that is all of it.
  const std::string theirs = f.dir.file("theirs.txt");
  write_text(theirs, "a note without a final newline");
  const std::string out = f.dir.file("out.csv");
  fs::create_symlink(theirs, out + ".partial");
  auto args = sweep_args(f.scenario, out);
  args.push_back("--resume");
  const auto before = listing(f.dir.path);
  const CliRun run = run_cli(args);
  CHECK(is_one_line_error(run));
  CHECK(run.err == "scaleopt: error: --out: " + out +
                       ".partial is not a regular file (a symbolic link, device or FIFO): "
                       "remove it\n");
  CHECK(listing(f.dir.path) == before);
  CHECK(read_file(theirs) == "a note without a final newline");
}
