// The dependency-closure extraction of closure.h.
#include "kernel_src/extract/closure.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

namespace eevdf::kernel_src::extract {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::size_t line_start(const std::string& s, std::size_t pos) {
  if (pos == 0) return 0;
  const std::size_t nl = s.rfind('\n', pos - 1);
  return nl == std::string::npos ? 0 : nl + 1;
}

int line_number(const std::string& s, std::size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// The end of the (possibly continued) line starting at or after `pos`.
std::size_t logical_line_end(const std::string& s, std::size_t pos) {
  std::size_t end = pos;
  while (true) {
    end = s.find('\n', end);
    if (end == std::string::npos) return s.size();
    if (end == 0 || s[end - 1] != '\\') return end;
    ++end;
  }
}

std::size_t skip_back_space(const std::string& code, std::size_t i) {  // index of the last non-space before i, or npos
  while (i > 0) {
    --i;
    if (!std::isspace(static_cast<unsigned char>(code[i]))) return i;
  }
  return std::string::npos;
}

std::size_t matching_forward(const std::string& code, std::size_t open, char o, char c) {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == o) ++depth;
    if (code[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

std::size_t matching_backward(const std::string& code, std::size_t close, char o, char c) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (code[i] == c) ++depth;
    if (code[i] == o && --depth == 0) return i;
  }
  return std::string::npos;
}

const std::set<std::string>& keywords() {
  static const std::set<std::string> k = {
      "if", "else", "for", "while", "do", "switch", "case", "default", "return", "break", "continue", "goto",
      "sizeof", "typeof", "__typeof__", "static", "inline", "const", "volatile", "extern", "struct", "union",
      "enum", "unsigned", "signed", "int", "long", "short", "char", "void", "bool", "_Bool", "true", "false",
      "NULL", "u64", "s64", "u32", "s32", "u8", "s8", "u16", "s16", "defined", "__attribute__", "register",
      "auto", "_Thread_local", "__int128", "typedef"};
  return k;
}

// Identifiers of `code` (comments blanked) that name something: not a member access,
// not the tag after struct/union/enum, not a keyword.
std::set<std::string> references(const std::string& code) {
  std::set<std::string> out;
  std::string prev_word;
  for (std::size_t i = 0; i < code.size();) {
    if (!ident_start(code[i]) || (i > 0 && ident_char(code[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < code.size() && ident_char(code[j])) ++j;
    const std::string word = code.substr(i, j - i);
    const std::size_t before = skip_back_space(code, i);
    const bool member = before != std::string::npos &&
                        (code[before] == '.' || (code[before] == '>' && before > 0 && code[before - 1] == '-'));
    const bool tag = prev_word == "struct" || prev_word == "union" || prev_word == "enum";
    if (prev_word == "enum") out.insert("enum " + word);  // an enum type of the tree (Kind::type)
    if (!member && !tag && keywords().count(word) == 0) out.insert(word);
    prev_word = word;
    i = j;
  }
  return out;
}

// Member names accessed in `code` (`->x`, `.x`).
std::set<std::string> members(const std::string& code) {
  std::set<std::string> out;
  for (std::size_t i = 0; i + 1 < code.size(); ++i) {
    std::size_t at = std::string::npos;
    if (code[i] == '-' && code[i + 1] == '>') at = i + 2;
    else if (code[i] == '.' && (i == 0 || !std::isdigit(static_cast<unsigned char>(code[i - 1]))) &&
             ident_start(code[i + 1]))
      at = i + 1;
    if (at == std::string::npos) continue;
    while (at < code.size() && (code[at] == ' ' || code[at] == '\t')) ++at;
    std::size_t end = at;
    while (end < code.size() && ident_char(code[end])) ++end;
    if (end > at) out.insert(code.substr(at, end - at));
  }
  return out;
}

// ---- preprocessor conditions ---------------------------------------------------

// Our configuration: a 64-bit kernel without SMP, group scheduling, bandwidth,
// schedstats or debug; every other name is 0.
// Facts the harness's own conditions read (KSRC_HAS_<fn>, ...), by name.
using Facts = std::map<std::string, long>;

long config_value(const std::string& name, const Facts* facts = nullptr) {
  if (facts != nullptr)
    if (const auto f = facts->find(name); f != facts->end()) return f->second;
  if (name == "CONFIG_64BIT") return 1;
  if (name == "BITS_PER_LONG") return 64;
  return 0;
}

struct ExprParser {
  std::string s;
  const Facts* facts = nullptr;
  std::size_t i = 0;

  void space() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool eat(const std::string& t) {
    space();
    if (s.compare(i, t.size(), t) == 0) {
      i += t.size();
      return true;
    }
    return false;
  }
  std::string ident() {
    space();
    const std::size_t b = i;
    while (i < s.size() && ident_char(s[i])) ++i;
    return s.substr(b, i - b);
  }
  long primary() {
    space();
    if (eat("!")) return !primary();
    if (eat("(")) {
      const long v = expr();
      eat(")");
      return v;
    }
    if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      long v = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0');
      while (i < s.size() && (s[i] == 'U' || s[i] == 'L' || s[i] == 'u' || s[i] == 'l')) ++i;
      return v;
    }
    const std::string w = ident();
    if (w.empty()) {
      ++i;  // an operator we do not know: read as 0
      return 0;
    }
    if (w == "defined" || w == "IS_ENABLED" || w == "IS_BUILTIN") {
      const bool paren = eat("(");
      const std::string name = ident();
      if (paren) eat(")");
      return config_value(name, facts) != 0;
    }
    return config_value(w, facts);
  }
  long comparison() {
    long v = primary();
    while (true) {
      if (eat("==")) v = v == primary();
      else if (eat("!=")) v = v != primary();
      else if (eat(">=")) v = v >= primary();
      else if (eat("<=")) v = v <= primary();
      else if (eat(">")) v = v > primary();
      else if (eat("<")) v = v < primary();
      else return v;
    }
  }
  long conjunction() {
    long v = comparison();
    while (eat("&&")) v = comparison() && v;
    return v;
  }
  long expr() {
    long v = conjunction();
    while (eat("||")) v = conjunction() || v;
    return v;
  }
};

// The #if / #ifdef / #elif / #else / #endif nesting of a file, evaluated for our
// configuration; `directive` is the line after the `#`.
class Conditions {
 public:
  explicit Conditions(const Facts* facts = nullptr) : facts_(facts) {}
  bool active() const { return stack_.empty() || stack_.back().active; }
  void directive(const std::string& line) {
    std::istringstream words(line);
    std::string d;
    words >> d;
    std::string rest;
    std::getline(words, rest);
    if (d == "if" || d == "ifdef" || d == "ifndef") {
      bool holds = false;
      if (d == "if") {
        holds = ExprParser{rest, facts_}.expr() != 0;
      } else {
        std::istringstream r(rest);
        std::string name;
        r >> name;
        holds = (config_value(name, facts_) != 0) == (d == "ifdef");
      }
      stack_.push_back({active(), holds, active() && holds});
    } else if (d == "elif" && !stack_.empty()) {
      Cond& c = stack_.back();
      const bool holds = !c.taken && ExprParser{rest, facts_}.expr() != 0;
      c.active = c.parent && holds;
      c.taken = c.taken || holds;
    } else if (d == "else" && !stack_.empty()) {
      Cond& c = stack_.back();
      c.active = c.parent && !c.taken;
      c.taken = true;
    } else if (d == "endif" && !stack_.empty()) {
      stack_.pop_back();
    }
  }

 private:
  struct Cond {
    bool parent, taken, active;
  };
  const Facts* facts_;
  std::vector<Cond> stack_;
};

// ---- the items of one file -----------------------------------------------------

// type: a top-level enum definition; variable: a top-level definition with an
// initializer (a patch's `static const struct rb_augment_callbacks cb = {...};`).
enum class Kind { function, macro, statement, type, variable };

struct Item {
  Kind kind;
  std::string name;       // function or macro name; a statement's macro
  std::size_t file = 0;   // index into the request's kernel sources
  std::size_t begin = 0, end = 0, name_pos = 0, body = 0;  // body: the function's `{`
  bool active = true;     // under conditions that hold for our configuration
  int nargs = 0;          // a function's parameters
  std::set<std::string> provides;  // a statement: the names it defines
  std::set<std::string> uses;
};

// The last character of the name a declarator declares, from its `=`: back over
// array dimensions (`name[2] =`); npos when there is none.
std::size_t declared_name_end(const std::string& code, std::size_t eq) {
  std::size_t last = skip_back_space(code, eq);
  while (last != std::string::npos && code[last] == ']') {
    const std::size_t open = matching_backward(code, last, '[', ']');
    last = open == std::string::npos ? open : skip_back_space(code, open);
  }
  return last;
}

// Where a top-level definition with an initializer that starts at `i` ends (its `;`),
// or npos: the declarator (words, `*`, `[]`) reaches `=` before any `(`, `{` or `;`.
std::size_t initialized_definition_end(const std::string& code, std::size_t i) {
  const std::size_t eq = code.find_first_of("=({;", i);
  if (eq == std::string::npos || code[eq] != '=') return std::string::npos;
  const std::size_t last = declared_name_end(code, eq);
  if (last == std::string::npos || !ident_char(code[last])) return std::string::npos;
  for (std::size_t k = eq + 1; k < code.size(); ++k) {
    if (code[k] == ';') return k;
    if (code[k] == '{' || code[k] == '(') {
      k = matching_forward(code, k, code[k], code[k] == '{' ? '}' : ')');
      if (k == std::string::npos) return k;
    }
  }
  return std::string::npos;
}

Item make_item(Kind kind, std::string name, std::size_t file, std::size_t begin, std::size_t end, std::size_t name_pos) {
  Item it{};
  it.kind = kind;
  it.name = std::move(name);
  it.file = file;
  it.begin = begin;
  it.end = end;
  it.name_pos = name_pos;
  return it;
}

std::size_t declaration_start(const std::string& src, const std::string& code, std::size_t name_pos) {
  std::size_t start = line_start(src, name_pos);
  while (start > 0) {
    const std::size_t prev = line_start(src, start - 1);
    const std::string line = code.substr(prev, start - 1 - prev);
    const std::size_t first = line.find_first_not_of(" \t");
    const std::size_t last = line.find_last_not_of(" \t");
    if (last == std::string::npos || line[first] == '#' || line[last] == ';' || line[last] == '}' ||
        line[last] == ')' || line[last] == '{' || line[last] == '\\')
      break;
    start = prev;
  }
  return start;
}

int count_params(const std::string& code, std::size_t open, std::size_t close) {
  const std::string inside = code.substr(open + 1, close - open - 1);
  if (inside.find_first_not_of(" \t\n") == std::string::npos) return 0;
  std::istringstream words(inside);
  std::string only;
  words >> only;
  std::string more;
  if (only == "void" && !(words >> more)) return 0;
  int depth = 0, n = 1;
  for (char ch : inside) {
    if (ch == '(') ++depth;
    if (ch == ')') --depth;
    if (ch == ',' && depth == 0) ++n;
  }
  return n;
}

struct Scanned {
  std::string code;
  std::vector<Item> items;
};

Scanned scan(const Source& src, std::size_t file_index, const Facts* facts = nullptr) {
  Scanned out;
  out.code = code_only(src.text);
  const std::string& code = out.code;
  Conditions conditions(facts);
  auto active = [&] { return conditions.active(); };
  int depth = 0;
  std::vector<std::pair<std::size_t, std::size_t>> candidates;  // top-level `NAME(...)` at line start
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char ch = code[i];
    if (ch == '#' && code.find_first_not_of(" \t", line_start(code, i)) == i) {
      const std::size_t end = logical_line_end(code, i);
      std::string line = code.substr(i + 1, end - i - 1);
      for (char& c : line)
        if (c == '\\' || c == '\n') c = ' ';
      std::istringstream words(line);
      std::string directive;
      words >> directive;
      conditions.directive(line);
      if (directive == "define" && depth == 0) {
        std::size_t n = line.find("define") + 6;
        while (n < line.size() && std::isspace(static_cast<unsigned char>(line[n]))) ++n;
        std::size_t e = n;
        while (e < line.size() && ident_char(line[e])) ++e;
        Item m = make_item(Kind::macro, line.substr(n, e - n), file_index, line_start(code, i), end, i + 1 + n);
        m.active = active();
        m.uses = references(code.substr(i + 1 + e, end - (i + 1 + e)));
        out.items.push_back(m);
      }
      i = end;
      continue;
    }
    if (ch == '{') {
      if (depth == 0) {
        // An enum type: `enum [name] {...};`, providing its constants (and `enum name`).
        const std::size_t before = skip_back_space(code, i);
        std::size_t wb = before == std::string::npos ? 0 : before + 1;
        while (wb > 0 && ident_char(code[wb - 1])) --wb;
        std::string word = before == std::string::npos ? "" : code.substr(wb, before + 1 - wb);
        std::string tag;
        if (word != "enum" && !word.empty()) {
          tag = word;
          const std::size_t b2 = skip_back_space(code, wb);
          std::size_t w2 = b2 == std::string::npos ? 0 : b2 + 1;
          while (w2 > 0 && ident_char(code[w2 - 1])) --w2;
          word = b2 == std::string::npos ? "" : code.substr(w2, b2 + 1 - w2);
          wb = w2;
        }
        if (word == "enum") {
          const std::size_t close = matching_forward(code, i, '{', '}');
          const std::size_t semi = code.find(';', close);
          if (close == std::string::npos || semi == std::string::npos) throw Error{src.path, "unbalanced braces"};
          Item e = make_item(Kind::type, tag.empty() ? "enum" : "enum " + tag, file_index, line_start(code, wb),
                             semi + 1, wb);
          e.active = active();
          std::string part;
          int d = 0;
          for (std::size_t k = i + 1; k < close; ++k) {
            if (code[k] == '(') ++d;
            if (code[k] == ')') --d;
            if (code[k] == ',' && d == 0) {
              std::istringstream w(part);
              std::string first;
              w >> first;
              if (!first.empty()) e.provides.insert(first.substr(0, first.find('=')));
              part.clear();
            } else {
              part += code[k];
            }
          }
          std::istringstream w(part);
          std::string first;
          if (w >> first) e.provides.insert(first.substr(0, first.find('=')));
          if (!tag.empty()) e.provides.insert("enum " + tag);
          e.uses = references(code.substr(i, close - i));
          out.items.push_back(e);
          i = semi;
          continue;
        }
        // A function: `name(...) [attributes(...)] {`.
        std::size_t p = skip_back_space(code, i);
        std::size_t name_pos = std::string::npos, open = 0, close = 0;
        while (p != std::string::npos && code[p] == ')') {
          const std::size_t o = matching_backward(code, p, '(', ')');
          if (o == std::string::npos) break;
          const std::size_t ne = skip_back_space(code, o);
          if (ne == std::string::npos || !ident_char(code[ne])) break;
          std::size_t nb = ne;
          while (nb > 0 && ident_char(code[nb - 1])) --nb;
          name_pos = nb;
          open = o;
          close = p;
          p = skip_back_space(code, nb);  // attributes after the parameters: go on left
        }
        if (name_pos != std::string::npos) {
          std::size_t ne = name_pos;
          while (ident_char(code[ne])) ++ne;
          const std::size_t end = matching_forward(code, i, '{', '}');
          if (end == std::string::npos) throw Error{src.path, "unbalanced braces"};
          Item f = make_item(Kind::function, code.substr(name_pos, ne - name_pos), file_index,
                             declaration_start(src.text, code, name_pos), end + 1, name_pos);
          f.body = i;
          f.active = active();
          f.nargs = count_params(code, open, close);
          f.uses = references(code.substr(close + 1, end - close));
          for (const std::string& u : references(code.substr(f.begin, open - f.begin))) f.uses.insert(u);
          for (const std::string& u : references(code.substr(open, close - open))) f.uses.insert(u);
          f.uses.erase(f.name);
          out.items.push_back(f);
          i = end;
          continue;
        }
      }
      ++depth;
    } else if (ch == '}') {
      --depth;
    } else if (depth == 0 && ident_start(ch) && code.find_first_not_of(" \t", line_start(code, i)) == i) {
      std::size_t e = i;
      while (e < code.size() && ident_char(code[e])) ++e;
      std::size_t paren = e;
      while (paren < code.size() && (code[paren] == ' ' || code[paren] == '\t')) ++paren;
      if (paren < code.size() && code[paren] == '(') {
        const std::size_t close = matching_forward(code, paren, '(', ')');
        std::size_t semi = close == std::string::npos ? close : code.find_first_not_of(" \t\n", close + 1);
        if (semi != std::string::npos && code[semi] == ';' && active()) {
          Item s = make_item(Kind::statement, code.substr(i, e - i), file_index, line_start(code, i), semi + 1, i);
          s.uses = references(code.substr(paren, close - paren + 1));
          out.items.push_back(s);
          i = semi;
        }
      } else if (const std::size_t semi = initialized_definition_end(code, i); semi != std::string::npos) {
        const std::size_t name_end = declared_name_end(code, code.find('=', i));
        std::size_t name_begin = name_end + 1;
        while (name_begin > i && ident_char(code[name_begin - 1])) --name_begin;
        Item v = make_item(Kind::variable, code.substr(name_begin, name_end + 1 - name_begin), file_index,
                           line_start(code, i), semi + 1, name_begin);
        v.active = active();
        v.provides.insert(v.name);
        v.uses = references(code.substr(i, semi - i));
        v.uses.erase(v.name);
        out.items.push_back(v);
        i = semi;
      }
    }
  }
  return out;
}

std::string define_line(const std::string& name, long value) {
  return "#define " + name + " " + std::to_string(value) + "\n";
}

// Whether struct `tag`'s definition in `text` has a union holding both members.
bool union_holds(const std::string& text, const std::string& tag, const std::string& a, const std::string& b) {
  const std::string code = code_only(text);
  const std::size_t at = code.find("struct " + tag + " {");
  if (at == std::string::npos) return false;
  const std::size_t open = code.find('{', at);
  const std::size_t close = matching_forward(code, open, '{', '}');
  const std::string body = code.substr(open + 1, close - open - 1);
  for (std::size_t u = body.find("union"); u != std::string::npos; u = body.find("union", u + 1)) {
    const std::size_t o = body.find('{', u);
    if (o == std::string::npos) break;
    const std::size_t c = matching_forward(body, o, '{', '}');
    const std::set<std::string> names = references(body.substr(o, c - o));
    if (names.count(a) != 0 && names.count(b) != 0) return true;
  }
  return false;
}

// The names the condition of `code`'s first `if` that tests sched_feat(`feature`)
// reads (empty: no such test). The harness learns from it where a pick takes the next
// buddy (PICK_BUDDY) and what else that test requires.
std::set<std::string> feature_test_reads(const std::string& code, const std::string& feature) {
  const std::regex test(R"(\bif\s*\([^;{]*\bsched_feat\s*\(\s*)" + feature + R"(\s*\))");
  std::smatch m;
  if (!std::regex_search(code, m, test)) return {};
  const std::size_t open = static_cast<std::size_t>(m.position(0)) + m.str(0).find('(');
  const std::size_t close = matching_forward(code, open, '(', ')');
  if (close == std::string::npos) return {};
  return references(code.substr(open, close - open));
}

// SCHED_FEAT(NAME, default) of kernel/sched/features.h under our configuration.
std::map<std::string, bool> feature_defaults(const std::string& text) {
  std::map<std::string, bool> out;
  const std::string code = code_only(text);
  Conditions conditions;
  std::istringstream lines(code);
  static const std::regex feat(R"(^\s*SCHED_FEAT\(\s*(\w+)\s*,\s*(true|false)\s*\))");
  for (std::string line; std::getline(lines, line);) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '#') {
      conditions.directive(line.substr(first + 1));
      continue;
    }
    std::smatch m;
    if (conditions.active() && std::regex_search(line, m, feat)) out[m[1]] = m[2] == "true";
  }
  return out;
}

// The features the harness takes from the trace: the shim's KSRC_FEAT_<NAME> bits.
std::set<std::string> modelled_features(const std::vector<Source>& boundary) {
  std::set<std::string> out;
  static const std::regex bit(R"(KSRC_FEAT_(\w+)\s*=)");
  for (const Source& s : boundary)
    for (auto it = std::sregex_iterator(s.text.begin(), s.text.end(), bit); it != std::sregex_iterator(); ++it)
      out.insert((*it)[1]);
  return out;
}

}  // namespace

