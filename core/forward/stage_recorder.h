#pragma once
// Records a forward pass's stages under their canonical names, each with the stage table's facts, the
// line of the book's code that produces it, its axes and its expected shape. The traced forward
// (trace_forward.cpp) and the bug lesson's mistaken forward (lessons/bug_forward.cpp) both record
// through it, so a stage means the same in both.
#include "call/config.h"
#include "forward/trace.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

class StageRecorder {
public:
    // `module` gives the axes and their sizes: the head's CausalAttention for a wrapper's heads, the
    // book's config in the bug lesson (what the student expects, whatever the mistaken code holds).
    // `source_kind` is the module whose book source the code lines index (the wrapper's for its heads).
    // `prefix` ("heads.{h}.") goes before every name. When `cancel` turns true, the next add throws
    // Cancelled: stage boundaries are where a cancel is honoured.
    StageRecorder(std::vector<Stage>& stages, const Config& module, ModuleKind source_kind, InputShape input,
                  std::string prefix = {}, const std::atomic<bool>* cancel = nullptr);

    // Names the stage about to be computed (without the prefix), so a failure while computing it can
    // be attributed to it. Until the first call it is x, the input.
    void begin(std::string_view name);
    // The whole name of the stage begun last.
    const std::string& current() const { return current_; }

    // Records `tensor` as the stage begun last; `view_of` names (without the prefix) the stage whose
    // storage it shares. Returns a handle on the same storage, never a reference into the growing list.
    Tensor add(Tensor tensor, std::string_view view_of = {});
    // begin(name), then add.
    Tensor add(std::string_view name, Tensor tensor, std::string_view view_of = {});

private:
    std::vector<Stage>& stages_;
    const Config& module_;
    ModuleKind source_kind_;
    InputShape input_;
    std::string prefix_;
    const std::atomic<bool>* cancel_;
    std::string current_;
};

} // namespace attnlab
