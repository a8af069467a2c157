#pragma once
// The sweep's held-out curves on screen: a thin host for SweepCurvesPainter, in the theme's colours;
// its accessible description reads where each num_heads' mean stands at its last measurement.
#include "render/sweep_curves_painter.h"

#include <QWidget>

namespace attnlab::ui {

class SweepCurvesWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepCurvesWidget(QWidget* parent = nullptr);
    void setPainter(SweepCurvesPainter painter);
    const SweepCurvesPainter& curvesPainter() const { return painter_; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    SweepCurvesPainter painter_;
};

} // namespace attnlab::ui
