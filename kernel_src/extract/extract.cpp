// ksrc_extract: copies named top-level items (functions, macros, one-statement macro
// invocations) out of kernel source files into one C file, in the order a list file
// names them. Run at build time on the installed Debian kernel source; nothing it
// reads enters the repository. It fails loudly, naming the item and the file, when an
// item is missing or appears more than once: the source changed shape.
//
// List file (one directive per line, `#` comments):
//   file <path relative to the source root>   following items come from this file
//   func <name> [as <new name>]               a function definition (renamed: a wrapper
//                                             of ours takes the kernel's name)
//   macro <name>                              a #define with its continuation lines
//   stmt <macro> <first argument word>        a top-level `macro(...);` invocation
//
// Usage: ksrc_extract <source root> <list file> <output file>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Failure {
  std::string message;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure{"cannot read " + path};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// The text with comments, strings and character literals blanked (same length and
// line breaks), so that braces and names are found only in code.
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

std::size_t line_start(const std::string& s, std::size_t pos) {
  const std::size_t nl = s.rfind('\n', pos == 0 ? 0 : pos - 1);
  return pos == 0 || nl == std::string::npos ? 0 : nl + 1;
}

std::size_t line_number(const std::string& s, std::size_t pos) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < pos; ++i) n += s[i] == '\n';
  return n;
}

// Brace depth at every offset, preprocessor lines ignored.
std::vector<int> depths(const std::string& code) {
  std::vector<int> d(code.size() + 1, 0);
  int depth = 0;
  bool directive = false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '#' && code.find_first_not_of(" \t", line_start(code, i)) == i) directive = true;
    if (code[i] == '\n' && (i == 0 || code[i - 1] != '\\')) directive = false;
    d[i] = depth;
    if (directive) continue;
    if (code[i] == '{') ++depth;
    if (code[i] == '}') --depth;
  }
  d[code.size()] = depth;
  return d;
}

std::size_t skip_space(const std::string& code, std::size_t i) {
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t' || code[i] == '\n')) ++i;
  return i;
}

std::size_t matching(const std::string& code, std::size_t open, char o, char c) {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == o) ++depth;
    if (code[i] == c && --depth == 0) return i;
  }
  throw Failure{"unbalanced brackets"};
}

// The declaration starts on the name's line or on the lines just above it that carry
// its return type (`static void` above `place_entity(`): non-blank, not a directive,
// not the end of a comment or of another item.
std::size_t declaration_start(const std::string& src, const std::string& code, std::size_t name_pos) {
  std::size_t start = line_start(src, name_pos);
  while (start > 0) {
    const std::size_t prev = line_start(src, start - 1);
    const std::string line = code.substr(prev, start - 1 - prev);
    const std::string raw = src.substr(prev, start - 1 - prev);
    const std::size_t last = line.find_last_not_of(" \t");
    if (last == std::string::npos || raw.find_first_not_of(" \t") == raw.find('#') ||
        line[last] == ';' || line[last] == '}' || line[last] == ')' || line[last] == '{')
      break;
    start = prev;
  }
  return start;
}

struct Item {
  std::size_t begin, end;  // [begin, end) in the source
  std::size_t name_pos;    // the name in the definition (for renames)
};

std::vector<Item> find_functions(const std::string& src, const std::string& code, const std::vector<int>& d,
                                 const std::string& name) {
  std::vector<Item> found;
  for (std::size_t pos = code.find(name); pos != std::string::npos; pos = code.find(name, pos + 1)) {
    if (d[pos] != 0 || (pos > 0 && ident_char(code[pos - 1])) || ident_char(code[pos + name.size()])) continue;
    const std::size_t first = code.find_first_not_of(" \t", line_start(code, pos));
    if (first < pos && code[first] == '#') continue;  // a macro's name or use in a directive
    const std::size_t paren = skip_space(code, pos + name.size());
    if (paren >= code.size() || code[paren] != '(') continue;
    const std::size_t close = matching(code, paren, '(', ')');
    const std::size_t brace = skip_space(code, close + 1);
    if (brace >= code.size() || code[brace] != '{') continue;
    const std::size_t end = matching(code, brace, '{', '}') + 1;
    found.push_back({declaration_start(src, code, pos), end, pos});
  }
  return found;
}

