#pragma once
// The stepped cache drawn: per layer a strip of keys over a strip of values, one cell per cached token, the tokens the
// last step added in the highlight colour (the whole prompt after the first step, one column after each later one).
// Cells narrow as the cache grows, so the strip always fits its rect; the token under each column is written above it
// while it is wide enough to read. Draws on any QPainter.
#include "render/render_style.h"

#include <QPainter>
#include <QStringList>

#include <cstdint>

namespace attnlab::ui {

struct KvCacheStrip {
    int layers = 0;
    int heads = 0;
    QStringList tokens; // the cached tokens, in order
    int newFrom = 0;    // the first column the last step added
};

class KvCacheStripPainter {
public:
    KvCacheStripPainter() = default;
    KvCacheStripPainter(KvCacheStrip strip, int fontPx) : s_(std::move(strip)), fontPx_(fontPx) {}

    void paint(QPainter& p, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    const KvCacheStrip& strip() const { return s_; }
    int columns() const { return static_cast<int>(s_.tokens.size()); } // cells per strip, one per cached token
    QRectF cellRect(const QRectF& rect, int layer, bool values, int column) const;
    double preferredHeight() const; // the strips at the painter's type size

private:
    double labelWidth() const;
    double rowHeight() const;

    KvCacheStrip s_;
    int fontPx_ = 15;
};

} // namespace attnlab::ui
