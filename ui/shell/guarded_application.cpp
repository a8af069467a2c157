#include "shell/guarded_application.h"

#include "model/job_failure.h"

#include <cstdio>

namespace attnlab::ui {

GuardedApplication::GuardedApplication(int& argc, char** argv) : QApplication(argc, argv) {}

bool GuardedApplication::notify(QObject* receiver, QEvent* event)
{
    try {
        return QApplication::notify(receiver, event);
    } catch (...) {
        const QString sentence = currentFailureSentence();
        std::fprintf(stderr, "attention-lab: %s\n", qPrintable(sentence));
        Q_EMIT failed(sentence);
        return true; // handled: Qt must not deliver it again
    }
}

} // namespace attnlab::ui
