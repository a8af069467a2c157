#include "render/heatmap_source.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab::ui {

namespace {

// Start of the (T x T) block for one batch element and head, using the stage's own strides.
const float* sliceStart(const Stage& stage, int head, int batch, int& rows, int& cols)
{
    const Tensor& t = stage.tensor;
    if (!t.defined() || t.dim() < 2 || t.strides().back() != 1 || t.strides()[t.strides().size() - 2] != t.size(-1))
        return nullptr;
    std::int64_t offset = 0;
    for (std::size_t a = 0; a + 2 < stage.axes.size(); ++a) {
        if (stage.axes[a] == Axis::b)
            offset += batch * t.strides()[a];
        else if (stage.axes[a] == Axis::num_heads)
            offset += head * t.strides()[a];
    }
    rows = static_cast<int>(t.size(-2));
    cols = static_cast<int>(t.size(-1));
    return t.data() + offset;
}

} // namespace

bool HeatmapSlice::masked(int row, int col) const
{
    return maskSource && std::isinf(maskSource[static_cast<std::size_t>(row) * cols + col]) &&
           maskSource[static_cast<std::size_t>(row) * cols + col] < 0;
}

QString heatmapKindTitle(AttentionMatrix kind)
{
    switch (kind) {
    case AttentionMatrix::Scores: return QStringLiteral("Scores  Q·Kᵀ");
    case AttentionMatrix::MaskedScores: return QStringLiteral("Masked scores");
    case AttentionMatrix::Weights: return QStringLiteral("Weights (softmax)");
    case AttentionMatrix::Dropout: return QStringLiteral("After dropout");
    }
    return {};
}

bool traceHasHeatmap(const Trace& trace, AttentionMatrix kind)
{
    return trace.find(attention_stage_name(trace.config, kind, 0)) != nullptr;
}

HeatmapSlice heatmapSlice(const std::shared_ptr<const Trace>& trace, AttentionMatrix kind, int head, int batch)
{
    HeatmapSlice slice;
    if (!trace)
        return slice;
    const Stage* stage = trace->find(attention_stage_name(trace->config, kind, head));
    if (!stage)
        return slice;
    slice.trace = trace;
    slice.stage = stage->name;
    slice.values = sliceStart(*stage, head, batch, slice.rows, slice.cols);
    // Softmax turns -inf into an exact 0; the masked scores say which zeros were masked, not learned.
    // The raw scores come before the mask, so they show every cell.
    if (kind == AttentionMatrix::Scores)
        return slice;
    if (const Stage* masked = trace->find(attention_stage_name(trace->config, AttentionMatrix::MaskedScores, head))) {
        int r = 0, c = 0;
        slice.maskSource = sliceStart(*masked, head, batch, r, c);
        if (r != slice.rows || c != slice.cols)
            slice.maskSource = nullptr;
    }
    return slice;
}

QString heatmapScaleModeTitle(HeatmapScaleMode mode)
{
    switch (mode) {
    case HeatmapScaleMode::Auto: return QStringLiteral("auto");
    case HeatmapScaleMode::Linear: return QStringLiteral("linear 0–1");
    case HeatmapScaleMode::Largest: return QStringLiteral("linear, to the largest shown");
    case HeatmapScaleMode::Log: return QStringLiteral("logarithmic");
    }
    return {};
}

ColorScale heatmapScale(const std::shared_ptr<const Trace>& trace, AttentionMatrix kind, int batch,
                        HeatmapScaleMode mode)
{
    const int heads = trace ? head_count(trace->config) : 1;
    double maxValue = 0.0, maxAbs = 0.0, minPositive = std::numeric_limits<double>::infinity();
    int tokens = 0;
    for (int h = 0; h < heads; ++h) {
        const HeatmapSlice s = heatmapSlice(trace, kind, h, batch);
        if (!s.valid())
            continue;
        tokens = s.rows;
        const std::size_t n = static_cast<std::size_t>(s.rows) * static_cast<std::size_t>(s.cols);
        for (std::size_t i = 0; i < n; ++i) {
            const float v = s.values[i];
            if (std::isfinite(v)) {
                maxValue = std::max(maxValue, static_cast<double>(v));
                maxAbs = std::max(maxAbs, static_cast<double>(std::abs(v)));
                if (v > 0)
                    minPositive = std::min(minPositive, static_cast<double>(v));
            }
        }
    }
    if (kind != AttentionMatrix::Weights && kind != AttentionMatrix::Dropout)
        return ColorScale::scores(maxAbs);
    if (mode == HeatmapScaleMode::Auto)
        mode = tokens > kAutoLogTokens ? HeatmapScaleMode::Log : HeatmapScaleMode::Linear;
    if (mode == HeatmapScaleMode::Log && std::isfinite(minPositive) && maxValue > minPositive)
        return ColorScale::weightsLog(minPositive, maxValue);
    if (mode == HeatmapScaleMode::Largest)
        return ColorScale::weightsToLargest(maxValue);
    return ColorScale::weights(maxValue);
}

} // namespace attnlab::ui
