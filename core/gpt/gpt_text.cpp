#include "gpt/gpt_text.h"

#include "tensor/error.h"
#include "text/gpt2_tokenizer.h"
#include "text/letter_tokens.h"
#include "train/tasks.h"

#include <algorithm>

namespace attnlab {

TextReader text_reader(const GptModel& model)
{
    return text_reader_named(model.meta("tokenizer"));
}

TextReader text_reader_named(const std::string& name)
{
    if (name == "letters")
        return TextReader::Letters;
    if (name == "book-ch2-simple")
        return TextReader::BookWords;
    return TextReader::Gpt2Bpe;
}

std::string text_reader_name(TextReader reader)
{
    switch (reader) {
    case TextReader::Letters: return "letters";
    case TextReader::BookWords: return "book-ch2-simple";
    case TextReader::Gpt2Bpe: break;
    }
    return "gpt2";
}

namespace {

// The letters of the first held-out sequence in the order they first appear there, then those it lacks (A, B, ...),
// each once, as many as half the context holds; then the same run again.
std::vector<std::int64_t> run_twice(const train::Batch& held, std::int64_t vocab, std::int64_t context)
{
    const auto length = static_cast<std::size_t>(std::min(vocab, context / 2));
    std::vector<std::int64_t> run;
    const auto add = [&run, length](std::int64_t id) {
        if (run.size() < length && std::find(run.begin(), run.end(), id) == run.end())
            run.push_back(id);
    };
    for (std::size_t i = 0; i < held.tokens; ++i)
        add(held.ids[i]);
    for (std::int64_t id = 0; id < vocab; ++id)
        add(id);
    std::vector<std::int64_t> twice = run;
    twice.insert(twice.end(), run.begin(), run.end());
    return twice;
}

} // namespace

std::string cut_to_tokens(std::string_view text, std::int64_t most,
                          const std::function<std::size_t(std::string_view)>& count)
{
    // From the whole text down, each start that ends before a space: the story's sentence is 45 words.
    for (std::size_t end = text.size();;) {
        const std::string_view start = text.substr(0, end);
        if (static_cast<std::int64_t>(count(start)) <= most)
            return std::string(start);
        const std::size_t space = end == 0 ? std::string_view::npos : text.rfind(' ', end - 1);
        if (space == std::string_view::npos || space == 0)
            break;
        end = space;
    }
    return std::string(text.substr(0, text.find(' ')));
}

std::string example_text(const GptModel& model, const Gpt2Tokenizer* gpt2)
{
    if (text_reader(model) != TextReader::Letters) {
        const std::int64_t most = model.settings.context_length;
        if (gpt2 && text_reader(model) == TextReader::Gpt2Bpe)
            return cut_to_tokens(verdict_first_sentence(), most,
                                 [gpt2](std::string_view t) { return gpt2->encode(t, true).size(); });
        return cut_to_tokens(verdict_first_sentence(), most,
                             [](std::string_view t) { return verdict_tokenizer().tokenize(t).ids.size(); });
    }
    const std::string task = model.meta("task", "induction");
    try {
        const train::Task t(task, model.settings.vocab_size, model.settings.context_length, 0);
        const train::Batch& held = t.held_out();
        // An induction model reads a run and its copy: every query of the copy has one earlier occurrence of its
        // letter, so an induction head's stripe shows whole (the held-out sequence's chance repeats blur it:
        // induction-gpt-h4's layer-1 scores are 0.77-0.88 there, 0.90-0.99 here).
        if (task == "induction" && model.settings.context_length >= 4)
            return letter_text(run_twice(held, model.settings.vocab_size, model.settings.context_length));
        return letter_text({held.ids.begin(), held.ids.begin() + static_cast<std::ptrdiff_t>(held.tokens)});
    } catch (const Error&) {
        // A task this build does not know, or one the model's shape cannot pose: its first letters, in order.
        std::vector<std::int64_t> ids;
        for (std::int64_t i = 0; i < model.settings.vocab_size && i < model.settings.context_length; ++i)
            ids.push_back(i);
        return letter_text(ids);
    }
}

TokenizedText tokenize_for(const GptModel& model, std::string_view text)
{
    if (text_reader(model) == TextReader::Letters)
        return letter_tokenize(text, model.settings.vocab_size);
    return verdict_tokenizer().tokenize(text);
}

std::string unreadable_token_sentence(const GptModel& model, const TokenizedText& tokens)
{
    if (text_reader(model) != TextReader::Letters)
        return {};
    return unknown_letter_sentence(tokens, model.settings.vocab_size);
}

} // namespace attnlab
