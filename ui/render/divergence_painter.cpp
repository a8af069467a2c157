#include "render/divergence_painter.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

const QColor kText(30, 30, 30);
const QColor kMuted(95, 95, 95);
const QColor kSame(0x00, 0x7a, 0x4d);
const QColor kDiffer(0xc0, 0x1c, 0x1c);

QFont pixelFont(double px, bool bold = false, bool mono = false)
{
    QFont f;
    if (mono)
        f.setFamily(QStringLiteral("DejaVu Sans Mono"));
    f.setPixelSize(std::max(9, static_cast<int>(std::lround(px))));
    f.setBold(bold);
    return f;
}

} // namespace

QColor DivergencePainter::statusColor(const std::string& status)
{
    if (status == "same")
        return kSame;
    if (status == "values")
        return QColor(0xb3, 0x5c, 0x00);
    if (status == "not-reached")
        return QColor(0x80, 0x80, 0x80);
    return kDiffer; // shape, error
}

QString DivergencePainter::statusText(const std::string& status)
{
    if (status == "same")
        return QCoreApplication::translate("DivergencePainter", "✓ same");
    if (status == "shape")
        return QCoreApplication::translate("DivergencePainter", "✗ shape differs");
    if (status == "values")
        return QCoreApplication::translate("DivergencePainter", "≠ values differ");
    if (status == "error")
        return QCoreApplication::translate("DivergencePainter", "⚠ error");
    return QCoreApplication::translate("DivergencePainter", "· not reached");
}

double DivergencePainter::paintHeader(QPainter& p, const QRectF& rect) const
{
    const double s = scale_;
    const QFont title = pixelFont(26 * s, true, true);
    const double h = QFontMetricsF(title).height();
    p.setFont(title);
    p.setPen(kText);
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), h), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString(card_.row.stage));
    // The verdict as a pill under the name, led by the marker when this is where the runs first part.
    QString verdict = statusText(card_.row.status);
    if (card_.first)
        verdict = QCoreApplication::translate("DivergencePainter", "▶ first divergence: ") + verdict.mid(2);
    const QFont bf = pixelFont(18 * s, true);
    const double ph = QFontMetricsF(bf).height() + 10 * s;
    const QRectF pill(rect.left(), rect.top() + h + 6 * s, QFontMetricsF(bf).horizontalAdvance(verdict) + 28 * s, ph);
    const QColor ink = statusColor(card_.row.status);
    p.setPen(QPen(ink, 2));
    p.setBrush(card_.first ? ink : QColor(255, 255, 255));
    p.drawRoundedRect(pill, ph / 2, ph / 2);
    p.setFont(bf);
    p.setPen(card_.first ? QColor(Qt::white) : ink);
    p.drawText(pill, Qt::AlignCenter, verdict);
    return pill.bottom() + 16 * s;
}

double DivergencePainter::paintShapeRow(QPainter& p, double top, const QRectF& rect, const QString& label,
                                        const Shape& shape, const std::vector<std::string>& names,
                                        const Shape* compare) const
{
    const double s = scale_;
    const QFont labelFont = pixelFont(17 * s, true), nameFont = pixelFont(14 * s), sizeFont = pixelFont(24 * s, true);
    p.setFont(labelFont);
    p.setPen(kMuted);
    p.drawText(QPointF(rect.left(), top + QFontMetricsF(labelFont).ascent()),
               label + QStringLiteral("   ") + QString::fromStdString(shape_to_string(shape)));
    top += QFontMetricsF(labelFont).height() + 6 * s;
    double x = rect.left();
    const double h = 62 * s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const QString name = i < names.size() ? QString::fromStdString(names[i]) : QStringLiteral("dim %1").arg(i);
        const QString size = QString::number(shape[i]);
        const double w = std::max({QFontMetricsF(nameFont).horizontalAdvance(name) + 20 * s,
                                   QFontMetricsF(sizeFont).horizontalAdvance(size) + 24 * s, 74 * s});
        const QRectF r(x, top, w, h);
        QColor fill(0xe8, 0xee, 0xf6), border = kText;
        if (compare) {
            const bool same = i < compare->size() && (*compare)[i] == shape[i] && compare->size() == shape.size();
            fill = same ? QColor(0xe3, 0xf4, 0xea) : QColor(0xfb, 0xdc, 0xdc);
            border = same ? kSame : kDiffer;
        }
        p.setPen(QPen(border, (compare && border == kDiffer ? 3 : 1.6) * s));
        p.setBrush(fill);
        p.drawRoundedRect(r, 7 * s, 7 * s);
        p.setPen(kMuted);
        p.setFont(nameFont);
        p.drawText(r.adjusted(0, 4 * s, 0, 0), Qt::AlignHCenter | Qt::AlignTop, name);
        p.setPen(compare && border == kDiffer ? kDiffer : kText);
        p.setFont(sizeFont);
        p.drawText(r.adjusted(0, 0, 0, -5 * s), Qt::AlignHCenter | Qt::AlignBottom, size);
        x += w + 12 * s;
    }
    return top + h + 18 * s;
}

