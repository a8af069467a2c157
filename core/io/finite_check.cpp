#include "io/finite_check.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <cmath>

namespace attnlab {

NonFiniteCount count_non_finite(const std::string& name, const Tensor& tensor)
{
    const Tensor dense = tensor.is_contiguous() ? tensor : tensor.contiguous();
    NonFiniteCount c{name, 0, 0, dense.numel()};
    const float* p = dense.data();
    for (std::int64_t i = 0; i < c.values; ++i) {
        if (std::isnan(p[i]))
            ++c.nan;
        else if (std::isinf(p[i]))
            ++c.infinite;
    }
    return c;
}

void require_finite(const std::string& who, const std::vector<NonFiniteCount>& counts)
{
    const NonFiniteCount* first = nullptr;
    std::size_t more = 0;
    for (const NonFiniteCount& c : counts) {
        if (!c.any())
            continue;
        if (first)
            ++more;
        else
            first = &c;
    }
    if (!first)
        return;
    std::string what;
    if (first->nan > 0)
        what = std::to_string(first->nan) + " NaN";
    if (first->infinite > 0)
        what.append(what.empty() ? "" : " and ").append(std::to_string(first->infinite)).append(" infinite");
    std::string sentence = who;
    sentence.append(" holds values that are not finite numbers: ")
        .append(printable(first->name, 60)) // a recording's parameter names are the student's
        .append(" has ")
        .append(what)
        .append(" of ")
        .append(std::to_string(first->values))
        .append(" values");
    if (more > 0)
        sentence.append(" (and ")
            .append(std::to_string(more))
            .append(more == 1 ? " more tensor has some)" : " more tensors have some)");
    sentence.append(", so it was not opened; a model with them computes nothing but NaN.");
    throw Error(sentence);
}

void require_finite(const std::string& who, const StateDict& weights)
{
    std::vector<NonFiniteCount> counts;
    for (const auto& [name, tensor] : weights)
        counts.push_back(count_non_finite(name, tensor));
    require_finite(who, counts);
}

} // namespace attnlab
