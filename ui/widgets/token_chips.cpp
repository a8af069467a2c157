#include "widgets/token_chips.h"

#include "render/render_style.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace attnlab::ui {

namespace {

constexpr int kPad = 4, kGap = 4;

} // namespace

TokenChips::TokenChips(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

QString TokenChips::chipText(const std::string& token, std::int64_t id, bool unknown, const std::string& unknownAs)
{
    const QString t = QString::fromStdString(token);
    if (unknown && unknownAs.empty())
        return tr("%1 → not a token of this model").arg(t);
    return unknown ? QStringLiteral("%1 → %2 %3").arg(t, QString::fromStdString(unknownAs)).arg(id)
                   : QStringLiteral("%1 %2").arg(t).arg(id);
}

QString TokenChips::chipTip(const std::string& token, std::int64_t id, bool unknown, const std::string& unknownAs)
{
    const QString t = QString::fromStdString(token);
    if (unknown && unknownAs.empty())
        return tr("“%1” is not one of this model's tokens, so it cannot read the text; the message above says "
                  "which tokens it has.")
            .arg(t);
    QString tip = unknown ? tr("“%1” is not in the vocabulary: the model reads %2, id %3.")
                                .arg(t, QString::fromStdString(unknownAs))
                                .arg(id)
                          : tr("“%1”, token id %2.").arg(t).arg(id);
    // GPT-2's pieces carry their whitespace (text/gpt2_tokenizer.h's readable_piece draws it).
    if (t.contains(QChar(0x2423)))
        tip += tr(" ␣ is a space, which GPT-2 keeps at the front of the word that follows it.");
    if (t.contains(QChar(0x21B5)))
        tip += tr(" ↵ is a newline.");
    if (t.contains(QStringLiteral("\\x")))
        tip += tr(" \\xNN is one byte of a character cut across tokens.");
    return tip;
}

int TokenChips::chipAt(const QPoint& pos) const
{
    const auto rects = flow(width());
    for (std::size_t i = 0; i < rects.size(); ++i)
        if (rects[i].contains(pos))
            return static_cast<int>(i);
    return -1;
}

bool TokenChips::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const int i = chipAt(help->pos());
    if (i < 0) {
        QToolTip::hideText();
        return true;
    }
    const auto k = static_cast<std::size_t>(i);
    QToolTip::showText(help->globalPos(),
                       chipTip(tokens_.tokens[k], tokens_.ids[k], tokens_.unknown[k], tokens_.unknown_as), this,
                       flow(width())[k]);
    return true;
}

void TokenChips::setTokens(const TokenizedText& tokens)
{
    if (tokens.tokens == tokens_.tokens && tokens.ids == tokens_.ids)
        return;
    tokens_ = tokens;
    QStringList all;
    for (std::size_t i = 0; i < tokens_.tokens.size(); ++i)
        all << chipText(tokens_.tokens[i], tokens_.ids[i], tokens_.unknown[i], tokens_.unknown_as);
    setAccessibleDescription(all.isEmpty() ? tr("No tokens yet.") : all.join(QStringLiteral(", ")));
    updateGeometry(); // the row count may change
    update();
}

QString TokenChips::unknownMark() const
{
    return tokens_.unknown_as.empty() ? QStringLiteral("?") : QString::fromStdString(tokens_.unknown_as);
}

QString TokenChips::idText(std::size_t i) const
{
    // A token the model cannot read has no id: the 0 it is held under is not one the model sees.
    return tokens_.unknown[i] && tokens_.unknown_as.empty() ? QStringLiteral("—") : QString::number(tokens_.ids[i]);
}

QSize TokenChips::chipSize(std::size_t i) const
{
    const QFontMetrics fm(font());
    const QString label = tokens_.unknown[i]
                              ? QString::fromStdString(tokens_.tokens[i]) + QLatin1Char(' ') + unknownMark()
                              : QString::fromStdString(tokens_.tokens[i]);
    const int w = std::max(fm.horizontalAdvance(label), fm.horizontalAdvance(idText(i)));
    return {w + 2 * kPad, fm.height() * 2 + kPad}; // token above, id below
}

std::vector<QRect> TokenChips::flow(int width) const
{
    std::vector<QRect> out;
    int x = 0, y = 0;
    for (std::size_t i = 0; i < tokens_.tokens.size(); ++i) {
        const QSize s = chipSize(i);
        if (x > 0 && x + s.width() > width) {
            x = 0;
            y += s.height() + kGap;
        }
        out.emplace_back(QPoint(x, y), s);
        x += s.width() + kGap;
    }
    return out;
}

int TokenChips::heightForWidth(int width) const
{
    const auto rects = flow(std::max(1, width));
    return rects.empty() ? 0 : rects.back().bottom() + 1;
}

int TokenChips::rowsHeight(int rows) const
{
    return rows * (QFontMetrics(font()).height() * 2 + kPad) + (rows - 1) * kGap;
}

QSize TokenChips::sizeHint() const
{
    return {400, heightForWidth(width() > 0 ? width() : 400)};
}

void TokenChips::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    QFont small = font();
    small.setPixelSize(std::max(9, fm.height() * 3 / 4));
    const auto rects = flow(width());
    const RenderStyle style = RenderStyle::fromPalette(palette(), backgroundRole());
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const bool unk = tokens_.unknown[i];
        const QRect r = rects[i];
        const QColor fill = unk ? style.differsFill : style.infoFill;
        const QColor ink = style.readable(unk ? style.differs : style.text, fill);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRoundedRect(r, 4, 4);
        QFont f = font();
        f.setStrikeOut(unk); // the word as typed, which the model never sees
        p.setFont(f);
        const QRect top(r.left() + kPad, r.top() + kPad / 2, r.width() - 2 * kPad, fm.height());
        style.drawText(p, top, Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(tokens_.tokens[i]), ink, fill);
        if (unk) {
            p.setFont(font());
            style.drawText(p, top, Qt::AlignRight | Qt::AlignVCenter, unknownMark(), ink, fill);
        }
        p.setFont(small);
        style.drawText(p, QRect(top.left(), top.bottom(), top.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                       idText(i), ink, fill);
    }
}

} // namespace attnlab::ui
