// Where the student looks -- stage, head, batch element, view, heatmap kind -- always clamped to
// the trace on screen (the settings half of Session is in session.cpp).
#include "model/session.h"

#include "call/call_parser.h"

#include <algorithm>

namespace attnlab::ui {

QStringList Session::tokenLabels() const
{
    QStringList labels;
    if (!trace_)
        return labels;
    const Tensor& x = trace_->stages.front().tensor;
    const std::int64_t tokens = x.size(-2);
    if (usesTextInput()) { // the real tokens, while the trace is of a text with as many
        const TokenizedText text = textTokens();
        if (static_cast<std::int64_t>(text.tokens.size()) == tokens) {
            for (const auto& t : text.tokens)
                labels << QString::fromStdString(t);
            return labels;
        }
    }
    const auto& book = book_tokens();
    // The book's input is recognisable by its shape; its words make the heatmaps readable.
    const bool book_words = preferBookInput_ && x.size(-1) == 3 && tokens == static_cast<std::int64_t>(book.size());
    for (std::int64_t t = 0; t < tokens; ++t)
        labels << (book_words ? QString::fromStdString(book[static_cast<std::size_t>(t)]) : QString::number(t));
    return labels;
}

const Stage* Session::stage() const
{
    if (!trace_ || trace_->stages.empty())
        return nullptr;
    return &trace_->stages[static_cast<std::size_t>(stageIndex_)];
}

void Session::setStageIndex(int index)
{
    if (!trace_)
        return;
    index = std::clamp(index, 0, static_cast<int>(trace_->stages.size()) - 1);
    if (index == stageIndex_)
        return;
    stageIndex_ = index;
    stageName_ = trace_->stages[static_cast<std::size_t>(index)].name;
    Q_EMIT changed(ChangeFlag::Stage);
}

bool Session::setStageByName(const QString& name)
{
    stageName_ = name.toStdString(); // remembered, so it applies to a trace still being computed
    if (!trace_)
        return true;
    for (std::size_t i = 0; i < trace_->stages.size(); ++i)
        if (trace_->stages[i].name == stageName_) {
            setStageIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

int Session::headCount() const
{
    return head_count(trace_ ? trace_->config : spec_.config);
}

int Session::batchCount() const
{
    return trace_ && trace_->config.is_batched() ? static_cast<int>(trace_->stages.front().tensor.size(0)) : 1;
}

void Session::setHead(int head)
{
    // While a trace is computing, the request waits for it (its head count may differ from this one's).
    wantedHead_ = busy() ? std::max(head, 0) : std::clamp(head, 0, headCount() - 1);
    head = std::clamp(head, 0, headCount() - 1);
    if (head == head_)
        return;
    head_ = head;
    Q_EMIT changed(ChangeFlag::Head);
}

void Session::setBatchIndex(int index)
{
    wantedBatch_ = busy() ? std::max(index, 0) : std::clamp(index, 0, batchCount() - 1);
    index = std::clamp(index, 0, batchCount() - 1);
    if (index == batchIndex_)
        return;
    batchIndex_ = index;
    Q_EMIT changed(ChangeFlag::Head);
}

void Session::setView(ViewMode view)
{
    if (view == view_)
        return;
    view_ = view;
    Q_EMIT changed(ChangeFlag::View);
}

void Session::setHeatmapKind(AttentionMatrix kind)
{
    if (kind == heatmapKind_)
        return;
    heatmapKind_ = kind;
    Q_EMIT changed(ChangeFlag::View);
}

} // namespace attnlab::ui
