#pragma once
// Draws one head's attention matrix (queries as rows, keys as columns) into any QPainter, so widgets
// show it and tests render it into a QImage. The matrix goes through a QImage built at display size:
// each pixel averages the cells it covers, so 1,024 tokens cost one pass, and hover still reports the
// exact value of a single cell.
#include "render/colormap.h"
#include "render/heatmap_source.h"
#include "render/render_style.h"

#include <QFont>
#include <QImage>
#include <QRectF>
#include <QStringList>

#include <optional>

namespace attnlab::ui {

struct HeatmapStyle {
    QString title;
    QColor accent = Qt::transparent; // the head's colour, as a frame and title chip
    bool axes = true;                // token labels, "query" / "key" axis titles
    bool legend = true;
    bool selected = false; // thicker frame (small multiples)
    int fontPx = 15;
    QString footer; // lines under the matrix, e.g. the head's measures (trained models)
};

struct HeatmapHit {
    int query = 0;
    int key = 0;
    float value = 0;
    bool masked = false;
};

class HeatmapPainter {
public:
    HeatmapPainter() = default;
    HeatmapPainter(HeatmapSlice slice, ColorScale scale, QStringList tokens, HeatmapStyle style);

    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    QRectF matrixRect(const QRectF& rect) const; // where the cells go inside rect
    QRectF legendRect(const QRectF& rect) const; // where the colour scale goes (empty without a legend)
    // A title in `font`, shrunk (to 3/4 of its size at most) and then elided until it fits `width`.
    struct FittedTitle {
        QFont font;
        QString text;
    };
    static FittedTitle fitTitle(const QString& title, QFont font, double width);
    std::optional<HeatmapHit> hitTest(const QRectF& rect, const QPointF& pos) const;
    const HeatmapSlice& slice() const { return slice_; }
    const QStringList& tokens() const { return tokens_; }
    void setSelected(bool selected) { style_.selected = selected; } // keeps the rendered image
    const ColorScale& scale() const { return scale_; }
    // A picture of the cells rendered elsewhere (renderImage on a worker); paint() uses it when its
    // size is the matrix size on screen, so a big matrix is never rendered on the GUI thread.
    void setImage(QImage image) { cache_ = std::move(image); }
    const QImage& image() const { return cache_; } // the cells as last drawn (or set)

    // The cells at exactly `size` pixels: block averages when downsampling, masked cells hatched.
    static QImage renderImage(const HeatmapSlice& slice, const ColorScale& scale, QSize size);

private:
    void paintAxes(QPainter& p, const QRectF& m, const RenderStyle& rs) const;
    void paintValues(QPainter& p, const QRectF& m, const RenderStyle& rs) const;
    void paintLegend(QPainter& p, const QRectF& area, const RenderStyle& rs) const;

    HeatmapSlice slice_;
    ColorScale scale_;
    QStringList tokens_;
    HeatmapStyle style_;
    mutable QImage cache_; // rebuilt only when the matrix size on screen changes
};

QString formatValue(float value);
QString formatExact(float value, int digits = 4); // formatValue, with significant digits for small non-zero values

} // namespace attnlab::ui
