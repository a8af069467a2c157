#pragma once
// A one-line label that ends in "…" when its text is wider than the room it has, and offers the
// whole text as its tooltip: the status bar's trace line, which on a 1280-pixel projector in
// presentation type is longer than the space beside the weights and used to be cut mid-word.
#include <QLabel>

namespace attnlab::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    using QLabel::QLabel;
    void setText(const QString& text); // also the tooltip
    QString shownText() const;         // what is drawn at the current width
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace attnlab::ui
