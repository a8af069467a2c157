#include "widgets/code_font.h"
#include "widgets/lesson_target.h"
#include "shell/call_line.h"

#include "widgets/themed.h"

#include "call/call_parser.h"
#include "features/session.h"
#include "model/document_model.h"

#include <QHelpEvent>
#include <QToolTip>

namespace attnlab::ui {

QString slotDescription(const QString& slot)
{
    if (slot == QLatin1String("d_in"))
        return QObject::tr("the width of each input token vector");
    if (slot == QLatin1String("d_out"))
        return QObject::tr("the width each token is projected to, shared by all heads");
    if (slot == QLatin1String("context_length"))
        return QObject::tr("the longest input the causal mask covers (GPT-2 calls it the block size)");
    if (slot == QLatin1String("dropout"))
        return QObject::tr("the probability of zeroing an attention weight in training");
    if (slot == QLatin1String("num_heads"))
        return QObject::tr("how many heads split d_out between them");
    if (slot == QLatin1String("qkv_bias"))
        return QObject::tr("whether the query, key and value projections add a bias");
    return {};
}

CallLine::CallLine(Session* session, QWidget* parent) : QLineEdit(parent), session_(session)
{
    nameTarget(this, QStringLiteral("call-line"));
    setAccessibleName(tr("Constructor call"));
    setFont(codeFont(1.0, 22));
    setPlaceholderText(QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)"));
    connect(this, &QLineEdit::textEdited, session_->document(), &DocumentModel::setCallText);
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Diagnostics))
            refresh();
    });
    followPalette(this, [this] { refresh(); });
    refresh();
}

void CallLine::refresh()
{
    // The session keeps what was typed when it came from here, so this never fights the cursor.
    if (text() != session_->document()->callText()) {
        setText(session_->document()->callText());
        // Narrower than the call (beside a projector's settings column), the line showed its end, cursor and all:
        // "ttentionWrapper(3, 2, 6, 0.0, 2)". Not being typed in, it shows the module's name from the start.
        if (!hasFocus())
            setCursorPosition(0);
    }
    const bool bad = session_->document()->callError().has_value();
    const RenderStyle style = styleFor(this);
    setStyleSheet(bad ? QStringLiteral("QLineEdit { border: 3px solid %1; background: %2; color: %3; }")
                            .arg(cssColor(style.differs), cssColor(style.differsFill),
                                 cssColor(style.readable(style.text, style.differsFill)))
                      : QString());
    setToolTip(bad ? QString::fromStdString(session_->document()->callError()->with_caret(text().toStdString()))
                   : QString());
    // Screen readers hear the caret message, or what the field is for (the slot tips follow the mouse).
    setAccessibleDescription(bad ? QString::fromStdString(session_->document()->callError()->message)
                                 : tr("The module's constructor call, as in the book; editing it changes every view."));
}

QString CallLine::slotTipAt(int position) const
{
    const QByteArray utf8 = text().left(position).toUtf8();
    const auto offset = static_cast<std::size_t>(utf8.size());
    const ParsedCall parsed = parse_call(text().toStdString());
    const auto& syntax = parsed.syntax;
    if (!syntax.class_name.empty() && offset >= syntax.class_begin &&
        offset < syntax.class_begin + syntax.class_name.size())
        return tr("%1: the module class").arg(QString::fromStdString(syntax.class_name));
    const int count = static_cast<int>(syntax.arguments.size());
    for (int i = 0; i < count; ++i) {
        const CallArgument& a = syntax.arguments[static_cast<std::size_t>(i)];
        if (offset < a.begin || offset >= a.end)
            continue;
        const QString value = QString::fromStdString(a.text);
        if (a.slot.empty())
            return tr("argument %1 (%2) fills no slot of this module").arg(i + 1).arg(value);
        const QString slot = QString::fromStdString(a.slot);
        return tr("%1 = %2 — %3 argument: %4")
            .arg(slot, value, a.keyword ? tr("keyword") : tr("positional #%1").arg(i + 1), slotDescription(slot));
    }
    return {};
}

bool CallLine::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && !session_->document()->callError()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = slotTipAt(cursorPositionAt(help->pos()));
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QLineEdit::event(event);
}

} // namespace attnlab::ui

namespace attnlab::ui {

CallErrorLabel::CallErrorLabel(Session* session, QWidget* parent) : QLabel(parent), session_(session)
{
    nameTarget(this, QStringLiteral("call-error"));
    setFont(codeFont()); // the caret lines up only in a fixed-width face
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A swap's sentence is long: it wraps within the window rather than widening it (the call and the
    // caret under it are short lines and stay aligned).
    setWordWrap(true);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setStyleSheet(QStringLiteral("QLabel { border-left: 6px solid #c0392b; padding: 4px 8px; }"));
    setAccessibleName(tr("Call error"));
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Diagnostics))
            refresh();
    });
    refresh();
}

void CallErrorLabel::refresh()
{
    const auto& error = session_->document()->callError();
    if (!error) {
        hide();
        clear();
        return;
    }
    setText(QString::fromStdString(error->with_caret(session_->document()->callText().toStdString())));
    setAccessibleDescription(QString::fromStdString(error->message));
    show();
}

} // namespace attnlab::ui
