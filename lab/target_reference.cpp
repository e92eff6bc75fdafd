// The reference model as a lab target: CheckedRun (the properties of the profile)
// in the arithmetic asked for.
#include <fmt/format.h>

#include "lab/target.h"
#include "lab/target_kernel_tree.h"
#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "runner/measures-inl.h"
#include "trace/error.h"

namespace eevdf::lab {
namespace {

template <class A, class P>
class ReferenceTarget final : public Target {
 public:
  ReferenceTarget(const model::Config& config, const std::vector<model::TaskSpec>& specs, properties::Sink& sink,
                  const properties::Selection& selection)
      : run_(config, specs, sink, selection) {}

  std::string apply(const trace::Event& e) override { return run_.apply(e); }
  int curr(int cpu) const override {
    const auto* c = run_.machine().rqs()[static_cast<std::size_t>(cpu)].curr;
    return c == nullptr ? -1 : static_cast<int>(c - run_.machine().tasks().data());
  }
  model::task_state state(int p) const override { return run_.machine().state_of(task(p)); }
  int cpu_of(int p) const override { return task(p).cpu; }
  std::int64_t nr_iowait(int cpu) const override { return rq(cpu).nr_iowait; }
  std::int64_t nr_iowait_acct(int cpu) const override { return rq(cpu).nr_iowait_acct; }
  std::optional<std::int64_t> lag_ns(int p) const override {
    const auto& t = task(p);
    const model::task_state s = run_.machine().state_of(t);
    if (s != model::task_state::queued && s != model::task_state::running && s != model::task_state::delayed)
      return std::nullopt;
    const replay::Rational lag = replay::to_rational<A>(replay::lag_of(run_.machine(), t));
    using Int = boost::multiprecision::mpz_int;
    const Int whole = boost::multiprecision::numerator(lag) / boost::multiprecision::denominator(lag);
    return whole.convert_to<std::int64_t>();
  }
  bool halted() const override { return run_.halted(); }
  void finish() override { run_.finish(); }
  void tally(std::map<std::string, std::uint64_t>& evaluated) const override {
    runner::tally_evaluated(run_.checker(), evaluated);
  }

 private:
  const model::task_struct<A>& task(int p) const { return run_.machine().tasks()[static_cast<std::size_t>(p)]; }
  const model::rq<A>& rq(int cpu) const { return run_.machine().rqs()[static_cast<std::size_t>(cpu)]; }
  replay::CheckedRun<A, P> run_;
};

template <class P>
std::unique_ptr<Target> reference(const TargetSpec& spec, const model::Config& config,
                                  const std::vector<model::TaskSpec>& specs, properties::Sink& sink) {
  if (spec.arith == trace::Arith::ideal)
    return std::make_unique<ReferenceTarget<model::IdealArith, P>>(config, specs, sink, spec.selection);
  return std::make_unique<ReferenceTarget<model::KernelArith, P>>(config, specs, sink, spec.selection);
}

}  // namespace

std::unique_ptr<Target> make_target(const TargetSpec& spec, const trace::Header& header, properties::Sink& sink,
                                    const std::string& file) {
  if (spec.kind == TargetSpec::kernel_tree) return make_kernel_tree_target(spec, header, sink, file);
  const model::Config config = replay::make_config(header, replay::Options{}, file);
  const auto specs = replay::make_task_specs(header);
  if (header.kernel.value_or("6.18") == "6.12") return reference<model::profile_6_12>(spec, config, specs, sink);
  return reference<model::profile_6_18>(spec, config, specs, sink);
}

}  // namespace eevdf::lab
