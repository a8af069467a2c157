#include "render/text_fit.h"
#include "widgets/lesson_target.h"
#include "lessons/contract.h"

#include "features/debug/slot_chips.h"

#include "widgets/code_font.h"
#include "widgets/flow_layout.h"
#include "widgets/themed.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>

#include <algorithm>

namespace attnlab::ui {

SlotChips::SlotChips(QWidget* parent) : QWidget(parent)
{
    // The chips wrap onto a second row: in one row a five-slot call at projector type ran past the pane.
    row_ = new FlowLayout(this, 10);
    qApp->installEventFilter(this); // the application, not this widget, hears that the type changed
    row_->setContentsMargins(0, 0, 0, 0);
    className_ = new QLabel;
    useCodeFont(className_, 1.25);
    closing_ = new QLabel(QStringLiteral(")"));
    useCodeFont(closing_, 1.25);
    row_->addWidget(className_);
    row_->addWidget(closing_);
}

QList<QLabel*> SlotChips::chips() const
{
    QList<QLabel*> out;
    for (int i = 0; i < row_->count(); ++i)
        if (auto* chip = qobject_cast<QLabel*>(row_->itemAt(i)->widget());
            chip && chip != className_ && chip != closing_)
            out << chip;
    return out;
}

QString SlotChips::chipText(int index) const
{
    const auto list = chips();
    return index >= 0 && index < list.size() ? list[index]->accessibleName() : QString();
}

bool SlotChips::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == qApp && event->type() == QEvent::ApplicationFontChange && report_)
        setReport(*report_);
    return false;
}

void SlotChips::setReport(const ContractReport& report)
{
    if (!report_ || &*report_ != &report)
        report_ = report;
    for (QLabel* chip : chips()) {
        row_->removeWidget(chip);
        delete chip;
    }
    row_->removeWidget(closing_);
    className_->setText(QString::fromStdString(report.class_name) + "(");
    const std::vector<std::string> flagged = flagged_slots(report);
    const RenderStyle style = styleFor(this);
    int position = 0;
    const int px = std::max(QApplication::font().pixelSize(), 9); // the chips' type follows the window's
    for (const ContractValue& v : report.values) {
        const QString slot = QString::fromStdString(v.slot);
        const QString value = QString::fromStdString(v.text).toHtmlEscaped();
        const QString how = v.keyword ? tr("keyword") : tr("#%1 by position").arg(++position);
        QColor border = style.info, fill = style.infoFill;
        if (slot.isEmpty()) {
            border = style.differs, fill = style.differsFill;
        } else if (std::find(flagged.begin(), flagged.end(), v.slot) != flagged.end()) {
            border = style.warning, fill = style.warningFill;
        }
        const QColor ink = style.readable(border, fill), text = style.readable(style.text, fill);
        auto* chip = new QLabel(QStringLiteral("<div style='color:%5; font-size:%6px'>%1</div>"
                                               "<div style='color:%2; font-size:%7px'><b>%3</b></div>"
                                               "<div style='font-family:%9; font-size:%8px'><b>%4</b></div>")
                                    .arg(how, cssColor(ink), slot.isEmpty() ? tr("no slot") : slot, value,
                                         cssColor(style.readable(style.muted, fill)))
                                    .arg(px * 4 / 5)
                                    .arg(px)
                                    .arg(px * 3 / 2)
                                    .arg(codeFamily()));
        nameTarget(chip, QStringLiteral("chip-%1").arg(slot.isEmpty() ? QStringLiteral("none") : slot));
        chip->setAccessibleName(
            QStringLiteral("%1 = %2").arg(slot.isEmpty() ? tr("no slot") : slot, QString::fromStdString(v.text)));
        chip->setAlignment(Qt::AlignCenter);
        chip->setStyleSheet(QStringLiteral("QLabel { border: 2px solid %1; background: %2; color: %3; "
                                           "border-radius: 8px; padding: 4px 12px; }")
                                .arg(cssColor(border), cssColor(fill), cssColor(text)));
        row_->addWidget(chip);
    }
    row_->addWidget(closing_);
}

} // namespace attnlab::ui
