// The vocabulary file read as a stream of JSON events: its 50,257 entries go straight into a list, without the
// tree of JSON values a whole-document parse builds first (a third of the time of loading the tokenizer).
#include "text/gpt2_tokenizer_detail.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

using json = nlohmann::json;

class VocabEvents : public nlohmann::json_sax<json> {
public:
    explicit VocabEvents(std::vector<VocabEntry>& entries) : entries_(entries) {}
    std::string problem; // what is wrong, when a handler stopped the parse

    bool null() override { return value("null"); }
    bool boolean(bool) override { return value("boolean"); }
    bool number_integer(number_integer_t id) override { return id_value(id); }
    bool number_unsigned(number_unsigned_t id) override
    {
        return id_value(id > static_cast<number_unsigned_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(id));
    }
    bool number_float(number_float_t, const string_t&) override { return value("number"); }
    bool string(string_t&) override { return value("string"); }
    bool binary(binary_t&) override { return value("binary"); }
    bool start_object(std::size_t) override { return ++depth_ == 1 || value("object"); }
    bool end_object() override { return --depth_, true; }
    bool start_array(std::size_t) override { return value("array"); }
    bool end_array() override { return true; }
    bool key(string_t& token) override { return key_ = std::move(token), true; }
    bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception&) override
    {
        error_byte = byte;
        return false;
    }
    std::size_t error_byte = 0;

private:
    // A value where an id should be (depth 1), or in place of the whole object (depth 0).
    bool value(const char* type)
    {
        const std::string a = type[0] == 'a' || type[0] == 'o' ? "an " : "a ";
        problem = depth_ == 0
                      ? "holds a JSON " + std::string(type) + ", not an object"
                      : "token \"" + printable(key_, 40) + "\" has " + a + type + " for its id, not a whole number";
        return false;
    }
    bool id_value(std::int64_t id)
    {
        if (depth_ != 1)
            return value("number");
        entries_.push_back({std::move(key_), id});
        return true;
    }
    std::vector<VocabEntry>& entries_;
    std::string key_;
    int depth_ = 0;
};

} // namespace

std::vector<VocabEntry> read_vocab_entries(std::string_view text, const std::string& file, const std::string& valid)
{
    std::vector<VocabEntry> entries;
    entries.reserve(text.size() / 16);
    VocabEvents events(entries);
    if (json::sax_parse(text.begin(), text.end(), &events))
        return entries;
    if (!events.problem.empty())
        throw Error(file + (events.problem.starts_with("holds") ? " " : ": ") + events.problem + "; " + valid + ".");
    // nlohmann counts bytes from 1; past the end means the text stops before the JSON does.
    const std::string where = events.error_byte > text.size()
                                  ? "it ends before the JSON does"
                                  : "it goes wrong at byte position " + std::to_string(events.error_byte - 1);
    throw Error(file + " is not valid JSON (" + where + "); " + valid + ".");
}

} // namespace attnlab
