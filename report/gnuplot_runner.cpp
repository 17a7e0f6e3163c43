#include "scaleopt/report/gnuplot_runner.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/figure_file_check.hpp"
#include "scaleopt/report/process.hpp"
#include "scaleopt/report/temporary_directory.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt::report {
namespace {

constexpr const char* kInstallHint =
    "install it with scripts/install-deps (Debian: apt-get install gnuplot-nox)";

// The first lines gnuplot printed, on one line.
std::string first_lines(const std::string& text, int count) {
  std::istringstream lines(text);
  std::string line, joined;
  for (int n = 0; n < count && std::getline(lines, line);) {
    if (line.find_first_not_of(" \t^") == std::string::npos) continue;
    joined += (joined.empty() ? "" : " / ") + line;
    ++n;
  }
  return joined;
}

void write_plain(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) throw InputError("cannot write " + path + ": " + std::strerror(errno));
}

// Runs the figure's script in a temporary directory holding its data; gnuplot writes
// `output` (an absolute path). Returns what gnuplot printed.
std::string run_gnuplot(const plots::Figure& figure, plots::FigureFormat format,
                        const std::string& output) {
  TemporaryDirectory directory;
  for (const plots::DataFile& data : figure.data) write_plain(directory.file(data.name), data.text);
  const std::string script = directory.file(figure.name + ".gp");
  write_plain(script, plots::gnuplot_script(figure, format, output, directory.path()));
  const ProcessResult result = run_program("gnuplot", {script}, gnuplot_process_options());
  if (!result.started) {
    if (!on_path("gnuplot")) {
      throw InputError(std::string("gnuplot not found on PATH: ") + kInstallHint);
    }
    throw InputError("cannot run gnuplot: " + result.start_error);
  }
  if (result.timed_out) throw InputError("gnuplot did not finish drawing " + figure.name);
  if (result.exit_status != 0) {
    throw InputError("gnuplot failed drawing " + figure.name + " (exit status " +
                     std::to_string(result.exit_status) + "): " + first_lines(result.output, 3));
  }
  std::error_code error;
  if (std::filesystem::file_size(output, error) == 0 || error) {
    throw InputError("gnuplot wrote nothing for " + figure.name + ": " +
                     first_lines(result.output, 3));
  }
  return result.output;
}

// Creates DIRECTORY unless it is there already; returns whether it was created.
bool make_script_directory(const std::string& directory) {
  if (directory.empty()) throw InputError("script: empty directory name");
  if (::mkdir(directory.c_str(), 0755) == 0) return true;
  const int error = errno;
  struct stat status {};
  if (error == EEXIST && ::stat(directory.c_str(), &status) == 0 && S_ISDIR(status.st_mode)) {
    return false;
  }
  if (error == EEXIST) throw InputError("script: " + directory + " exists and is not a directory");
  if (error == ENOENT) {
    throw InputError("script: cannot create " + directory +
                     ": its parent directory does not exist (only the last directory of the path "
                     "is created)");
  }
  throw InputError("script: cannot create " + directory + ": " + std::strerror(error));
}

}  // namespace

ProcessOptions gnuplot_process_options() {
  ProcessOptions options;
  options.environment = {"LC_ALL=C.UTF-8"};
  return options;
}

std::string draw_figure(const plots::Figure& figure, const std::string& out,
                        const std::vector<ReadFile>& inputs, std::string_view flag) {
  const plots::FigureFormat format = plots::figure_format_of(out, flag);
  AtomicOutput target(out, flag, inputs);
  const std::string said =
      run_gnuplot(figure, format, std::filesystem::absolute(target.temporary_path()).string());
  // gnuplot exits 0 with a figure cut short when the disk fills: decoded whole, or not named.
  if (const std::string defect = figure_file_defect(target.temporary_path(), format);
      !defect.empty()) {
    target.fail(std::string("gnuplot's ") + (format == plots::FigureFormat::png ? "PNG" : "SVG") +
                " is not whole (" + defect + "): is the disk full? Nothing was written");
  }
  target.commit();
  return said;
}

std::string figure_svg(const plots::Figure& figure) {
  TemporaryDirectory directory;
  const std::string output = directory.file(figure.name + ".svg");
  run_gnuplot(figure, plots::FigureFormat::svg, output);
  std::string svg = read_input_file(output, kFigureInput);
  if (const std::string defect = svg_text_defect(svg); !defect.empty()) {
    throw InputError("gnuplot's SVG of " + figure.name + " is not whole (" + defect +
                     "): is the temporary directory " + temporary_folder() +
                     " full? (TMPDIR chooses it)");
  }
  return svg;
}

std::vector<std::string> write_figure_script(const plots::Figure& figure,
                                             const std::string& directory,
                                             const std::string& output, plots::FigureFormat format,
                                             const std::vector<ReadFile>& inputs) {
  const bool created = make_script_directory(directory);
  const std::filesystem::path base(directory);
  std::vector<std::string> written{(base / (figure.name + ".gp")).string()};
  for (const plots::DataFile& data : figure.data) written.push_back((base / data.name).string());
  try {
    write_file_atomically(written.front(), plots::gnuplot_script(figure, format, output), "script",
                          inputs);
    for (std::size_t i = 0; i < figure.data.size(); ++i) {
      write_file_atomically(written[i + 1], figure.data[i].text, "script", inputs);
    }
  } catch (const InputError&) {
    if (created) {
      // Nothing of this figure is left in a folder this call made.
      for (const std::string& path : written) ::unlink(path.c_str());
      ::rmdir(directory.c_str());
    }
    throw;
  }
  return written;
}

}  // namespace scaleopt::report
