#include "widgets/stale_trace_banner.h"
#include "widgets/lesson_target.h"

#include "widgets/themed.h"

#include <QGraphicsOpacityEffect>

namespace attnlab::ui {

StaleTraceBanner::StaleTraceBanner(std::vector<QWidget*> dimmed, QWidget* parent)
    : QLabel(parent), dimmed_(std::move(dimmed))
{
    nameTarget(this, QStringLiteral("stale-trace"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setAccessibleName(tr("Last valid trace"));
    followPalette(this, [this] { refresh(); });
    refresh();
}

void StaleTraceBanner::show(const Staleness& staleness)
{
    shown_ = staleness;
    refresh();
}

void StaleTraceBanner::refresh()
{
    const bool stale = shown_.stale;
    for (QWidget* w : dimmed_) {
        if (!stale) {
            w->setGraphicsEffect(nullptr); // deletes the effect
            continue;
        }
        if (!w->graphicsEffect()) {
            auto* fade = new QGraphicsOpacityEffect;
            fade->setOpacity(0.45);
            w->setGraphicsEffect(fade);
        }
    }
    setVisible(stale);
    if (!stale)
        return clear();
    const RenderStyle style = styleFor(this);
    setStyleSheet(QStringLiteral("QLabel { border-left: 6px solid %1; background: %2; color: %3; padding: 4px 8px; }")
                      .arg(cssColor(style.warning), cssColor(style.warningFill),
                           cssColor(style.readable(style.text, style.warningFill))));
    const QString why = shown_.why == Why::CallDoesNotBind ? tr("the call above does not bind")
                        : shown_.why == Why::Cancelled     ? tr("computing the settings was cancelled")
                                                           : tr("the settings have errors");
    setText(tr("last valid trace: %1 — not the settings shown, since %2.").arg(shown_.call, why));
}

} // namespace attnlab::ui
