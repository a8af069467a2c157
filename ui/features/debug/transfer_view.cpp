#include "render/text_fit.h"
#include "widgets/lesson_target.h"
#include "features/debug/transfer_view.h"

#include "features/debug/debug_state.h"
#include "widgets/code_font.h"
#include "widgets/themed.h"
#include "model/document_model.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QLabel* wrapped(const QString& name)
{
    auto* label = new QLabel;
    nameTarget(label, name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

void showTransferBadge(QLabel* badge, const TransferResult& r)
{
    const RenderStyle style = styleFor(badge);
    QString text;
    QColor ink, fill;
    switch (r.status) {
    case TransferStatus::Match:
        text = QObject::tr("✓ match");
        ink = style.same, fill = style.sameFill;
        break;
    case TransferStatus::Mismatch:
        text = QObject::tr("≠ mismatch   max |diff| = %1").arg(r.max_abs_diff.value_or(0.0), 0, 'g', 3);
        ink = style.warning, fill = style.warningFill;
        break;
    case TransferStatus::Error:
        text = QObject::tr("✗ error");
        ink = style.differs, fill = style.differsFill;
        break;
    }
    badge->setText(text);
    badge->setProperty("status", QString::fromStdString(transfer_status_name(r.status)));
    badge->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; border: 2px solid %1; border-radius: 16px; "
                       "padding: 4px 18px; font-size: 24px; font-weight: bold; }")
            .arg(cssColor(ink), cssColor(fill)));
}

TransferView::TransferView(DebugState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    auto* intro = new QLabel(tr("The book's exercise: copy a <b>SelfAttention_v2</b> (nn.Linear, weight stored "
                                "(d_out, d_in) and applied as x @ weight.T) into a <b>SelfAttention_v1</b> (plain "
                                "parameters (d_in, d_out), applied as x @ W). Leave a line out or drop its .T, then "
                                "compare the two modules' outputs on the same input."));
    intro->setWordWrap(true);
    dIn_ = new QSpinBox;
    dOut_ = new QSpinBox;
    nameTarget(dIn_, QStringLiteral("transfer-d_in"));
    nameTarget(dOut_, QStringLiteral("transfer-d_out"));
    dIn_->setAccessibleName(QStringLiteral("d_in"));
    dOut_->setAccessibleName(QStringLiteral("d_out"));
    dIn_->setToolTip(tr("Input width of both modules."));
    dOut_->setToolTip(tr("Output width of both modules."));
    for (auto* spin : {dIn_, dOut_})
        spin->setRange(1, 256);
    dIn_->setValue(3);
    dOut_->setValue(2);
    auto* widths = new QHBoxLayout;
    widths->addWidget(new QLabel(tr("d_in")));
    widths->addWidget(dIn_);
    widths->addSpacing(16);
    widths->addWidget(new QLabel(tr("d_out")));
    widths->addWidget(dOut_);
    widths->addStretch(1);

    auto* lines = new QGridLayout;
    lines->setHorizontalSpacing(18);
    for (TransferRole role : kTransferRoles) {
        const auto i = static_cast<std::size_t>(role);
        const QString name = QString::fromStdString(role_name(role));
        include_[i] = new QCheckBox(tr("include this line"));
        transpose_[i] = new QCheckBox(tr("with .T"));
        nameTarget(include_[i], QStringLiteral("include-") + name);
        nameTarget(transpose_[i], QStringLiteral("transpose-") + name);
        include_[i]->setAccessibleName(tr("include the %1 line").arg(name));
        transpose_[i]->setAccessibleName(tr("%1 with .T").arg(name));
        include_[i]->setToolTip(tr("Copy %1 from the v2 module into the v1 module.").arg(name));
        transpose_[i]->setToolTip(
            tr("Transpose %1's weight as it is copied: nn.Linear stores (d_out, d_in).").arg(name));
        code_[i] = new QLabel;
        nameTarget(code_[i], QStringLiteral("transfer-code-") + name);
        useCodeFont(code_[i]);
        for (auto* box : {include_[i], transpose_[i]})
            connect(box, &QCheckBox::toggled, this, [this, role] {
                const auto i = static_cast<std::size_t>(role);
                state_->document()->setTransferLine(role, include_[i]->isChecked(), transpose_[i]->isChecked());
            });
        // The line under its two boxes, the whole width to itself: beside them, at projector type, the
        // .T the lesson is about ran past the pane's edge. Narrower still, it wraps at its spaces.
        code_[i]->setWordWrap(true);
        const int row = 2 * static_cast<int>(i);
        lines->addWidget(include_[i], row, 0);
        lines->addWidget(transpose_[i], row, 1);
        lines->addWidget(code_[i], row + 1, 0, 1, 3);
    }
    lines->setColumnStretch(2, 1);
    badge_ = new QLabel;
    nameTarget(badge_, QStringLiteral("transfer-badge"));
    message_ = wrapped(QStringLiteral("transfer-message"));
    auto* verdict = new QHBoxLayout;
    verdict->addWidget(badge_, 0, Qt::AlignTop);
    verdict->addWidget(message_, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(widths);
    layout->addLayout(lines);
    layout->addSpacing(6);
    layout->addLayout(verdict);
    layout->addSpacing(14);
    layout->addWidget(gpt2Box());
    layout->addStretch(1);
    for (auto* spin : {dIn_, dOut_})
        connect(spin, &QSpinBox::valueChanged, this,
                [this] { state_->document()->setTransferWidths(dIn_->value(), dOut_->value()); });
    connect(state_, &DebugState::changed, this, [this](ChangeFlags flags) {
        if ((flags & ChangeFlag::Lesson) && shown_ != spec())
            refresh();
    });
    followPalette(this, [this] { refresh(); });
    refresh();
}

void TransferView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    showGpt2Result();
}

