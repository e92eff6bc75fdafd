// Mutant generation for `eevdf-check mutate`: from the text of one extracted C
// function, the sites where a mutation operator applies and, per site, its
// replacements, each with the edits that make the mutated copy and the probe that
// counts whether the mutated statement executed.
//
// Pure: texts in, mutants out. The edits are offsets into the function's text; no
// kernel text is kept beyond what the caller holds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace eevdf::kernel_src::mutate {

// ROR: a relational operator replaced by each other one. AOR: an arithmetic operator
// (or its compound assignment) replaced by its counterpart (+ -, * /, % /). CRP: an
// integer constant +1 and -1. COND: an if/while condition negated, forced true, forced
// false. SDL: an expression statement deleted. MMS: max and min (and their _t and
// _vruntime forms) swapped. SHR: a shift's direction swapped.
enum class Operator { ROR, AOR, CRP, COND, SDL, MMS, SHR };
inline constexpr Operator kOperators[] = {Operator::ROR, Operator::AOR, Operator::CRP, Operator::COND,
                                          Operator::SDL, Operator::MMS, Operator::SHR};

const char* name(Operator op);
// false: no operator has that name.
bool operator_named(const std::string& text, Operator& out);

// Replace [begin, end) of the function's text by `text` (begin == end: an insertion).
struct Edit {
  std::size_t begin = 0, end = 0;
  std::string text;
};

struct Mutant {
  std::string function;
  Operator op = Operator::ROR;
  int site = 0;             // 1-based, per operator, in source order within the function
  std::string replacement;  // what the id names: "<=", "+1", "!", "true", "del", "min", ...
  Edit change;              // the mutation itself
  std::vector<Edit> probes; // where `probe` (the caller's statement-expression text) goes

  // function/OP/site/replacement: the same tree gives the same ids.
  std::string id() const;
};

// The mutants of one function definition (`text`: from its declaration to its closing
// brace; comments and preprocessor lines are ignored). `probe` is the call the mutated
// copy makes when the mutated statement executes: an expression of type void, e.g.
// "ksrc_mutant_hit()".
std::vector<Mutant> mutants_of(const std::string& function, const std::string& text);

// The function's text with the mutant applied and its probes placed.
std::string apply(const std::string& text, const Mutant& m, const std::string& probe);

// "<line before> => <line after>": the source line holding the change, trimmed, before
// and after it (probes left out).
std::string one_line_diff(const std::string& text, const Mutant& m);

}  // namespace eevdf::kernel_src::mutate
