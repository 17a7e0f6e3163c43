#pragma once
// What a problem looks like to the solver (in the manner of ensmallen's function concepts):
// variables with bounds and a start, an objective, and constraints, each with its gradient.
// The solver knows nothing about language models.

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace scaleopt {

class Problem {
 public:
  virtual ~Problem() = default;

  virtual std::size_t dimension() const = 0;
  virtual std::vector<double> lower_bounds() const = 0;
  virtual std::vector<double> upper_bounds() const = 0;
  virtual std::vector<double> start() const = 0;

  // f(x); fills `gradient` (same size as x) when it is not empty.
  virtual double objective(std::span<const double> x, std::span<double> gradient) const = 0;

  // Equality constraints h_i(x) == 0, dimensionless and of order one near the solution.
  virtual std::size_t equality_count() const { return 0; }
  virtual double equality(std::size_t /*i*/, std::span<const double> /*x*/,
                          std::span<double> /*gradient*/) const {
    return 0.0;
  }

  // Inequality constraints g_j(x) <= 0, scaled as the equalities.
  virtual std::size_t inequality_count() const { return 0; }
  virtual double inequality(std::size_t /*j*/, std::span<const double> /*x*/,
                            std::span<double> /*gradient*/) const {
    return 0.0;
  }

 protected:
  Problem() = default;
  Problem(const Problem&) = default;
  Problem& operator=(const Problem&) = default;
};

// `problem` started from `start` instead of its own start (a restart); refers to `problem`,
// which must outlive it.
class StartedAt : public Problem {
 public:
  StartedAt(const Problem& problem, std::vector<double> start)
      : problem_(problem), start_(std::move(start)) {}
  std::size_t dimension() const override { return problem_.dimension(); }
  std::vector<double> lower_bounds() const override { return problem_.lower_bounds(); }
  std::vector<double> upper_bounds() const override { return problem_.upper_bounds(); }
  std::vector<double> start() const override { return start_; }
  double objective(std::span<const double> x, std::span<double> gradient) const override {
    return problem_.objective(x, gradient);
  }
  std::size_t equality_count() const override { return problem_.equality_count(); }
  double equality(std::size_t i, std::span<const double> x,
                  std::span<double> gradient) const override {
    return problem_.equality(i, x, gradient);
  }
  std::size_t inequality_count() const override { return problem_.inequality_count(); }
  double inequality(std::size_t j, std::span<const double> x,
                    std::span<double> gradient) const override {
    return problem_.inequality(j, x, gradient);
  }

 private:
  const Problem& problem_;
  std::vector<double> start_;
};

}  // namespace scaleopt
