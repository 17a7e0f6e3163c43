// No text runs through a figure: every string a gnuplot script holds (plots/gnuplot_text.hpp)
// is read back by the real gnuplot as the text it was made from, and no command inside it
// (backticks, system(), a quote that would end the string early) ever runs. Thousands of
// random strings are printed by one gnuplot run, and thousands of data cells drawn as labels
// by another; a few hostile strings are drawn in every place a figure puts text; and the HTML
// report's inline SVG keeps text as written.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "figure_checks.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"
#include "scaleopt/report/html_text.hpp"
#include "scaleopt/report/process.hpp"
#include "scaleopt/report/temporary_directory.hpp"

namespace {

using scaleopt::plots::data_string;
using scaleopt::plots::figure_text;
using scaleopt::plots::gnuplot_path;
using scaleopt::plots::gnuplot_string;
using scaleopt::plots::gnuplot_tic_label;

// What would create `canary` if gnuplot evaluated it: backticks (run inside double quotes and
// outside any quote), and system() after a quote that closes the string it sits in.
std::vector<std::string> payloads(const std::string& canary) {
  return {"`touch " + canary + "`",
          "system(\"touch " + canary + "\")",
          "'.system('touch " + canary + "').'",
          "\".system(\"touch " + canary + "\").\"",
          "'\n!touch " + canary + "\n'",
          "\"\nsystem \"touch " + canary + "\"\n\"",
          "\\'.system('touch " + canary + "').\\'",
          "$(touch " + canary + ")",
          "@x"};
}

// A random string over every ASCII byte (NUL too unless `no_nul`), with the payloads, quotes,
// backslashes and line breaks mixed in often.
std::string random_text(std::mt19937_64& random, const std::vector<std::string>& pieces,
                        bool no_nul) {
  std::uniform_int_distribution<int> length(0, 24), byte(no_nul ? 1 : 0, 127), kind(0, 9);
  std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1);
  static const std::string specials = "'\"\\\n`%@#$";
  std::uniform_int_distribution<std::size_t> special(0, specials.size() - 1);
  std::string text;
  for (int n = length(random); n > 0; --n) {
    const int k = kind(random);
    if (k == 0) {
      text += pieces[piece(random)];
    } else if (k <= 3) {
      text += specials[special(random)];
    } else {
      text += static_cast<char>(byte(random));
    }
  }
  return text;
}

// Runs `script` with gnuplot; its print statements go to a file, whose text is returned.
std::string printed_by_gnuplot(const scaleopt::report::TemporaryDirectory& directory,
                               const std::string& script) {
  const std::string printed = directory.file("printed.txt");
  // In the temporary directory first: were quoting broken, what a random string runs (a
  // redirection, say) would land there.
  write_text(directory.file("print.gp"), "cd " + gnuplot_path(directory.path()) + "\nset print " +
                                             gnuplot_path(printed) + "\n" + script);
  const auto run = scaleopt::report::run_program("gnuplot", {directory.file("print.gp")});
  INFO(run.output);
  REQUIRE(run.succeeded());
  return read_file(printed);
}

// The first of `texts` whose print differs, to name it when a property fails.
std::string first_difference(const std::vector<std::string>& texts, const std::string& printed) {
  std::size_t at = 0;
  for (const std::string& text : texts) {
    if (printed.compare(at, text.size() + 1, text + "\n") != 0) return text;
    at += text.size() + 1;
  }
  return "(none: extra output)";
}

// The text of each <text> element of an SVG document, in order (an element without text gives
// ""); empty when libxml2 rejects the document.
std::vector<std::string> text_elements(const std::string& svg) {
  std::vector<std::string> texts;
  xmlDocPtr doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "figure.svg", nullptr,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) return texts;
  std::vector<const xmlNode*> stack{xmlDocGetRootElement(doc)};
  while (!stack.empty()) {
    const xmlNode* node = stack.back();
    stack.pop_back();
    if (!node) continue;
    if (node->type == XML_ELEMENT_NODE &&
        std::string(reinterpret_cast<const char*>(node->name)) == "text") {
      xmlChar* content = xmlNodeGetContent(node);
      texts.emplace_back(content ? reinterpret_cast<const char*>(content) : "");
      xmlFree(content);
      continue;
    }
    for (const xmlNode* child = node->last; child; child = child->prev) stack.push_back(child);
  }
  xmlFreeDoc(doc);
  return texts;
}

}  // namespace

