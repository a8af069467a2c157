// The safetensors header in one SAX pass: linear in its length whatever it holds (a DOM of ordered objects
// costs quadratic time on a header of many entries), duplicate names and fields seen as they come (a DOM
// keeps the last silently), and fields the reader does not use skipped without being stored.
#include "io/safetensors_detail.h"

#include <nlohmann/json.hpp>

#include <set>
#include <unordered_set>

namespace attnlab::detail {

namespace {

using Json = nlohmann::json;
using Kind = JsonValue::Kind;

// Enough items to quote a list in a message, which cuts it at 60 characters anyway.
constexpr std::size_t kKeptItems = 64;

JsonValue make(Kind kind, std::string text)
{
    JsonValue value;
    value.kind = kind;
    value.text = std::move(text);
    return value;
}

class HeaderSax {
public:
    explicit HeaderSax(RawHeader& header) : header_(header) {}

    bool null() { return scalar(make(Kind::Null, "null")); }
    bool boolean(bool v) { return scalar(make(Kind::Boolean, v ? "true" : "false")); }
    bool number_integer(Json::number_integer_t v) { return scalar(make(Kind::Negative, std::to_string(v))); }
    bool number_unsigned(Json::number_unsigned_t v)
    {
        JsonValue value = make(Kind::Unsigned, std::to_string(v));
        value.number = v;
        return scalar(std::move(value));
    }
    bool number_float(Json::number_float_t, const std::string& raw) { return scalar(make(Kind::Float, raw)); }
    bool string(std::string& v) { return scalar(make(Kind::String, std::move(v))); }
    bool binary(Json::binary_t&) { return scalar(make(Kind::Null, "binary")); } // JSON text has none
    bool start_object(std::size_t) { return open(Kind::Object); }
    bool start_array(std::size_t) { return open(Kind::List); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& k);
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

private:
    // What the next value at the current place is.
    enum class Next { Nothing, Entry, Metadata, Field, Skip };

    bool scalar(JsonValue value);
    bool open(Kind kind);
    bool close();
    void duplicate(const std::string& what)
    {
        if (header_.duplicate.empty())
            header_.duplicate = what;
    }

    RawHeader& header_;
    int level_ = 0;        // 0 outside the header, 1 in it, 2 in an entry or __metadata__
    std::size_t skip_ = 0; // how deep inside a value that is not kept
    bool in_metadata_ = false;
    bool in_list_ = false; // target_ is a list being filled
    Next next_ = Next::Nothing;
    JsonValue* target_ = nullptr;
    std::unordered_set<std::string> names_;
    std::set<std::string> fields_; // cleared per entry: an unordered set's clear costs its largest bucket count
};

bool HeaderSax::key(std::string& k)
{
    if (skip_ > 0)
        return true;
    if (level_ == 1) {
        if (!names_.insert(k).second)
            duplicate("names '" + printable_name(k) + "' twice in its header; tensor names must be unique.");
        if (k == "__metadata__") {
            next_ = Next::Metadata;
        } else {
            header_.entries.push_back({k, false, {}, {}, {}});
            next_ = Next::Entry;
        }
        return true;
    }
    if (!fields_.insert(k).second)
        duplicate(in_metadata_ ? "has __metadata__ key '" + printable_name(k) + "' twice; metadata keys must be unique."
                               : "has a header entry '" + printable_name(header_.entries.back().name) +
                                     "' that gives \"" + printable_name(k) + "\" twice; each field may appear once.");
    RawEntry* entry = in_metadata_ ? nullptr : &header_.entries.back();
    if (!entry) {
        header_.metadata.emplace_back(k, JsonValue{});
        target_ = &header_.metadata.back().second;
    } else if (k == "dtype") {
        target_ = &entry->dtype.emplace();
    } else if (k == "shape") {
        target_ = &entry->shape.emplace();
    } else if (k == "data_offsets") {
        target_ = &entry->data_offsets.emplace();
    } else {
        next_ = Next::Skip;
        return true;
    }
    next_ = Next::Field;
    return true;
}

bool HeaderSax::scalar(JsonValue value)
{
    if (skip_ > 0)
        return true;
    if (in_list_) {
        ++target_->size;
        if (target_->items.size() < kKeptItems)
            target_->items.push_back(std::move(value));
        return true;
    }
    if (next_ == Next::Entry)
        header_.entries.back().is_object = false;
    else if (next_ == Next::Metadata)
        header_.metadata_is_object = false;
    else if (next_ == Next::Field)
        *target_ = std::move(value);
    next_ = Next::Nothing;
    return true;
}

bool HeaderSax::open(Kind kind)
{
    if (skip_ > 0) {
        ++skip_;
        return true;
    }
    if (in_list_) { // a list inside a kept list: counted, not kept
        ++target_->size;
        target_->nested = true;
        skip_ = 1;
        return true;
    }
    const Next next = std::exchange(next_, Next::Nothing);
    const bool object = kind == Kind::Object;
    if (level_ == 0 && next == Next::Nothing) {
        header_.is_object = object;
        if (object)
            level_ = 1;
        else
            skip_ = 1;
    } else if ((next == Next::Entry || next == Next::Metadata) && object) {
        level_ = 2;
        in_metadata_ = next == Next::Metadata;
        fields_.clear();
        if (!in_metadata_)
            header_.entries.back().is_object = true;
    } else if (next == Next::Field) {
        target_->kind = kind;
        in_list_ = !object;
        skip_ = object ? 1 : 0;
    } else {
        if (next == Next::Metadata)
            header_.metadata_is_object = false;
        skip_ = 1;
    }
    return true;
}

bool HeaderSax::close()
{
    if (skip_ > 0)
        --skip_;
    else if (in_list_)
        in_list_ = false;
    else
        --level_;
    return true;
}

} // namespace

bool parse_header_json(std::string_view text, RawHeader& header)
{
    HeaderSax sax(header);
    return Json::sax_parse(text, &sax);
}

std::string brief(const JsonValue& value)
{
    if (value.kind == Kind::List && value.nested)
        return "a nested list";
    if (value.kind == Kind::Object)
        return "an object";
    std::string text;
    if (value.kind == Kind::String) {
        text = Json(value.text).dump(-1, ' ', false, Json::error_handler_t::replace);
    } else if (value.kind == Kind::List) {
        text = "[";
        for (std::size_t i = 0; i < value.items.size(); ++i)
            text += (i ? "," : "") + brief(value.items[i]);
        text += value.size > value.items.size() ? ",...]" : "]";
    } else {
        text = value.text;
    }
    return text.size() > 60 ? printable_name(text.substr(0, 60)) + "..." : printable_name(text);
}

} // namespace attnlab::detail
