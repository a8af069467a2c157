// libFuzzer harness for the Text input: any bytes as the sentence. A text that cannot be used (not UTF-8,
// too long, no tokens, more tokens than the model reads) is refused with attnlab::Error in one sentence;
// any other goes through the chapter 2 tokenizer and a trained GPT's first blocks into the traced
// attention of a layer, whose weights must be finite probabilities over the earlier tokens. The model is
// the smallest shipped variant (ATTNLAB_FUZZ_MODEL).
#include "forward/trace.h"
#include "gpt/gpt_input.h"
#include "tensor/error.h"
#include "text/tokenizer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace attnlab;

namespace {

[[noreturn]] void fail(const char* why)
{
    std::fprintf(stderr, "fuzz_text_input: %s\n", why);
    std::abort();
}

void check_sentence(const Error& e)
{
    const std::string message = e.what();
    if (message.empty() || message.size() > 600 || message.find('\n') != std::string::npos)
        fail("a refusal that is not one short sentence");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    ExperimentSpec spec;
    spec.input = InputSource::Text;
    spec.text = text;
    spec.gpt_model_path = ATTNLAB_FUZZ_MODEL;
    spec.gpt_layer = size % 3 == 2 ? 2 : static_cast<int>(size % 2); // layer 2 does not exist: refused
    TextInput input;
    try {
        input = text_input(spec);
    } catch (const Error& e) {
        check_sentence(e);
        return 0;
    }
    if (text_problem(text) || input.ids.empty() || spec.gpt_layer > 1)
        fail("text_input accepted what it must refuse");
    if (input.ids.size() != input.tokens.size())
        fail("ids and tokens differ in number");
    for (std::int64_t id : input.ids)
        if (id < 0 || id >= verdict_tokenizer().vocab_size())
            fail("an id outside the vocabulary");
    if (static_cast<std::int64_t>(input.ids.size()) > input.model->settings.context_length)
        return 0; // the Session says so (tokens-exceed-context); nothing runs
    try {
        const GptLayerInput in = gpt_layer_input(*input.model, input.ids, spec.gpt_layer);
        const Trace trace = trace_forward(in.config, in.weights, in.x);
        const Tensor& w = trace.find("attn_weights")->tensor;
        const std::vector<float> v = w.to_vector();
        for (float x : v)
            if (!std::isfinite(x) || x < 0.0f || x > 1.0001f)
                fail("an attention weight that is not a probability");
    } catch (const Error& e) {
        check_sentence(e);
    }
    return 0;
}
