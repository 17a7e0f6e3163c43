#include "scaleopt/plots/label_layout.hpp"

#include <cmath>
#include <numbers>

namespace scaleopt::plots {

namespace {
constexpr double kLinePixels = 15.0;  // one line of the 12-point font
constexpr double kMargin = 3.0;       // around every box
}  // namespace

bool LabelBox::overlaps(const LabelBox& other) const {
  return std::fabs(x - other.x) < half_width + other.half_width &&
         std::fabs(y - other.y) < half_height + other.half_height;
}

LabelBox text_box(double x, double y, std::size_t characters, int lines, double degrees) {
  const double w = 0.5 * characters * kCharPixels + kMargin;
  const double h = 0.5 * lines * kLinePixels + kMargin;
  const double radians = degrees * std::numbers::pi / 180.0;
  const double c = std::fabs(std::cos(radians)), s = std::fabs(std::sin(radians));
  return {x, y, w * c + h * s, w * s + h * c};
}

bool LabelLayout::fits(const LabelBox& box) const {
  if (box.x - box.half_width < 0.0 || box.x + box.half_width > width_ ||
      box.y - box.half_height < 0.0 || box.y + box.half_height > height_) {
    return false;
  }
  for (const LabelBox& other : placed_) {
    if (box.overlaps(other)) return false;
  }
  return true;
}

}  // namespace scaleopt::plots
