#pragma once
// Where labels go on a figure without covering each other: each label is an axis-aligned box
// on the page (pixels of the plot area, origin at its lower left) around its possibly rotated
// text; a label is placed only where its box stays inside the plot and clear of the boxes
// placed before it. Text widths are estimates (a character of the 12-point font is about
// 7 pixels wide), so boxes carry a margin.

#include <cstddef>
#include <vector>

namespace scaleopt::plots {

// The width of one character of the 12-point font, about: what text widths are estimated by.
inline constexpr double kCharPixels = 7.0;

struct LabelBox {
  double x = 0.0, y = 0.0;  // centre
  double half_width = 0.0, half_height = 0.0;
  bool overlaps(const LabelBox& other) const;
};

// The box around `characters` characters in `lines` lines centred at (x, y), turned by
// `degrees`.
LabelBox text_box(double x, double y, std::size_t characters, int lines, double degrees);

class LabelLayout {
 public:
  LabelLayout(double width, double height) : width_(width), height_(height) {}
  // Inside the plot and clear of every box placed so far.
  bool fits(const LabelBox& box) const;
  // Reserves `box` (also boxes outside the plot, such as marks whose labels stick out).
  void place(const LabelBox& box) { placed_.push_back(box); }
  double width() const { return width_; }
  double height() const { return height_; }

 private:
  double width_, height_;
  std::vector<LabelBox> placed_;
};

}  // namespace scaleopt::plots
