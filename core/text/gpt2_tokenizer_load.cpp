// Reading and checking a GPT-2 vocabulary (vocab.json / encoder.json) and its merges (merges.txt / vocab.bpe).
// Every refusal is one sentence naming the file, the line or token, and what a valid file holds.
#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_detail.h"

#include "tensor/error.h"
#include "text/gpt2_pretokenize.h"
#include "text/utf8.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

namespace attnlab {

namespace {

// GPT-2's files are about 1 MB and 0.5 MB; a tokenizer file hundreds of times larger is not one.
constexpr std::uintmax_t kMaxFileBytes = 256u << 20;

std::string read_tokenizer_file(const std::string& path, const std::string& what)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status))
        throw Error(path + " does not exist; give the path of " + what + ".");
    if (fs::is_directory(status))
        throw Error(path + " is a folder, not " + what + ".");
    if (!fs::is_regular_file(status))
        throw Error(path + " is not a regular file (a pipe, socket or device); give the path of " + what + ".");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > kMaxFileBytes)
        throw Error(path + " is " + std::to_string(size) + " bytes, too large for " + what +
                    " (GPT-2's is about a megabyte).");
    std::ifstream in(path, std::ios::binary);
    if (ec || !in)
        throw Error(path + " cannot be opened for reading; check that it is a file you may read.");
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size())) || in.peek() != std::char_traits<char>::eof())
        throw Error(path + " could not be read to the end; it may have changed while being read.");
    return text;
}

std::string quote_token(std::string_view token)
{
    std::string out(1, '"');
    out += printable(token, 40);
    out += '"';
    return out;
}

std::string hex_code_point(char32_t c)
{
    char out[16];
    std::snprintf(out, sizeof out, "U+%04X", static_cast<unsigned>(c));
    return out;
}

// The bytes a vocabulary token stands for (each character of GPT-2's byte alphabet one byte), or the first
// character that is not in the alphabet. `token` is UTF-8 (JSON strings are; the merges file is checked).
struct Bytes {
    std::string bytes;
    std::optional<char32_t> stray;
};

Bytes token_bytes(std::string_view token)
{
    static const std::vector<int> inverse = [] {
        std::vector<int> map(0x200, -1);
        for (int b = 0; b < 256; ++b)
            map[gpt2_byte_to_unicode()[b]] = b;
        return map;
    }();
    Bytes out;
    out.bytes.reserve(token.size());
    for (std::size_t i = 0; i < token.size();) {
        const auto lead = static_cast<unsigned char>(token[i]);
        const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        char32_t c = length == 1 ? lead : lead & (0x7F >> length);
        for (std::size_t k = 1; k < length && i + k < token.size(); ++k)
            c = (c << 6) | (static_cast<unsigned char>(token[i + k]) & 0x3F);
        if (c >= inverse.size() || inverse[c] < 0) {
            out.stray = c;
            return out;
        }
        out.bytes += static_cast<char>(inverse[c]);
        i += length;
    }
    return out;
}

void read_vocab(Gpt2Tokenizer::Data& d, std::string_view text, const std::string& file)
{
    const std::string valid = "a GPT-2 vocabulary is a JSON object of token → id, ids 0 to N-1 each once";
    const std::vector<VocabEntry> entries = read_vocab_entries(text, file, valid);
    const std::size_t n = entries.size();
    d.pieces.assign(n, std::string());
    std::vector<bool> taken(n, false);
    d.ids.reserve(n);
    for (const auto& [token, id] : entries) {
        if (id < 0 || static_cast<std::uint64_t>(id) >= n)
            throw Error(file + ": token " + quote_token(token) + " has id " + std::to_string(id) + ", outside 0 to " +
                        std::to_string(n - 1) + " for its " + std::to_string(n) + " tokens; " + valid + ".");
        if (taken[id])
            throw Error(file + ": tokens " + quote_token(gpt2_byte_symbols(d.pieces[id])) + " and " +
                        quote_token(token) + " both have id " + std::to_string(id) + "; " + valid + ".");
        if (token.empty())
            throw Error(file + ": the token with id " + std::to_string(id) + " is empty; " + valid + ".");
        Bytes bytes = token_bytes(token);
        if (bytes.stray)
            throw Error(file + ": token " + quote_token(token) + " (id " + std::to_string(id) + ") has " +
                        hex_code_point(*bytes.stray) +
                        ", which is not in GPT-2's byte alphabet; tokens are written with bytes_to_unicode() "
                        "(a space as Ġ, a newline as Ċ).");
        taken[id] = true;
        if (!d.ids.emplace(bytes.bytes, static_cast<std::int32_t>(id)).second)
            throw Error(file + ": token " + quote_token(token) + " appears twice; " + valid + ".");
        d.pieces[id] = std::move(bytes.bytes);
    }
    for (int b = 0; b < 256; ++b) {
        const auto found = d.ids.find(std::string(1, static_cast<char>(b)));
        if (found == d.ids.end()) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02X", b);
            throw Error(file + " has no token for byte " + byte + " (written " +
                        gpt2_byte_symbols(std::string(1, static_cast<char>(b))) +
                        "); a byte-level vocabulary has one for each of the 256 bytes.");
        }
        d.byte_ids[b] = found->second;
    }
    if (const auto eot = d.ids.find("<|endoftext|>"); eot != d.ids.end())
        d.end_of_text = eot->second;
}

