#pragma once
// A layout that places its items left to right and wraps them onto the next row when the width runs
// out, as Qt's Flow Layout example does. The diagnostics' fix buttons use it: a call whose d_out has
// many divisors offers many fixes, and in one row they made the settings column wider than a
// 1280-pixel screen could show.
#include <QLayout>
#include <QList>

namespace attnlab::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    void setGeometry(const QRect& rect) override;
    QSize sizeHint() const override;
    QSize minimumSize() const override;

private:
    int arrange(const QRect& rect, bool apply) const; // returns the height used

    QList<QLayoutItem*> items_;
    int spacing_;
};

} // namespace attnlab::ui
