// The engine used until the reference model lands: it accepts every event the
// static rules allowed and counts the expectations it cannot judge yet.
#include <fmt/format.h>

#include "replay/engine.h"

namespace eevdf::replay {
namespace {

class NoModelEngine final : public Engine {
 public:
  NoModelEngine(std::string file, Dump dump) : file_(std::move(file)), dump_(dump) {}

  void apply(const trace::Event&) override {}
  void expect(const trace::Expect&) override { ++unevaluated_; }

  Outcome finish(std::uint64_t events, std::ostream& out) override {
    out << fmt::format("{}: {} events valid as far as checked without a model\n", file_, events);
    if (unevaluated_ > 0)
      out << fmt::format("{}: {} expectations not evaluated: no model yet\n", file_, unevaluated_);
    if (dump_ != Dump::none) out << fmt::format("{}: --dump not produced: no model yet\n", file_);
    return Outcome::clean;
  }

 private:
  std::string file_;
  Dump dump_;
  std::uint64_t unevaluated_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_engine(const trace::Header&, const Options& options, const std::string& file) {
  return std::make_unique<NoModelEngine>(file, options.dump);
}

}  // namespace eevdf::replay
