#pragma once
// Tolerances several tests share, each with its reason.

// Published figures are printed to 4 significant digits (e.g. 2.418e10) or as percentages
// with 2 decimals: half a unit in the last printed place.
constexpr double kFourDigits = 5e-4;