std::string code_only(const std::string& s) {
  std::string out = s;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
      for (std::size_t k = i; k < stop; ++k)
        if (out[k] != '\n') out[k] = ' ';
      i = stop;
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') out[i++] = ' ';
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i++];
      while (i < s.size() && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\') out[i++] = ' ';
        if (i < s.size()) out[i++] = ' ';
      }
      ++i;
    } else {
      ++i;
    }
  }
  return out;
}

bool condition_holds(const std::string& expression) { return ExprParser{expression}.expr() != 0; }

Result extract(const Request& request) {
  // The boundary: what the shim defines.
  std::set<std::string> boundary;
  for (std::size_t k = 0; k < request.boundary.size(); ++k)
    for (const Item& it : scan(request.boundary[k], k).items)
      if (it.kind != Kind::statement) boundary.insert(it.name);
  const Scanned harness = scan(request.harness, 0);

  // Every active item of the tree, by the names it defines.
  std::vector<Scanned> files;
  for (std::size_t k = 0; k < request.kernel.size(); ++k) files.push_back(scan(request.kernel[k], k));
  std::set<std::string> defined;  // names a function or macro item defines
  std::set<std::string> macros;
  for (const Scanned& f : files)
    for (const Item& it : f.items)
      if ((it.kind == Kind::function || it.kind == Kind::macro) && it.active) {
        defined.insert(it.name);
        if (it.kind == Kind::macro) macros.insert(it.name);
      }
  for (const std::string& b : boundary) macros.insert(b);
  std::map<std::string, std::vector<const Item*>> by_name;
  for (Scanned& f : files)
    for (Item& it : f.items) {
      if (!it.active) continue;
      if (it.kind == Kind::type || it.kind == Kind::variable) {
        for (const std::string& p : it.provides) by_name[p].push_back(&it);
        continue;
      }
      if (it.kind == Kind::statement) {
        if (macros.count(it.name) == 0) continue;  // not a macro invocation
        for (const std::string& u : it.uses)
          if (defined.count(u) == 0 && boundary.count(u) == 0 && u.find(' ') == std::string::npos) it.provides.insert(u);
        for (const std::string& p : it.provides) by_name[p].push_back(&it);
        it.uses.insert(it.name);
      } else {
        by_name[it.name].push_back(&it);
      }
    }

  // The closure from the harness's uses; the shim's names stop it.
  std::set<const Item*> chosen;
  std::set<std::string> seen;
  std::vector<std::string> work;
  for (const std::string& r : references(harness.code)) work.push_back(r);
  while (!work.empty()) {
    const std::string name = work.back();
    work.pop_back();
    if (!seen.insert(name).second || boundary.count(name) != 0) continue;
    const auto it = by_name.find(name);
    if (it == by_name.end()) continue;
    std::vector<const Item*> defs = it->second;
    const bool is_statement = defs.front()->kind == Kind::statement || defs.front()->kind == Kind::type;
    if (!is_statement && defs.size() > 1) {
      const Item& second = *defs[1];
      const Source& s = request.kernel[second.file];
      throw Error{s.path + ":" + std::to_string(line_number(s.text, second.name_pos)),
                  "`" + name + "` is defined " + std::to_string(defs.size()) +
                      " times under kernel-src's configuration (64-bit, no SMP, no group scheduling): "
                      "the extractor cannot choose"};
    }
    for (const Item* d : defs) {
      if (!chosen.insert(d).second) continue;
      for (const std::string& u : d->uses) work.push_back(u);
    }
  }

  // The C file: the macros, then a prototype of every function, then the items; the
  // functions in `wrapped` renamed ksrc_real_<name> behind the harness's wrapper.
  const auto emit = [&](const std::set<std::string>& wrapped, bool rewrite) {
    Result r;
    std::ostringstream macros_out, protos, heads, items;
    std::set<std::string> accessed;
    for (std::size_t k = 0; k < files.size(); ++k) {
      const Source& s = request.kernel[k];
      for (const Item& it : files[k].items) {
        if (chosen.count(&it) == 0) continue;
        std::string text = s.text.substr(it.begin, it.end - it.begin);
        for (const std::string& m : members(files[k].code.substr(it.begin, it.end - it.begin))) accessed.insert(m);
        const std::string line = "#line " + std::to_string(line_number(s.text, it.begin)) + " \"" + s.path + "\"\n";
        if (it.kind == Kind::macro || it.kind == Kind::type) {
          macros_out << line << text << "\n";
          continue;
        }
        if (it.kind == Kind::function) {
          std::string proto = s.text.substr(it.begin, it.body - it.begin);
          proto.erase(proto.find_last_not_of(" \t\n") + 1);
          const std::size_t at = it.name_pos - it.begin;
          const std::set<std::string> head = references(files[k].code.substr(it.begin, at));
          if (wrapped.count(it.name) != 0) {
            // The harness's wrapper, under the kernel's name: static, as the harness defines it.
            protos << line << (head.count("static") != 0 || proto.find("static") != std::string::npos ? "" : "static ")
                   << proto << ";\n";
            const std::string real = "ksrc_real_" + it.name;
            proto.replace(at, it.name.size(), real);
            text.replace(at, it.name.size(), real);
          }
          protos << line << proto << ";\n";
          if (rewrite && request.rewrite) {
            const std::string defined_as = wrapped.count(it.name) != 0 ? "ksrc_real_" + it.name : it.name;
            if (const std::optional<Rewritten> w = request.rewrite(it.name, s.path, text, at, defined_as)) {
              heads << w->head;
              text = w->text;
            }
          }
          r.functions.push_back(it.name);
          r.config_h += define_line("KSRC_HAS_" + it.name, 1) + define_line("KSRC_NARGS_" + it.name, it.nargs);
          // void: the return type's words are `void` and qualifiers, without a pointer.
          const std::string ret = files[k].code.substr(it.begin, at);
          if (ret.find("void") != std::string::npos && ret.find('*') == std::string::npos)
            r.config_h += define_line("KSRC_VOID_" + it.name, 1);
          // Where the next buddy is taken, and whether only by a pick that protects curr.
          const std::set<std::string> buddy_test =
              feature_test_reads(files[k].code.substr(it.begin, it.end - it.begin), "PICK_BUDDY");
          if (!buddy_test.empty()) r.config_h += define_line("KSRC_PICK_BUDDY_IN_" + it.name, 1);
          if (buddy_test.count("protect") != 0) r.config_h += define_line("KSRC_PICK_BUDDY_PROTECTED", 1);
          // Where zero_vruntime is re-based: a function calling update_zero_vruntime.
          if (it.uses.count("update_zero_vruntime") != 0) r.config_h += define_line("KSRC_REBASES_V0_IN_" + it.name, 1);
        }
        items << line << text << "\n\n";
      }
    }
    for (const std::string& m : accessed) r.config_h += define_line("KSRC_FIELD_" + m, 1);
    r.c_text = "/* Generated by kernel-src's extractor. Kernel text: never commit. */\n" + macros_out.str() + "\n" +
               protos.str() + "\n" + heads.str() + "\n" + items.str();
    std::sort(r.functions.begin(), r.functions.end());
    r.wrapped.assign(wrapped.begin(), wrapped.end());
    return r;
  };

  // A function the harness defines wraps the tree's when its definition is active for
  // this tree: the harness chooses its forms by the tree's facts (KSRC_HAS_, NARGS_,
  // VOID_, FIELD_), which the closure alone determines.
  Facts facts;
  {
    std::istringstream lines(emit({}, false).config_h);
    for (std::string define, name; lines >> define >> name;) lines >> facts[name];
  }
  std::set<std::string> wrapped;
  for (const Item& it : scan(request.harness, 0, &facts).items)
    if (it.kind == Kind::function && it.active && facts.count("KSRC_HAS_" + it.name) != 0) wrapped.insert(it.name);
  Result result = emit(wrapped, true);
  // sched_feat(): the trace's bit for the features we model, the tree's default for the rest.
  const std::set<std::string> modelled = modelled_features(request.boundary);
  for (const Source& h : request.headers)
    for (const auto& [name, on] : feature_defaults(h.text)) {
      if (modelled.count(name) != 0) {
        result.config_h += define_line("KSRC_FEAT_FIXED_" + name, 0);
      } else {
        result.config_h += define_line("KSRC_FEAT_" + name, 0) + define_line("KSRC_FEAT_FIXED_" + name, on ? 1 : 0);
        result.fixed_features.push_back(name + (on ? "=on" : "=off"));
      }
    }
  for (const Source& h : request.headers)
    if (union_holds(h.text, "sched_entity", "vlag", "vprot"))
      result.config_h += define_line("KSRC_SE_VPROT_IN_VLAG", 1);
  return result;
}

}  // namespace eevdf::kernel_src::extract
