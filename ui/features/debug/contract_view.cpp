#include "render/text_fit.h"
#include "widgets/lesson_target.h"
#include "lessons/contract.h"

#include "features/debug/contract_view.h"

#include "features/debug/debug_state.h"
#include "widgets/code_font.h"
#include "widgets/flow_layout.h"
#include "features/debug/slot_chips.h"
#include "widgets/themed.h"
#include "model/document_model.h"

#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QString findingTitle(ContractFindingCode code)
{
    switch (code) {
    case ContractFindingCode::DInDOutSwapped: return QObject::tr("d_in and d_out swapped");
    case ContractFindingCode::DInMismatch: return QObject::tr("d_in does not match the input");
    case ContractFindingCode::DropoutNumHeadsSwapped: return QObject::tr("dropout and num_heads swapped");
    case ContractFindingCode::OtherSlotOrder: return QObject::tr("written for another slot order");
    case ContractFindingCode::ContextTooShort: return QObject::tr("context_length shorter than the input");
    case ContractFindingCode::ExtraValue: return QObject::tr("one value too many");
    }
    return QString::fromStdString(contract_finding_name(code));
}

} // namespace

ContractView::ContractView(DebugState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    auto* intro = new QLabel(tr("Read the call left to right and name each value as you go: both widths are plain "
                                "integers, so nothing stops a value from landing in the wrong slot."));
    intro->setWordWrap(true);
    call_ = new QLineEdit;
    nameTarget(call_, QStringLiteral("contract-call"));
    call_->setAccessibleName(tr("Call to check"));
    call_->setToolTip(
        tr("A constructor call to read slot by slot; it does not change the session until you apply it."));
    useCodeFont(call_);
    call_->setPlaceholderText(tr("paste a constructor call, e.g. MultiHeadAttention(768, 768, 12, 0.0, 1024)"));
    reset_ = new QPushButton(tr("↺ The session's call"));
    nameTarget(reset_, QStringLiteral("contract-reset"));
    reset_->setToolTip(tr("Check the session's own call again."));
    width_ = new QSpinBox;
    nameTarget(width_, QStringLiteral("contract-width"));
    tokens_ = new QSpinBox;
    nameTarget(tokens_, QStringLiteral("contract-tokens"));
    width_->setAccessibleName(tr("Input width, x.shape[-1]"));
    width_->setToolTip(tr("The last dimension of the input the call is checked against: d_in must equal it."));
    tokens_->setAccessibleName(tr("Input tokens, x.shape[-2]"));
    tokens_->setToolTip(tr("How many tokens the input has: context_length must cover them."));
    for (auto* spin : {width_, tokens_})
        spin->setRange(1, 1 << 20);
    chips_ = new SlotChips;
    nameTarget(chips_, QStringLiteral("contract-chips"));

    auto* callRow = new QHBoxLayout;
    callRow->addWidget(call_, 1);
    callRow->addWidget(reset_);
    auto* inputRow = new FlowLayout(nullptr, 8); // wraps at projector type rather than widening the page
    inputRow->addWidget(new QLabel(tr("Checked against the session's input x: width x.shape[-1] =")));
    inputRow->addWidget(width_);
    inputRow->addWidget(new QLabel(tr("  tokens x.shape[-2] =")));
    inputRow->addWidget(tokens_);
    cards_ = new QVBoxLayout;
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(callRow);
    layout->addLayout(inputRow);
    layout->addSpacing(6);
    layout->addWidget(chips_);
    layout->addSpacing(6);
    layout->addLayout(cards_);
    layout->addStretch(1);

    connect(call_, &QLineEdit::textEdited, this, [this] { state_->document()->setContractCall(call_->text()); });
    connect(reset_, &QPushButton::clicked, state_->document(), &DocumentModel::resetContract);
    for (auto* spin : {width_, tokens_})
        connect(spin, &QSpinBox::valueChanged, this,
                [this] { state_->document()->setContractInput(width_->value(), tokens_->value()); });
    connect(state_, &DebugState::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Lesson))
            followSession();
    });
    followPalette(this, [this] { refresh(); });
    followSession();
}

ContractView::~ContractView() = default;

const ContractReport& ContractView::report() const
{
    return state_->contractReport();
}

void ContractView::followSession()
{
    {
        const QSignalBlocker b1(width_), b2(tokens_);
        const LessonState& l = state_->document()->lessonState();
        width_->setValue(static_cast<int>(l.contractDIn.value_or(state_->document()->config().d_in)));
        tokens_->setValue(static_cast<int>(l.contractTokens.value_or(state_->document()->numTokens())));
    }
    // The student's pasted call when there is one (the session keeps it), else the session's own.
    const QString shown = state_->document()->lessonState().contractCall.value_or(state_->document()->callText());
    if (call_->text() != shown)
        call_->setText(shown);
    refresh();
}

