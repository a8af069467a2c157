// The start-up half of blas_kernel.h: reading the CPU, re-running the program with OPENBLAS_CORETYPE, and
// remembering afterwards who chose the kernel.
//
// Why a re-run rather than loading OpenBLAS late with dlopen: the library reads OPENBLAS_CORETYPE in its
// constructor, which runs before main() when the programs link it, as they must for the package's
// dependencies to be found and for gemm.cpp to call sgemm directly. Re-running costs one exec, and only
// on a CPU the library does not know; everywhere else nothing happens.
#include "tensor/blas_kernel.h"

#include <cstdlib>
#include <optional>

#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#ifdef ATTNLAB_OPENBLAS
#include <cblas.h>
#endif

namespace attnlab {

BlasReport blas_report_base(); // blas_kernel.cpp

namespace {

// Set in the re-run, so it knows the app asked for the kernel (and which one OpenBLAS had picked).
constexpr const char* kReplacedVariable = "ATTNLAB_BLAS_REPLACED";
// For tests: treat OpenBLAS's pick as this name, so the re-run can be exercised on any CPU.
constexpr const char* kAssumeVariable = "ATTNLAB_BLAS_ASSUME_CORE";

std::optional<std::string>& replaced_kernel()
{
    static std::optional<std::string> replaced;
    return replaced;
}

} // namespace

CpuFeatures cpu_features()
{
    CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return f;
    const bool osxsave = c & (1u << 27);
    const bool avx = c & (1u << 28);
    const bool fma = c & (1u << 12);
    if (!osxsave || !avx)
        return f;
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    const bool ymm_saved = (lo & 0x6u) == 0x6u;
    const bool zmm_saved = (lo & 0xE0u) == 0xE0u;
    if (!ymm_saved || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return f;
    f.fma = fma;
    f.avx2 = b & (1u << 5);
    if (zmm_saved) {
        f.avx512f = b & (1u << 16);
        f.avx512dq = b & (1u << 17);
        f.avx512bw = b & (1u << 30);
        f.avx512vl = b & (1u << 31);
    }
#endif
    return f;
}

void choose_blas_kernel(char** argv)
{
#ifdef ATTNLAB_OPENBLAS
    if (const char* replaced = std::getenv(kReplacedVariable)) {
        // The re-run: keep who chose, and let programs this one starts decide for themselves.
        replaced_kernel() = replaced;
        unsetenv(kReplacedVariable);
        unsetenv("OPENBLAS_CORETYPE");
        return;
    }
    const char* user = std::getenv("OPENBLAS_CORETYPE");
    if (user && *user)
        return;
    const char* assumed = std::getenv(kAssumeVariable);
    const std::string picked = assumed && *assumed ? assumed : openblas_get_corename();
    const std::optional<std::string> better = better_blas_kernel(picked, cpu_features());
    if (!better || !argv || !argv[0])
        return;
    setenv("OPENBLAS_CORETYPE", better->c_str(), 1);
    setenv(kReplacedVariable, picked.c_str(), 1);
    execv("/proc/self/exe", argv);
    // Not re-run (no /proc, say): go on with the kernel OpenBLAS picked, and say so.
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(kReplacedVariable);
#else
    (void)argv;
#endif
}

BlasReport blas_report()
{
    BlasReport r = blas_report_base();
    if (replaced_kernel()) {
        r.chosen_by = "app";
        r.replaced = *replaced_kernel();
    }
    return r;
}

} // namespace attnlab
