#pragma once
// KV-cache bytes against context length, log-log: a line per key/value head count of one shape (KvMemory), the
// config's own drawn thick in the highlight colour, MHA and MQA named at their ends, a sliding window marked where
// the lines turn flat. Draws on any QPainter (a widget, an image, a PDF); the widget and the tests share it.
#include "features/kvheads/kv_memory.h"
#include "render/render_style.h"

#include <QPainter>
#include <QRectF>

namespace attnlab::ui {

class KvMemoryPainter {
public:
    KvMemoryPainter() = default;
    KvMemoryPainter(KvMemory memory, int fontPx) : m_(std::move(memory)), fontPx_(fontPx) {}

    void paint(QPainter& p, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    const KvMemory& memory() const { return m_; }
    QRectF plotArea(const QRectF& rect) const;
    // Where (tokens, bytes) is drawn in `rect`: log2 of the tokens across, log10 of the bytes up.
    QPointF pointAt(const QRectF& rect, double tokens, double bytes) const;

private:
    double minBytes() const;
    double maxBytes() const;
    void paintAxes(QPainter& p, const QRectF& plot, const RenderStyle& style) const;
    void paintLines(QPainter& p, const QRectF& rect, const RenderStyle& style) const;

    KvMemory m_;
    int fontPx_ = 15;
};

} // namespace attnlab::ui
