#pragma once
// The grid of `scaleopt sweep`: one axis per --vary PATH=LO..HI[:lin|log][:COUNT], points in
// row-major order (the first --vary varies slowest), and the interleaved slices of --shard i/n.
// Every value is a pure function of the point's index, so any thread or shard computes the same
// point bit for bit.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt {

// The i-th of `count` values from `low` to `high`: the ends exactly, evenly spaced between (in ln
// when `log_scale`). A pure function, so a merge recomputes a file's grid from its provenance.
double axis_value(double low, double high, bool log_scale, std::size_t count, std::size_t i);

struct SweepAxis {
  NumericInputSetter input;
  double low = 0.0;
  double high = 0.0;
  bool log_scale = false;
  std::size_t count = 11;
  // Values given one by one (listed_axis, the Python module's arrays); empty for a range.
  std::vector<double> listed{};
  // The i-th value: listed[i] when values were listed; otherwise low and high exactly at the
  // ends, evenly spaced (in ln on a log axis).
  double value(std::size_t i) const;
};

// Parses one --vary argument; LO and HI in the input's unit ("1M/s..1G/s:log:50"). Throws
// InputError "vary ARG: ..." for an unknown path, a bad number, an empty range (LO >= HI), a
// value out of the input's range, a log axis with LO <= 0, or a count < 2 (or > 1e9).
SweepAxis parse_vary(const Scenario& scenario, const std::string& argument);

// An axis through the given values of `path`, in order (the Python module's
// vary={PATH: array}). Throws InputError "vary PATH: ..." for an unknown path, no values, more
// than 1e9, or a value out of the input's range (as parse_vary says it).
SweepAxis listed_axis(const Scenario& scenario, const std::string& path,
                      std::vector<double> values);

class SweepGrid {
 public:
  explicit SweepGrid(std::vector<SweepAxis> axes);  // throws InputError beyond 1e12 points
  std::span<const SweepAxis> axes() const { return axes_; }
  std::size_t size() const { return size_; }
  // The axis values of point `index`, one per axis.
  void values_at(std::size_t index, std::span<double> values) const;

 private:
  std::vector<SweepAxis> axes_;
  std::size_t size_ = 1;
};

// --shard i/n: i from 1 to n.
struct Shard {
  std::size_t index = 1;
  std::size_t count = 1;
};
Shard parse_shard(const std::string& text);  // throws InputError "shard: ..."

// Points go to shards in interleaved blocks of kShardBlock consecutive points (block b to shard
// b mod n + 1), so every shard gets an even share of every region of the grid.
inline constexpr std::size_t kShardBlock = 64;
bool in_shard(std::size_t point, const Shard& shard);

// The points of a grid's `points` that fall in `shard`, in increasing order.
std::vector<std::size_t> shard_point_list(std::size_t points, const Shard& shard);

// How many of a grid's `points` fall in `shard` (without visiting them).
std::size_t shard_points(std::size_t points, const Shard& shard);

// The `index`-th point of `shard` (from 0; the points in increasing order), or `points` when
// the shard has no more.
std::size_t shard_point(std::size_t index, std::size_t points, const Shard& shard);

}  // namespace scaleopt
