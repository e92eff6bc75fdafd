// The mutant schemata of schemata.h.
#include "kernel_src/mutate/schemata.h"

#include <sstream>

namespace eevdf::kernel_src::mutate {
namespace {

// The definition's text up to its body's `{`, trimmed: a prototype without the `;`.
std::string prototype(const std::string& text) {
  const std::string code = extract::code_only(text);
  int paren = 0;
  std::size_t body = code.size();
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '(') ++paren;
    if (code[i] == ')') --paren;
    if (code[i] == '{' && paren == 0) {
      body = i;
      break;
    }
  }
  std::string proto = text.substr(0, body);
  proto.erase(proto.find_last_not_of(" \t\n") + 1);
  return proto;
}

std::string renamed(std::string text, std::size_t at, std::size_t length, const std::string& to) {
  return text.replace(at, length, to);
}

}  // namespace

extract::Rewriter Schemata::rewriter() {
  return [this](const std::string& name, const std::string& path, const std::string& text, std::size_t name_at,
                const std::string& defined_as) { return rewrite(name, path, text, name_at, defined_as); };
}

std::optional<extract::Rewritten> Schemata::rewrite(const std::string& name, const std::string& path,
                                                    const std::string& text, std::size_t name_at,
                                                    const std::string& defined_as) {
  if (path != kMutatedFile) return std::nullopt;
  if (!selection_.functions.empty() && selection_.functions.count(name) == 0) return std::nullopt;
  std::vector<Mutant> chosen;
  for (Mutant& m : mutants_of(name, text)) {
    if (!selection_.operators.empty() && selection_.operators.count(m.op) == 0) continue;
    if (selection_.excluded.count(m.id()) != 0) continue;
    chosen.push_back(std::move(m));
  }
  if (chosen.empty()) return std::nullopt;

  const std::size_t first = mutants_.size() + 1;
  const std::string proto = prototype(text);
  const std::size_t length = defined_as.size();
  const std::string table = "ksrc_mutants_" + defined_as;
  std::ostringstream head, body;
  std::ostringstream entries;
  entries << defined_as;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const std::string copy = "ksrc_mut" + std::to_string(first + k) + "_" + defined_as;
    head << renamed(proto, name_at, length, copy) << ";\n";
    entries << ", " << copy;
    body << "\n#line 1 \"" << kMutantFilePrefix << first + k << "\"\n"
         << renamed(apply(text, chosen[k], "ksrc_mutant_hit()"), name_at, length, copy) << "\n";
  }
  head << "static __typeof__(" << defined_as << ") *const " << table << "[] = {" << entries.str() << "};\n"
       << "#define " << defined_as << "(...) (*" << table << "[ksrc_mutant_slot(" << first << "u, " << chosen.size()
       << "u)])(__VA_ARGS__)\n";
  for (Mutant& m : chosen) {
    const std::string id = m.id();
    std::string diff = one_line_diff(text, m);
    mutants_.push_back({std::move(m), id, std::move(diff)});
  }
  // The original, named `(D)` so that the call macro leaves its definition alone.
  return extract::Rewritten{head.str(), renamed(text, name_at, length, "(" + defined_as + ")") + body.str()};
}

}  // namespace eevdf::kernel_src::mutate
