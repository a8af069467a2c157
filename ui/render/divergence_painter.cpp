#include "render/divergence_painter.h"

#include "render/text_fit.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

class DivergencePainter::Pass {
public:
    Pass(const DivergenceCard& card, const RenderStyle& style, double scale) : card_(card), style_(style), scale_(scale)
    {
    }
    void paint(QPainter& p, const QRectF& rect) const;

private:
    double paintHeader(QPainter& p, const QRectF& rect) const;
    // One row of axis blocks; `compare` marks sizes that differ from it. Returns the row's bottom.
    double paintShapeRow(QPainter& p, double top, const QRectF& rect, const QString& label, const Shape& shape,
                         const std::vector<Axis>& names, const Shape* compare) const;
    double paintMessage(QPainter& p, double top, const QRectF& rect, const QString& title, const QString& text,
                        bool mono, const QColor& ink, const QColor& fill) const;

    const DivergenceCard& card_;
    const RenderStyle& style_;
    const double scale_;
};

QColor DivergencePainter::statusColor(DivergenceStatus status, const RenderStyle& style)
{
    switch (status) {
    case DivergenceStatus::Same: return style.same;
    case DivergenceStatus::Values: return style.warning;
    case DivergenceStatus::NotReached: return style.muted;
    case DivergenceStatus::Shape:
    case DivergenceStatus::Error: break;
    }
    return style.differs;
}

QColor DivergencePainter::statusFill(DivergenceStatus status, const RenderStyle& style)
{
    switch (status) {
    case DivergenceStatus::Same: return style.sameFill;
    case DivergenceStatus::Values: return style.warningFill;
    case DivergenceStatus::NotReached: return style.panel;
    case DivergenceStatus::Shape:
    case DivergenceStatus::Error: break;
    }
    return style.differsFill;
}

QString DivergencePainter::statusText(DivergenceStatus status)
{
    switch (status) {
    case DivergenceStatus::Same: return QCoreApplication::translate("DivergencePainter", "✓ same");
    case DivergenceStatus::Shape: return QCoreApplication::translate("DivergencePainter", "✗ shape differs");
    case DivergenceStatus::Values: return QCoreApplication::translate("DivergencePainter", "≠ values differ");
    case DivergenceStatus::Error: return QCoreApplication::translate("DivergencePainter", "⚠ error");
    case DivergenceStatus::NotReached: break;
    }
    return QCoreApplication::translate("DivergencePainter", "· not reached");
}

double DivergencePainter::Pass::paintHeader(QPainter& p, const QRectF& rect) const
{
    const double s = scale_;
    const QFont title = pixelCodeFont(26 * s, true);
    const double h = QFontMetricsF(title).height();
    p.setFont(title);
    style_.drawText(p, QRectF(rect.left(), rect.top(), rect.width(), h), Qt::AlignLeft | Qt::AlignVCenter,
                    QString::fromStdString(card_.row.stage), style_.text, style_.background);
    // The verdict as a pill under the name, led by the marker when this is where the runs first part.
    QString verdict = statusText(card_.row.status);
    if (card_.first)
        verdict = QCoreApplication::translate("DivergencePainter", "▶ first divergence: ") + verdict.mid(2);
    const QFont bf = pixelFont(18 * s, true);
    const double ph = QFontMetricsF(bf).height() + 10 * s;
    const QRectF pill(rect.left(), rect.top() + h + 6 * s, QFontMetricsF(bf).horizontalAdvance(verdict) + 28 * s, ph);
    const QColor ink = statusColor(card_.row.status, style_);
    const QColor pillFill = card_.first ? ink : style_.background;
    p.setPen(QPen(ink, 2));
    p.setBrush(pillFill);
    p.drawRoundedRect(pill, ph / 2, ph / 2);
    p.setFont(bf);
    style_.drawText(p, pill, Qt::AlignCenter, verdict, card_.first ? style_.readable(style_.background, ink) : ink,
                    pillFill);
    return pill.bottom() + 16 * s;
}

double DivergencePainter::Pass::paintShapeRow(QPainter& p, double top, const QRectF& rect, const QString& label,
                                              const Shape& shape, const std::vector<Axis>& names,
                                              const Shape* compare) const
{
    const double s = scale_;
    const QFont labelFont = pixelFont(17 * s, true), nameFont = pixelFont(14 * s), sizeFont = pixelFont(24 * s, true);
    p.setFont(labelFont);
    style_.drawText(p, QPointF(rect.left(), top + QFontMetricsF(labelFont).ascent()),
                    label + QStringLiteral("   ") + QString::fromStdString(shape_to_string(shape)), style_.muted,
                    style_.background);
    top += QFontMetricsF(labelFont).height() + 6 * s;
    double x = rect.left();
    const double h = 62 * s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const QString name = i < names.size() ? QString::fromStdString(std::string(axis_name(names[i])))
                                              : QStringLiteral("dim %1").arg(i);
        const QString size = QString::number(shape[i]);
        const double w = std::max({QFontMetricsF(nameFont).horizontalAdvance(name) + 20 * s,
                                   QFontMetricsF(sizeFont).horizontalAdvance(size) + 24 * s, 74 * s});
        const QRectF r(x, top, w, h);
        QColor fill = style_.infoFill, border = style_.frame;
        bool differs = false;
        if (compare) {
            const bool same = i < compare->size() && (*compare)[i] == shape[i] && compare->size() == shape.size();
            fill = same ? style_.sameFill : style_.differsFill;
            border = same ? style_.same : style_.differs;
            differs = !same;
        }
        p.setPen(QPen(border, (differs ? 3 : 1.6) * s));
        p.setBrush(fill);
        p.drawRoundedRect(r, 7 * s, 7 * s);
        p.setFont(nameFont);
        style_.drawText(p, r.adjusted(0, 4 * s, 0, 0), Qt::AlignHCenter | Qt::AlignTop, name,
                        style_.readable(style_.muted, fill), fill);
        p.setFont(sizeFont);
        style_.drawText(p, r.adjusted(0, 0, 0, -5 * s), Qt::AlignHCenter | Qt::AlignBottom, size,
                        style_.readable(differs ? style_.differs : style_.text, fill), fill);
        x += w + 12 * s;
    }
    return top + h + 18 * s;
}

