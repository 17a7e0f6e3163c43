#pragma once
// The errors of Ben Strasser's Fast C++ CSV Parser (libfccp) reworded as one-line InputErrors
// "FILE:LINE: what", shared by the readers of training runs and of sweep files.

#include <functional>
#include <string>

namespace io::error {
struct base;
}

namespace scaleopt {

// `flag_of(column)` names the flag that asked for a column ("loss_col"; the front ends name their
// flag or keyword), for "no column 'loss' (named by --loss-col) in the header".
[[noreturn]] void rethrow_csv_error(const std::string& path, const io::error::base& error,
                                    const std::function<std::string(const std::string&)>& flag_of);

[[noreturn]] void fail_at_line(const std::string& path, int line, const std::string& what);

}  // namespace scaleopt