void ContractView::clearCards()
{
    while (QLayoutItem* item = cards_->takeAt(0)) {
        if (QWidget* w = item->widget()) { // a fix button may be sending the click being handled now
            w->hide();
            w->setParent(nullptr);
            w->deleteLater();
        }
        delete item;
    }
}

QWidget* ContractView::noteCard(const QString& title, const QString& text, const QColor& accent, const QColor& fill,
                                const QString& name)
{
    const RenderStyle style = styleFor(this);
    auto* frame = new QFrame;
    nameTarget(frame, name);
    frame->setStyleSheet(QStringLiteral("QFrame#%1 { border-left: 6px solid %2; background: %3; "
                                        "border-radius: 4px; } QFrame#%1 QLabel { color: %4; }")
                             .arg(name, cssColor(accent), cssColor(fill), cssColor(style.readable(style.text, fill))));
    auto* layout = new QVBoxLayout(frame);
    auto* label =
        new QLabel(QStringLiteral("<b style='color:%1; font-size:18px'>%2</b><br>%3")
                       .arg(cssColor(style.readable(accent, fill)), title.toHtmlEscaped(), text.toHtmlEscaped()));
    nameTarget(label, name + QStringLiteral("-text"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label);
    return frame;
}

QWidget* ContractView::findingCard(const ContractFinding& f)
{
    const QString code = QString::fromStdString(contract_finding_name(f.code));
    const RenderStyle style = styleFor(this);
    QWidget* card = noteCard(findingTitle(f.code), QString::fromStdString(f.message), style.warning, style.warningFill,
                             QStringLiteral("finding-") + code);
    if (!f.suggested_call.empty()) {
        const QString fixed = QString::fromStdString(f.suggested_call);
        auto* button = new QPushButton(tr("Use the corrected call:  %1").arg(fixed));
        nameTarget(button, QStringLiteral("use-corrected-call-") + code);
        button->setToolTip(tr("Put this call in the session's call line."));
        button->setStyleSheet(QStringLiteral("font-family: '%1'; font-weight: bold; padding: 6px;").arg(codeFamily()));
        connect(button, &QPushButton::clicked, this, [this, fixed] {
            state_->document()->setContractCall(std::nullopt); // the session now holds the corrected call; show it
            state_->document()->setCallText(fixed);
        });
        auto* row = new QHBoxLayout;
        row->addWidget(button);
        row->addStretch(1);
        static_cast<QVBoxLayout*>(card->layout())->addLayout(row);
    }
    return card;
}

void ContractView::refresh()
{
    const ContractReport& report = state_->contractReport();
    chips_->setReport(report);
    clearCards();
    const RenderStyle style = styleFor(this);
    for (const ContractFinding& f : report.findings)
        cards_->addWidget(findingCard(f));
    if (report.error && report.findings.empty())
        cards_->addWidget(noteCard(tr("The call does not bind"), QString::fromStdString(report.error->message),
                                   style.differs, style.differsFill, QStringLiteral("contract-error")));
    if (report.findings.empty())
        for (const Diagnostic& d : report.diagnostics)
            if (d.severity == Severity::Error)
                cards_->addWidget(noteCard(
                    tr("error · %1").arg(QString::fromStdString(d.slot ? slot_name(*d.slot) : "")),
                    QString::fromStdString(d.message), style.differs, style.differsFill,
                    QStringLiteral("contract-diagnostic-") + QString::fromStdString(diagnostic_code_name(d.code))));
    if (!report.error && report.findings.empty() && !has_error(report.diagnostics)) {
        auto* ok = new QLabel(
            tr("✓ Every value fills the slot the book's %1 gives it.").arg(QString::fromStdString(report.class_name)));
        nameTarget(ok, QStringLiteral("contract-ok"));
        ok->setStyleSheet(QStringLiteral("color: %1; font-weight: bold; font-size: 18px;").arg(cssColor(style.same)));
        cards_->addWidget(ok);
        if (call_->text() != state_->document()->callText()) {
            auto* apply = new QPushButton(tr("Use this call in the session"));
            nameTarget(apply, QStringLiteral("contract-apply"));
            apply->setToolTip(tr("Put the call checked here in the session's call line."));
            connect(apply, &QPushButton::clicked, this, [this] {
                const QString call = call_->text();
                state_->document()->setContractCall(std::nullopt);
                state_->document()->setCallText(call);
            });
            cards_->addWidget(apply, 0, Qt::AlignLeft);
        }
    }
}

} // namespace attnlab::ui
