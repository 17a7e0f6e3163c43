// scaleopt serve: the JSON API of docs/serve.md over HTTP on this machine (server/), until the
// process is stopped.

#include <memory>
#include <optional>

#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/scenario/input_file.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/server/api_handler.hpp"
#include "scaleopt/server/http_server.hpp"

namespace scaleopt::cli {
namespace {

struct ServeArgs {
  std::string scenario;  // optional: the scenario requests without "example" or "scenario" get
  std::string port = "8080";
  std::string host = "127.0.0.1";
  std::vector<std::string> allowed_hosts;
};

bool loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "::1" || host == "localhost";
}

// A name as a Host header carries it: letters, digits, '-', '.', and an IPv6 address's
// brackets and colons.
void check_host_name(const std::string& flag, const std::string& name) {
  const bool ok = !name.empty() && name.size() <= 253 &&
                  name.find_first_not_of(
                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789-.:[]") == std::string::npos;
  if (!ok) {
    throw InputError(flag + ": expected a host name or address (letters, digits, '-', '.'), got " +
                     quoted_input(name));
  }
}

int run_serve(const ServeArgs& args, std::ostream& notes) {
  server::ServeOptions options;
  options.port = static_cast<int>(parse_count_flag("--port", args.port, 0, 65535));
  check_host_name("--host", args.host);
  options.host = args.host;
  for (const std::string& name : args.allowed_hosts) check_host_name("--allow-host", name);
  options.allowed_hosts = args.allowed_hosts;
  std::optional<server::ServedScenario> served;
  if (!args.scenario.empty()) {
    // Read once, here: no request makes the server open a file. Loaded now so that a bad file
    // fails at start (exit 2), not on every request.
    served = server::ServedScenario{args.scenario,
                                    read_input_file(args.scenario, kTomlInput, "scenario")};
    (void)load_scenario_text(served->text, served->file);
  }
  if (!loopback(options.host)) {
    notes << "scaleopt: warning: --host " << options.host
          << " serves beyond this machine: anyone who can reach it can use the API (Host "
             "headers other than loopback names need --allow-host)\n";
  }
  const unsigned workers = server::worker_threads(options);
  const server::Api api(options, served);
  server::serve(api, [&](int port) {
    notes << "scaleopt serve: listening on " << server::server_url(options.host, port)
          << " (Ctrl-C stops)\n"
          << "  limits (assumed): bodies up to " << bytes_text(options.max_body_bytes) << ", "
          << options.time_limit.count() / 1000 << " s a request, " << options.max_sweep_points
          << " sweep points a request, " << workers << " workers, " << options.queue_capacity
          << " connections waiting\n";
    if (served) notes << "  scenario: " << served->file << "\n";
    notes << std::flush;
  });
  return kExitOk;
}

}  // namespace

void add_serve_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "serve", "Answer solve and sweep as a JSON API over HTTP on this machine (docs/serve.md)");
  auto args = std::make_shared<ServeArgs>();
  command
      ->add_option("scenario", args->scenario,
                   "Scenario file served to requests that name neither an example nor a "
                   "scenario (TOML, docs/scenario.md)")
      ->type_name("SCENARIO.toml");
  command->add_option("--port", args->port, "TCP port; 0 picks a free one (printed)")
      ->type_name("N")
      ->default_str("8080");
  command
      ->add_option("--host", args->host,
                   "Address to bind; anything but 127.0.0.1, ::1 or localhost reaches the "
                   "network (a warning says so)")
      ->type_name("H")
      ->default_str("127.0.0.1");
  command
      ->add_option("--allow-host", args->allowed_hosts,
                   "A Host header name accepted besides 127.0.0.1, localhost and [::1] (with "
                   "the port), e.g. for a server bound elsewhere (repeatable)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  command->footer(
      "The URL goes to stderr at once (stdout waits for a command's end, which serve has not).\n"
      "Open it in a browser: the scenario's inputs as sliders and menus, the answer and a chart\n"
      "of the optimum re-solved as they move, the command line and the TOML to take back.\n"
      "API: GET /api/examples; POST /api/solve {\"example\": NAME, \"set\": {KEY: VALUE}};\n"
      "POST /api/sweep {..., \"vary\": \"PATH=LO..HI:COUNT\"}. Requests must name this server\n"
      "in Host, may not come from another site's page (Origin), and are held to 1 MiB and 10 s.\n"
      "Examples:\n"
      "  scaleopt serve\n"
      "  scaleopt serve examples/frontier_100x.toml --port 0\n"
      "  curl -s localhost:8080/api/solve -d '{\"example\": \"sardana_cost\"}'\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream&, std::ostream& notes) { return run_serve(*args, notes); };
  });
}

}  // namespace scaleopt::cli
