#pragma once
// Which tokenizer a whole GPT reads text with, from the "tokenizer" key its file's metadata gives (the
// app's trainer writes "letters" for a synthetic task and "book-ch2-simple" for The Verdict, as the
// shipped models do); GPT-2's byte-level BPE for a checkpoint that says nothing, as Hugging Face's do.
// With it, the text a model is first shown: for a task model, a sequence of its own task, where its heads
// have something to find, rather than a sentence it has never seen a word of.
#include "gpt/gpt_model.h"
#include "text/tokenizer.h"

#include <functional>
#include <string>
#include <string_view>

namespace attnlab {

class Gpt2Tokenizer;

enum class TextReader { Gpt2Bpe, BookWords, Letters };

TextReader text_reader(const GptModel& model);
// The reader a "tokenizer" metadata value names (a checkpoint's Gpt2Plan::tokenizer, before its weights are read).
TextReader text_reader_named(const std::string& tokenizer);
std::string text_reader_name(TextReader reader); // "gpt2", "book-ch2-simple", "letters"

// A letters model's first held-out sequence of its task (train::Task's, the same for every seed), in letters; for
// the induction task, that sequence's letters as a run, each once (those it lacks after, A, B, ...; at most half
// the context), then the same run again, where induction shows plainly. The story's first sentence for the others,
// cut at a space to as many tokens as the model reads (a Verdict model trained with --context 56 or less, a GPT-2
// checkpoint of few positions, could not read it whole); counted by `gpt2` when given, else the book's tokenizer.
std::string example_text(const GptModel& model, const Gpt2Tokenizer* gpt2 = nullptr);
// `text` cut at a space to its longest start in which `count` finds at most `most` tokens: the whole text when it
// fits, its first word when nothing longer does.
std::string cut_to_tokens(std::string_view text, std::int64_t most,
                          const std::function<std::size_t(std::string_view)>& count);

// The text through a BookWords or Letters model's tokenizer (Gpt2Bpe needs its files: gpt2_tokenizer.h).
TokenizedText tokenize_for(const GptModel& model, std::string_view text);
// One sentence for a token the model cannot read (an unknown letter, a word not in the story's
// vocabulary is only a warning elsewhere), or "" when it reads them all.
std::string unreadable_token_sentence(const GptModel& model, const TokenizedText& tokens);

} // namespace attnlab