double DivergencePainter::paintMessage(QPainter& p, double top, const QRectF& rect, const QString& title,
                                       const QString& text, bool mono, const QColor& ink, const QColor& fill) const
{
    const double s = scale_, pad = 12 * s;
    const QFont titleFont = pixelFont(17 * s, true), body = pixelFont(17 * s, false, mono);
    const double th = title.isEmpty() ? 0 : QFontMetricsF(titleFont).height() + 4 * s;
    p.setFont(body);
    const QRectF bound = p.boundingRect(QRectF(0, 0, rect.width() - 2 * pad, 4000), Qt::TextWordWrap, text);
    const QRectF box(rect.left(), top, rect.width(), th + bound.height() + 2 * pad);
    p.setPen(QPen(ink, 1.5));
    p.setBrush(fill);
    p.drawRoundedRect(box, 6 * s, 6 * s);
    p.setPen(ink);
    if (!title.isEmpty()) {
        p.setFont(titleFont);
        p.drawText(QRectF(box.left() + pad, box.top() + pad, box.width() - 2 * pad, th), Qt::AlignLeft, title);
    }
    p.setFont(body);
    p.setPen(kText);
    p.drawText(QRectF(box.left() + pad, box.top() + pad + th, box.width() - 2 * pad, bound.height()), Qt::TextWordWrap,
               text);
    return box.bottom() + 12 * s;
}

void DivergencePainter::paint(QPainter& p, const QRectF& rect) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    scale_ = std::clamp(std::min(rect.width() / 470.0, rect.height() / 420.0), 0.75, 1.3);
    const auto& row = card_.row;
    const QString message = QString::fromStdString(row.message);
    double y = paintHeader(p, rect);
    if (row.stage == "config") {
        y = paintMessage(p, y, rect,
                         QCoreApplication::translate("DivergencePainter",
                                                     "The buggy module cannot even be constructed; PyTorch says:"),
                         message, true, kDiffer, QColor(0xfd, 0xec, 0xea));
        p.restore();
        return;
    }
    const bool computed = !row.observed_shape.empty();
    y = paintShapeRow(p, y, rect, QCoreApplication::translate("DivergencePainter", "book's forward (expected)"),
                      row.expected_shape, card_.axes, nullptr);
    if (computed)
        y = paintShapeRow(p, y, rect, QCoreApplication::translate("DivergencePainter", "with the bug (observed)"),
                          row.observed_shape, {}, &row.expected_shape);
    if (row.status == "error")
        paintMessage(p, y, rect,
                     QCoreApplication::translate("DivergencePainter",
                                                 "The buggy code cannot compute this stage; PyTorch raises:"),
                     message, true, kDiffer, QColor(0xfd, 0xec, 0xea));
    else if (row.status == "not-reached")
        paintMessage(
            p, y, rect, QString(),
            QCoreApplication::translate("DivergencePainter", "Not computed: the buggy run already stopped at %1.")
                .arg(card_.stoppedAt),
            false, kMuted, QColor(0xf3, 0xf3, 0xf3));
    else if (row.status == "same")
        paintMessage(
            p, y, rect, QString(),
            QCoreApplication::translate("DivergencePainter",
                                        "Same shape and same values as the book's (within rtol 1e-4, atol 1e-5)."),
            false, kSame, QColor(0xe3, 0xf4, 0xea));
    else
        paintMessage(p, y, rect, QString(), message, false, statusColor(row.status),
                     row.status == "values" ? QColor(0xfd, 0xf1, 0xe0) : QColor(0xfd, 0xec, 0xea));
    p.restore();
}

} // namespace attnlab::ui