std::vector<Item> find_macros(const std::string& src, const std::string& code, const std::string& name) {
  std::vector<Item> found;
  for (std::size_t pos = code.find("#define"); pos != std::string::npos; pos = code.find("#define", pos + 1)) {
    const std::size_t n = skip_space(code, pos + 7);
    if (code.compare(n, name.size(), name) != 0 || ident_char(code[n + name.size()])) continue;
    std::size_t end = pos;
    while (end < src.size()) {
      end = src.find('\n', end);
      if (end == std::string::npos) end = src.size();
      if (end == 0 || src[end - 1] != '\\') break;
      ++end;
    }
    found.push_back({line_start(src, pos), end, n});
  }
  return found;
}

std::vector<Item> find_statements(const std::string& code, const std::vector<int>& d, const std::string& macro,
                                  const std::string& word) {
  std::vector<Item> found;
  for (std::size_t pos = code.find(macro); pos != std::string::npos; pos = code.find(macro, pos + 1)) {
    if (d[pos] != 0 || (pos > 0 && ident_char(code[pos - 1]))) continue;
    const std::size_t paren = skip_space(code, pos + macro.size());
    if (paren >= code.size() || code[paren] != '(') continue;
    const std::size_t close = matching(code, paren, '(', ')');
    if (code.substr(paren, close - paren).find(word) == std::string::npos) continue;
    const std::size_t semi = skip_space(code, close + 1);
    found.push_back({line_start(code, pos), semi < code.size() && code[semi] == ';' ? semi + 1 : close + 1, pos});
  }
  return found;
}

struct Extractor {
  std::string root;
  std::string rel, src, code;
  std::vector<int> d;
  std::ostringstream out;
  int items = 0;

  void open(const std::string& path) {
    rel = path;
    src = read_file(root + "/" + path);
    code = code_only(src);
    d = depths(code);
  }

  void emit(const std::vector<Item>& found, const std::string& what, const std::string& rename) {
    if (rel.empty()) throw Failure{what + ": no `file` directive before it"};
    if (found.empty()) throw Failure{what + " not found in " + rel + " (the kernel source changed shape)"};
    if (found.size() > 1)
      throw Failure{what + " is defined " + std::to_string(found.size()) + " times in " + rel +
                    " (the kernel source changed shape)"};
    const Item& it = found.front();
    std::string text = src.substr(it.begin, it.end - it.begin);
    if (!rename.empty()) {
      const std::size_t at = it.name_pos - it.begin;
      const std::size_t len = text.find('(', at) - at;
      text.replace(at, len, rename);
    }
    out << "#line " << line_number(src, it.begin) << " \"" << rel << "\"\n" << text << "\n\n";
    ++items;
  }

  void directive(const std::vector<std::string>& w) {
    if (w[0] == "file" && w.size() == 2) return open(w[1]);
    if (w[0] == "func" && (w.size() == 2 || (w.size() == 4 && w[2] == "as")))
      return emit(find_functions(src, code, d, w[1]), "function `" + w[1] + "`", w.size() == 4 ? w[3] : "");
    if (w[0] == "macro" && w.size() == 2) return emit(find_macros(src, code, w[1]), "macro `" + w[1] + "`", "");
    if (w[0] == "stmt" && w.size() == 3)
      return emit(find_statements(code, d, w[1], w[2]), "statement `" + w[1] + "(... " + w[2] + " ...)`", "");
    throw Failure{"unknown directive `" + w[0] + "`"};
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: ksrc_extract <source root> <list file> <output file>\n";
    return 2;
  }
  Extractor x;
  x.root = argv[1];
  const std::string list_path = argv[2];
  int line_no = 0;
  try {
    std::istringstream list(read_file(list_path));
    std::string line;
    x.out << "/* Generated by ksrc_extract from " << x.root << " (list " << list_path << "). Do not commit. */\n";
    while (std::getline(list, line)) {
      ++line_no;
      const std::string text = line.substr(0, line.find('#'));
      std::istringstream words(text);
      std::vector<std::string> w;
      for (std::string s; words >> s;) w.push_back(s);
      if (!w.empty()) x.directive(w);
    }
  } catch (const Failure& f) {
    std::cerr << list_path << ":" << line_no << ": ksrc_extract: " << f.message << "\n";
    return 1;
  }
  std::ofstream o(argv[3], std::ios::binary);
  o << x.out.str();
  if (!o) {
    std::cerr << "ksrc_extract: cannot write " << argv[3] << "\n";
    return 1;
  }
  std::cout << "ksrc_extract: " << x.items << " items from " << x.root << "\n";
  return 0;
}
