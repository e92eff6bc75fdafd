// Internal to the parser: the header statements and their order rule
// (docs/TRACE_FORMAT.md, Header).
#pragma once

#include <string>

#include "trace/line.h"

namespace eevdf::trace::detail {

class HeaderParser {
 public:
  explicit HeaderParser(Header& header) : header_(header) {}
  // Parses one header statement into the header; throws TraceError.
  void statement(const Context& ctx);
  bool started() const { return rank_ >= 0; }
  static bool is_keyword(const std::string& word);

  // One setting each, without the order rule: the lab's workload format
  // (lab/workload.cpp) shares these statements with the trace header.
  void kernel(const Context& ctx);
  void topology(const Context& ctx);
  void hz(const Context& ctx);
  void base_slice(const Context& ctx);
  void features(const Context& ctx);

 private:
  void check_order(const Context& ctx, int rank);
  void version(const Context& ctx);
  void arith(const Context& ctx);
  void inject(const Context& ctx);
  void task(const Context& ctx);
  void expect(const Context& ctx);

  Header& header_;
  int rank_ = -1;            // rank of the last statement, for the order rule
  int first_line_[10] = {};  // where each keyword first appeared
};

}  // namespace eevdf::trace::detail
