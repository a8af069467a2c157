#pragma once
// What a job says when its computation throws: the one sentence the engine gave, or for running out of
// memory (whose what() is a bare "std::bad_alloc") a sentence a student can act on. Every job's worker
// function ends its try with `catch (...)` and currentFailureSentence(), so nothing escapes a worker
// thread; the application's notify() and the GUI's main() say the same for what reaches them.
#include <QString>

#include <exception>
#include <new>

namespace attnlab::ui {

inline QString outOfMemorySentence()
{
    return QStringLiteral("out of memory: this machine could not hold what these settings need; lower the tokens, "
                          "the batch or the memory budget.");
}

inline QString failureSentence(const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return outOfMemorySentence();
    return QString::fromUtf8(e.what());
}

inline QString unknownFailureSentence()
{
    return QStringLiteral("the computation stopped on an unexpected error; the settings are as they were.");
}

// The sentence for the exception being handled; call it only inside a catch block.
inline QString currentFailureSentence()
{
    try {
        throw;
    } catch (const std::exception& e) {
        return failureSentence(e);
    } catch (...) {
        return unknownFailureSentence();
    }
}

} // namespace attnlab::ui
