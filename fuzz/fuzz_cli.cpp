// Fuzzes the whole command line: `scaleopt::cli::run` in-process on an argv built from the
// input, every command and flag reachable (fuzz/cli.dict lists them). Input: the arguments,
// separated by NUL bytes. In an argument, @ and a capital letter stands for a fixture the
// target prepares once in a private temporary directory (so that inputs reach real files,
// and stay short):
//   @S a scenario (fixed MFUs: the fast path)   @G one priced by the roofline, with [pricing]
//   @U one with an [uncertainty] table          @K a long-context one (pricing long-context)
//   @Q a scenario whose file name, law name and price list are hostile (see @H and @N)
//   @C a sweep file written by `scaleopt sweep` @X a sweep file with hostile column names
//   @E an empty file   @D a directory   @M a missing file   @L a symlink loop
//   @W a name longer than NAME_MAX
//   @H hostile text: backticks, system() after a closing quote, a line break then !command,
//      each of which creates a canary file if anything runs it
//   @T the same as a TOML string (for --set KEY=@T)   @N a hostile file name (no '/')
// Invariants, for every argv:
//  - the exit status is 0, 1 or 2, and nothing but InputError's handling ends a command (any
//    other exception escaping `run` is a crash);
//  - status 2 means exactly one line on stderr and nothing on stdout;
//  - no canary file appears: no text from the input ever runs as a command (gnuplot draws the
//    figures of `plot` and `report` from scripts holding hostile text).
// Not run: `fit` (its 4,500 starts take seconds; fuzz_runs_csv fuzzes its reader).
// Containment: each run starts in an empty working directory inside the private one, with
// TMPDIR inside it too; an argument that could name a path outside (starting with '/' or '~',
// or going up with "..") is refused, as the fixtures are the only absolute paths. Counts that
// only make a run slower (--samples, --instances, --points, --starts, --threads,
// --max-evaluations, the points of --vary) are capped to small values, and the commands whose
// defaults are large (uncertainty: 10,000 samples; selftest: 10,000 instances) get small ones.

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_checks.hpp"
#include "scaleopt/cli/app.hpp"

namespace {

namespace fs = std::filesystem;
using scaleopt::fuzz::invariant_broken;

constexpr std::size_t kMaxArguments = 24;

struct Sandbox {
  fs::path root, fixtures, work, tmp;
  fs::path home;  // the directory the fuzzer runs in (its corpus and artifacts are relative)
  std::vector<std::pair<std::string, std::string>> macros;
  std::vector<fs::path> canaries;
  std::vector<std::pair<fs::path, std::string>> files;  // the fixture files and their text
};

Sandbox* sandbox = nullptr;  // made by the first input (libFuzzer has no setup hook we need)

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) invariant_broken("cannot write a fixture", path.string());
}

