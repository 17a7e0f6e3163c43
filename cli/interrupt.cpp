#include "scaleopt/cli/interrupt.hpp"

#include <csignal>

namespace scaleopt::cli {
namespace {

volatile std::sig_atomic_t interrupt_flag = 0;

extern "C" void on_interrupt(int) {
  interrupt_flag = 1;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  interrupt_flag = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

bool InterruptGuard::interrupted() {
  return interrupt_flag != 0;
}

}  // namespace scaleopt::cli
