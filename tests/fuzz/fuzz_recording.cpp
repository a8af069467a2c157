// libFuzzer harness for the recording reader and the matcher behind Compare With My Code: any bytes are
// either refused with attnlab::Error (one sentence) or read into a recording that the book's module and
// the matcher then handle -- a config divergence, a first divergence or none -- without any other
// exception, crash or sanitizer report.
#include "lessons/compare_recording.h"
#include "tensor/error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace attnlab;

namespace {

void check_sentence(const Error& e)
{
    const std::string message = e.what();
    if (message.empty() || message.size() > 2000) {
        std::fprintf(stderr, "fuzz_recording: refusal of %zu characters\n", message.size());
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    Recording rec;
    try {
        rec = parse_recording(bytes, "fuzz.safetensors");
    } catch (const Error& e) {
        check_sentence(e);
        return 0;
    }
    // Mutated shapes can ask the book's forward for a lot of memory; keep the harness to small modules.
    for (const auto& [name, t] : rec.parameters)
        if (t.numel() > 4096)
            return 0;
    if (rec.input.numel() > 4096)
        return 0;
    for (std::int64_t heads : {0, 1, 2}) {
        try {
            const RecordingComparison r = compare_recording(rec, book_reference(rec, heads));
            if (r.first)
                (void)describe_difference(*r.first);
        } catch (const Error& e) {
            check_sentence(e);
        }
    }
    return 0;
}
