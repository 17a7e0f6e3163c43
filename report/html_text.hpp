#pragma once
// Pieces of an HTML page: escaped text, a Table as <table>, gnuplot's SVG made fit to sit
// inline (several per page).

#include <string>
#include <string_view>

#include "scaleopt/report/table.hpp"

namespace scaleopt::report {

// & < > " ' as entities.
std::string html_escape(std::string_view text);

// <table> with the title as <caption>, the header row (if any) as <thead>; cells escaped.
std::string html_table(const Table& table);

// gnuplot's SVG without its XML declaration and DOCTYPE, every id (and every reference to
// one: href='#..', url(#..)) prefixed with `prefix` so that several figures share a page.
std::string inline_svg(std::string_view svg, std::string_view prefix);

}  // namespace scaleopt::report
