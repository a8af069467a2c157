#include "tensor/blas_kernel.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

#ifdef ATTNLAB_OPENBLAS
#include <cblas.h>
#endif

namespace attnlab {

namespace {

// OpenBLAS's DYNAMIC_ARCH kernel names (driver/others/dynamic.c) by the widest vectors their sgemm uses:
// 0 SSE, 1 AVX, 2 AVX2 + FMA, 3 AVX-512. The AMD AVX kernels up to Excavator are class 1: they do not use
// AVX2 for sgemm.
struct KernelClass {
    std::string_view name;
    int level;
};
constexpr std::array kKernels{
    KernelClass{"katmai", 0},        KernelClass{"coppermine", 0},
    KernelClass{"northwood", 0},     KernelClass{"prescott", 0},
    KernelClass{"banias", 0},        KernelClass{"atom", 0},
    KernelClass{"core2", 0},         KernelClass{"penryn", 0},
    KernelClass{"dunnington", 0},    KernelClass{"nehalem", 0},
    KernelClass{"athlon", 0},        KernelClass{"opteron", 0},
    KernelClass{"opteron(sse3)", 0}, KernelClass{"barcelona", 0},
    KernelClass{"nano", 0},          KernelClass{"bobcat", 0},
    KernelClass{"sandybridge", 1},   KernelClass{"bulldozer", 1},
    KernelClass{"piledriver", 1},    KernelClass{"steamroller", 1},
    KernelClass{"excavator", 1},     KernelClass{"haswell", 2},
    KernelClass{"zen", 2},           KernelClass{"skylakex", 3},
    KernelClass{"cooperlake", 3},    KernelClass{"sapphirerapids", 3},
};

std::string lower_case(std::string_view text)
{
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
}

std::optional<int> kernel_level(std::string_view corename)
{
    const std::string lower = lower_case(corename);
    for (const KernelClass& k : kKernels)
        if (k.name == lower)
            return k.level;
    return std::nullopt;
}

} // namespace

std::optional<std::string> better_blas_kernel(std::string_view corename, const CpuFeatures& cpu)
{
    const std::optional<int> picked = kernel_level(corename);
    if (!picked)
        return std::nullopt;
    if (cpu.avx512f && cpu.avx512bw && cpu.avx512dq && cpu.avx512vl && cpu.avx2 && cpu.fma)
        return *picked < 3 ? std::optional<std::string>("SKYLAKEX") : std::nullopt;
    if (cpu.avx2 && cpu.fma)
        return *picked < 2 ? std::optional<std::string>("HASWELL") : std::nullopt;
    return std::nullopt;
}

std::string BlasReport::sentence() const
{
    if (kernel.empty())
        return library;
    std::string s = library + " with its " + kernel + " kernel";
    if (chosen_by == "app")
        return s + " (chosen by the app: OpenBLAS picked " + replaced + ", below what this CPU supports)";
    if (chosen_by == "user")
        return s + " (chosen by OPENBLAS_CORETYPE)";
    if (!ignored.empty())
        return s + " (OpenBLAS's own pick: it knows no kernel named OPENBLAS_CORETYPE=" + ignored + ")";
    return s + " (OpenBLAS's own pick)";
}

BlasReport blas_report_base()
{
    BlasReport r;
#ifdef ATTNLAB_OPENBLAS
    // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ...": the first two words are the library and its version.
    const std::string config = openblas_get_config();
    const auto first = config.find(' ');
    const auto second = first == std::string::npos ? first : config.find(' ', first + 1);
    r.library = config.substr(0, second);
    r.kernel = openblas_get_corename();
    const char* user = std::getenv("OPENBLAS_CORETYPE");
    if (user && *user && lower_case(user) == lower_case(r.kernel))
        r.chosen_by = "user";
    else {
        r.chosen_by = "OpenBLAS";
        if (user && *user) // a name OpenBLAS does not know: it went on with its own pick
            r.ignored = user;
    }
#else
    r.library = "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                std::to_string(EIGEN_MINOR_VERSION);
#endif
    return r;
}

} // namespace attnlab
