// The mutant generator of mutants.h: a C tokenizer over the function's code (comments,
// strings and inactive or directive preprocessor lines blanked), a statement walker
// that finds where each token's statement can be probed, and the operators' sites.
#include "kernel_src/mutate/mutants.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <sstream>

#include "kernel_src/extract/closure.h"

namespace eevdf::kernel_src::mutate {
namespace {

constexpr const char* kProbeMark = "$PROBE";

enum class Kind { ident, number, punct };

struct Token {
  Kind kind;
  std::string text;
  std::size_t begin, end;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Preprocessor lines blanked, and the lines our configuration leaves out (closure.h's
// condition_holds); offsets unchanged.
std::string active_code(const std::string& text) {
  std::string code = extract::code_only(text);
  std::vector<std::pair<bool, bool>> stack;  // (active, taken) per open #if
  const auto active = [&] { return stack.empty() || stack.back().first; };
  std::size_t pos = 0;
  bool continued = false;
  while (pos < code.size()) {
    std::size_t end = code.find('\n', pos);
    if (end == std::string::npos) end = code.size();
    const std::size_t first = code.find_first_not_of(" \t", pos);
    const bool directive = continued || (first < end && code[first] == '#');
    if (directive && !continued) {
      std::istringstream words(code.substr(first + 1, end - first - 1));
      std::string d, rest;
      words >> d;
      std::getline(words, rest);
      const bool parent = active();
      if (d == "if" || d == "ifdef" || d == "ifndef") {
        std::istringstream r(rest);
        std::string nm;
        r >> nm;
        const bool holds = d == "if"       ? extract::condition_holds(rest)
                           : d == "ifdef" ? extract::condition_holds("defined(" + nm + ")")
                                          : !extract::condition_holds("defined(" + nm + ")");
        stack.emplace_back(parent && holds, holds);
      } else if (d == "elif" && !stack.empty()) {
        const bool outer = stack.size() < 2 || stack[stack.size() - 2].first;
        const bool holds = !stack.back().second && extract::condition_holds(rest);
        stack.back() = {outer && holds, stack.back().second || holds};
      } else if (d == "else" && !stack.empty()) {
        const bool outer = stack.size() < 2 || stack[stack.size() - 2].first;
        stack.back() = {outer && !stack.back().second, true};
      } else if (d == "endif" && !stack.empty()) {
        stack.pop_back();
      }
    }
    if (directive || !active())
      for (std::size_t k = pos; k < end; ++k) code[k] = ' ';
    continued = directive && end > pos && text[end - 1] == '\\';
    pos = end + 1;
  }
  return code;
}

std::vector<Token> tokenize(const std::string& code, std::size_t from) {
  static const std::array<const char*, 24> multi = {">>=", "<<=", "...", "->", "++", "--", "<<", ">>",
                                                    "<=",  ">=",  "==",  "!=", "&&", "||", "+=", "-=",
                                                    "*=",  "/=",  "%=",  "&=", "|=", "^=", "##", "::"};
  std::vector<Token> out;
  std::size_t i = from;
  while (i < code.size()) {
    const char c = code[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (ident_start(c)) {
      std::size_t j = i;
      while (j < code.size() && ident_char(code[j])) ++j;
      out.push_back({Kind::ident, code.substr(i, j - i), i, j});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < code.size() && (ident_char(code[j]) || code[j] == '.')) ++j;
      out.push_back({Kind::number, code.substr(i, j - i), i, j});
      i = j;
    } else {
      std::size_t len = 1;
      for (const char* m : multi)
        if (code.compare(i, std::char_traits<char>::length(m), m) == 0) {
          len = std::char_traits<char>::length(m);
          break;
        }
      out.push_back({Kind::punct, code.substr(i, len), i, i + len});
      i += len;
    }
  }
  return out;
}

bool is(const Token& t, const char* text) { return t.text == text; }

const std::set<std::string>& type_words() {
  static const std::set<std::string> w = {"struct", "union",  "enum",  "const", "volatile", "unsigned", "signed",
                                          "int",    "long",   "short", "char",  "void",     "bool",     "_Bool",
                                          "u8",     "u16",    "u32",   "u64",   "s8",       "s16",      "s32",
                                          "s64",    "__u64",  "__s64", "typeof", "__typeof__", "static", "register"};
  return w;
}
bool type_word(const Token& t) {
  return t.kind == Kind::ident && (type_words().count(t.text) != 0 ||
                                   (t.text.size() > 2 && t.text.compare(t.text.size() - 2, 2, "_t") == 0));
}

const std::set<std::string>& statement_words() {
  static const std::set<std::string> w = {"if",    "else",   "for",  "while", "do",    "switch", "case",
                                          "default", "return", "break", "continue", "goto", "sizeof"};
  return w;
}

// Where a statement's probe goes.
enum class Region { none, head, for_head, expression, ret, declaration, other, macro_head };

struct Walk {
  const std::vector<Token>& t;
  std::vector<Region> region;         // per token
  std::vector<std::size_t> owner;     // per token: the region's first token (a statement or a head's `(`)
  std::vector<std::size_t> owner_end; // per token: one past the region's last token
  std::vector<bool> initializer;      // per token of a declaration: inside an initializer
  struct Head {
    std::size_t open, close;  // the `(` and `)` of an if/while/do-while condition
  };
  std::vector<Head> conditions;                // COND sites
  std::vector<std::pair<std::size_t, std::size_t>> deletable;  // expression statements [first, `;`]
  std::vector<std::pair<std::size_t, std::size_t>> for_conditions;  // per for head: its cond clause [begin, end)
  bool ok = true;

  explicit Walk(const std::vector<Token>& tokens)
      : t(tokens), region(tokens.size(), Region::none), owner(tokens.size(), 0), owner_end(tokens.size(), 0),
        initializer(tokens.size(), false) {}

  std::size_t matching(std::size_t open) {
    int depth = 0;
    for (std::size_t k = open; k < t.size(); ++k) {
      if (is(t[k], "(") || is(t[k], "[") || is(t[k], "{")) ++depth;
      if ((is(t[k], ")") || is(t[k], "]") || is(t[k], "}")) && --depth == 0) return k;
    }
    ok = false;
    return t.size();
  }
  // The `;` ending a simple statement at `i` (braces of initializers and statement
  // expressions skipped).
  std::size_t simple_end(std::size_t i) {
    while (i < t.size() && !is(t[i], ";")) {
      if (is(t[i], "(") || is(t[i], "[") || is(t[i], "{")) i = matching(i);
      if (i < t.size()) ++i;
    }
    if (i >= t.size()) ok = false;
    return i;
  }
  void mark(std::size_t b, std::size_t e, Region r, std::size_t own, std::size_t own_end) {
    for (std::size_t k = b; k < e && k < t.size(); ++k) {
      region[k] = r;
      owner[k] = own;
      owner_end[k] = own_end;
    }
  }
  std::size_t head(std::size_t kw) {  // `kw ( ... )`: the index after `)`
    if (kw + 1 >= t.size() || !is(t[kw + 1], "(")) {
      ok = false;
      return t.size();
    }
    const std::size_t close = matching(kw + 1);
    mark(kw + 2, close, Region::head, kw + 1, close);
    return close + 1;
  }
  bool declaration(std::size_t i) const {
    if (type_word(t[i])) return true;
    if (t[i].kind != Kind::ident || i + 1 >= t.size()) return false;
    if (t[i + 1].kind == Kind::ident && statement_words().count(t[i].text) == 0) return true;
    std::size_t k = i + 1;
    while (k < t.size() && is(t[k], "*")) ++k;
    return k > i + 1 && k + 1 < t.size() && t[k].kind == Kind::ident &&
           (is(t[k + 1], "=") || is(t[k + 1], ";") || is(t[k + 1], ",") || is(t[k + 1], "["));
  }

  std::size_t statement(std::size_t i) {
    if (!ok || i >= t.size()) {
      ok = false;
      return t.size();
    }
    const Token& w = t[i];
    if (is(w, "{")) {
      ++i;
      while (ok && i < t.size() && !is(t[i], "}")) i = statement(i);
      return i + 1;
    }
    if (is(w, ";")) return i + 1;
    if (is(w, "if")) {
      const std::size_t open = i + 1;
      i = head(i);
      if (ok) conditions.push_back({open, i - 1});
      i = statement(i);
      if (i < t.size() && is(t[i], "else")) i = statement(i + 1);
      return i;
    }
    if (is(w, "while")) {
      const std::size_t open = i + 1;
      i = head(i);
      if (ok) conditions.push_back({open, i - 1});
      return statement(i);
    }
    if (is(w, "switch")) return statement(head(i));
    if (is(w, "do")) {
      i = statement(i + 1);
      if (i >= t.size() || !is(t[i], "while")) {
        ok = false;
        return t.size();
      }
      const std::size_t open = i + 1;
      i = head(i);
      if (ok) conditions.push_back({open, i - 1});
      return i + 1;  // the `;`
    }
    if (is(w, "for")) {
      if (i + 1 >= t.size() || !is(t[i + 1], "(")) {
        ok = false;
        return t.size();
      }
      const std::size_t open = i + 1, close = matching(open);
      std::size_t first_semi = open + 1;
      while (first_semi < close && !is(t[first_semi], ";")) {
        if (is(t[first_semi], "(") || is(t[first_semi], "[") || is(t[first_semi], "{")) first_semi = matching(first_semi);
        ++first_semi;
      }
      std::size_t second_semi = first_semi + 1;
      while (second_semi < close && !is(t[second_semi], ";")) {
        if (is(t[second_semi], "(") || is(t[second_semi], "[")) second_semi = matching(second_semi);
        ++second_semi;
      }
      if (second_semi >= close) {
        ok = false;
        return t.size();
      }
      const std::size_t clause = for_conditions.size();
      for_conditions.emplace_back(first_semi + 1, second_semi);
      mark(open + 1, close, Region::for_head, clause, close);
      if (declaration(open + 1)) mark(open + 1, first_semi, Region::none, 0, 0);  // a declared counter
      return statement(close + 1);
    }
    if ((is(w, "case") || is(w, "default")) || (w.kind == Kind::ident && i + 1 < t.size() && is(t[i + 1], ":") &&
                                                statement_words().count(w.text) == 0)) {
      while (i < t.size() && !is(t[i], ":")) ++i;
      if (i + 1 < t.size() && is(t[i + 1], "}")) return i + 1;
      return statement(i + 1);
    }
    if (is(w, "else")) {  // an else with no if: not C we understand
      ok = false;
      return t.size();
    }
    // A statement macro's loop head `name(...) statement`.
    if (w.kind == Kind::ident && statement_words().count(w.text) == 0 && i + 1 < t.size() && is(t[i + 1], "(")) {
      const std::size_t close = matching(i + 1);
      if (close + 1 < t.size() && (is(t[close + 1], "{") || t[close + 1].kind == Kind::ident)) {
        mark(i, close + 1, Region::macro_head, i, close + 1);
        return statement(close + 1);
      }
    }
    const std::size_t end = simple_end(i);
    if (!ok) return t.size();
    if (is(w, "return")) {
      mark(i, end + 1, Region::ret, i, end + 1);
    } else if (statement_words().count(w.text) != 0) {
      mark(i, end + 1, Region::other, i, end + 1);
    } else if (declaration(i)) {
      mark(i, end + 1, Region::declaration, i, end + 1);
      bool in_init = false;
      int depth = 0;
      for (std::size_t k = i; k < end; ++k) {
        if (is(t[k], "(") || is(t[k], "[") || is(t[k], "{")) ++depth;
        if (is(t[k], ")") || is(t[k], "]") || is(t[k], "}")) --depth;
        if (depth == 0 && is(t[k], "=")) in_init = true;
        else if (depth == 0 && is(t[k], ",")) in_init = false;
        else initializer[k] = in_init;
      }
    } else {
      mark(i, end + 1, Region::expression, i, end + 1);
      deletable.emplace_back(i, end);
    }
    return end + 1;
  }
};

// A token that ends an operand: a name, a number, `]`, or a `)` that closes neither a
// cast nor a control statement's head.
bool operand_end(const std::vector<Token>& t, std::size_t k) {
  const Token& p = t[k];
  if (p.kind == Kind::number) return true;
  if (p.kind == Kind::ident) return statement_words().count(p.text) == 0 || p.text == "sizeof";
  if (is(p, "]")) return true;
  if (!is(p, ")")) return false;
  int depth = 0;
  for (std::size_t j = k + 1; j-- > 0;) {
    if (is(t[j], ")")) ++depth;
    if (is(t[j], "(") && --depth == 0) {
      if (j > 0 && t[j - 1].kind == Kind::ident) {
        const std::string& w = t[j - 1].text;
        if (w == "if" || w == "while" || w == "for" || w == "switch") return false;  // a statement's head
        if (w == "sizeof" || statement_words().count(w) == 0) return true;           // sizeof, a call
      }
      return j + 1 < k && !type_word(t[j + 1]);  // a parenthesised operand, not a cast
    }
  }
  return false;
}

bool operand_start(const Token& n) {
  if (n.kind == Kind::number) return true;
  if (n.kind == Kind::ident) return statement_words().count(n.text) == 0 || n.text == "sizeof";
  return is(n, "(") || is(n, "!") || is(n, "~") || is(n, "-") || is(n, "*") || is(n, "&");
}

bool binary(const std::vector<Token>& t, std::size_t k) {
  return k > 0 && k + 1 < t.size() && operand_end(t, k - 1) && operand_start(t[k + 1]);
}

bool integer_literal(const std::string& s) {
  if (s.find('.') != std::string::npos) return false;
  const bool hex = s.size() > 1 && (s[1] == 'x' || s[1] == 'X');
  return hex || s.find_first_of("eE") == std::string::npos;
}

std::string collapse(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string applied(const std::string& text, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin > b.begin : a.end > b.end;
  });
  std::string out = text;
  for (const Edit& e : edits) out.replace(e.begin, e.end - e.begin, e.text);
  return out;
}

}  // namespace

const char* name(Operator op) {
  switch (op) {
    case Operator::ROR: return "ROR";
    case Operator::AOR: return "AOR";
    case Operator::CRP: return "CRP";
    case Operator::COND: return "COND";
    case Operator::SDL: return "SDL";
    case Operator::MMS: return "MMS";
    case Operator::SHR: return "SHR";
  }
  return "?";
}

bool operator_named(const std::string& text, Operator& out) {
  for (Operator op : kOperators)
    if (text == name(op)) {
      out = op;
      return true;
    }
  return false;
}

std::string Mutant::id() const { return function + "/" + name(op) + "/" + std::to_string(site) + "/" + replacement; }

std::vector<Mutant> mutants_of(const std::string& function, const std::string& text) {
  const std::string code = active_code(text);
  // The body: the first `{` outside the parameter list.
  std::size_t body = std::string::npos;
  int paren = 0;
  for (std::size_t i = 0; i < code.size() && body == std::string::npos; ++i) {
    if (code[i] == '(') ++paren;
    if (code[i] == ')') --paren;
    if (code[i] == '{' && paren == 0) body = i;
  }
  if (body == std::string::npos) return {};
  const std::vector<Token> t = tokenize(code, body);
  Walk walk(t);
  const std::size_t after = walk.statement(0);
  if (!walk.ok || after != t.size()) return {};  // C we do not understand: no mutants

  // The probe edits of the statement that token k belongs to (empty: not probed).
  const auto probes_at = [&](std::size_t k) -> std::vector<Edit> {
    const std::size_t own = walk.owner[k];
    switch (walk.region[k]) {
      case Region::head:
        return {{t[own].end, t[own].end, std::string(kProbeMark) + ", "}};
      case Region::for_head: {
        const auto [b, e] = walk.for_conditions[own];
        if (b == e) return {{t[b].begin, t[b].begin, std::string(kProbeMark) + ", 1"}};
        return {{t[b].begin, t[b].begin, std::string(kProbeMark) + ", "}};
      }
      case Region::expression:
      case Region::ret:
        return {{t[own].begin, t[own].begin, std::string("{ ") + kProbeMark + "; "},
                {t[walk.owner_end[k] - 1].end, t[walk.owner_end[k] - 1].end, " }"}};
      case Region::declaration:
        if (!walk.initializer[k]) return {};
        return {{t[own].begin, t[own].begin, std::string(kProbeMark) + "; "}};
      default:
        return {};
    }
  };

  std::vector<Mutant> out;
  int sites[7] = {};
  const auto add = [&](Operator op, int site, const std::string& replacement, Edit change, std::vector<Edit> probes) {
    Mutant m;
    m.function = function;
    m.op = op;
    m.site = site;
    m.replacement = replacement;
    m.change = std::move(change);
    m.probes = std::move(probes);
    out.push_back(std::move(m));
  };
  const auto next_site = [&](Operator op) { return ++sites[static_cast<int>(op)]; };
  static const std::array<const char*, 6> relational = {"<", "<=", ">", ">=", "==", "!="};

  // Statement sites (COND, SDL) are numbered in source order with the token sites.
  std::size_t cond_next = 0, del_next = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    while (cond_next < walk.conditions.size() && walk.conditions[cond_next].open == k) {
      const auto [open, close] = walk.conditions[cond_next++];
      if (close <= open + 1) continue;
      const std::vector<Edit> probes = {{t[open].end, t[open].end, std::string(kProbeMark) + ", "}};
      const std::size_t b = t[open + 1].begin, e = t[close - 1].end;
      const std::string cond = text.substr(b, e - b);
      const int site = next_site(Operator::COND);
      add(Operator::COND, site, "!", {b, e, "!(" + cond + ")"}, probes);
      add(Operator::COND, site, "true", {b, e, "1"}, probes);
      add(Operator::COND, site, "false", {b, e, "0"}, probes);
    }
    while (del_next < walk.deletable.size() && walk.deletable[del_next].first == k) {
      const auto [first, semi] = walk.deletable[del_next++];
      add(Operator::SDL, next_site(Operator::SDL), "del", {t[first].begin, t[semi].end, ";"},
          {{t[first].begin, t[first].begin, std::string("{ ") + kProbeMark + "; "},
           {t[semi].end, t[semi].end, " }"}});
    }
    const Token& tok = t[k];
    const Region r = walk.region[k];
    if (r == Region::none || r == Region::other || r == Region::macro_head) continue;
    if (r == Region::declaration && !walk.initializer[k]) continue;
    const std::vector<Edit> probes = probes_at(k);
    const auto swap = [&](Operator op, const std::string& to) {
      add(op, next_site(op), to, {tok.begin, tok.end, to}, probes);
    };
    if (tok.kind == Kind::punct) {
      const std::string& op = tok.text;
      if (std::find(relational.begin(), relational.end(), op) != relational.end()) {
        if (!binary(t, k)) continue;
        const int site = next_site(Operator::ROR);
        for (const char* to : relational)
          if (op != to) add(Operator::ROR, site, to, {tok.begin, tok.end, to}, probes);
      } else if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
        if (!binary(t, k)) continue;
        swap(Operator::AOR, op == "+" ? "-" : op == "-" ? "+" : op == "*" ? "/" : op == "/" ? "*" : "/");
      } else if (op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=") {
        swap(Operator::AOR, op == "+=" ? "-=" : op == "-=" ? "+=" : op == "*=" ? "/=" : op == "/=" ? "*=" : "/=");
      } else if (op == "<<" || op == ">>") {
        if (!binary(t, k)) continue;
        swap(Operator::SHR, op == "<<" ? ">>" : "<<");
      } else if (op == "<<=" || op == ">>=") {
        swap(Operator::SHR, op == "<<=" ? ">>=" : "<<=");
      }
    } else if (tok.kind == Kind::number && integer_literal(tok.text)) {
      const int site = next_site(Operator::CRP);
      add(Operator::CRP, site, "+1", {tok.begin, tok.end, "(" + tok.text + "+1)"}, probes);
      add(Operator::CRP, site, "-1", {tok.begin, tok.end, "(" + tok.text + "-1)"}, probes);
    } else if (tok.kind == Kind::ident && k + 1 < t.size() && is(t[k + 1], "(") &&
               !(k > 0 && (is(t[k - 1], "->") || is(t[k - 1], ".")))) {
      static const std::array<std::pair<const char*, const char*>, 6> pairs = {
          {{"max", "min"}, {"min", "max"}, {"max_t", "min_t"}, {"min_t", "max_t"},
           {"max_vruntime", "min_vruntime"}, {"min_vruntime", "max_vruntime"}}};
      for (const auto& [from, to] : pairs)
        if (tok.text == from) swap(Operator::MMS, to);
    }
  }
  return out;
}

std::string apply(const std::string& text, const Mutant& m, const std::string& probe) {
  std::vector<Edit> edits = m.probes;
  for (Edit& e : edits)
    for (std::size_t at = e.text.find(kProbeMark); at != std::string::npos; at = e.text.find(kProbeMark))
      e.text.replace(at, std::char_traits<char>::length(kProbeMark), probe);
  edits.push_back(m.change);
  return applied(text, edits);
}

std::string one_line_diff(const std::string& text, const Mutant& m) {
  const std::size_t nl = m.change.begin == 0 ? std::string::npos : text.rfind('\n', m.change.begin - 1);
  const std::size_t b = nl == std::string::npos ? 0 : nl + 1;
  std::size_t e = text.find('\n', m.change.end);
  if (e == std::string::npos) e = text.size();
  const std::string before = text.substr(b, e - b);
  Edit local = m.change;
  local.begin -= b;
  local.end -= b;
  return collapse(before) + " => " + collapse(applied(before, {local}));
}

}  // namespace eevdf::kernel_src::mutate