double DivergencePainter::Pass::paintMessage(QPainter& p, double top, const QRectF& rect, const QString& title,
                                             const QString& text, bool mono, const QColor& ink,
                                             const QColor& fill) const
{
    const double s = scale_, pad = 12 * s;
    const QFont titleFont = pixelFont(17 * s, true), body = mono ? pixelCodeFont(17 * s) : pixelFont(17 * s);
    // The title wraps like the text: on a narrow card it ran past the box's edge and was cut.
    p.setFont(titleFont);
    const double th =
        title.isEmpty()
            ? 0
            : p.boundingRect(QRectF(0, 0, rect.width() - 2 * pad, 4000), Qt::TextWordWrap, title).height() + 4 * s;
    p.setFont(body);
    const QRectF bound = p.boundingRect(QRectF(0, 0, rect.width() - 2 * pad, 4000), Qt::TextWordWrap, text);
    const QRectF box(rect.left(), top, rect.width(), th + bound.height() + 2 * pad);
    p.setPen(QPen(ink, 1.5));
    p.setBrush(fill);
    p.drawRoundedRect(box, 6 * s, 6 * s);
    if (!title.isEmpty()) {
        p.setFont(titleFont);
        style_.drawText(p, QRectF(box.left() + pad, box.top() + pad, box.width() - 2 * pad, th),
                        Qt::AlignLeft | Qt::TextWordWrap, title, style_.readable(ink, fill), fill);
    }
    p.setFont(body);
    style_.drawText(p, QRectF(box.left() + pad, box.top() + pad + th, box.width() - 2 * pad, bound.height()),
                    Qt::TextWordWrap, text, style_.readable(style_.text, fill), fill);
    return box.bottom() + 12 * s;
}

void DivergencePainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    Pass(card_, style, std::clamp(std::min(rect.width() / 470.0, rect.height() / 420.0), 0.75, 1.3)).paint(p, rect);
}

void DivergencePainter::Pass::paint(QPainter& p, const QRectF& rect) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const auto& row = card_.row;
    const QString message = QString::fromStdString(row.message);
    double y = paintHeader(p, rect);
    if (row.stage == "config") {
        y = paintMessage(p, y, rect,
                         QCoreApplication::translate("DivergencePainter",
                                                     "The buggy module cannot even be constructed; PyTorch says:"),
                         message, true, style_.differs, style_.differsFill);
        p.restore();
        return;
    }
    const bool computed = !row.observed_shape.empty();
    y = paintShapeRow(p, y, rect, QCoreApplication::translate("DivergencePainter", "book's forward (expected)"),
                      row.expected_shape, card_.axes, nullptr);
    // Where only the values differ, a second row of the same boxes says nothing: the numbers are the news.
    const bool sameShape = computed && row.observed_shape == row.expected_shape;
    if (computed && !(row.status == DivergenceStatus::Values && sameShape))
        y = paintShapeRow(p, y, rect, QCoreApplication::translate("DivergencePainter", "with the bug (observed)"),
                          row.observed_shape, {}, &row.expected_shape);
    if (row.status == DivergenceStatus::Error)
        paintMessage(p, y, rect,
                     QCoreApplication::translate("DivergencePainter",
                                                 "The buggy code cannot compute this stage; PyTorch raises:"),
                     message, true, style_.differs, style_.differsFill);
    else if (row.status == DivergenceStatus::NotReached)
        paintMessage(
            p, y, rect, QString(),
            QCoreApplication::translate("DivergencePainter", "Not computed: the buggy run already stopped at %1.")
                .arg(card_.stoppedAt),
            false, style_.muted, style_.panel);
    else if (row.status == DivergenceStatus::Same)
        paintMessage(
            p, y, rect, QString(),
            QCoreApplication::translate("DivergencePainter",
                                        "Same shape and same values as the book's (within rtol 1e-4, atol 1e-5)."),
            false, style_.same, style_.sameFill);
    else if (row.status == DivergenceStatus::Values && sameShape)
        paintMessage(p, y, rect,
                     QCoreApplication::translate("DivergencePainter", "With the bug: the same shape, other values"),
                     message, false, statusColor(row.status, style_), statusFill(row.status, style_));
    else
        paintMessage(p, y, rect, QString(), message, false, statusColor(row.status, style_),
                     statusFill(row.status, style_));
    p.restore();
}

} // namespace attnlab::ui
