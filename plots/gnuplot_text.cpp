#include "scaleopt/plots/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt::plots {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";     // U+FFFD
constexpr std::string_view kZeroWidthSpace = "\xE2\x80\x8B";  // U+200B

// The length of the valid UTF-8 sequence at the start of `text` (not empty), or 0. Overlong
// forms, surrogates and code points above U+10FFFF are invalid; so are U+FFFE and U+FFFF,
// which XML does not allow either.
std::size_t utf8_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  char32_t code = 0, least = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code = lead & 0x1F, least = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code = lead & 0x0F, least = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code = lead & 0x07, least = 0x10000;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (code < least || code > 0x10FFFF || surrogate || code == 0xFFFE || code == 0xFFFF) return 0;
  return length;
}

// `text` as single-quoted pieces joined by '.', each quote, '@' and line break a piece of its own
// written by an escape in double quotes: it's @home -> 'it'."\047".'s '."\100".'home'.
// gnuplot reads a line twice. First its @macro expander, which takes every ' and " it sees
// for the start or end of a string (so a '"' inside single quotes, or a "'" inside double
// ones, would leave an '@' after them outside quotes for it): no raw '@' is left for it to
// expand. Then its tokenizer, which ends a single-quoted string at the first quote: gnuplot's
// own escape '' is taken only after another character of the string ('''a' and 'a''''b' end
// early, gnuplot 5.4), so no piece holds a quote at all.
std::string single_quoted(std::string_view text) {
  std::string out;
  std::string piece;
  auto add = [&](std::string_view literal) { out.append(out.empty() ? "" : ".").append(literal); };
  auto flush = [&] {
    if (!piece.empty()) add("'" + piece + "'");
    piece.clear();
  };
  for (const char c : text) {
    if (c == '\'' || c == '@' || c == '\n') {
      flush();
      add(c == '\'' ? "\"\\047\"" : c == '@' ? "\"\\100\"" : "\"\\n\"");
    } else {
      piece += c;
    }
  }
  flush();
  return out.empty() ? "''" : out;
}

}  // namespace

std::string figure_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const unsigned char c = static_cast<unsigned char>(text.front());
    const std::size_t length = utf8_length(text);
    if (length == 0) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    if (length == 1 && c != '\n' && (c < 0x20 || c == 0x7F)) {
      out += ' ';
    } else if (c == '>' && out.ends_with("]]")) {
      out.append(kZeroWidthSpace).append(">");
    } else {
      out += text.substr(0, length);
    }
    text.remove_prefix(length);
  }
  return out;
}

std::string gnuplot_string(std::string_view text) {
  return single_quoted(figure_text(text));
}

std::string gnuplot_path(std::string_view path) {
  if (path.find('\0') != std::string_view::npos) {
    throw InputError("a file name cannot hold a NUL byte");
  }
  if (path.starts_with('|')) return single_quoted("./" + std::string(path));
  return single_quoted(path);
}

std::string gnuplot_tic_label(std::string_view text) {
  std::string doubled;
  for (const char c : figure_text(text)) {
    doubled += c;
    if (c == '%') doubled += '%';
  }
  return single_quoted(doubled);
}

std::string data_string(std::string_view text) {
  std::string out = "\"";
  bool after_octal = false;
  for (const char c : figure_text(text)) {
    if (c == '"' || (after_octal && c >= '0' && c <= '7')) {
      // gnuplot's reader ends a cell at any '"', even after a backslash: a quote is \042. It
      // reads as many octal digits as follow a backslash, so a digit after that is one too.
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", static_cast<unsigned>(c));
      out += octal;
      after_octal = true;
      continue;
    }
    after_octal = false;
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
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
  text += data_string(label);
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
  // A comment line: a line break in a name would start a row.
  for (const std::string& name : columns) {
    std::string shown = figure_text(name);
    std::replace(shown.begin(), shown.end(), '\n', ' ');
    header += " " + shown;
  }
  return header + "\n" + text;
}

std::string count_text(double value, int significant) {
  return std::fabs(value) >= 1e15 ? format_scientific(value, significant)
                                  : format_quantity(value, Unit::count, significant);
}

std::string log_tics(std::string_view axis, double low, double high, Unit unit, int significant) {
  return log_tics(axis, low, high, [&](double value) {
    return unit == Unit::count ? count_text(value, significant)
                               : format_quantity(value, unit, significant);
  });
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
      add(gnuplot_tic_label(labelled ? label(power) : "") + " " + number(power) +
          (labelled ? "" : " 1"));
    }
    if (decades > 10) continue;  // minor tics would crowd the axis
    for (int m = 2; m <= 9; ++m) {
      const double minor = m * power;
      if (minor > low && minor < high) add("'' " + number(minor) + " 1");
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
    tics += (tics.empty() ? "" : ", ") + gnuplot_tic_label(label(value)) + " " + number(value);
  }
  return "set " + std::string(axis) + "tics (" + tics + ")\n";
}

}  // namespace scaleopt::plots
