#pragma once
// Ben Strasser's Fast C++ CSV Parser (Debian libfccp-dev), included the one way scaleopt uses it.

// The parser's background reader thread only pays off for files of tens of megabytes.
#define CSV_IO_NO_THREAD
// The parser copies file names with strncpy into a fixed buffer and terminates them itself;
// GCC's inlined-code check flags that copy even in a system header (clang has no such check).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <csv.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
