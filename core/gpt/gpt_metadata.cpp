#include "gpt/gpt_metadata.h"

#include "gpt/gpt_text.h"
#include "tensor/error.h"
#include "text/utf8.h"
#include "train/tasks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace attnlab {

namespace {

std::string quoted(const std::string& value)
{
    return "'" + printable(value, 40) + "'";
}

std::string listed(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return out;
}

} // namespace

void check_trained_gpt_metadata(const SafetensorsFile& file, const std::string& who)
{
    if (file.meta("format") != "attention-lab-gpt")
        return; // a checkpoint from elsewhere says what it likes in its metadata
    const auto has = [&file](const char* key) {
        return std::any_of(file.metadata.begin(), file.metadata.end(),
                           [key](const auto& kv) { return kv.first == key; });
    };
    const std::string tokenizer = file.meta("tokenizer");
    const std::vector<std::string> readers = {text_reader_name(TextReader::Letters),
                                              text_reader_name(TextReader::BookWords)};
    if (has("tokenizer") && std::find(readers.begin(), readers.end(), tokenizer) == readers.end())
        throw Error(who + " names its tokenizer " + quoted(tokenizer) + " in its metadata; a trained GPT file reads " +
                    listed(readers) + ".");
    const std::string task = file.meta("task");
    const std::vector<std::string>& tasks = train::task_names();
    if (has("task") && std::find(tasks.begin(), tasks.end(), task) == tasks.end())
        throw Error(who + " names its task " + quoted(task) + " in its metadata; a trained GPT file names " +
                    listed(tasks) + ".");
    if (has("task") && has("tokenizer") && (task == "the-verdict") != (tokenizer == readers[1]))
        throw Error(who + " says task " + quoted(task) + " with tokenizer " + quoted(tokenizer) +
                    " in its metadata; the-verdict is read in book-ch2-simple's words, the other tasks in letters.");
    if (has("drop_rate")) {
        const std::string text = file.meta("drop_rate");
        char* end = nullptr;
        const double rate = text.empty() ? NAN : std::strtod(text.c_str(), &end);
        if (!(rate >= 0.0 && rate < 1.0) || end != text.c_str() + text.size())
            throw Error(who + " gives drop_rate " + quoted(text) +
                        " in its metadata; a dropout rate is a number from 0 to below 1.");
    }
    if (const std::string bias = file.meta("qkv_bias"); has("qkv_bias") && bias != "true" && bias != "false")
        throw Error(who + " gives qkv_bias " + quoted(bias) + " in its metadata; it is true or false.");
}

} // namespace attnlab
