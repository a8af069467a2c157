#include "common/golden_compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace testing {

std::string compare_tensors(const attnlab::Tensor& observed, const attnlab::Tensor& expected, Tolerance tol)
{
    if (observed.shape() != expected.shape())
        return "shape " + attnlab::shape_to_string(observed.shape()) + " != expected " +
               attnlab::shape_to_string(expected.shape());
    const std::vector<float> a = observed.to_vector(), b = expected.to_vector();
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool finite = std::isfinite(a[i]) && std::isfinite(b[i]);
        const bool same_nonfinite = !std::isfinite(b[i]) && (a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])));
        const bool ok = finite ? std::fabs(double(a[i]) - double(b[i])) <= tol.atol + tol.rtol * std::fabs(double(b[i]))
                               : same_nonfinite;
        if (!ok) {
            std::ostringstream out;
            out.precision(9);
            out << "element " << i << ": " << a[i] << " != expected " << b[i];
            return out.str();
        }
    }
    return {};
}

std::vector<std::string> safetensors_files(const std::string& folder)
{
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
        if (entry.path().extension() == ".safetensors")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace testing
