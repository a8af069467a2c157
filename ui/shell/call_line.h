#pragma once
// The constructor call as the book writes it, editable and in sync with the spin boxes both ways.
// Hovering a value names the slot it fills, which is the point of the argument-contract lesson:
// read the call left to right and name each value.
#include <QLabel>
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

// Under the call line: while the call does not parse, what is wrong with it and a caret under the
// column, as the command line prints it; hidden once the call parses (the diagnostics panel then
// says what the settings mean). Give it its parent when creating it: it shows and hides itself.
class CallErrorLabel : public QLabel {
    Q_OBJECT
public:
    explicit CallErrorLabel(Session* session, QWidget* parent = nullptr);

private:
    void refresh();

    Session* session_;
};

QString slotDescription(const QString& slot);

} // namespace attnlab::ui
