#include "scaleopt/report/html_text.hpp"

#include <array>

namespace scaleopt::report {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_table(const Table& table) {
  std::string html = "<table>\n";
  if (!table.title().empty()) html += "<caption>" + html_escape(table.title()) + "</caption>\n";
  const auto& rows = table.rows();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool head = r == 0 && table.has_header();
    html += head ? "<thead><tr>" : "<tr>";
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const std::string tag = head ? "th" : c == 0 ? "th scope=\"row\"" : "td";
      html.append("<").append(tag).append(">").append(html_escape(rows[r][c]));
      html.append(head ? "</th>" : c == 0 ? "</th>" : "</td>");
    }
    html += head ? "</tr></thead>\n" : "</tr>\n";
  }
  return html + "</table>\n";
}

std::string inline_svg(std::string_view svg, std::string_view prefix) {
  const auto start = svg.find("<svg");
  if (start != std::string_view::npos) svg.remove_prefix(start);
  constexpr std::array<std::string_view, 5> anchors{"id='", "id=\"", "href='#", "href=\"#",
                                                    "url(#"};
  // Only inside tags: the text of labels (names from inputs) may read "id='" too, and must
  // show as written. gnuplot writes '<' in text as &lt;, so each '<' opens a tag, which ends
  // at the first '>' outside its quoted attribute values.
  std::string out;
  out.reserve(svg.size() + svg.size() / 8);
  std::size_t at = 0;
  while (at < svg.size()) {
    const std::size_t open = svg.find('<', at);
    out.append(svg.substr(at, open - at));
    if (open == std::string_view::npos) break;
    std::size_t close = open;
    for (char quote = 0; close < svg.size(); ++close) {
      const char c = svg[close];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        break;
      }
    }
    const std::size_t end = close == svg.size() ? close : close + 1;
    const std::string_view tag = svg.substr(open, end - open);
    for (std::size_t i = 0; i < tag.size(); ++i) {
      out += tag[i];
      for (const std::string_view anchor : anchors) {
        if (i + 1 >= anchor.size() && tag.substr(i + 1 - anchor.size(), anchor.size()) == anchor) {
          out += prefix;
        }
      }
    }
    at = end;
  }
  return out;
}

}  // namespace scaleopt::report
