// A kernel tree of `--kernel-tree` judged alone: kernel-src (the tree's own fair.c)
// takes the events, the mirror of its shape's forms (kernel_src_mirror.h) judges the
// properties the tree shows it, and the tree's own warnings and crash are kernel_warn.
// No reference runs beside it: a developer's tree that changes behaviour on purpose
// is judged by the properties only, never by its agreement with our model. The
// default tree keeps the lockstep (kernel_src_lockstep.h). Built only with kernel-src.
#pragma once

#include <map>     // evaluated counts
#include <memory>  // the machine, the mirror
#include <string>  // reasons
#include <vector>  // specs, warnings

#include "kernel_src/machine.h"
#include "properties/kernel_src_judged.h"
#include "properties/registry.h"
#include "replay/kernel_src_mirror.h"

namespace eevdf::replay {

class KernelSrcTreeRun {
 public:
  // Without a sink no property runs (the warnings are still taken). Throws
  // UnknownShape for a tree whose shape the mirror has no forms for.
  KernelSrcTreeRun(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                   properties::Sink* sink = nullptr, const properties::Selection& selection = {});
  KernelSrcTreeRun(const KernelSrcTreeRun&) = delete;
  KernelSrcTreeRun& operator=(const KernelSrcTreeRun&) = delete;

  // Applies `e`; kernel-src's reason when it refuses the event ("": applied, or it
  // crashed: oops()).
  std::string apply(const trace::Event& e);
  // The tree's warnings (once per condition) and crash since the last call.
  std::vector<properties::Violation> take_kernel_warns();
  const std::string& oops() const { return oops_; }
  bool null_pick() const;
  // The end of the trace: the mirror's end-of-trace checks (not after a crash).
  void finish();
  bool measure(std::string_view name, std::string& numerator, std::string& denominator) const;
  void tally(std::map<std::string, std::uint64_t>& evaluated) const;
  const kernel_src::Machine& kernel_src() const { return *kernel_src_; }
  // Whether no selected property is judged on the tree (its mirror is then never loaded).
  bool judges_nothing() const { return mirror_->empty(); }
  // The mirror's machine when the tree is judged by P's forms, else nullptr: the tree's
  // state as last loaded (each CPU after the last event that touched it; every CPU
  // again at finish()).
  template <class P>
  const model::Machine<model::KernelArith, P>* mirror() const {
    const auto* m = dynamic_cast<const BasicKernelSrcMirror<P>*>(mirror_.get());
    return m == nullptr ? nullptr : &m->machine();
  }

 private:
  std::unique_ptr<kernel_src::Machine> kernel_src_;
  std::unique_ptr<MirrorDriver> mirror_;  // declared after kernel_src_: removes its hooks first
  std::string oops_;
  std::vector<properties::Violation> kernel_warns_;
  std::set<std::string> warned_;
};

// Why the selected tree cannot run a trace with this header and configuration ("": it
// can): its profile must be the tree's forms (selected_tree_forms), without injections
// or RUN_TO_PARITY_WAKEUP. Throws UnknownShape.
std::string why_tree_not_runnable(const trace::Header& header, const model::Config& config);

// The selected tree's traits (kernel_src/tree_build.h selected_dir): the default tree
// keeps the reference lockstep. Throws UnknownShape.
properties::TreeTraits selected_tree_traits();
// The forms a selected tree is judged by ("6.12", "6.18"). Throws UnknownShape.
std::string selected_tree_forms();

}  // namespace eevdf::replay