TEST_CASE("gnuplot prints every quoted string back exactly and runs nothing in it",
          "[gnuplot][quoting]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string canary = directory.file("CANARY");
  // The canary works: gnuplot does run these outside a string, so the test can see a leak.
  {
    const scaleopt::report::TemporaryDirectory control;
    const std::string ran = control.file("RAN");
    printed_by_gnuplot(control,
                       "print `touch " + ran + "; echo 1`\nprint system('touch " + ran + "2')\n");
    REQUIRE(std::filesystem::exists(ran));
    REQUIRE(std::filesystem::exists(ran + "2"));
  }
  const std::vector<std::string> pieces = payloads(canary);
  std::mt19937_64 random(20240613);
  std::vector<std::string> shown, paths;
  std::string script;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = random_text(random, pieces, false);
    script += "print " + gnuplot_string(text) + "\n";
    shown.push_back(figure_text(text));
  }
  for (const std::string& piece : pieces) {
    script += "print " + gnuplot_string(piece) + "\n";
    shown.push_back(piece);
  }
  const std::string printed = printed_by_gnuplot(directory, script);
  std::string expected;
  for (const std::string& text : shown) expected += text + "\n";
  INFO("first string printed differently: " << first_difference(shown, printed));
  CHECK(printed == expected);
  CHECK_FALSE(std::filesystem::exists(canary));

  // File names keep every byte (gnuplot must open the very file): only NUL is refused.
  std::string path_script;
  for (int i = 0; i < 3000; ++i) {
    const std::string path = random_text(random, pieces, true);
    path_script += "print " + gnuplot_path(path) + "\n";
    paths.push_back(path.starts_with('|') ? "./" + path : path);
  }
  const std::string printed_paths = printed_by_gnuplot(directory, path_script);
  expected.clear();
  for (const std::string& path : paths) expected += path + "\n";
  INFO("first path printed differently: " << first_difference(paths, printed_paths));
  CHECK(printed_paths == expected);
  CHECK_FALSE(std::filesystem::exists(canary));
  CHECK_THROWS_AS(gnuplot_path(std::string("a\0b", 3)), scaleopt::InputError);
}

TEST_CASE("gnuplot shows every text cell of a data file exactly, and runs nothing in it",
          "[gnuplot][quoting]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string canary = directory.file("CANARY");
  const std::vector<std::string> pieces = payloads(canary);
  std::mt19937_64 random(20240614);
  // One label per row, bracketed so that none is empty or loses its spaces at its ends. Line
  // breaks are left out here: a label of two lines is two <text> elements (the test above).
  std::vector<std::string> shown;
  std::string data = "# x y label\n";
  for (int i = 0; i < 2000; ++i) {
    std::string text = random_text(random, pieces, false);
    std::replace(text.begin(), text.end(), '\n', ' ');
    const std::string label = "[" + text + "]";
    data += std::to_string(i) + " " + std::to_string(i) + " " + data_string(label) + "\n";
    shown.push_back(figure_text(label));
  }
  write_text(directory.file("labels.dat"), data);
  const std::string svg = directory.file("labels.svg");
  write_text(directory.file("labels.gp"),
             "cd " + gnuplot_path(directory.path()) + "\nset terminal svg noenhanced\nset output " +
                 gnuplot_path(svg) + "\nplot " + gnuplot_path(directory.file("labels.dat")) +
                 " using 1:2:3 with labels notitle\n");
  const auto run = scaleopt::report::run_program("gnuplot", {directory.file("labels.gp")});
  INFO(run.output);
  REQUIRE(run.succeeded());
  std::vector<std::string> labels;
  for (const std::string& text : text_elements(read_file(svg))) {
    if (text.starts_with('[')) labels.push_back(text);
  }
  REQUIRE(labels.size() == shown.size());
  for (std::size_t i = 0; i < shown.size(); ++i) {
    INFO("row " << i);
    REQUIRE(labels[i] == shown[i]);
  }
  CHECK_FALSE(std::filesystem::exists(canary));
}

