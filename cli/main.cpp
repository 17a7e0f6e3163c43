#include <iostream>

#include "scaleopt/cli/app.hpp"

int main(int argc, char** argv) {
  return scaleopt::cli::run(argc, argv, std::cout, std::cerr);
}
