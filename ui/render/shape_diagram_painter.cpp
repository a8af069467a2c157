#include "render/shape_diagram_painter.h"

#include "render/head_colors.h"
#include "render/render_style.h"
#include "render/stage_captions.h"

#include <QFontInfo>
#include <QFontMetricsF>
#include <QPainterPath>
#include <QPicture>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

// Each axis keeps one hue in every stage, tinted into the theme's background.
QColor axisFill(const RenderStyle& style, Axis axis)
{
    const double amount = style.highContrast ? 0.0 : (style.dark ? 0.32 : 0.2);
    if (axis == Axis::b)
        return style.tint(QColor(0x5b, 0x7f, 0xb8), amount);
    if (axis == Axis::num_tokens)
        return style.tint(QColor(0x4c, 0xaf, 0x50), amount);
    if (axis == Axis::d_in)
        return style.tint(QColor(0xf0, 0x8a, 0x24), amount);
    return style.tint(QColor(0x2f, 0x8f, 0xe8), amount);
}

QFont pixelFont(double px, bool bold = false)
{
    QFont f;
    f.setPixelSize(std::max(9, static_cast<int>(std::lround(px))));
    f.setBold(bold);
    return f;
}

QString shapeText(const Shape& s)
{
    return QString::fromStdString(shape_to_string(s));
}

QString axisText(Axis axis)
{
    return QString::fromStdString(std::string(axis_name(axis)));
}

void drawArrow(QPainter& p, QPointF from, QPointF to, const QColor& color, double width)
{
    p.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(from, to);
    const QLineF line(to, from);
    const double a = std::atan2(-line.dy(), line.dx());
    const double len = 6 + width * 2.5;
    QPolygonF head;
    head << to << to + QPointF(std::cos(a + 0.45) * len, -std::sin(a + 0.45) * len)
         << to + QPointF(std::cos(a - 0.45) * len, -std::sin(a - 0.45) * len);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

} // namespace

ShapeDiagramPainter::ShapeDiagramPainter(const Trace& trace, int stageIndex, int selectedHead)
    : trace_(trace), stage_(trace.stages.at(static_cast<std::size_t>(stageIndex))), head_(selectedHead),
      heads_(head_count(trace.config))
{
}

const Stage* ShapeDiagramPainter::previousShapeStage() const
{
    return stage_.derived_from.empty() ? nullptr : trace_.find(stage_.derived_from);
}

QString ShapeDiagramPainter::opLabel() const
{
    const auto& c = trace_.config;
    switch (op()) {
    case Op::Split:
        return QStringLiteral("view:  d_out %1 = %2 heads × %3 features each (head_dim)")
            .arg(c.d_out)
            .arg(c.num_heads)
            .arg(c.head_dim());
    case Op::Merge:
        return QStringLiteral("contiguous().view:  %1 heads × %2 features = d_out %3")
            .arg(c.num_heads)
            .arg(c.head_dim())
            .arg(c.d_out);
    case Op::Transpose:
        return QStringLiteral("transpose(1, 2):  dims 1 and 2 trade places; the data stays where it is");
    case Op::None: break;
    }
    return stageFormula(stage_, c);
}

ShapeDiagramPainter::Op ShapeDiagramPainter::op() const
{
    if (!previousShapeStage())
        return Op::None;
    switch (stage_.layout) {
    case LayoutOp::SplitHeads: return Op::Split;
    case LayoutOp::MergeHeads: return Op::Merge;
    case LayoutOp::HeadsFirst:
    case LayoutOp::TokensFirst: return Op::Transpose;
    case LayoutOp::None: break;
    }
    return Op::None;
}

double ShapeDiagramPainter::blockWidth(Axis axis, std::int64_t size) const
{
    const double name = QFontMetricsF(pixelFont(15 * scale_)).horizontalAdvance(axisText(axis));
    const double value = QFontMetricsF(pixelFont(24 * scale_, true)).horizontalAdvance(QString::number(size));
    const double bySize = (70 + 16 * std::log2(static_cast<double>(std::max<std::int64_t>(size, 1)) + 1)) * scale_;
    return std::max({name + 24 * scale_, value + 24 * scale_, bySize});
}

std::vector<ShapeDiagramPainter::Block>
ShapeDiagramPainter::layoutRow(const std::vector<Axis>& axes, const Shape& shape, double top, double left) const
{
    std::vector<Block> row;
    double x = left;
    const double gap = 16 * scale_, h = 78 * scale_;
    for (std::size_t i = 0; i < axes.size() && i < shape.size(); ++i) {
        const double w = blockWidth(axes[i], shape[i]);
        row.push_back({axes[i], shape[i], QRectF(x, top, w, h), static_cast<int>(i)});
        x += w + gap;
    }
    return row;
}