QWidget* TransferView::gpt2Box()
{
    // A short title: a group box is never narrower than its title, and the long one widened the page.
    auto* box = new QGroupBox(tr("The same copy from a GPT-2 checkpoint"));
    auto* intro = new QLabel(tr("c_attn fuses query, key and value. GPT-2 small stores one c_attn weight (%1, %2) in "
                                "Conv1D's (in, out) layout: split it "
                                "into three and transpose each into nn.Linear's (out, in). The boxes above apply here "
                                "too; the parts are square, so a missing .T never fails loudly.")
                                 .arg(kGpt2Width)
                                 .arg(3 * kGpt2Width));
    intro->setWordWrap(true);
    gpt2Code_ = new QLabel;
    nameTarget(gpt2Code_, QStringLiteral("gpt2-code"));
    gpt2Code_->setWordWrap(true); // at projector type its lines are wider than the pane
    useCodeFont(gpt2Code_, 0.85); // its longest line has no space to wrap at: at full type it widened the page
    gpt2Code_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    gpt2Badge_ = new QLabel;
    nameTarget(gpt2Badge_, QStringLiteral("gpt2-badge"));
    gpt2Message_ = wrapped(QStringLiteral("gpt2-message"));
    auto* verdict = new QHBoxLayout;
    verdict->addWidget(gpt2Badge_, 0, Qt::AlignTop);
    verdict->addWidget(gpt2Message_, 1);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(intro);
    layout->addWidget(gpt2Code_);
    layout->addLayout(verdict);
    return box;
}

TransferSpec TransferView::spec() const
{
    return state_->document()->lessonState().transfer;
}

void TransferView::setLine(TransferRole role, bool written, bool transpose)
{
    state_->document()->setTransferLine(role, written, transpose);
}

void TransferView::setWidths(int d_in, int d_out)
{
    state_->document()->setTransferWidths(d_in, d_out);
}

void TransferView::refresh()
{
    const TransferSpec s = spec();
    shown_ = s;
    { // the boxes show the session's lines; setting them must not echo back as edits
        const QSignalBlocker b1(dIn_), b2(dOut_);
        dIn_->setValue(static_cast<int>(s.d_in));
        dOut_->setValue(static_cast<int>(s.d_out));
        for (std::size_t i = 0; i < 3; ++i) {
            const QSignalBlocker b3(include_[i]), b4(transpose_[i]);
            include_[i]->setChecked(s.lines[i].written);
            transpose_[i]->setChecked(s.lines[i].transpose);
        }
    }
    const auto code = transfer_code(s);
    const RenderStyle style = styleFor(this);
    const QString changedCss =
        QStringLiteral("color: %1; background: %2;").arg(cssColor(style.differs), cssColor(style.differsFill));
    for (std::size_t i = 0; i < 3; ++i) {
        transpose_[i]->setEnabled(s.lines[i].written);
        code_[i]->setText(QString::fromStdString(code[i]));
        const bool book = s.lines[i].written && s.lines[i].transpose;
        code_[i]->setStyleSheet(book ? QString() : changedCss);
    }
    const TransferResult& result = state_->transferResult();
    showTransferBadge(badge_, result);
    QString text = QString::fromStdString(result.message).toHtmlEscaped();
    if (!result.pytorch_error.empty())
        text += QStringLiteral("<br><span style='font-family:%3; color:%2'>RuntimeError: %1</span>")
                    .arg(QString::fromStdString(result.pytorch_error).toHtmlEscaped(), cssColor(style.differs),
                         codeFamily());
    message_->setText(text);

    // The checkpoint's lines as the boxes write them: the split, then one assignment per part.
    const auto gpt2Code = gpt2_transfer_code(s);
    const auto html = [&changedCss](const std::string& line, bool changed) {
        return QStringLiteral("<div style='white-space:pre-wrap;%2'>%1</div>")
            .arg(QString::fromStdString(line).toHtmlEscaped(), changed ? changedCss : QString());
    };
    QString gpt2Lines = html(gpt2Code[0], false);
    for (std::size_t i = 0; i < 3; ++i)
        gpt2Lines += html(gpt2Code[i + 1], !(s.lines[i].written && s.lines[i].transpose));
    gpt2Code_->setText(gpt2Lines);
    showGpt2Result();
}

void TransferView::showGpt2Result()
{
    // Run when seen: the 768-wide GPT-2 product behind it is not worth a start that never opens the lesson.
    if (!isVisible())
        return;
    const TransferResult& gpt2 = state_->gpt2TransferResult();
    showTransferBadge(gpt2Badge_, gpt2);
    gpt2Message_->setText(QString::fromStdString(gpt2.message));
}

} // namespace attnlab::ui
