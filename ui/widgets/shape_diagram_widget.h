#pragma once
// Thin host for ShapeDiagramPainter: redraws whenever the session's stage, head or trace changes, and
// carries the painter's description in words as its accessible description.
#include <QWidget>

namespace attnlab::ui {

class Session;

class ShapeDiagramWidget : public QWidget {
    Q_OBJECT
public:
    explicit ShapeDiagramWidget(Session* session, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {1000, 470}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void refreshDescription(); // the painter's description, for screen readers

    Session* session_;
};

} // namespace attnlab::ui