void ShapeDiagramPainter::drawHeadLabel(QPainter& p, int head, const QRectF& swatch, const QRectF& drawAt,
                                        const QRectF& onPage, const QString& label, const QColor& fill) const
{
    style_.drawText(p, drawAt, Qt::AlignCenter, label, headLabelInk(fill), fill);
    headLabels_.push_back({head, swatch, onPage, label});
}

bool ShapeDiagramPainter::drawHeadStripes(QPainter& p, const QRectF& r) const
{
    // Each stripe carries its head's number at its foot (the name plate covers the middle): upright
    // where it fits, turned on its side in narrower stripes, and only past ~30 heads not at all.
    const double w = r.width() / heads_;
    const QString widest = QString::number(heads_ - 1);
    QFont font = pixelFont(12 * scale_, true);
    const bool upright = QFontMetricsF(font).horizontalAdvance(widest) + 4 < w;
    // Sideways, the number must fit across the stripe and in the ~14 px between plate and foot.
    int sidewaysPx = static_cast<int>(std::min(12 * scale_, w - 1));
    for (; !upright && sidewaysPx >= 7; --sidewaysPx) {
        font.setPixelSize(sidewaysPx);
        if (QFontMetricsF(font).horizontalAdvance(widest) + 2 <= 13 * scale_)
            break;
    }
    const double length = QFontMetricsF(font).horizontalAdvance(widest) + 2;
    const bool sideways = !upright && sidewaysPx >= 7;
    p.setFont(font);
    for (int h = 0; h < heads_; ++h) {
        const QRectF s(r.left() + h * w, r.top(), w, r.height());
        const QColor fill = headColor(h, heads_);
        p.fillRect(s, fill);
        if (upright) {
            const double line = QFontMetricsF(font).height();
            const QRectF t(s.left(), s.bottom() - 3 - line, s.width(), line);
            drawHeadLabel(p, h, s, t, t, QString::number(h), fill);
        } else if (sideways) {
            QTransform foot; // x runs up the stripe from its foot
            foot.translate(s.center().x(), s.bottom() - 2);
            foot.rotate(-90);
            const QRectF t(0, -w / 2, length, w);
            p.save();
            p.setTransform(foot, true);
            drawHeadLabel(p, h, s, t, foot.mapRect(t), QString::number(h), fill);
            p.restore();
        }
    }
    if (head_ >= 0 && head_ < heads_) { // the selected head, as in the heatmaps
        p.setPen(QPen(style_.text, 3 * scale_));
        p.drawRect(QRectF(r.left() + head_ * w, r.top(), w, r.height()).adjusted(1, 1, -1, -1));
    }
    return upright || sideways;
}

