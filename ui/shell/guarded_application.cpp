#include "shell/guarded_application.h"

#include "model/job_failure.h"

#include <cstdio>
#include <exception>

namespace attnlab::ui {

GuardedApplication::GuardedApplication(int& argc, char** argv) : QApplication(argc, argv) {}

QString GuardedApplication::sentenceFor(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return failureSentence(e);
    } catch (...) {
        return unknownFailureSentence();
    }
}

bool GuardedApplication::notify(QObject* receiver, QEvent* event)
{
    try {
        return QApplication::notify(receiver, event);
    } catch (...) {
        const QString sentence = sentenceFor(std::current_exception());
        std::fprintf(stderr, "attention-lab: %s\n", qPrintable(sentence));
        Q_EMIT failed(sentence);
        return true; // handled: Qt must not deliver it again
    }
}

} // namespace attnlab::ui
