#include "plots/gnuplot_text.hpp"

#include <cmath>
#include <cstdio>

namespace scaleopt::plots {

std::string gnuplot_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
      case '\t':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

std::string wrap_list(std::string_view text, std::size_t width) {
  std::string wrapped, line;
  while (!text.empty()) {
    const auto end = text.find("; ");
    const std::string_view part = text.substr(0, end == std::string_view::npos ? end : end + 1);
    if (!line.empty() && line.size() + 1 + part.size() > width) {
      wrapped.append(line).append("\n");
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += part;
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 2);
  }
  return wrapped + line;
}

std::string number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

DataTable::DataTable(std::vector<std::string> names) : columns(std::move(names)) {}

DataTable& DataTable::row(const std::vector<double>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ' ';
    text += number(values[i]);
  }
  text += '\n';
  return *this;
}

DataTable& DataTable::row(const std::vector<double>& values, std::string_view label,
                          const std::vector<double>& after) {
  for (const double value : values) text.append(number(value)).append(" ");
  text += gnuplot_string(label);
  for (const double value : after) text.append(" ").append(number(value));
  text += '\n';
  return *this;
}

DataTable& DataTable::blank() {
  if (!text.empty() && !text.ends_with("\n\n")) text += "\n";
  return *this;
}

DataTable& DataTable::next_set() {
  if (text.empty()) return *this;
  while (!text.ends_with("\n\n\n")) text += "\n";
  return *this;
}

std::string DataTable::file() const {
  std::string header = "#";
  for (const std::string& name : columns) header += " " + name;
  return header + "\n" + text;
}

std::string log_tics(std::string_view axis, double low, double high, Unit unit, int significant) {
  return log_tics(axis, low, high,
                  [&](double value) { return format_quantity(value, unit, significant); });
}

std::string log_tics(std::string_view axis, double low, double high,
                     const std::function<std::string(double)>& label) {
  const int first = static_cast<int>(std::floor(std::log10(low) + 1e-9));
  const int last = static_cast<int>(std::ceil(std::log10(high) - 1e-9));
  const int decades = last - first;
  const int every = decades > 16 ? 4 : decades > 10 ? 3 : decades > 6 ? 2 : 1;
  std::string tics;
  auto add = [&](const std::string& entry) { tics += (tics.empty() ? "" : ", ") + entry; };
  for (int k = first; k <= last; ++k) {
    const double power = std::pow(10.0, k);
    const double tolerance = 1e-9 * power;
    if (power >= low - tolerance && power <= high + tolerance) {
      const bool labelled = (k - first) % every == 0 || decades <= 1;
      add(gnuplot_string(labelled ? label(power) : "") + " " + number(power) +
          (labelled ? "" : " 1"));
    }
    if (decades > 10) continue;  // minor tics would crowd the axis
    for (int m = 2; m <= 9; ++m) {
      const double minor = m * power;
      if (minor > low && minor < high) add("\"\" " + number(minor) + " 1");
    }
  }
  return "set " + std::string(axis) + "tics (" + tics + ")\n";
}

std::string plot_command(const std::vector<std::string>& clauses) {
  std::string command;
  for (std::size_t i = 0; i < clauses.size(); ++i) {
    command += (i == 0 ? "plot " : ", \\\n     ") + clauses[i];
  }
  return command.empty() ? command : command + "\n";
}

std::string log_range(std::string_view axis, double low, double high) {
  return "set " + std::string(axis) + "range [" + number(low * (1 - 1e-9)) + ":" +
         number(high * (1 + 1e-9)) + "]\n";
}

double nice_step(double high, int count) {
  if (!(high > 0.0) || count < 1) return 1.0;
  const double rough = high / count;
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * power >= rough) return factor * power;
  }
  return 10.0 * power;
}

std::string linear_tics(std::string_view axis, double high,
                        const std::function<std::string(double)>& label, int count) {
  return linear_tics(axis, 0.0, high, label, count);
}

std::string linear_tics(std::string_view axis, double low, double high,
                        const std::function<std::string(double)>& label, int count) {
  const double step = nice_step(high - low, count);
  std::string tics;
  for (long i = static_cast<long>(std::ceil(low / step - 1e-9)); i * step <= high * (1 + 1e-9);
       ++i) {
    const double value = i * step;
    tics += (tics.empty() ? "" : ", ") + gnuplot_string(label(value)) + " " + number(value);
  }
  return "set " + std::string(axis) + "tics (" + tics + ")\n";
}

}  // namespace scaleopt::plots
