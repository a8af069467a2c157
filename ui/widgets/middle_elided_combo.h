#pragma once
// A combo box narrower than its text elides the middle, not the end: in the settings column beside a projector's
// lessons dock the Module box read "MultiHeadAtte" for both MultiHeadAttention and MultiHeadAttentionWrapper,
// the difference lesson 4 is about; "MultiHe…Wrapper" keeps both ends.
#include <QComboBox>

namespace attnlab::ui {

class MiddleElidedComboBox : public QComboBox {
public:
    using QComboBox::QComboBox;
    // The text as drawn at the box's width now (the current item's, elided in the middle where it must be).
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace attnlab::ui