void read_merges(Gpt2Tokenizer::Data& d, std::string_view text, const std::string& file, const std::string& vocab_file)
{
    require_utf8(text, file);
    const std::string valid = "each line after \"#version\" is one merge, two tokens separated by one space";
    d.merges.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
    std::size_t line_number = 0, start = 0, first_merge_line = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++line_number;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line_number == 1 && line.starts_with("#version")) {
            first_merge_line = 2; // a merge's rank is its line less the lines before the first
            continue;
        }
        const std::string where = file + " line " + std::to_string(line_number);
        if (line.empty())
            throw Error(where + " is empty; " + valid + ".");
        const std::size_t space = line.find(' ');
        if (space == std::string_view::npos || space == 0 || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string_view::npos)
            throw Error(where + " is " + quote_token(line) + ", not two tokens; " + valid + ".");
        const std::string_view parts[2] = {line.substr(0, space), line.substr(space + 1)};
        std::int32_t part_ids[2] = {0, 0};
        std::string joined;
        for (int k = 0; k < 2; ++k) {
            const Bytes bytes = token_bytes(parts[k]);
            if (bytes.stray)
                throw Error(where + ": token " + quote_token(parts[k]) + " has " + hex_code_point(*bytes.stray) +
                            ", which is not in GPT-2's byte alphabet; tokens are written with bytes_to_unicode().");
            const auto found = d.ids.find(bytes.bytes);
            if (found == d.ids.end())
                throw Error(where + " merges " + quote_token(parts[0]) + " and " + quote_token(parts[1]) + ", but " +
                            vocab_file + " has no token " + quote_token(parts[k]) +
                            "; a merge's two tokens and their join are all in the vocabulary.");
            part_ids[k] = found->second;
            joined += bytes.bytes;
        }
        const auto result = d.ids.find(joined);
        if (result == d.ids.end())
            throw Error(where + " merges " + quote_token(parts[0]) + " and " + quote_token(parts[1]) + ", but " +
                        vocab_file + " has no token " + quote_token(gpt2_byte_symbols(joined)) +
                        " for their join; a merge's two tokens and their join are all in the vocabulary.");
        const std::uint64_t key = Gpt2Tokenizer::Data::pair_key(part_ids[0], part_ids[1]);
        const auto [merge, added] = d.merges.emplace(
            key, Gpt2Tokenizer::Data::Merge{static_cast<std::int32_t>(d.merges.size()), result->second});
        if (!added)
            throw Error(where + " repeats the merge of line " +
                        std::to_string(static_cast<std::size_t>(merge->second.rank) + first_merge_line) +
                        "; each pair is merged once, at one rank.");
    }
}

} // namespace

Gpt2Tokenizer Gpt2Tokenizer::from_text(std::string_view vocab_json, std::string_view merges,
                                       const Gpt2TokenizerFiles& names)
{
    auto d = std::make_shared<Data>();
    d->files = names;
    read_vocab(*d, vocab_json, names.vocab);
    read_merges(*d, merges, names.merges, names.vocab);
    return Gpt2Tokenizer(std::move(d));
}

Gpt2Tokenizer Gpt2Tokenizer::from_files(const Gpt2TokenizerFiles& files)
{
    const std::string vocab = read_tokenizer_file(files.vocab, "a GPT-2 vocabulary (vocab.json or encoder.json)");
    const std::string merges = read_tokenizer_file(files.merges, "GPT-2's merges (merges.txt or vocab.bpe)");
    return from_text(vocab, merges, files);
}

} // namespace attnlab
