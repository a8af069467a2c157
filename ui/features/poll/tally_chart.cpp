#include "features/poll/tally_chart.h"

#include "features/poll/poll_state.h"
#include "features/poll/tally_painter.h"

#include <QPainter>

namespace attnlab::ui {

namespace {

TallyLook lookOf(const QWidget* w, const PollState* poll)
{
    return {w->palette(), w->font(), poll->revealed()};
}

} // namespace

TallyChart::TallyChart(PollState* poll, QWidget* parent) : QWidget(parent), poll_(poll)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setAccessibleName(tr("How the class answered"));
}

void TallyChart::setForTeacher(bool on)
{
    forTeacher_ = on;
    updateGeometry();
    update();
}

bool TallyChart::shown() const
{
    return forTeacher_ || poll_->shown();
}

int TallyChart::heightForWidth(int width) const
{
    const poll::Tally* t = poll_->tally();
    return t && shown() ? static_cast<int>(tallyHeight(*t, lookOf(this, poll_), width)) + 4 : 0;
}

QSize TallyChart::sizeHint() const
{
    return {300, heightForWidth(300)};
}

void TallyChart::paintEvent(QPaintEvent*)
{
    const poll::Tally* t = poll_->tally();
    if (!t || !shown())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    paintTally(p, QRectF(rect()).adjusted(2, 2, -2, -2), *t, lookOf(this, poll_));
}

} // namespace attnlab::ui
