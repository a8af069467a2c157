#include "features/poll/tally_painter.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace attnlab::ui {

namespace {

struct Row {
    QString label;
    QString bare;            // the label without the size a name stands for, where the label is too wide
    std::vector<int> counts; // per round
    bool right = false;
};

// Every value given in any round, with its count in each: most often given in the latest round first.
std::vector<Row> rowsOf(const poll::Tally& tally, const poll::Field& field, int mostRows)
{
    std::vector<Row> rows;
    for (int round = tally.round(); round >= 1; --round)
        for (const poll::ValueCount& v : tally.distribution(round, field.name)) {
            QString label = QString::fromStdString(v.value);
            if (field.kind == poll::FieldKind::Choice) {
                const auto i = static_cast<std::size_t>(label.toInt());
                if (i < field.choices.size())
                    label = QString::fromStdString(field.choices[i]);
            }
            if (field.kind == poll::FieldKind::Cells && label.isEmpty())
                label = QStringLiteral("none");
            const QString bare = label;
            if (field.kind == poll::FieldKind::Size && field.names.count(v.value))
                label += QStringLiteral(" (%1)").arg(field.names.at(v.value));
            auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.label == label; });
            if (it == rows.end()) {
                rows.push_back({label, bare, std::vector<int>(static_cast<std::size_t>(tally.round()), 0), v.right});
                it = rows.end() - 1;
            }
            it->counts[static_cast<std::size_t>(round - 1)] += v.count;
        }
    if (static_cast<int>(rows.size()) > mostRows) {
        Row other{QStringLiteral("other"), QStringLiteral("other"),
                  std::vector<int>(static_cast<std::size_t>(tally.round()), 0), false};
        for (auto it = rows.begin() + (mostRows - 1); it != rows.end(); ++it)
            for (std::size_t r = 0; r < other.counts.size(); ++r)
                other.counts[r] += it->counts[r];
        rows.resize(static_cast<std::size_t>(mostRows - 1));
        rows.push_back(other);
    }
    return rows;
}

constexpr qreal kGap = 6;

// A common wrong answer said in full, wrapped at the chart's width (on a projector nothing is cut short).
qreal saidHeight(const QFontMetricsF& fm, qreal width, const std::string& said)
{
    return fm.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, QString::fromStdString(said)).height();
}

} // namespace

qreal tallyHeight(const poll::Tally& tally, const TallyLook& look, qreal width)
{
    const qreal line = QFontMetricsF(look.font).height();
    qreal h = tally.round() > 1 ? line + kGap : 0; // the rounds' legend
    for (const poll::Field& f : tally.question().fields) {
        const auto rows = rowsOf(tally, f, look.mostRows);
        h += line + kGap + std::max<std::size_t>(rows.size(), 1) * (line * tally.round() + kGap) + kGap;
        if (look.revealed)
            for (const std::string& said : tally.wrong_said(tally.round(), f.name))
                h += saidHeight(QFontMetricsF(look.font), width - 4, said);
        h += line * 0.5;
    }
    return h;
}

void paintTally(QPainter& p, const QRectF& rect, const poll::Tally& tally, const TallyLook& look)
{
    p.save();
    p.setFont(look.font);
    const QFontMetricsF fm(look.font);
    const qreal line = fm.height();
    const QColor text = look.palette.color(QPalette::WindowText);
    QColor bar = look.palette.color(QPalette::Highlight);
    QColor paler = bar;
    paler.setAlphaF(0.4);
    qreal y = rect.top();
    QFont boldFont = look.font;
    boldFont.setBold(true);
    const QFontMetricsF boldFm(boldFont);
    // As wide as the longest value (bold, with its mark) needs, up to 55% of the width: the bars keep the rest.
    qreal needed = boldFm.horizontalAdvance(QStringLiteral("other ✓"));
    for (const poll::Field& f : tally.question().fields)
        for (const Row& row : rowsOf(tally, f, look.mostRows))
            needed = std::max(needed, boldFm.horizontalAdvance(row.label + QStringLiteral(" ✓")) + 2);
    const qreal labelWidth = std::min(rect.width() * 0.55, needed);
    const qreal countWidth = fm.horizontalAdvance(QStringLiteral("000"));
    const qreal barLeft = rect.left() + labelWidth + kGap;
    const qreal barRoom = std::max<qreal>(10, rect.right() - countWidth - kGap - barLeft);
    if (tally.round() > 1) { // which bar is which round: the shift between them is what the class discusses
        qreal x = rect.left();
        for (int r = 1; r <= tally.round(); ++r) {
            const QString name = QStringLiteral("round %1").arg(r);
            p.fillRect(QRectF(x, y + 3, line * 1.4, line - 6), r == tally.round() ? bar : paler);
            x += line * 1.4 + kGap;
            p.setPen(text);
            p.drawText(QRectF(x, y, fm.horizontalAdvance(name) + 1, line), Qt::AlignLeft | Qt::AlignVCenter, name);
            x += fm.horizontalAdvance(name) + 3 * kGap;
        }
        y += line + kGap;
    }
    int most = 1;
    for (const poll::Field& f : tally.question().fields)
        for (int round = 1; round <= tally.round(); ++round)
            for (const auto& v : tally.distribution(round, f.name))
                most = std::max(most, v.count);
    for (const poll::Field& f : tally.question().fields) {
        QFont bold = look.font;
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(text);
        p.drawText(QRectF(rect.left(), y, rect.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(f.label));
        p.setFont(look.font);
        y += line + kGap;
        const auto rows = rowsOf(tally, f, look.mostRows);
        if (rows.empty()) {
            p.drawText(QRectF(rect.left(), y, rect.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("no answers yet"));
            y += line + kGap;
        }
        for (const Row& row : rows) {
            const qreal h = line * tally.round();
            const bool mark = look.revealed && row.right;
            QFont labelFont = look.font;
            labelFont.setBold(mark);
            p.setFont(labelFont);
            p.setPen(text);
            const QFontMetricsF& lfm = mark ? boldFm : fm;
            const qreal room = labelWidth - (mark ? lfm.horizontalAdvance(" ✓") : 0) - 2;
            const QString label =
                lfm.elidedText(lfm.horizontalAdvance(row.label) <= room ? row.label : row.bare, Qt::ElideRight, room);
            p.drawText(QRectF(rect.left(), y, labelWidth, h), Qt::AlignRight | Qt::AlignVCenter,
                       mark ? label + QStringLiteral(" ✓") : label);
            p.setFont(look.font);
            for (int r = 0; r < tally.round(); ++r) {
                const int count = row.counts[static_cast<std::size_t>(r)];
                const QRectF slot(barLeft, y + r * line + 2, barRoom * count / most, line - 4);
                p.fillRect(slot, r + 1 == tally.round() ? bar : paler);
                if (mark) {
                    p.setPen(QPen(text, 2));
                    p.drawRect(slot.adjusted(1, 1, -1, -1));
                }
                p.setPen(text);
                p.drawText(QRectF(slot.right() + kGap, y + r * line, countWidth + kGap, line),
                           Qt::AlignLeft | Qt::AlignVCenter, QString::number(count));
            }
            y += h + kGap;
        }
        if (look.revealed)
            for (const std::string& said : tally.wrong_said(tally.round(), f.name)) {
                const qreal h = saidHeight(fm, rect.width(), said);
                p.drawText(QRectF(rect.left(), y, rect.width(), h), Qt::AlignLeft | Qt::TextWordWrap,
                           QString::fromStdString(said));
                y += h;
            }
        y += kGap + line * 0.5;
    }
    p.restore();
}

} // namespace attnlab::ui
