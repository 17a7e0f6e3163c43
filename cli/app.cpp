#include "scaleopt/cli/app.hpp"

#include <algorithm>
#include <sstream>

#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt::cli {
namespace {

// One line, whatever the message holds.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

int run_with(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
             const RunContext& context) {
  CLI::App app{
      "scaleopt: how big should a language model be, and how many tokens should it see,\n"
      "once pretraining, RL and inference are paid for together.",
      "scaleopt"};
  app.require_subcommand(1);
  // "scaleopt 0.1.0": the version of CMake's project(), so that a --json answer can be traced
  // to the build that printed it (docs/json.md). The same function writes the version into the
  // provenance lines of sweep and Monte Carlo files, so the two cannot disagree.
  app.set_version_flag("--version", "scaleopt " + scaleopt_version(), "Print the version and exit");
  app.footer(
      "Numbers take suffixes: 70B, 2T, 1.5e12, 200K, 1.7KB, 3.35TB/s, $2/h, 50M/s, 60d, 2mo.\n"
      "Run 'scaleopt COMMAND --help' for a command's options and examples.\n");
  Action chosen;
  add_laws_command(app, chosen);
  add_optimal_command(app, chosen);
  add_loss_command(app, chosen);
  add_hardware_command(app, chosen);
  add_models_command(app, chosen);
  add_training_runs_command(app, chosen);
  add_roofline_command(app, chosen);
  add_cost_command(app, chosen);
  add_solve_command(app, chosen);
  add_compare_command(app, chosen);
  add_fit_command(app, chosen);
  add_pricing_command(app, chosen);
  add_sweep_command(app, chosen);
  add_merge_command(app, chosen);
  add_sensitivity_command(app, chosen);
  add_uncertainty_command(app, chosen);
  add_plot_command(app, chosen);
  add_report_command(app, chosen);
  add_selftest_command(app, chosen);
  add_serve_command(app, chosen);

  // CLI11 would report a mistyped command (or subcommand of a group such as `pricing`) as
  // "A subcommand is required"; name it instead.
  const CLI::App* group = &app;
  std::string path = "scaleopt";
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    const auto subs = group->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) break;  // a command's positional arguments follow
    std::string known;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : subs) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      if (sub->get_name() == argv[i]) next = sub;
    }
    if (!next) {
      // The name as typed may hold a line break: the error stays one line (fuzz_cli).
      err << "scaleopt: error: unknown command '"
          << one_line((i > 1 ? path.substr(9) + " " : "") + argv[i]) << "': expected one of "
          << known << " (see " << path << " --help)\n";
      return kExitBadInput;
    }
    group = next;
    path += " " + next->get_name();
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << "scaleopt: error: " << one_line(e.what()) << " (see scaleopt --help)\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    err << "scaleopt: error: " << one_line(flag_message(e.what())) << "\n";
    return kExitBadInput;
  }

  std::ostringstream buffer;
  try {
    const int status = chosen ? chosen(buffer, err, context) : kExitBadInput;
    out << buffer.str();
    return status;
  } catch (const InputError& e) {
    err << "scaleopt: error: " << one_line(flag_message(e.what())) << "\n";
    return kExitBadInput;
  }
}

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run_with(argc, argv, out, err, {});
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const RunContext& context) {
  std::vector<const char*> argv{"scaleopt"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].find('\0') != std::string::npos) {
      // Quoted up to the NUL, and a few dozen bytes at most (cut between UTF-8 characters).
      std::size_t shown = std::min<std::size_t>(args[i].find('\0'), 40);
      while (shown > 0 && (static_cast<unsigned char>(args[i][shown]) & 0xC0) == 0x80) --shown;
      err << "scaleopt: error: argument " << i + 1 << " ('" << one_line(args[i].substr(0, shown))
          << "...') holds a NUL byte, which no flag, name or path may hold\n";
      return kExitBadInput;
    }
    argv.push_back(args[i].c_str());
  }
  return run_with(static_cast<int>(argv.size()), argv.data(), out, err, context);
}

}  // namespace scaleopt::cli
