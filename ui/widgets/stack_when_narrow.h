#pragma once
// Two panes side by side that go one under the other where the width runs out (projector type, the lessons
// dock open), and back beside each other only with a scroll bar's width to spare: a scroll bar coming and
// going with the stacked height would otherwise flip the layout back and forth.
#include <QBoxLayout>

namespace attnlab::ui {

inline void stackWhenNarrow(QBoxLayout* layout, int width, int beside)
{
    if (width < beside)
        layout->setDirection(QBoxLayout::TopToBottom);
    else if (width >= beside + 40)
        layout->setDirection(QBoxLayout::LeftToRight);
}

} // namespace attnlab::ui
