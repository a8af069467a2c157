#include "widgets/middle_elided_combo.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace attnlab::ui {

namespace {

// The room the style gives the current item's text.
QRect textRoom(const QComboBox* box, const QStyleOptionComboBox& option)
{
    return box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box);
}

} // namespace

QString MiddleElidedComboBox::shownText() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const int room = textRoom(this, option).width() - (option.currentIcon.isNull() ? 0 : option.iconSize.width() + 4);
    return fontMetrics().elidedText(option.currentText, Qt::ElideMiddle, std::max(0, room));
}

void MiddleElidedComboBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace attnlab::ui
