// The engine for the reference model under a non-default profile (engines.h): the
// trace through Machine<A, profile_6_12>, its state queries and the dump. The
// property checker is written against the default profile's machine, so a trace
// that expects violations is refused rather than passed unchecked.
#include <fmt/format.h>

#include <memory>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "replay/apply_event.h"
#include "replay/engines.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::replay {
namespace {

template <class A>
class ProfileEngine final : public Engine {
 public:
  explicit ProfileEngine(const EngineSetup& s)
      : s_(s), m_(make_config(s.header, s.options, s.file), make_task_specs(s.header)),
        summary_(s.options.dump != Dump::none ? s.err : s.out) {
    if (!expects_only_kernel_match(s.header) || !s.options.check.empty())
      throw trace::TraceError({s.file, 0, 0},
                              fmt::format("properties are not checked on profile {} yet", *s.header.kernel),
                              "replay it with --model=kernel-src or --diff=kernel-src, or under `kernel 6.18`");
  }

  bool apply(const trace::Event& e) override {
    const std::string reason = apply_event(m_, e);
    if (!reason.empty()) throw trace::TraceError({s_.file, e.line, e.column}, reason);
    m_.clear_overflows();
    if (s_.options.dump != Dump::none)
      s_.out << dump_state(m_, e.line, trace::format_event(e), s_.options.dump == Dump::full).dump() << "\n";
    return true;
  }

  void expect(const trace::Expect& x) override {
    ++expectations_;
    if (x.query == trace::Query::measure) return fail(x, "measures need the property checker");
    const bool kernel_query = x.query == trace::Query::lag;
    const bool ideal_query = x.query == trace::Query::ideal_lag;
    if ((kernel_query && A::name != "kernel") || (ideal_query && A::name != "ideal"))
      return fail(x, "no shadow model in the other arithmetic under this profile");
    const QueryResult r = evaluate(m_, x);
    if (!r.ok) fail(x, "got " + r.actual);
  }

  Outcome finish(std::uint64_t events) override {
    const bool ok = failed_ == 0;
    summary_ << fmt::format("{}: {} (profile {}, {} arithmetic, {} events, {} expectations; properties not run)\n",
                            s_.file, ok ? "ok" : "FAILED", *s_.header.kernel, A::name, events, expectations_);
    return ok ? Outcome::clean : Outcome::failed;
  }

 private:
  void fail(const trace::Expect& x, const std::string& why) {
    ++failed_;
    summary_ << fmt::format("{}:{}: {}: {}\n", s_.file, x.line, trace::format_expect(x), why);
  }

  const EngineSetup s_;
  model::Machine<A, model::profile_6_12> m_;
  std::ostream& summary_;
  std::uint64_t expectations_ = 0;
  std::uint64_t failed_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_profile_engine(const EngineSetup& setup) {
  EEVDF_ASSERT(setup.header.kernel == "6.12", "the only non-default profile is 6.12");
  if (setup.arith == trace::Arith::ideal) return std::make_unique<ProfileEngine<model::IdealArith>>(setup);
  return std::make_unique<ProfileEngine<model::KernelArith>>(setup);
}

}  // namespace eevdf::replay
