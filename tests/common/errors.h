#pragma once
// The sentence an action is refused with, for tests that check what a refusal says.
#include "tensor/error.h"

#include <QString>

#include <functional>

namespace testing {

// The attnlab::Error message `action` throws; empty when it throws nothing.
inline QString error_of(const std::function<void()>& action)
{
    try {
        action();
    } catch (const attnlab::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace testing
