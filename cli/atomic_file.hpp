#pragma once
// Writing an output file so that readers never see half of it: the text goes to a temporary
// file in the same directory, which is then renamed over the target (rename is atomic within
// one file system, POSIX rename(2)).

#include <string>
#include <string_view>

namespace scaleopt::cli {

// Throws InputError "FLAG: cannot write PATH: reason" (nothing is left behind on failure).
void write_file_atomically(const std::string& path, std::string_view text, std::string_view flag);

}  // namespace scaleopt::cli
