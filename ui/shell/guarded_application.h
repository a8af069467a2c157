#pragma once
// The application object of the GUI. Qt does not let an exception leave an event handler or a slot (it
// ends the program), and a slot that calls the engine can meet one the code around it did not expect:
// every event is delivered inside a catch here, the exception becomes one sentence -- written to stderr
// and emitted as failed() for the window's status bar -- and the program goes on with its state as it was.
#include <QApplication>
#include <QString>

namespace attnlab::ui {

class GuardedApplication : public QApplication {
    Q_OBJECT
public:
    GuardedApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;

Q_SIGNALS:
    void failed(const QString& sentence);
};

} // namespace attnlab::ui
