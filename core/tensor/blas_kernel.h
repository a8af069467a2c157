#pragma once
// Which OpenBLAS kernel runs the engine's products, and whether the app should ask for a better one.
//
// Debian's OpenBLAS picks its kernel from the CPU's family and model when the library loads. A CPU newer
// than the library is not in its tables and gets a fallback (an AVX-512 Xeon of model 207 runs the SSE3
// "Prescott" kernel, five times slower), although the CPU reports the instructions a better kernel needs.
// The choice below compares the two; the start-up step (blas_kernel_start.cpp) acts on it.
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

// The instruction sets the kernels need, as cpuid and the OS (XGETBV: registers saved on a switch) report.
struct CpuFeatures {
    bool avx2 = false;
    bool fma = false;
    bool avx512f = false;
    bool avx512bw = false;
    bool avx512dq = false;
    bool avx512vl = false;
};

CpuFeatures cpu_features(); // this machine's

// The kernel to ask OpenBLAS for (an OPENBLAS_CORETYPE value: "SKYLAKEX" or "HASWELL") when the one it
// picked (`corename`, as openblas_get_corename() says it) is of a lower instruction class than the CPU
// supports; nothing when it is as good, when the CPU supports neither, or when the name is unknown (a
// kernel this table does not know is newer than it, not worse).
std::optional<std::string> better_blas_kernel(std::string_view corename, const CpuFeatures& cpu);

// What ran, for `bench --json`, `--version` and Help > About.
struct BlasReport {
    std::string library;   // "OpenBLAS 0.3.21", or "Eigen 3.4.0" in a build without OpenBLAS
    std::string kernel;    // "SkylakeX", or empty without OpenBLAS
    std::string chosen_by; // "OpenBLAS" (its own pick), "app" (this program asked for it), "user" (OPENBLAS_CORETYPE)
    std::string replaced;  // when chosen_by is "app": the kernel OpenBLAS had picked
    std::string ignored;   // an OPENBLAS_CORETYPE that named no kernel OpenBLAS knows (it then picks its own)
    std::string
    sentence() const; // "OpenBLAS 0.3.21 with its SkylakeX kernel (chosen by the app: OpenBLAS picked Prescott)"
};

BlasReport blas_report();

// Called first thing in main() by both programs: when OpenBLAS picked a kernel below the CPU and the user
// set no OPENBLAS_CORETYPE, runs this program again (same arguments) with the better kernel asked for,
// since OpenBLAS reads that variable only while it loads. Returns when nothing needs doing or the re-run
// could not start (the program then goes on with the kernel it has).
void choose_blas_kernel(char** argv);

} // namespace attnlab
