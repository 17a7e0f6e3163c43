#include "scaleopt/analysis/sweep_grid.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/limits.hpp"

namespace scaleopt {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_vary(const std::string& argument, const std::string& what) {
  throw InputError("vary " + argument + ": " + what);
}

void check_in_range(const SweepAxis& axis, const std::string& argument, double value) {
  if (!axis.input.range().contains(value)) {
    bad_vary(argument, axis.input.range().refusal(value, axis.input.path()));
  }
}

}  // namespace

double axis_value(double low, double high, bool log_scale, std::size_t count, std::size_t i) {
  if (i == 0) return low;
  if (i + 1 == count) return high;
  const double t = static_cast<double>(i) / static_cast<double>(count - 1);
  if (log_scale) return std::exp(std::log(low) + (std::log(high) - std::log(low)) * t);
  return low + (high - low) * t;
}

double SweepAxis::value(std::size_t i) const {
  if (!listed.empty()) return listed[i];
  return axis_value(low, high, log_scale, count, i);
}

SweepAxis parse_vary(const Scenario& scenario, const std::string& argument) {
  const auto equals = argument.find('=');
  if (equals == std::string::npos) {
    bad_vary(argument,
             "expected PATH=LO..HI[:lin|log][:COUNT], e.g. inference.rate=1M/s..1G/s:log:50");
  }
  const std::string path(trim(std::string_view(argument).substr(0, equals)));
  std::string_view rest = std::string_view(argument).substr(equals + 1);
  std::vector<std::string_view> parts;
  for (std::size_t colon; (colon = rest.find(':')) != std::string_view::npos;) {
    parts.push_back(trim(rest.substr(0, colon)));
    rest.remove_prefix(colon + 1);
  }
  parts.push_back(trim(rest));
  const std::string_view range = parts.front();
  const auto dots = range.find("..");
  if (dots == std::string_view::npos) bad_vary(argument, "expected a range LO..HI");

  SweepAxis axis{NumericInputSetter(scenario, path)};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i] == "lin" || parts[i] == "log") {
      axis.log_scale = parts[i] == "log";
      continue;
    }
    std::size_t count = 0;
    const auto [end, error] =
        std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), count);
    if (error != std::errc() || end != parts[i].data() + parts[i].size()) {
      bad_vary(argument,
               "expected lin, log or a point count after ':', got '" + std::string(parts[i]) + "'");
    }
    if (count < 2 || count > kMaxAxisPoints) {
      bad_vary(argument,
               "the point count must be from 2 to 1e9 (the limit), got " + std::to_string(count));
    }
    axis.count = count;
  }
  const Unit unit = axis.input.unit();
  try {
    axis.low = parse_quantity(trim(range.substr(0, dots)), unit);
    axis.high = parse_quantity(trim(range.substr(dots + 2)), unit);
  } catch (const InputError& e) {
    bad_vary(argument, e.what());
  }
  if (!(axis.low < axis.high)) {
    std::ostringstream message;
    message << "empty range: LO must be below HI, got " << axis.low << ".." << axis.high;
    bad_vary(argument, message.str());
  }
  if (axis.log_scale && !(axis.low > 0.0)) {
    bad_vary(argument, "a log axis needs LO > 0");
  }
  for (const double end : {axis.low, axis.high}) check_in_range(axis, argument, end);
  return axis;
}

SweepAxis listed_axis(const Scenario& scenario, const std::string& path,
                      std::vector<double> values) {
  SweepAxis axis{NumericInputSetter(scenario, path)};
  if (values.empty()) bad_vary(path, "no values");
  if (values.size() > kMaxAxisPoints) {
    bad_vary(path, "more than 1e9 values (the limit), got " + std::to_string(values.size()));
  }
  for (const double v : values) check_in_range(axis, path, v);
  axis.low = values.front();
  axis.high = values.back();
  axis.count = values.size();
  axis.listed = std::move(values);
  return axis;
}

SweepGrid::SweepGrid(std::vector<SweepAxis> axes) : axes_(std::move(axes)) {
  double points = 1.0;
  for (const SweepAxis& axis : axes_) points *= static_cast<double>(axis.count);
  if (points > kMaxGridPoints) {
    std::ostringstream message;
    message << "vary: the grid has " << points << " points, more than 1e12 (the limit)";
    throw InputError(message.str());
  }
  for (const SweepAxis& axis : axes_) size_ *= axis.count;
}

void SweepGrid::values_at(std::size_t index, std::span<double> values) const {
  // Row-major: the last axis varies fastest.
  for (std::size_t a = axes_.size(); a-- > 0;) {
    values[a] = axes_[a].value(index % axes_[a].count);
    index /= axes_[a].count;
  }
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard shard;
  auto number = [&](std::string_view part, std::size_t& out) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), out);
    return error == std::errc() && end == part.data() + part.size() && !part.empty();
  };
  if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), shard.index) ||
      !number(std::string_view(text).substr(slash + 1), shard.count)) {
    throw InputError("shard: expected i/n with 1 <= i <= n, e.g. 2/8, got '" + text + "'");
  }
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    throw InputError("shard: shard index out of range: expected i/n with 1 <= i <= n, got '" +
                     text + "'");
  }
  return shard;
}

bool in_shard(std::size_t point, const Shard& shard) {
  return (point / kShardBlock) % shard.count == shard.index - 1;
}

std::vector<std::size_t> shard_point_list(std::size_t points, const Shard& shard) {
  std::vector<std::size_t> list;
  list.reserve(shard_points(points, shard));
  for (std::size_t b = shard.index - 1; b * kShardBlock < points; b += shard.count) {
    const std::size_t end = std::min(points, (b + 1) * kShardBlock);
    for (std::size_t p = b * kShardBlock; p < end; ++p) list.push_back(p);
  }
  return list;
}

std::size_t shard_points(std::size_t points, const Shard& shard) {
  const std::size_t blocks = (points + kShardBlock - 1) / kShardBlock;
  const std::size_t first = shard.index - 1;  // this shard's first block
  if (first >= blocks) return 0;
  const std::size_t mine = (blocks - first + shard.count - 1) / shard.count;
  std::size_t count = mine * kShardBlock;
  // The grid's last block may be short.
  if ((blocks - 1) % shard.count == first) count -= blocks * kShardBlock - points;
  return count;
}

std::size_t shard_point(std::size_t index, std::size_t points, const Shard& shard) {
  const std::size_t block = (shard.index - 1) + (index / kShardBlock) * shard.count;
  const std::size_t point = block * kShardBlock + index % kShardBlock;
  return point < points ? point : points;
}

}  // namespace scaleopt
