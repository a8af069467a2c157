#include "widgets/stale_trace_banner.h"

#include "model/session.h"
#include "widgets/themed.h"

#include <QGraphicsOpacityEffect>

namespace attnlab::ui {

StaleTraceBanner::StaleTraceBanner(Session* session, std::vector<QWidget*> dimmed, QWidget* parent)
    : QLabel(parent), session_(session), dimmed_(std::move(dimmed))
{
    setObjectName(QStringLiteral("stale-trace"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setAccessibleName(tr("Last valid trace"));
    connect(session_, &Session::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Diagnostics | ChangeFlag::Trace | ChangeFlag::Busy))
            refresh();
    });
    followPalette(this, [this] { refresh(); });
    refresh();
}

void StaleTraceBanner::refresh()
{
    const bool stale = session_->traceStale();
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
    const QString why = session_->callError()   ? tr("the call above does not bind")
                        : session_->cancelled() ? tr("computing the settings was cancelled")
                                                : tr("the settings have errors");
    setText(tr("last valid trace: %1 — not the settings shown, since %2.").arg(session_->traceCall(), why));
}

} // namespace attnlab::ui