void ShapeDiagramPainter::drawBlock(QPainter& p, const Block& b, bool dOutStriped) const
{
    const bool striped = (b.axis == Axis::num_heads || b.axis == Axis::num_heads_x_d_out) && heads_ > 1;
    const bool headColoured = b.axis == Axis::head_dim || (b.axis == Axis::d_out && heads_ > 1 && dOutStriped);
    QPainterPath path;
    path.addRoundedRect(b.rect, 7 * scale_, 7 * scale_);
    p.save();
    p.setClipPath(path);
    bool stripesNumbered = true;
    if (striped || headColoured) {
        if (b.axis == Axis::head_dim) {
            // One head's features, in its colour: its number in the corner, above the name plate.
            const int head = std::max(head_, 0);
            const QColor fill = headColor(head, heads_).lighter(125);
            p.fillRect(b.rect, fill);
            const QFont f = pixelFont(12 * scale_, true);
            p.setFont(f);
            const QRectF t(b.rect.left() + 6 * scale_, b.rect.top() + 2 * scale_,
                           QFontMetricsF(f).horizontalAdvance(headLabel(head)) + 4, QFontMetricsF(f).height());
            drawHeadLabel(p, head, b.rect, t, t, headLabel(head), fill);
        } else {
            stripesNumbered = drawHeadStripes(p, b.rect);
        }
    } else {
        p.fillRect(b.rect, axisFill(style_, b.axis));
    }
    p.restore();
    p.setPen(QPen(style_.frame, 1.6 * scale_));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);

    // Name and size, on a light plate where stripes would fight with the text. Stripes too thin to
    // number (dozens of heads) get the framed head's number on the plate instead.
    const bool selectable = head_ >= 0 && head_ < heads_;
    const QString framed = !stripesNumbered && selectable ? headLabel(head_) + QStringLiteral(" framed") : QString();
    const QFont nameFont = pixelFont(15 * scale_), sizeFont = pixelFont(24 * scale_, true);
    const QString name = axisText(b.axis), size = QString::number(b.size);
    const double lineName = QFontMetricsF(nameFont).height(), lineSize = QFontMetricsF(sizeFont).height();
    const double lineFramed = framed.isEmpty() ? 0 : lineName;
    const double textW =
        std::max({QFontMetricsF(nameFont).horizontalAdvance(name), QFontMetricsF(sizeFont).horizontalAdvance(size),
                  QFontMetricsF(nameFont).horizontalAdvance(framed)}) +
        12 * scale_;
    const QRectF plate(b.rect.center().x() - textW / 2,
                       b.rect.center().y() - (lineName + lineSize + lineFramed) / 2 - 2, textW,
                       lineName + lineSize + lineFramed + 4);
    if (striped || headColoured) {
        p.setBrush(style_.panel);
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(plate, 4, 4);
    }
    const QColor under = striped || headColoured ? style_.panel : axisFill(style_, b.axis);
    const QColor ink = style_.readable(style_.text, under);
    p.setFont(nameFont);
    style_.drawText(p, QRectF(plate.left(), plate.top() + 2, plate.width(), lineName), Qt::AlignCenter, name, ink,
                    under);
    p.setFont(sizeFont);
    style_.drawText(p, QRectF(plate.left(), plate.top() + 2 + lineName, plate.width(), lineSize), Qt::AlignCenter, size,
                    ink, under);
    if (!framed.isEmpty()) {
        const double w = b.rect.width() / heads_;
        const QRectF t(plate.left(), plate.top() + 2 + lineName + lineSize, plate.width(), lineFramed);
        p.setFont(nameFont);
        style_.drawText(p, t, Qt::AlignCenter, framed, ink, under);
        headLabels_.push_back({head_, QRectF(b.rect.left() + head_ * w, b.rect.top(), w, b.rect.height()), t, framed});
    }
}

double ShapeDiagramPainter::paintHeader(QPainter& p, const QRectF& rect) const
{
    double y = rect.top();
    const QFont title = pixelFont(26 * scale_, true);
    p.setFont(title);
    const QColor bg = style_.background;
    const double th = QFontMetricsF(title).height();
    const QString name = QString::fromStdString(stage_.name);
    style_.drawText(p, QRectF(rect.left(), y, rect.width(), th), Qt::AlignLeft | Qt::AlignVCenter, name, style_.text,
                    bg);
    const double nameW = QFontMetricsF(title).horizontalAdvance(name);
    p.setFont(pixelFont(22 * scale_));
    style_.drawText(p, QRectF(rect.left() + nameW + 16 * scale_, y, rect.width(), th), Qt::AlignLeft | Qt::AlignVCenter,
                    QStringLiteral("shape ") + shapeText(stage_.tensor.shape()), style_.muted, bg);
    y += th + 4 * scale_;

    const QFont captionFont = pixelFont(17 * scale_);
    p.setFont(captionFont);
    const QString caption = stageCaption(stage_, trace_.config);
    const QRectF bound = p.boundingRect(QRectF(rect.left(), y, rect.width(), 1000), Qt::TextWordWrap, caption);
    style_.drawText(p, QRectF(rect.left(), y, rect.width(), bound.height()), Qt::TextWordWrap, caption, style_.text,
                    bg);
    y += bound.height() + 6 * scale_;
    const QString formula = opLabel();
    if (!formula.isEmpty()) {
        const QFont f = pixelFont(21 * scale_, true);
        p.setFont(f);
        style_.drawText(p, QRectF(rect.left(), y, rect.width(), QFontMetricsF(f).height()), Qt::AlignLeft, formula,
                        style_.moved, bg);
        y += QFontMetricsF(f).height() + 4 * scale_;
    }
    return y;
}

void ShapeDiagramPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    // The drawing grows with its pane and with the type around it (presentation type, zoom): on a
    // projector a diagram at desktop size next to 1.4x labels is the one thing nobody can read. How
    // big it then is depends on the stage (wrapped explanations, a header line more or less, a row
    // of boxes wider than the pane), so it is laid out into a QPicture and shrunk until everything,
    // down to the contiguity badges, fits the pane.
    const QFontInfo type(p.font());
    const double typeScale = type.pixelSize() > 0 ? type.pixelSize() / 16.0 : 1.0;
    double s = std::clamp(std::max(typeScale, std::min(rect.width() / 1000.0, rect.height() / 470.0)), 0.6, 1.5);
    RenderStyle quiet = style;
    quiet.log.reset(); // the trial layouts are not what the page shows
    for (int attempt = 0; attempt < 4; ++attempt) {
        QPicture trial;
        QPainter tp(&trial);
        tp.setFont(p.font());
        paintAtScale(tp, rect, quiet, s);
        tp.end();
        const QRectF used = trial.boundingRect();
        const double tall = (used.bottom() - rect.top()) / rect.height();
        const double wide = (used.right() - rect.left()) / rect.width();
        const double over = std::max(tall, wide);
        if (over <= 1.0 || s <= kMinScale)
            break;
        s = std::max(kMinScale, s / over * 0.98);
    }
    paintAtScale(p, rect, style, s);
}

