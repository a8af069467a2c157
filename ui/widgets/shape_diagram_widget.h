#pragma once
// Thin host for ShapeDiagramPainter: redraws whenever the session's stage, head or trace changes.
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
    Session* session_;
};

} // namespace attnlab::ui