std::string read_text(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string toml_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A scenario of the examples (their text, read once from the source tree).
std::string example(const std::string& name) {
  const std::string text = read_text(fs::path(SCALEOPT_SOURCE_DIR) / "examples" / name);
  if (text.empty()) invariant_broken("example missing", name);
  return text;
}

// Runs the real command line once (to write a fixture); its failure is a broken fixture.
void run_or_abort(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  if (scaleopt::cli::run(args, out, err) != 0) {
    invariant_broken("a fixture command failed", err.str());
  }
}

Sandbox* prepare() {
  auto* s = new Sandbox;
  s->home = fs::current_path();
  std::string pattern = (fs::temp_directory_path() / "scaleopt-fuzz-cli-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) invariant_broken("mkdtemp failed", pattern);
  s->root = pattern;
  s->fixtures = s->root / "fixtures";
  s->work = s->root / "work";
  s->tmp = s->root / "tmp";
  for (const fs::path& dir : {s->fixtures, s->work, s->tmp, s->fixtures / "dir"}) {
    fs::create_directories(dir);
  }
  // gnuplot (and every temporary directory) works inside the sandbox: a command that escapes
  // with "cd .." lands in tmp/, one run from the working directory in work/.
  ::setenv("TMPDIR", s->tmp.c_str(), 1);
  s->canaries = {s->root / "CANARY", s->tmp / "CANARY", s->work / "CANARY", s->fixtures / "CANARY"};

  const std::string canary = (s->root / "CANARY").string();
  const std::string hostile = "it's \"q\" \\ %s %n 100% @x <b>&amp;]]>\n`touch " + canary +
                              "` '.system('touch " + canary + "').' \".system(\"touch " + canary +
                              "\").\"\n!touch " + canary + "\n$(touch " + canary + ")";
  const std::string name = "q'\"`cd ..;touch CANARY`'.system('cd ..;touch CANARY').'%s";

  const std::string sardana = example("sardana_cost.toml");
  write_text(s->fixtures / "scenario.toml", sardana);
  write_text(s->fixtures / "roofline.toml", example("gemini_200k.toml"));
  write_text(s->fixtures / "uncertain.toml", example("frontier_uncertain.toml"));
  write_text(s->fixtures / "long_context.toml", example("long_context_1m.toml"));
  // Every text field hostile, with what each figure and the report need: an architecture
  // (the serving roofline), a chip of its own (its id, with no '.', is in input paths), a price
  // list; no [uncertainty] table (the report would run 10,000 samples).
  const std::string t = toml_string(hostile), chip = toml_string("c'\"`touch $TMPDIR/CANARY`%s");
  const std::string hostile_scenario =
      "# " + hostile.substr(0, hostile.find('\n')) +
      "\n\n[law]\npreset = \"sardana2024\"\nname = " + t + "\nsource = " + t +
      "\n\n[architecture]\npreset = \"frontier-100b\"\nname = " + t + "\n\n[hardware." + chip +
      "]\nname = " + t + "\nsource = " + t + "\nprice_note = " + t +
      "\nbf16 = \"312T\"\nint8 = \"624T\"\nhbm_bandwidth = \"2TB/s\"\nhbm = \"80GB\"\n"
      "usd_per_hour = \"$1.40/h\"\n\n[training]\nhardware = " +
      chip + "\nprecision = \"bf16\"\nmfu = 0.5\n\n[inference]\nhardware = " + chip +
      "\nprecision = \"int8\"\npricing = \"mfu\"\nprefill_mfu = 0.4\ndecode_mfu = 0.2\nchips = 8\n"
      "context = \"32K\"\nrequests = 1e10\ninput_tokens = 1000\noutput_tokens = 250\n\n"
      "[pricing]\nname = " +
      t +
      "\n[[pricing.tier]]\nusd_per_mtok_input = \"$1.25\"\nusd_per_mtok_output = \"$10\"\n\n"
      "[problem]\nkind = \"min-lifetime-cost\"\ntarget_loss = 1.947\n";
  const fs::path hostile_file = s->fixtures / (name + ".toml");
  write_text(hostile_file, hostile_scenario);
  write_text(s->fixtures / "empty.toml", "");
  fs::create_symlink("loop", s->fixtures / "loop");
  const fs::path sweep = s->fixtures / "sweep.csv";
  run_or_abort({"sweep", (s->fixtures / "scenario.toml").string(), "--vary",
                "inference.requests=1e8..1e12:log:3", "--vary", "inference.decode_mfu=0.1..0.3:2",
                "--threads", "1", "--out", sweep.string()});
  std::string columns = "point,points,in" + name + ",se" + name + ",params,loss," +
                        "cost_shares.pretrain,out" + name + ",status\n";
  columns.erase(std::remove(columns.begin(), columns.end(), '"'), columns.end());
  for (int i = 0; i < 4; ++i) {
    columns += std::to_string(i) + ",4," + std::to_string(1 + 9 * (i % 2)) + "," +
               std::to_string(1 + i / 2) + ",1e9,2,0." + std::to_string(i + 1) + "," +
               std::to_string(i + 1) + ",converged\n";
  }
  const fs::path hostile_csv = s->fixtures / (name + ".csv");
  write_text(hostile_csv, columns);

  for (const auto& entry : fs::directory_iterator(s->fixtures)) {
    if (fs::is_regular_file(fs::symlink_status(entry.path()))) {
      s->files.emplace_back(entry.path(), read_text(entry.path()));
    }
  }
  s->macros = {{"@S", (s->fixtures / "scenario.toml").string()},
               {"@G", (s->fixtures / "roofline.toml").string()},
               {"@U", (s->fixtures / "uncertain.toml").string()},
               {"@K", (s->fixtures / "long_context.toml").string()},
               {"@Q", hostile_file.string()},
               {"@C", sweep.string()},
               {"@X", hostile_csv.string()},
               {"@E", (s->fixtures / "empty.toml").string()},
               {"@D", (s->fixtures / "dir").string()},
               {"@M", (s->fixtures / "missing.toml").string()},
               {"@L", (s->fixtures / "loop").string()},
               {"@W", (s->fixtures / (std::string(300, 'w') + ".toml")).string()},
               {"@H", hostile},
               {"@T", toml_string(hostile)},
               {"@N", name}};
  std::atexit([] {
    std::error_code ignored;
    fs::current_path(sandbox->home, ignored);
    fs::remove_all(sandbox->root, ignored);
  });
  return s;
}

// Replaces every macro in `argument`, once (a replacement is never scanned again).
std::string expand(const std::string& argument) {
  std::string out;
  for (std::size_t i = 0; i < argument.size(); ++i) {
    bool replaced = false;
    if (argument[i] == '@' && i + 1 < argument.size()) {
      for (const auto& [macro, value] : sandbox->macros) {
        if (argument.compare(i, 2, macro) == 0) {
          out += value;
          ++i;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += argument[i];
  }
  return out;
}

// Whether a raw argument could name a path outside the sandbox (the fixtures are the only
// absolute paths, and they come from macros).
bool leaves_sandbox(const std::string& argument) {
  const std::size_t equals = argument.find('=');
  const std::string value = equals == std::string::npos ? argument : argument.substr(equals + 1);
  for (const std::string& text : {argument, value}) {
    if (!text.empty() && (text.front() == '/' || text.front() == '~')) return true;
  }
  return argument == ".." || argument.find("../") != std::string::npos ||
         argument.find("/..") != std::string::npos || value == "..";
}

struct Cap {
  const char* flag;
  long long most;
};
constexpr std::array<Cap, 6> kCaps{{{"--samples", 50},
                                    {"--instances", 20},
                                    {"--points", 50},
                                    {"--starts", 4},
                                    {"--threads", 2},
                                    {"--max-evaluations", 5000}}};

// A count above `most` (or one written as anything but digits, such as 1e9 or 10K) becomes
// `most`; text without digits is left to the command's own errors.
std::string capped(const std::string& value, long long most) {
  const bool digits =
      !value.empty() && value.size() < 12 &&
      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits && std::stoll(value) <= most) return value;
  const bool has_digit = value.find_first_of("0123456789") != std::string::npos;
  return has_digit && value.front() != '-' ? std::to_string(most) : value;
}

// PATH=LO..HI[:lin|log][:COUNT] with at most 4 points (3 when the count is left out: 11).
std::string capped_vary(const std::string& spec) {
  const std::size_t colon = spec.rfind(':');
  if (colon != std::string::npos && spec.find("..") < colon) {
    const std::string last = spec.substr(colon + 1);
    if (last != "lin" && last != "log") return spec.substr(0, colon + 1) + capped(last, 4);
  }
  return spec + ":3";
}

std::vector<std::string> capped_arguments(std::vector<std::string> args) {
  bool samples = false, instances = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string& arg = args[i];
    samples = samples || arg.starts_with("--samples");
    instances = instances || arg.starts_with("--instances");
    for (const Cap& cap : kCaps) {
      const std::string flag = cap.flag;
      if (arg == flag && i + 1 < args.size()) args[i + 1] = capped(args[i + 1], cap.most);
      if (arg.starts_with(flag + "=")) {
        arg = flag + "=" + capped(arg.substr(flag.size() + 1), cap.most);
      }
    }
    if (arg == "--vary" && i + 1 < args.size()) args[i + 1] = capped_vary(args[i + 1]);
    if (arg.starts_with("--vary=")) arg = "--vary=" + capped_vary(arg.substr(7));
  }
  const auto has = [&](const char* word) {
    return std::find(args.begin(), args.end(), word) != args.end();
  };
  if (has("uncertainty") && !samples) args.insert(args.end(), {"--samples", "20"});
  if (has("selftest") && !instances) args.insert(args.end(), {"--instances", "10"});
  return args;
}

void empty_directory(const fs::path& directory) {
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(directory, ignored)) {
    fs::remove_all(entry.path(), ignored);
  }
}

// Puts the fixtures back as they were: an argv may name one as an output (--out @S, --script
// @D, --out @L replaces the link), which later inputs must not see.
void restore_fixtures() {
  std::error_code ignored;
  const fs::path loop = sandbox->fixtures / "loop", dir = sandbox->fixtures / "dir";
  for (const auto& entry : fs::directory_iterator(sandbox->fixtures, ignored)) {
    const bool kept = entry.path() == loop || entry.path() == dir ||
                      std::any_of(sandbox->files.begin(), sandbox->files.end(),
                                  [&](const auto& file) { return file.first == entry.path(); });
    if (!kept) fs::remove_all(entry.path(), ignored);
  }
  for (const auto& [path, text] : sandbox->files) {
    if (!fs::is_regular_file(fs::symlink_status(path, ignored)) || read_text(path) != text) {
      fs::remove_all(path, ignored);
      write_text(path, text);
    }
  }
  if (!fs::is_symlink(fs::symlink_status(loop, ignored))) {
    fs::remove_all(loop, ignored);
    fs::create_symlink("loop", loop, ignored);
  }
  if (!fs::is_directory(fs::symlink_status(dir, ignored))) {
    fs::remove_all(dir, ignored);
    fs::create_directory(dir, ignored);
  }
  empty_directory(dir);
}

std::string described(const std::vector<std::string>& args, int status, const std::string& out,
                      const std::string& err) {
  std::string text = "argv:";
  for (const std::string& arg : args) text += " [" + arg + "]";
  return text + "\nstatus " + std::to_string(status) + "\n--- stdout ---\n" + out.substr(0, 2000) +
         "\n--- stderr ---\n" + err.substr(0, 2000);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scaleopt;
  if (!sandbox) sandbox = prepare();
  const std::vector<std::string> raw =
      fuzz::split_at_nul(fuzz::as_text(data, size), kMaxArguments - 1);
  std::vector<std::string> args;
  int vary = 0;
  bool uncertain = false, report = false, fit = false;
  for (const std::string& argument : raw) {
    if (leaves_sandbox(argument)) return 0;
    vary += argument.starts_with("--vary") ? 1 : 0;
    uncertain = uncertain || argument.find("@U") != std::string::npos;
    report = report || argument == "report";
    fit = fit || argument == "fit";
    args.push_back(expand(argument));
  }
  // A report runs 10,000 Monte Carlo samples for a scenario with [uncertainty]; a third --vary
  // multiplies the grid again; `fit` always runs 4,500 L-BFGS starts (seconds even on 8 runs:
  // its reader has a target of its own, fuzz_runs_csv).
  if ((uncertain && report) || vary > 2 || fit) return 0;
  args = capped_arguments(std::move(args));

  std::error_code error;
  fs::current_path(sandbox->work, error);
  if (error) invariant_broken("cannot enter the working directory", error.message());
  std::ostringstream out, err;
  const int status = cli::run(args, out, err);
  fs::current_path(sandbox->home, error);

  const std::string o = out.str(), e = err.str();
  if (status != 0 && status != 1 && status != 2) {
    invariant_broken("exit status not 0, 1 or 2", described(args, status, o, e));
  }
  if (status == 2 && (!o.empty() || e.empty() || e.find('\n') != e.size() - 1)) {
    invariant_broken("exit status 2 without exactly one line on stderr and none on stdout",
                     described(args, status, o, e));
  }
  for (const fs::path& canary : sandbox->canaries) {
    if (fs::exists(canary, error)) {
      invariant_broken("a command in the input ran: " + canary.filename().string() + " exists",
                       described(args, status, o, e));
    }
  }
  empty_directory(sandbox->work);
  empty_directory(sandbox->tmp);
  restore_fixtures();
  return 0;
}
