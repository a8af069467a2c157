#pragma once
// The class's bars as a widget (tally_painter.h draws them): as tall as the bars need at its width.
#include <QWidget>

namespace attnlab::ui {

class PollState;

class TallyChart : public QWidget {
    Q_OBJECT
public:
    explicit TallyChart(PollState* poll, QWidget* parent = nullptr);
    // The presenter view's chart: the bars as they come, whether or not the room has been shown them.
    void setForTeacher(bool on);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    bool shown() const;

    PollState* poll_;
    bool forTeacher_ = false;
};

} // namespace attnlab::ui
