#pragma once
// How deep a TOML document nests, bounded before toml++ parses it. toml++ descends once per
// part of a dotted key or table header (`[a.a.a....]`, `a.a.a... = 1`), so a key of ~35,000
// parts (a 70 KB file) overflows the stack and kills the process; the bounded reader
// (scenario/input_file.hpp) bounds a file's size, this bounds its depth.
//
// The scan understands TOML's lexical structure, so that only real nesting counts: the parts of
// table headers (`[a.b]`, `[[a.b]]`) and dotted keys, bare or quoted (`"a.b".c` is two parts,
// a dot inside the quotes is text), inline tables and arrays; never the text of strings (basic,
// literal, multi-line) or comments. It checks nesting only: what is not valid TOML stops the
// scan where it starts, and toml++ (which parses from the start and stops at the first error)
// reports it there.

#include <cstddef>
#include <string>
#include <string_view>

namespace scaleopt {

// The deepest a value may sit: the parts of its table header and of its dotted key, and the
// inline tables and arrays around it, counted together. A scenario nests 3 or 4 levels deep.
inline constexpr std::size_t kMaxTomlDepth = 64;

// Throws InputError "NAME:LINE: nested more than 64 levels deep (...)" at the first key,
// inline table or array that goes deeper than `max_depth`.
void check_toml_nesting(std::string_view text, const std::string& name,
                        std::size_t max_depth = kMaxTomlDepth);

}  // namespace scaleopt
