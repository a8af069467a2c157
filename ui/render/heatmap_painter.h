#pragma once
// Draws one head's attention matrix (queries as rows, keys as columns) into any QPainter, so widgets
// show it and tests render it into a QImage. The matrix goes through a QImage built at display size:
// each pixel averages the cells it covers, so 1,024 tokens cost one pass, and hover still reports the
// exact value of a single cell.
#include "render/colormap.h"
#include "render/heatmap_layout.h"
#include "render/heatmap_source.h"
#include "render/render_style.h"

#include <QFont>
#include <QImage>
#include <QMetaType>
#include <QRectF>
#include <QStringList>

#include <optional>

namespace attnlab::ui {

// One cell, as hover, the keyboard and the screen reader report it: the receiver words it.
struct HeatmapHit {
    int query = 0;
    int key = 0;
    float value = 0;
    bool masked = false;
    QString queryToken, keyToken; // the axes' labels; empty where the tokens are unnamed
};
// "query 'journey' (1) → key 'Your' (0):  0.5123", masked cells said so.
QString describeHeatmapCell(const HeatmapHit& hit);

class HeatmapPainter {
public:
    HeatmapPainter() = default;
    HeatmapPainter(HeatmapSlice slice, ColorScale scale, QStringList tokens, HeatmapStyle style);

    HeatmapLayout layout(const QRectF& rect, const QFont& font = QFont()) const;
    void paint(QPainter& painter, const HeatmapLayout& layout, const RenderStyle& style = RenderStyle::print()) const;
    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    QRectF matrixRect(const QRectF& rect) const { return layout(rect).matrix; } // where the cells go
    QRectF legendRect(const QRectF& rect) const { return layout(rect).legend; } // empty without a legend
    std::optional<HeatmapHit> cell(int row, int col) const; // the exact value, whatever the display averaged
    std::optional<HeatmapHit> hitTest(const QRectF& rect, const QPointF& pos) const;
    const HeatmapSlice& slice() const { return slice_; }
    const QStringList& tokens() const { return tokens_; }
    void setSelected(bool selected) { style_.selected = selected; } // keeps the rendered image
    const ColorScale& scale() const { return scale_; }
    const HeatmapStyle& style() const { return style_; }
    // A picture of the cells rendered elsewhere (renderImage on a worker, or the widget on resize);
    // paint() uses it when its size is the matrix size on screen, else renders one for that paint only.
    void setImage(QImage image) { image_ = std::move(image); }
    const QImage& image() const { return image_; }

    // The cells at exactly `size` pixels: block averages when downsampling, masked cells hatched.
    static QImage renderImage(const HeatmapSlice& slice, const ColorScale& scale, QSize size);

private:
    void paintValues(QPainter& p, const QRectF& m, const RenderStyle& rs) const;
    void paintLegend(QPainter& p, const QRectF& area, const RenderStyle& rs) const;

    HeatmapSlice slice_;
    ColorScale scale_;
    QStringList tokens_;
    HeatmapStyle style_;
    QImage image_;
};

QString formatValue(float value);
QString formatExact(float value, int digits = 4); // formatValue, with significant digits for small non-zero values

} // namespace attnlab::ui

Q_DECLARE_METATYPE(attnlab::ui::HeatmapHit)
