#include "forward/stage_recorder.h"

#include "forward/module_source.h"
#include "tensor/error.h"

namespace attnlab {

StageRecorder::StageRecorder(std::vector<Stage>& stages, const Config& module, ModuleKind source_kind, InputShape input,
                             std::string prefix, const std::atomic<bool>* cancel)
    : stages_(stages), module_(module), source_kind_(source_kind), input_(input), prefix_(std::move(prefix)),
      cancel_(cancel), current_(prefix_ + stage::x)
{
}

void StageRecorder::begin(std::string_view name)
{
    current_ = prefix_ + std::string(name);
}

Tensor StageRecorder::add(Tensor tensor, std::string_view view_of)
{
    // The stage list under construction is the caller's local, so throwing here leaves nothing
    // half-recorded behind.
    if (cancel_ && cancel_->load(std::memory_order_relaxed))
        throw Cancelled();
    Stage s;
    s.name = current_;
    static_cast<StageFacts&>(s) = stage_facts(s.name);
    s.code_line = source_line(source_kind_, s.name);
    s.axes = stage_axes(*s.row, module_);
    s.expected_shape = axes_shape(s.axes, module_, input_);
    s.view_of = view_of.empty() ? std::string{} : prefix_ + std::string(view_of);
    s.tensor = std::move(tensor);
    stages_.push_back(std::move(s));
    return stages_.back().tensor;
}

Tensor StageRecorder::add(std::string_view name, Tensor tensor, std::string_view view_of)
{
    begin(name);
    return add(std::move(tensor), view_of);
}

} // namespace attnlab
