// A conjunction of state queries outside a trace (explore's --reach): each term
// the words of an `expect` line after `expect`, read by the same grammar.
#include "trace/line.h"
#include "trace/reader.h"

namespace eevdf::trace {

std::vector<Expect> parse_query_conjunction(const std::string& text, const Header& header, const Vocabulary& vocab,
                                            const std::string& file) {
  const detail::Line all = detail::tokenize(text, 1);
  if (!all.comment.empty() || text.find('#') != std::string::npos)
    throw TraceError({file, 1, static_cast<int>(text.find('#')) + 1}, "a query has no comments");
  std::vector<Expect> out;
  std::size_t i = 0;
  while (true) {
    detail::Line term;
    term.number = 1;
    term.tokens.push_back({"expect", i < all.tokens.size() ? all.tokens[i].column : static_cast<int>(text.size()) + 1});
    for (; i < all.tokens.size() && all.tokens[i].text != "and"; ++i) term.tokens.push_back(all.tokens[i]);
    // `task T STATE` reads as `state T STATE`; `Q S == V` as `Q S V`.
    if (term.tokens.size() > 1 && term.tokens[1].text == "task") term.tokens[1].text = "state";
    if (term.tokens.size() == 5 && term.tokens[3].text == "==") term.tokens.erase(term.tokens.begin() + 3);
    const detail::Context ctx{file, vocab, header, term};
    const Expect x = detail::parse_expect(ctx);
    if (x.query == Query::measure || x.query == Query::ideal_lag)
      ctx.fail_at(term.tokens[1], "`" + term.tokens[1].text + "` is not a question about one state of the kernel arithmetic");
    out.push_back(x);
    if (i == all.tokens.size()) break;
    ++i;  // past `and`
    if (i == all.tokens.size())
      throw TraceError({file, 1, static_cast<int>(text.size()) + 1}, "expected a query after `and`");
  }
  return out;
}

}  // namespace eevdf::trace
