#pragma once
// The identity of the question a scenario asks, for the provenance lines of sweep and Monte
// Carlo files (analysis/sweep_provenance.hpp): two files may be merged or resumed into one only
// when their scenarios, as solved (after --set), have the same fingerprint.
//
// The fingerprint hashes a canonical text of the resolved inputs rather than the file's bytes,
// so comments, key order, spacing, the spelling of a number ("50M/s" or 5e7) and a key given
// at its default do not change it:
// - every numeric input with its value (scenario/scenario_keys.hpp numeric_inputs: registry
//   numbers, the fields of the chips in use), printed to full precision, sorted by path;
// - everything else the file says (chip names, the problem's kind, [pricing], [uncertainty],
//   ...), as the TOML document after --set with the numeric inputs taken out, printed by
//   toml++ (tables sorted by key, no comments): Scenario::document_digest, set by the loader.
// The hash is 64-bit FNV-1a (Fowler, Noll and Vo): not a defence against a forger, but two
// different questions collide by chance with probability about 2^-64.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

inline constexpr std::uint64_t kFnvOffsetBasis = 14695981039346656037ULL;

// 64-bit FNV-1a of `text`, continuing from `hash`.
std::uint64_t fnv1a64(std::string_view text, std::uint64_t hash = kFnvOffsetBasis);

// 16 lower-case hexadecimal digits. `excluded` are numeric input paths left out (a sweep's
// varied inputs: their values in the file do not change the sweep's rows).
std::string scenario_fingerprint(const Scenario& scenario,
                                 std::span<const std::string> excluded = {});

}  // namespace scaleopt
