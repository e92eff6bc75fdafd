// The extraction of a kernel tree's EEVDF code: from the source files of a tree
// (lib/rbtree.c, the rbtree headers, kernel/sched/fair.c), the top-level items
// (functions, macros, top-level macro invocations) that the harness reaches, found by
// dependency closure, so that a tree with new or renamed helpers needs no list of ours.
//
// The boundary is discovered, not listed: a name the shim defines (kernel_src/shim/)
// is ours (a stub, a type, a helper) and not extracted; a name the harness defines
// that the tree also defines is a wrapper: the tree's definition is renamed
// `ksrc_real_<name>` and the harness's takes the kernel's name; every other name the
// harness or an extracted item uses and the tree defines is extracted. Preprocessor
// conditions around top-level items are evaluated for our configuration (64-bit, none
// of SMP, group scheduling, bandwidth, schedstats, debug).
//
// Pure: texts in, texts out. No kernel text is kept beyond the returned C file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace eevdf::kernel_src::extract {

struct Source {
  std::string path;  // as reports name it (relative to the tree or the repository)
  std::string text;
};

// A rewrite of one extracted function (the mutant schemata of kernel_src/mutate/):
// `head` goes after every prototype and before every item; `text` replaces the
// function's definition.
struct Rewritten {
  std::string head;
  std::string text;
};
// Called with the kernel's name, the file, the definition's text (already renamed
// when wrapped), where its name starts in that text and the name it is defined under.
using Rewriter = std::function<std::optional<Rewritten>(const std::string& name, const std::string& path,
                                                        const std::string& text, std::size_t name_at,
                                                        const std::string& defined_as)>;

struct Request {
  std::vector<Source> kernel;    // in the order the C file must define them
  std::vector<Source> boundary;  // the shim's headers: what they define is not extracted
  Source harness;                // its uses are the roots; its definitions wrap the tree's
  std::vector<Source> headers;   // read for facts only: struct shapes (include/linux/sched.h),
                                 // feature defaults (kernel/sched/features.h)
  Rewriter rewrite;              // none: the functions as the tree defines them
};

struct Result {
  std::string c_text;    // prototypes, then the items in source order, with #line
  std::string config_h;  // the detected shape: KSRC_HAS_<fn>, KSRC_NARGS_<fn>, KSRC_FIELD_<f>, ...
  std::vector<std::string> functions;  // extracted function names (sorted)
  std::vector<std::string> wrapped;    // names the harness wraps (sorted)
  // The tree's sched_features we do not model (no trace sets them): "NAME=on|off", the
  // tree's default, which the build keeps.
  std::vector<std::string> fixed_features;
};

// Why a tree cannot be extracted: `where` is "file:line" when known.
struct Error {
  std::string where;
  std::string message;
};

// Throws Error.
Result extract(const Request& request);

// The text with comments, strings and character literals blanked (same length and
// line breaks), so that braces and names are found only in code.
std::string code_only(const std::string& text);

// Whether a preprocessor condition (the text after #if) holds for our configuration.
bool condition_holds(const std::string& expression);

}  // namespace eevdf::kernel_src::extract
