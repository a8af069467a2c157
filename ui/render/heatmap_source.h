#pragma once
// Where a heatmap's numbers live in the trace: which stage holds scores / masked scores / weights /
// dropout for a head, and the (query x key) slice of it for one batch element. Pointers into the
// trace's own storage (kept alive by the shared_ptr), so 1,024-token heads are never copied.
#include "render/colormap.h"
#include "forward/trace.h"

#include <memory>
#include <optional>
#include <string>

namespace attnlab::ui {

struct HeatmapSlice {
    std::shared_ptr<const Trace> trace; // keeps the pointers below valid
    std::string stage;
    int rows = 0;                      // queries
    int cols = 0;                      // keys
    const float* values = nullptr;     // row-major rows x cols
    const float* maskSource = nullptr; // the masked scores of the same head: -inf marks a masked cell
    bool valid() const { return values != nullptr && rows > 0 && cols > 0; }
    float value(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
    bool masked(int row, int col) const;
};

QString heatmapKindTitle(AttentionMatrix kind); // "weights (softmax)", ...
bool traceHasHeatmap(const Trace& trace, AttentionMatrix kind);
HeatmapSlice heatmapSlice(const std::shared_ptr<const Trace>& trace, AttentionMatrix kind, int head, int batch);
// How weights map to colours. At 1,024 tokens a softmax row holds ~1/1,024 per key, so a linear 0–1
// scale paints nearly everything the darkest colour; Auto picks the log scale above kAutoLogTokens.
// Signed scores always use a linear scale symmetric around 0.
enum class HeatmapScaleMode { Auto, Linear, Largest, Log };
inline constexpr int kAutoLogTokens = 32;
QString heatmapScaleModeTitle(HeatmapScaleMode mode);
// One scale for every head of a batch element, so the small multiples can be compared by eye.
ColorScale heatmapScale(const std::shared_ptr<const Trace>& trace, AttentionMatrix kind, int batch,
                        HeatmapScaleMode mode = HeatmapScaleMode::Linear);

} // namespace attnlab::ui