TEST_CASE("figure text: control characters become spaces, bad UTF-8 U+FFFD, line breaks stay",
          "[gnuplot][quoting]") {
  CHECK(figure_text(std::string("a\0b\tc\rd\x1b[31me\x7f", 14)) == "a b c d [31me ");
  CHECK(figure_text("two\nlines") == "two\nlines");
  CHECK(figure_text("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") ==
        "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  const std::string replacement = "\xEF\xBF\xBD";
  CHECK(figure_text("a\xFF"
                    "b") == "a" + replacement + "b");
  CHECK(figure_text("\xC0\x80") == replacement + replacement);                    // overlong NUL
  CHECK(figure_text("\xED\xA0\x80") == replacement + replacement + replacement);  // surrogate
  CHECK(figure_text("\xEF\xBF\xBF") == replacement + replacement + replacement);  // U+FFFF
  CHECK(figure_text("\xE2\x82") == replacement + replacement);                    // cut short
  CHECK(figure_text("a]]>b ]>") == "a]]\xE2\x80\x8B>b ]>");  // U+200B: XML forbids "]]>"
  // Tic labels are printf formats to gnuplot; data cells are double-quoted with escapes.
  CHECK(gnuplot_tic_label("50% 'a'") == "'50%% '.\"\\047\".'a'.\"\\047\"");
  CHECK(data_string("a \"b\" \\ c\nd\te") == "\"a \\042b\\042 \\\\ c\\nd e\"");
  CHECK(data_string("\"07\"8") == "\"\\042\\060\\067\\0428\"");  // digits after \042
  CHECK(gnuplot_path("|touch x.svg") == "'./|touch x.svg'");
}

TEST_CASE("every place a figure puts text shows hostile text as written, and runs none of it",
          "[gnuplot][quoting]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string canary = directory.file("CANARY");
  std::vector<std::string> texts = payloads(canary);
  texts.push_back("it's \"quoted\" \\ 100% %s %n caf\xC3\xA9 <b>&amp; ]]> id='x' url(#y)");
  // A directory and an output file whose names are hostile too.
  const std::string hostile_name = "d'q\"b`x` %s $(y) @z";
  const std::string data_directory = directory.file(hostile_name);
  std::filesystem::create_directory(data_directory);
  std::string data = "# x y label\n";
  for (std::size_t i = 0; i < texts.size(); ++i) {
    data += std::to_string(i) + " " + std::to_string(i) + " " + data_string(texts[i]) + "\n";
  }
  write_text(data_directory + "/" + hostile_name + ".dat", data);
  const std::string output = hostile_name + ".svg";
  std::string script = "cd " + gnuplot_path(data_directory) + "\n";
  script += "set terminal svg size 2000,3000 noenhanced\nset output " + gnuplot_path(output) + "\n";
  std::string tics;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::string t = gnuplot_string(texts[i]);
    const std::string tag = std::to_string(i + 1);
    script += "set label " + tag + " " + t + " at graph 0.1, graph " +
              std::to_string(0.05 + 0.09 * i) + "\n";
    tics += (tics.empty() ? "" : ", ") + gnuplot_tic_label(texts[i]) + " " + std::to_string(i);
  }
  script += "set title " + gnuplot_string(texts[0] + "\n" + texts[1]) + "\n";
  script += "set xlabel " + gnuplot_string(texts[2]) + "\n";
  script += "set ylabel " + gnuplot_string(texts[3]) + "\n";
  script += "set key title " + gnuplot_string(texts[4]) + "\n";
  script += "set xtics (" + tics + ")\nset xrange [-1:" + std::to_string(texts.size()) + "]\n";
  script += "set multiplot layout 1,1 title " + gnuplot_string(texts[5]) + "\n";
  script += "plot " + gnuplot_path(hostile_name + ".dat") + " using 1:2 with lines title " +
            gnuplot_string(texts[6]) + ", '' using 1:2:3 with labels title " +
            gnuplot_string(texts[7]) + "\n";
  script += "unset multiplot\n";
  write_text(directory.file("contexts.gp"), script);
  const auto run = scaleopt::report::run_program("gnuplot", {directory.file("contexts.gp")});
  INFO(run.output);
  CHECK_FALSE(std::filesystem::exists(canary));
  REQUIRE(run.succeeded());
  CHECK(run.output.empty());  // no warning either
  const auto text = svg_text(read_file(data_directory + "/" + output));
  REQUIRE(text.has_value());
  // Each line of each text appears as a line of the SVG's text: in its label, its tic and its
  // data cell, and (for the first eight) the title, axis labels, key title and key entries.
  for (const std::string& hostile : texts) {
    std::size_t start = 0;
    for (std::size_t end; start <= hostile.size(); start = end + 1) {
      end = std::min(hostile.find('\n', start), hostile.size());
      const std::string line = hostile.substr(start, end - start);
      INFO(line);
      // Appended, not "\n" + ...: GCC 12 warns (-Wrestrict) on that with -O2.
      std::string shown(1, '\n');
      shown.append(figure_text(line)).append(1, '\n');
      CHECK_THAT(*text, Catch::Contains(shown));
    }
  }
  CHECK_THAT(*text, Catch::Contains("\nit's \"quoted\" \\ 100% %s %n caf\xC3\xA9"));
}

TEST_CASE("inline SVG: ids prefixed in tags only, text left as written", "[report][quoting]") {
  const std::string svg =
      "<?xml version=\"1.0\"?>\n<svg><defs><path id='gpPt1' d='M0'/></defs>"
      "<use xlink:href='#gpPt1' style=\"filter:url(#textbox)\"/>"
      "<text>law id='x' href='#y' url(#z) a&gt;b</text><g id=\"plot\"></g></svg>";
  CHECK(scaleopt::report::inline_svg(svg, "f-") ==
        "<svg><defs><path id='f-gpPt1' d='M0'/></defs>"
        "<use xlink:href='#f-gpPt1' style=\"filter:url(#f-textbox)\"/>"
        "<text>law id='x' href='#y' url(#z) a&gt;b</text><g id=\"f-plot\"></g></svg>");
}
