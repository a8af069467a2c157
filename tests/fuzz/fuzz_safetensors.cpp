// libFuzzer harness for the safetensors loader: any bytes are either refused with attnlab::Error
// (one sentence) or load into tensors whose values can be read, and which the weight layouts
// either accept or refuse with attnlab::Error. Any other exception, crash or sanitizer report is a bug.
#include "tensor/error.h"
#include "io/safetensors.h"
#include "io/weights.h"
#include "io/weights_inspect.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    SafetensorsFile file;
    try {
        file = parse_safetensors(bytes, "fuzz.safetensors");
    } catch (const Error& e) {
        const std::string message = e.what();
        if (message.empty() || message.size() > 2000) {
            std::fprintf(stderr, "fuzz_safetensors: refusal of %zu characters\n", message.size());
            std::abort();
        }
        return 0;
    }
    // The header the lazy reader keeps and the tensors decoded from memory must describe the same file.
    if (file.entries.size() != file.tensors.size()) {
        std::fprintf(stderr, "fuzz_safetensors: %zu entries but %zu tensors\n", file.entries.size(),
                     file.tensors.size());
        std::abort();
    }
    float sum = 0;
    for (std::size_t i = 0; i < file.tensors.size(); ++i) {
        const auto& [name, tensor] = file.tensors[i];
        if (file.entries[i].name != name || file.entries[i].shape != tensor.shape() || file.find(name) == nullptr) {
            std::fprintf(stderr, "fuzz_safetensors: entry %zu disagrees with its tensor\n", i);
            std::abort();
        }
        for (float v : tensor.to_vector())
            sum += v;
    }
    (void)sum;
    try { // inspect reads the header alone
        (void)inspect_weights(file);
    } catch (const Error&) {
    }
    // The small configs the corpus files are written for, in both layouts.
    Config mha;
    mha.d_in = 3;
    mha.d_out = 2;
    mha.context_length = 6;
    mha.num_heads = 2;
    for (bool bias : {false, true}) {
        mha.qkv_bias = bias;
        for (WeightLayout layout : {WeightLayout::Torch, WeightLayout::Gpt2Hf}) {
            try {
                (void)state_dict_from_file(file, mha, layout, 0);
            } catch (const Error&) {
            }
        }
    }
    return 0;
}
