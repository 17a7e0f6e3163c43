#pragma once
// Writing a file so that readers see either the old file or the whole new one, never half of
// it: write a temporary file beside it, then rename it over the target (rename is atomic
// within one file system, POSIX).

#include <string>

namespace scaleopt::cli {

// Throws InputError "PATH: cannot write (reason)" and leaves no temporary file behind.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace scaleopt::cli