void ShapeDiagramPainter::paintAtScale(QPainter& p, const QRectF& rect, const RenderStyle& style, double s) const
{
    style_ = style;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    headLabels_.clear();
    scale_ = s;
    double y = paintHeader(p, rect) + 22 * s;

    const Op kind = op();
    const Stage* prev = previousShapeStage();
    const bool square = stage_.axes.size() >= 2 && stage_.axes.back() == Axis::num_tokens &&
                        stage_.axes[stage_.axes.size() - 2] == Axis::num_tokens;
    // Lay a row out once to know its width, then centre it.
    auto centred = [&](const std::vector<Axis>& axes, const Shape& shape, double top) {
        auto row = layoutRow(axes, shape, top, 0);
        const double width = row.empty() ? 0 : row.back().rect.right();
        const double dx = rect.left() + std::max(0.0, (rect.width() - width) / 2);
        for (auto& b : row)
            b.rect.translate(dx, 0);
        return row;
    };
    auto dims = [&](const std::vector<Block>& row) {
        p.setFont(pixelFont(12 * s));
        for (const auto& b : row)
            style_.drawText(p, QRectF(b.rect.left(), b.rect.top() - 18 * s, b.rect.width(), 16 * s), Qt::AlignCenter,
                            QStringLiteral("dim %1").arg(b.dim), style_.muted, style_.background);
    };
    const double gapRows = 92 * s;
    std::vector<Block> after;
    if (kind == Op::None || !prev) {
        after = centred(stage_.axes, stage_.tensor.shape(), y);
    } else {
        const bool split = kind == Op::Split;
        const Stage& wide = split ? stage_ : *prev;   // the row with num_heads and head_dim
        const Stage& narrow = split ? *prev : stage_; // the row with d_out
        const double wideTop = split ? y + 78 * s + gapRows : y;
        auto wideRow = centred(wide.axes, wide.tensor.shape(), kind == Op::Transpose ? y : wideTop);
        std::vector<Block> other;
        if (kind == Op::Transpose) {
            other = centred(stage_.axes, stage_.tensor.shape(), y + 78 * s + gapRows);
        } else {
            const double top = split ? y : y + 78 * s + gapRows;
            for (std::size_t i = 0; i < narrow.axes.size(); ++i) {
                Block b{narrow.axes[i], narrow.tensor.shape()[i], {}, static_cast<int>(i)};
                for (const auto& w : wideRow)
                    if (w.axis == b.axis)
                        b.rect = QRectF(w.rect.left(), top, w.rect.width(), w.rect.height());
                if (b.axis == Axis::d_out) {
                    const QRectF* hr = nullptr;
                    const QRectF* dr = nullptr;
                    for (const auto& w : wideRow) {
                        if (w.axis == Axis::num_heads)
                            hr = &w.rect;
                        if (w.axis == Axis::head_dim)
                            dr = &w.rect;
                    }
                    if (hr && dr)
                        b.rect = QRectF(hr->left(), top, dr->right() - hr->left(), hr->height());
                }
                other.push_back(b);
            }
        }
        const std::vector<Block>& before = kind == Op::Transpose ? wideRow : (split ? other : wideRow);
        after = kind == Op::Transpose ? other : (split ? wideRow : other);
        dims(before);
        for (const auto& b : before)
            drawBlock(p, b, true);
        // Connectors: which axis of the previous stage went where.
        if (kind == Op::Transpose) {
            for (const auto& b : before)
                for (const auto& a : after)
                    if (a.axis == b.axis) {
                        const bool moved = a.dim != b.dim;
                        drawArrow(p, QPointF(b.rect.center().x(), b.rect.bottom() + 4 * s),
                                  QPointF(a.rect.center().x(), a.rect.top() - 20 * s),
                                  moved ? style_.moved : style_.muted, (moved ? 4 : 2) * s);
                    }
        } else {
            const Block* d = nullptr;
            for (const auto& b : (split ? before : after))
                if (b.axis == Axis::d_out)
                    d = &b;
            for (const auto& w : (split ? after : before)) {
                if (!d || (w.axis != Axis::num_heads && w.axis != Axis::head_dim))
                    continue;
                if (split)
                    drawArrow(p, QPointF(w.rect.center().x(), d->rect.bottom() + 4 * s),
                              QPointF(w.rect.center().x(), w.rect.top() - 20 * s), style_.moved, 4 * s);
                else
                    drawArrow(p, QPointF(w.rect.center().x(), w.rect.bottom() + 4 * s),
                              QPointF(w.rect.center().x(), d->rect.top() - 20 * s), style_.moved, 4 * s);
            }
        }
    }
    dims(after);
    for (std::size_t i = 0; i < after.size(); ++i)
        drawBlock(p, after[i], stage_.layout == LayoutOp::MergeHeads);
    if (square && after.size() >= 2) { // which num_tokens is which
        p.setFont(pixelFont(13 * s, true));
        const QString names[2] = {QStringLiteral("(queries)"), QStringLiteral("(keys)")};
        for (int i = 0; i < 2; ++i) {
            const QRectF& r = after[after.size() - 2 + static_cast<std::size_t>(i)].rect;
            style_.drawText(p, QRectF(r.left(), r.bottom() + 18 * s, r.width(), 18 * s), Qt::AlignCenter, names[i],
                            style_.muted, style_.background);
        }
    }
    drawFooter(
        p, QRectF(rect.left(), after.front().rect.bottom(), rect.width(), rect.bottom() - after.front().rect.bottom()),
        after);
    p.restore();
}

