#include "model/view_model.h"

#include "model/document_model.h"
#include "model/trace_state.h"

#include <algorithm>

namespace attnlab::ui {

ViewModel::ViewModel(const DocumentModel* document, const TraceState* trace, QObject* parent)
    : QObject(parent), document_(document), traceState_(trace)
{
    // Connected before any other listener of the trace: by the time they hear of a new trace, the view fits it.
    connect(trace, &TraceState::changed, this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Trace) {
            adoptTrace();
            Q_EMIT changed(ChangeFlag::Stage | ChangeFlag::Head);
        }
    });
}

ViewState ViewModel::state() const
{
    ViewState s = view_;
    s.stage = stage() ? QString::fromStdString(stage()->name) : QString();
    return s;
}

void ViewModel::restore(const ViewState& s)
{
    setHeatmapKind(s.heatmapKind);
    setTab(s.tab);
    setHeatmapScale(s.heatmapScale);
    setTradeoffsSection(s.tradeoffsSection);
    setDebugSection(s.debugSection);
    GuideState guide = s.guide;
    guide.holdAnswers = view_.guide.holdAnswers; // the teacher's choice, not the file's
    setGuide(guide);
}

void ViewModel::adoptTrace()
{
    trace_ = traceState_->trace();
    const int n = static_cast<int>(trace_->stages.size());
    stageIndex_ = std::clamp(stageIndex_, 0, n - 1);
    const std::string wanted = view_.stage.toStdString();
    for (int i = 0; i < n; ++i)
        if (trace_->stages[static_cast<std::size_t>(i)].name == wanted)
            stageIndex_ = i; // the stage the student was looking at, by name, across shape changes
    view_.stage = QString::fromStdString(trace_->stages[static_cast<std::size_t>(stageIndex_)].name);
    // What the student asked for while this trace was computing applies now, clamped to its sizes.
    view_.head = wantedHead_ = std::clamp(wantedHead_, 0, headCount() - 1);
    view_.batchIndex = wantedBatch_ = std::clamp(wantedBatch_, 0, batchCount() - 1);
}

void ViewModel::setTab(ViewMode tab)
{
    if (tab == view_.tab)
        return;
    view_.tab = tab;
    Q_EMIT changed(ChangeFlag::View);
}

const Stage* ViewModel::stage() const
{
    if (!trace_ || trace_->stages.empty())
        return nullptr;
    return &trace_->stages[static_cast<std::size_t>(stageIndex_)];
}

void ViewModel::setStageIndex(int index)
{
    if (!trace_)
        return;
    index = std::clamp(index, 0, static_cast<int>(trace_->stages.size()) - 1);
    if (index == stageIndex_)
        return;
    stageIndex_ = index;
    view_.stage = QString::fromStdString(trace_->stages[static_cast<std::size_t>(index)].name);
    Q_EMIT changed(ChangeFlag::Stage);
}

bool ViewModel::setStageByName(const QString& name)
{
    view_.stage = name; // remembered, so it applies to a trace still being computed
    if (!trace_)
        return true;
    const std::string wanted = name.toStdString();
    for (std::size_t i = 0; i < trace_->stages.size(); ++i)
        if (trace_->stages[i].name == wanted) {
            setStageIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

int ViewModel::headCount() const
{
    return head_count(trace_ ? trace_->config : document_->config());
}

int ViewModel::batchCount() const
{
    return trace_ && trace_->config.is_batched() ? static_cast<int>(trace_->stages.front().tensor.size(0)) : 1;
}

void ViewModel::setHead(int head)
{
    // While a trace is computing, the request waits for it (its head count may differ from this one's).
    wantedHead_ = traceState_->busy() ? std::max(head, 0) : std::clamp(head, 0, headCount() - 1);
    head = std::clamp(head, 0, headCount() - 1);
    if (head == view_.head)
        return;
    view_.head = head;
    Q_EMIT changed(ChangeFlag::Head);
}

void ViewModel::setBatchIndex(int index)
{
    wantedBatch_ = traceState_->busy() ? std::max(index, 0) : std::clamp(index, 0, batchCount() - 1);
    index = std::clamp(index, 0, batchCount() - 1);
    if (index == view_.batchIndex)
        return;
    view_.batchIndex = index;
    Q_EMIT changed(ChangeFlag::Head);
}

void ViewModel::setHeatmapKind(AttentionMatrix kind)
{
    if (kind == view_.heatmapKind)
        return;
    view_.heatmapKind = kind;
    Q_EMIT changed(ChangeFlag::View);
}

void ViewModel::setHeatmapScale(HeatmapScaleMode mode)
{
    if (mode == view_.heatmapScale)
        return;
    view_.heatmapScale = mode;
    Q_EMIT changed(ChangeFlag::View);
}

void ViewModel::setHeatmapCell(HeatmapCell cell)
{
    const int tokens = trace_ && !trace_->stages.empty() && trace_->stages.front().tensor.dim() >= 2
                           ? static_cast<int>(trace_->stages.front().tensor.size(-2))
                           : 1;
    cell.query = std::clamp(cell.query, 0, std::max(tokens - 1, 0));
    cell.key = std::clamp(cell.key, 0, std::max(tokens - 1, 0));
    if (cell == view_.heatmapCell)
        return;
    view_.heatmapCell = cell;
    Q_EMIT changed(ChangeFlag::Cell);
}

void ViewModel::setTradeoffsSection(TradeoffsSection section)
{
    if (section == view_.tradeoffsSection)
        return;
    view_.tradeoffsSection = section;
    Q_EMIT changed(ChangeFlag::View);
}

void ViewModel::setDebugSection(DebugSection section)
{
    if (section == view_.debugSection)
        return;
    view_.debugSection = section;
    Q_EMIT changed(ChangeFlag::View);
}

void ViewModel::setGuide(const GuideState& guide)
{
    if (guide == view_.guide)
        return;
    view_.guide = guide;
    Q_EMIT changed(ChangeFlag::Guide);
}

void ViewModel::revealAnswer()
{
    GuideState g = view_.guide;
    g.held.clear();
    setGuide(g);
}

void ViewModel::setPresentation(bool on)
{
    if (on == view_.presentation)
        return;
    view_.presentation = on;
    Q_EMIT changed(ChangeFlag::View);
}

} // namespace attnlab::ui
