#pragma once
// A value from the command line as a refusal quotes it: at most 60 characters (the rest counted) and
// control characters escaped, so a 100,000-character --stage does not come back whole on stderr.
#include "text/utf8.h"

#include <QString>

namespace attnlab::ui {

inline QString shownValue(const QString& value)
{
    return QString::fromStdString(printable(value.toStdString(), 60));
}

} // namespace attnlab::ui
