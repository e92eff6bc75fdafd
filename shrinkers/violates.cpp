// The standard shrink predicate: "the same property fails", judged by a full replay
// of the candidate in the kernel arithmetic; see shrink.h.
#include <memory>     // the shared property name
#include <stdexcept>  // std::invalid_argument
#include <variant>    // std::get_if

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "properties/property.h"
#include "properties/registry.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "shrinkers/shrink.h"
#include "trace/error.h"
#include "trace/static_rules.h"

namespace eevdf::shrinkers {
namespace {

// The name errors would carry; nobody sees them (an invalid candidate is rejected).
const char* const kCandidateFile = "<shrink candidate>";

// Records whether `property` failed on its own (a consequence of an earlier
// overflow is another bug's echo, not this property failing).
class PropertyRecorder final : public properties::Sink {
 public:
  explicit PropertyRecorder(const std::string& property) : property_(property) {}
  void violation(const properties::Violation& v) override {
    if (v.property == property_ && !v.consequence) violated_ = true;
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  bool violated() const { return violated_; }

 private:
  const std::string& property_;
  bool violated_ = false;
};

// Replays every event (a violation does not end it: an illegal event after it still
// makes the candidate invalid, as the shrunk trace's replay would exit 2).
// Throws trace::TraceError or InternalError for an invalid candidate.
bool replay_violates(const trace::Trace& t, const std::string& property) {
  const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
  const std::vector<model::TaskSpec> specs = replay::make_task_specs(t.header);
  PropertyRecorder sink(property);
  replay::CheckedRun<model::KernelArith> run(config, specs, sink, properties::Selection{});
  trace::StaticRules rules(kCandidateFile);
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;  // Expect statements are the caller's business
    // Undeclared tasks would be an exit 2 the replay reports; never apply them.
    if (e->task != 0 && t.header.find_task(e->task) == nullptr) return false;
    rules.check(*e);
    if (!run.apply(*e).empty()) return false;
  }
  run.finish();
  return sink.violated();
}

}  // namespace

Predicate violates(const std::string& property) {
  if (properties::find_property(property) == nullptr)
    throw std::invalid_argument("violates: unknown property `" + property + "`");
  auto name = std::make_shared<const std::string>(property);
  return [name](const trace::Trace& candidate) {
    try {
      return replay_violates(candidate, *name);
    } catch (const trace::TraceError&) {
      return false;  // an exit-2 condition: header or event the model rejects
    } catch (const InternalError&) {
      return false;  // an exit-3 condition: not this property failing
    }
  };
}

}  // namespace eevdf::shrinkers
