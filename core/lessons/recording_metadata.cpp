// The metadata of a recording, field by field: events, scopes, attributes, state, each type-checked.
#include "lessons/recording_detail.h"

#include <algorithm>
#include <cmath>

namespace attnlab::detail {

namespace {

Tensor find_tensor(const SafetensorsFile& file, const std::string& name, const std::string& path, bool* is_float)
{
    if (!file.dtypes.count(name))
        malformed(path, "it names a tensor '" + name.substr(0, 60) + "' that the file does not hold");
    const Tensor* t = file.find(name);
    *is_float = t != nullptr;
    return t ? *t : Tensor{};
}

RecordedEvent read_event(const Json& json, int i, const SafetensorsFile& file, const std::string& path)
{
    const Fields f{json, path, "event " + std::to_string(i)};
    RecordedEvent e;
    if (!f.get("index").is_number_integer() || f.get("index").get<std::int64_t>() != i)
        malformed(path, f.where + " is out of order");
    e.index = i;
    e.kind = f.text("kind");
    if (e.kind != "assign" && e.kind != "return" && e.kind != "error")
        malformed(path, f.where + " has the unknown kind '" + e.kind.substr(0, 20) + "'");
    e.scope = f.text("scope");
    e.line = f.line("line");
    e.source = f.text("source");
    e.type = f.optional_text("type");
    e.message = f.optional_text("message");
    if (e.kind == "error")
        return e;
    e.variable = f.text("variable");
    const std::string tensor = f.text("tensor", true);
    if (tensor.empty())
        return e;
    e.shape = f.shape("shape");
    e.strides = f.shape("strides");
    e.dtype = f.text("dtype");
    e.contiguous = !f.get("contiguous").is_boolean() || f.get("contiguous").get<bool>();
    bool is_float = false;
    Tensor value = find_tensor(file, tensor, path, &is_float);
    if (is_float && value.shape() != e.shape)
        malformed(path, f.where + "'s tensor has shape " + shape_to_string(value.shape()) + ", not the recorded " +
                            shape_to_string(e.shape));
    e.value = value;
    return e;
}

} // namespace

void read_metadata(Recording& rec, const Json& meta, const SafetensorsFile& file, const std::string& path)
{
    const Fields top{meta, path, "the recording"};
    rec.class_name = top.text("class");
    rec.torch_version = top.optional_text("torch");
    const Json& attributes = top.get("attributes");
    if (!attributes.is_object())
        malformed(path, "its attributes are not an object");
    for (const auto& [name, v] : attributes.items()) {
        // Integers are kept as doubles, exact up to 2^53; a larger one (2^63 would come back as a negative
        // int64) is no module's setting.
        constexpr double kExact = 9007199254740992.0;
        if (v.is_number_integer() && std::abs(v.get<double>()) > kExact)
            malformed(path, "its attribute \"" + printable_name(name) + "\" is " + v.dump() +
                                ", beyond the whole numbers a recording keeps exactly (up to 2^53 in size)");
        if (v.is_number() && !v.is_boolean())
            rec.attributes[name] = {v.get<double>(), v.is_number_integer()};
    }
    bool is_float = false;
    rec.input = find_tensor(file, Fields{top.get("input"), path, "the input"}.text("tensor"), path, &is_float);
    if (!is_float)
        malformed(path, "its input is not a floating-point tensor");
    const Json& state = top.get("state");
    if (!state.is_array())
        malformed(path, "its state is not a list");
    for (const Json& entry : state) {
        const Fields f{entry, path, "a state entry"};
        const std::string key = f.text("key"), tensor = f.text("tensor", true), kind = f.text("kind");
        if (kind == "buffer")
            rec.buffers.push_back(key);
        if (kind != "parameter" || tensor.empty())
            continue;
        if (Tensor t = find_tensor(file, tensor, path, &is_float); is_float)
            rec.parameters[key] = t;
    }
    const Json& scopes = top.get("scopes");
    if (!scopes.is_array())
        malformed(path, "its scopes are not a list");
    for (const Json& s : scopes) {
        const Fields f{s, path, "a scope"};
        rec.scopes.push_back({f.text("scope"), f.text("class"), f.optional_text("file"),
                              std::max(1, f.line("first_line")), f.text("source")});
    }
    const Json& events = top.get("events");
    if (!events.is_array())
        malformed(path, "its events are not a list");
    for (std::size_t i = 0; i < events.size(); ++i)
        rec.events.push_back(read_event(events[i], static_cast<int>(i), file, path));
    for (const RecordedEvent& e : rec.events)
        if (e.kind == "error" && e.index + 1 != static_cast<int>(rec.events.size()))
            malformed(path, "an error event is not the last one");
    if (!rec.events.empty() && rec.events.back().kind == "error")
        rec.error = rec.events.back();
    if (rec.error.has_value() == top.get("error").is_null())
        malformed(path, "its error and its events disagree");
}

} // namespace attnlab::detail
