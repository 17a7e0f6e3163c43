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
  std::string out(svg);
  const std::string tag(prefix);
  constexpr std::array<std::string_view, 5> anchors{"id='", "id=\"", "href='#", "href=\"#",
                                                    "url(#"};
  for (const std::string_view anchor : anchors) {
    std::size_t at = 0;
    while ((at = out.find(anchor, at)) != std::string::npos) {
      at += anchor.size();
      out.insert(at, tag);
      at += tag.size();
    }
  }
  return out;
}

}  // namespace scaleopt::report