void ShapeDiagramPainter::drawFooter(QPainter& p, const QRectF& area, const std::vector<Block>& row) const
{
    const double s = scale_;
    const Tensor& t = stage_.tensor;
    const QFont small = pixelFont(13 * s);
    p.setFont(small);
    const QColor bg = style_.background;
    for (const auto& b : row)
        if (b.dim >= 0 && b.dim < t.dim()) {
            // Centred under its box, and as wide as it needs: the type has a floor, the boxes do not, so
            // at small scales "stride 12288" is wider than its box "b" (and was cut to "stride 1228").
            const QString text = QStringLiteral("stride %1").arg(t.strides()[static_cast<std::size_t>(b.dim)]);
            const double width = std::max(b.rect.width(), QFontMetricsF(small).horizontalAdvance(text) + 2);
            style_.drawText(p, QRectF(b.rect.center().x() - width / 2, b.rect.bottom() + 2 * s, width, 17 * s),
                            Qt::AlignCenter, text, style_.muted, bg);
        }

    double y = area.top() + 46 * s;
    const QFont f = pixelFont(17 * s);
    const double line = QFontMetricsF(f).height() + 6 * s;
    p.setFont(f);
    const bool matches = stage_.expected_shape == t.shape();
    style_.drawText(p, QPointF(area.left(), y + line * 0.7),
                    QStringLiteral("expected  %1 = %2")
                        .arg(QString::fromStdString(axes_text(stage_.axes)), shapeText(stage_.expected_shape)),
                    style_.text, bg);
    y += line;
    style_.drawText(p, QPointF(area.left(), y + line * 0.7),
                    QStringLiteral("produced  %1  %2")
                        .arg(shapeText(t.shape()), matches ? "✓ as expected" : "✗ differs from the expected shape"),
                    matches ? style_.same : style_.differs, bg);
    y += line + 8 * s;

    // Badges: contiguity (the reason contiguous() precedes the final view) and storage sharing.
    double x = area.left();
    auto badge = [&](const QString& text, const QColor& fill, const QColor& ink) {
        const QFont bf = pixelFont(16 * s, true);
        p.setFont(bf);
        const double w = QFontMetricsF(bf).horizontalAdvance(text) + 22 * s;
        const QRectF r(x, y, w, QFontMetricsF(bf).height() + 10 * s);
        p.setPen(QPen(ink, 1.5));
        p.setBrush(fill);
        p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
        style_.drawText(p, r, Qt::AlignCenter, text, ink, fill);
        x += w + 12 * s;
    };
    if (t.is_contiguous())
        badge(QStringLiteral("✓ contiguous"), style_.sameFill, style_.same);
    else
        badge(QStringLiteral("⚠ not contiguous: strides out of order"), style_.warningFill, style_.warning);
    if (!stage_.view_of.empty())
        badge(QStringLiteral("view of %1: shares its storage, no copy").arg(QString::fromStdString(stage_.view_of)),
              style_.infoFill, style_.info);
    else
        badge(QStringLiteral("owns new storage"), style_.panel, style_.muted);
}

} // namespace attnlab::ui
