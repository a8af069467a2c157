#pragma once
// The constructor call as the book writes it, editable and in sync with the spin boxes both ways.
// Hovering a value names the slot it fills, which is the point of the argument-contract lesson:
// read the call left to right and name each value.
#include <QLineEdit>

namespace attnlab::ui {

class Session;

class CallLine : public QLineEdit {
    Q_OBJECT
public:
    explicit CallLine(Session* session, QWidget* parent = nullptr);
    // What hovering at character `position` says ("d_out = 768: ..."); empty between values.
    QString slotTipAt(int position) const;

protected:
    bool event(QEvent* event) override;

private:
    void refresh();

    Session* session_;
};

QString slotDescription(const QString& slot);

} // namespace attnlab::ui
