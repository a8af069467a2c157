#pragma once
// Results reached by two paths (the session's trace and a direct forward, a session and its reopened
// copy) agree to float rounding, not always bit for bit: their sums may round the last bit apart, and do
// on some CPUs (AVX2, where AVX-512 happened to agree).
#include <QString>

#include <cmath>
#include <vector>

namespace testing {

// Empty when the two agree to `tolerance` everywhere, else the first element that does not.
inline QString firstDifference(const std::vector<float>& got, const std::vector<float>& want, float tolerance = 1e-5f)
{
    if (got.size() != want.size())
        return QStringLiteral("%1 values, expected %2").arg(got.size()).arg(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(std::abs(got[i] - want[i]) <= tolerance))
            return QStringLiteral("value %1 is %2, expected %3").arg(i).arg(got[i], 0, 'g', 9).arg(want[i], 0, 'g', 9);
    return {};
}

} // namespace testing
