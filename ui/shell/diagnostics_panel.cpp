#include "shell/diagnostics_panel.h"
#include "widgets/lesson_target.h"

#include "widgets/themed.h"

#include "features/session.h"
#include "widgets/flow_layout.h"
#include "widgets/held_answer_card.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

// The severity's accent (border and heading) and the card's tinted fill.
std::pair<QColor, QColor> accent(const RenderStyle& style, Severity severity)
{
    switch (severity) {
    case Severity::Error: return {style.differs, style.differsFill};
    case Severity::Warning: return {style.warning, style.warningFill};
    case Severity::Note: break;
    }
    return {style.info, style.infoFill};
}

QWidget* card(Session* session, const Diagnostic& d, const RenderStyle& style)
{
    auto* frame = new QFrame;
    nameTarget(frame, QString::fromStdString("diagnostic-" + diagnostic_code_name(d.code)));
    const auto [ink, fill] = accent(style, d.severity);
    frame->setStyleSheet(
        QStringLiteral("QFrame#%1 { border-left: 6px solid %2; background: %3; border-radius: 4px; }"
                       " QFrame#%1 QLabel { color: %4; }")
            .arg(frame->objectName(), cssColor(ink), cssColor(fill), cssColor(style.readable(style.text, fill))));
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(10, 6, 8, 6);
    const QString heading = QString::fromStdString(severity_name(d.severity)) +
                            (d.slot ? QStringLiteral(" · ") + QString::fromStdString(slot_name(*d.slot)) : QString());
    auto* message = new QLabel(
        QStringLiteral("<b style='color:%1'>%2</b><br>%3")
            .arg(cssColor(style.readable(ink, fill)), heading, QString::fromStdString(d.message).toHtmlEscaped()));
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(message);
    if (!d.call_fix.empty()) {
        // A swap is fixed by the whole call, as the contract tab offers it: one click, the same text.
        const QString call = QString::fromStdString(d.call_fix);
        auto* button = new QPushButton(QObject::tr("Write it in the book's order"));
        nameTarget(button, QStringLiteral("fix-call"));
        button->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // the column's width, never wider
        button->setToolTip(QObject::tr("Replace the call with %1").arg(call));
        button->setAccessibleDescription(button->toolTip());
        button->setFocusPolicy(Qt::TabFocus);
        QObject::connect(button, &QPushButton::clicked, session,
                         [session, fix = d.call_fix] { session->document()->applyCallFix(fix); });
        layout->addWidget(button);
    }
    if (!d.fixes.empty()) {
        auto* row = new FlowLayout; // wraps: a d_out with many divisors offers many fixes
        for (const Fix& fix : d.fixes) {
            const QString slot = QString::fromStdString(slot_name(fix.slot));
            auto* button = new QPushButton(QStringLiteral("%1 = %2").arg(slot).arg(fix.value));
            nameTarget(button, QStringLiteral("fix-%1-%2").arg(slot).arg(fix.value));
            button->setToolTip(QObject::tr("Set %1 to %2").arg(slot).arg(fix.value));
            button->setFocusPolicy(Qt::TabFocus); // reached by Tab; a click leaves the focus in the field being edited
            QObject::connect(button, &QPushButton::clicked, session,
                             [session, fix] { session->document()->applyFix(fix); });
            row->addWidget(button);
        }
        layout->addLayout(row);
    }
    return frame;
}

} // namespace

DiagnosticsPanel::DiagnosticsPanel(Session* session, QWidget* parent) : QWidget(parent), session_(session)
{
    cards_ = new QVBoxLayout(this);
    cards_->setContentsMargins(0, 0, 0, 0);
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Diagnostics | ChangeFlag::Guide))
            rebuild();
    });
    followPalette(this, [this] { rebuild(); });
    rebuild();
}

void DiagnosticsPanel::rebuild()
{
    while (QLayoutItem* item = cards_->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            // A fix button may be the sender of the click being handled right now: detach, delete later.
            w->hide();
            w->setParent(nullptr);
            w->deleteLater();
        }
        delete item;
    }
    const RenderStyle style = styleFor(this);
    // A lesson step asking the room to read the call first holds the diagnosis back (lesson 6): one card says so.
    if (session_->view()->guide().held == QLatin1String("diagnosis") && !session_->trace()->diagnostics().empty()) {
        auto* held = new HeldAnswerCard(
            tr("what the app says about these settings is hidden until you reveal it. Read the call slot by slot."));
        connect(held, &HeldAnswerCard::revealed, session_->view(), &ViewModel::revealAnswer);
        cards_->addWidget(held);
        return;
    }
    // Errors first: they are why nothing new is being computed.
    for (Severity s : {Severity::Error, Severity::Warning, Severity::Note})
        for (const auto& d : session_->trace()->diagnostics())
            if (d.severity == s)
                cards_->addWidget(card(session_, d, style));
    if (session_->trace()->diagnostics().empty()) {
        auto* ok = new QLabel(tr("✓ The call is valid."));
        nameTarget(ok, QStringLiteral("diagnostics-ok"));
        ok->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(cssColor(style.same)));
        cards_->addWidget(ok);
    }
}

} // namespace attnlab::ui
