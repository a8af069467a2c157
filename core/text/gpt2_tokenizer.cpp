#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_detail.h"

#include "tensor/error.h"
#include "text/gpt2_pretokenize.h"
#include "text/utf8.h"

#include <climits>
#include <queue>

namespace attnlab {

namespace {

constexpr std::string_view kEndOfTextText = "<|endoftext|>";

// OpenAI's bpe(): each round finds the lowest-ranked pair of neighbours and merges every occurrence of it, left
// to right without overlap ("aaa" -> "aa a"), then looks again. A heap of candidate pairs makes a round cost
// its merges rather than the piece's length, so a long run of spaces or of one letter stays fast; pairs a
// round creates join the heap only after the round, as OpenAI's next round would find them.
void merge_piece(const Gpt2Tokenizer::Data& d, std::string_view bytes, std::vector<std::int32_t>& out)
{
    using Data = Gpt2Tokenizer::Data;
    if (bytes.size() > static_cast<std::size_t>(INT32_MAX))
        throw Error("the text has a piece of " + std::to_string(bytes.size()) +
                    " bytes without a break; GPT-2's tokenizer takes pieces of up to 2 GiB.");
    const auto n = static_cast<std::int32_t>(bytes.size());
    std::vector<std::int32_t> id(n), next(n);
    for (std::int32_t i = 0; i < n; ++i) {
        id[i] = d.byte_ids[static_cast<unsigned char>(bytes[i])];
        next[i] = i + 1; // n: the end
    }
    std::vector<std::int32_t> prev(n);
    for (std::int32_t i = 0; i < n; ++i)
        prev[i] = i - 1;
    struct Candidate {
        std::int32_t rank, at, left, right, merged;
        bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : at > o.at; }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
    std::vector<Candidate> created;
    auto consider = [&](std::int32_t at, std::vector<Candidate>& into) {
        if (at < 0 || next[at] >= n)
            return;
        const auto found = d.merges.find(Data::pair_key(id[at], id[next[at]]));
        if (found != d.merges.end())
            into.push_back({found->second.rank, at, id[at], id[next[at]], found->second.id});
    };
    for (std::int32_t i = 0; i + 1 < n; ++i)
        consider(i, created);
    for (const Candidate& c : created)
        heap.push(c);
    while (!heap.empty()) {
        const std::int32_t rank = heap.top().rank;
        created.clear();
        while (!heap.empty() && heap.top().rank == rank) {
            const Candidate c = heap.top();
            heap.pop();
            // Gone stale: the left one was merged into its neighbour, or either side has changed.
            if (id[c.at] != c.left || next[c.at] >= n || id[next[c.at]] != c.right)
                continue;
            const std::int32_t gone = next[c.at];
            id[c.at] = c.merged;
            id[gone] = -1;
            next[c.at] = next[gone];
            if (next[gone] < n)
                prev[next[gone]] = c.at;
            consider(prev[c.at], created);
            consider(c.at, created);
        }
        for (const Candidate& c : created)
            heap.push(c);
    }
    for (std::int32_t i = 0; i < n; i = next[i])
        out.push_back(id[i]);
}

void encode_ordinary(const Gpt2Tokenizer::Data& d, std::string_view text, std::vector<std::int64_t>& out)
{
    std::vector<std::int32_t> merged;
    for (std::string_view piece : gpt2_pretokenize(text)) {
        merged.clear();
        const bool cacheable = piece.size() <= Gpt2Tokenizer::Data::kCachedPieceBytes;
        if (cacheable) {
            std::lock_guard lock(d.cache_mutex);
            if (const auto hit = d.cache.find(std::string(piece)); hit != d.cache.end())
                merged = hit->second;
        }
        if (merged.empty()) {
            merge_piece(d, piece, merged);
            if (cacheable) {
                std::lock_guard lock(d.cache_mutex);
                if (d.cache.size() >= Gpt2Tokenizer::Data::kCacheLimit)
                    d.cache.clear();
                d.cache.emplace(std::string(piece), merged);
            }
        }
        out.insert(out.end(), merged.begin(), merged.end());
    }
}

std::size_t char_length(unsigned char lead)
{
    return lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
}

} // namespace

std::vector<std::int64_t> Gpt2Tokenizer::encode(std::string_view text, bool allow_special) const
{
    require_utf8(text, "the text");
    std::vector<std::int64_t> out;
    out.reserve(text.size() / 3 + 1);
    if (!allow_special || data_->end_of_text < 0) {
        encode_ordinary(*data_, text, out);
        return out;
    }
    std::size_t start = 0;
    for (std::size_t at; (at = text.find(kEndOfTextText, start)) != std::string_view::npos;) {
        encode_ordinary(*data_, text.substr(start, at - start), out);
        out.push_back(data_->end_of_text);
        start = at + kEndOfTextText.size();
    }
    encode_ordinary(*data_, text.substr(start), out);
    return out;
}

std::string Gpt2Tokenizer::decode(const std::vector<std::int64_t>& ids) const
{
    std::string out;
    for (std::int64_t id : ids)
        out += piece_bytes(id);
    return out;
}

std::string Gpt2Tokenizer::decode_text(const std::vector<std::int64_t>& ids) const
{
    return replace_malformed_utf8(decode(ids));
}

std::int64_t Gpt2Tokenizer::vocab_size() const
{
    return static_cast<std::int64_t>(data_->pieces.size());
}

std::size_t Gpt2Tokenizer::merge_count() const
{
    return data_->merges.size();
}

std::int64_t Gpt2Tokenizer::end_of_text_id() const
{
    return data_->end_of_text;
}

const Gpt2TokenizerFiles& Gpt2Tokenizer::files() const
{
    return data_->files;
}

const std::string& Gpt2Tokenizer::piece_bytes(std::int64_t id) const
{
    if (id < 0 || id >= vocab_size())
        throw Error("token id " + std::to_string(id) + " is outside the vocabulary of " + data_->files.vocab +
                    "; its ids are 0 to " + std::to_string(vocab_size() - 1) + ".");
    return data_->pieces[static_cast<std::size_t>(id)];
}

std::string Gpt2Tokenizer::piece_symbols(std::int64_t id) const
{
    return gpt2_byte_symbols(piece_bytes(id));
}

std::string Gpt2Tokenizer::piece_text(std::int64_t id) const
{
    return readable_piece(piece_bytes(id));
}

std::optional<std::int64_t> Gpt2Tokenizer::id_of(std::string_view bytes) const
{
    const auto found = data_->ids.find(std::string(bytes));
    if (found == data_->ids.end())
        return std::nullopt;
    return found->second;
}

std::string readable_piece(std::string_view bytes)
{
    std::string out;
    for (std::size_t i = 0; i < bytes.size();) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c >= 0x80 && utf8_malformed_length(bytes, i) == 0) {
            const std::size_t length = char_length(c);
            out.append(bytes.substr(i, length));
            i += length;
            continue;
        }
        if (c == ' ')
            out += "\u2423"; // ␣
        else if (c == '\n')
            out += "\u21B5"; // ↵
        else if (c == '\t')
            out += "\u21E5"; // ⇥
        else if (c < 0x20 || c >= 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            out += escaped;
        } else
            out += static_cast<char>(c);
        ++i;
    }
    return out;
}

std::string replace_malformed_utf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        if (const std::size_t bad = utf8_malformed_length(bytes, i)) {
            out += "\uFFFD";
            i += bad;
            continue;
        }
        const std::size_t length = char_length(static_cast<unsigned char>(bytes[i]));
        out.append(bytes.substr(i, length));
        i += length;
    }
    return out;
}

} // namespace attnlab
