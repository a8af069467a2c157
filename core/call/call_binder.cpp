// Binds a read call to the module's constructor the way Python would: positional values fill slots
// left to right, keywords fill the rest, nothing twice, nothing missing. Then each value must be the
// kind of literal its slot takes; we refuse early what PyTorch would only trip over later.
#include "call/call_literals.h"
#include "call/call_messages.h"
#include "call/call_parser.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

std::string int_example(const std::string& slot)
{
    return slot == "num_heads"        ? "12"
           : slot == "num_kv_groups"  ? "4"
           : slot == "window_size"    ? "256"
           : slot == "context_length" ? "1024"
                                      : "768";
}

class Binder {
public:
    Binder(ModuleKind kind, std::string_view text, ParsedCall& out)
        : kind_(kind), name_(module_class_name(kind)), text_(text), out_(out)
    {
        out_.config = Config{};
        config().kind = kind;
        if (kind == ModuleKind::SimpleSelfAttention) // no arguments: the width is the book's tokens' until an input
                                                     // says otherwise
            config().d_in = config().d_out = 3;
    }
    void bind();

private:
    Config& config() { return *out_.config; }
    const std::string& class_name() const { return name_; }
    void fail(std::size_t column, std::string message)
    {
        if (!out_.error)
            out_.error = CallError{std::move(message), column};
    }
    std::string where(const CallArgument& arg, std::size_t position) const
    {
        return arg.keyword
                   ? arg.slot
                   : arg.slot + " (the " + ordinal(position + 1) + " positional argument of " + class_name() + ")";
    }
    void assign(const CallArgument& arg, std::size_t position);
    void assign_int(const CallArgument& arg, const std::string& who, std::int64_t& target);
    void assign_dropout(const CallArgument& arg, const std::string& who);

    ModuleKind kind_;
    std::string name_;
    std::string_view text_;
    ParsedCall& out_;
};

void Binder::bind()
{
    auto& args = out_.syntax.arguments;
    const auto& slots = module_slots(kind_);
    std::vector<std::size_t> given(slots.size(), args.size()); // argument index per slot; args.size() = none
    const auto positional = static_cast<std::size_t>(
        std::count_if(args.begin(), args.end(), [](const CallArgument& a) { return !a.keyword; }));
    std::size_t next = 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
        CallArgument& arg = args[i];
        if (!arg.keyword) {
            if (next < slots.size()) {
                given[next] = i;
                arg.slot = slots[next];
            } else if (next == slots.size() && slots.empty()) {
                fail(arg.begin, class_name() + " takes no arguments (its width is the input's), but " +
                                    std::to_string(positional) + (positional == 1 ? " was" : " were") + " given.");
            } else if (next == slots.size()) {
                const std::string most = kind_ == ModuleKind::SelfAttentionV1 ? "" : "at most ";
                fail(arg.begin, class_name() + " takes " + most + std::to_string(slots.size()) +
                                    " positional arguments (" + list_words(slots) + "), but " +
                                    std::to_string(positional) + " were given.");
            }
            ++next;
            continue;
        }
        // Hugging Face configs name GroupedQueryAttention's key/value heads num_key_value_heads; the book's
        // bonus code, and this module, num_kv_groups. Both fill the one slot.
        if (*arg.keyword == "num_key_value_heads" && kind_ == ModuleKind::GroupedQueryAttention)
            arg.keyword = "num_kv_groups";
        const auto slot = std::find(slots.begin(), slots.end(), *arg.keyword);
        if (slot == slots.end()) {
            fail(arg.begin, unknown_keyword_message(kind_, *arg.keyword));
            continue;
        }
        const auto index = static_cast<std::size_t>(slot - slots.begin());
        if (given[index] < args.size()) {
            const CallArgument& first = args[given[index]];
            fail(arg.begin, class_name() + " got multiple values for argument '" + *slot + "': " +
                                (first.keyword ? "the keyword appears twice"
                                               : "the " + ordinal(index + 1) + " positional argument (" +
                                                     clip(first.text) + ") already fills it") +
                                ", so keep only one.");
            continue;
        }
        given[index] = i;
        arg.slot = *slot;
    }
    if (out_.error)
        return;

    std::vector<std::string> missing;
    for (std::size_t s = 0; s < slots.size(); ++s)
        if (given[s] == args.size() && slots[s] != "qkv_bias" && slots[s] != "window_size")
            missing.push_back("'" + slots[s] + "'");
    if (!missing.empty()) {
        const bool one = missing.size() == 1;
        fail(text_.rfind(')'), class_name() + " is missing " + std::to_string(missing.size()) + " required argument" +
                                   (one ? "" : "s") + ", " + list_words(missing) + "; it takes " + list_words(slots) +
                                   (kind_ == ModuleKind::SelfAttentionV1 ? "" : ", of which qkv_bias may be left out") +
                                   ".");
        return;
    }
    std::size_t position = 0;
    for (const CallArgument& arg : args) {
        assign(arg, position);
        position += arg.keyword ? 0 : 1;
    }
}

void Binder::assign_int(const CallArgument& arg, const std::string& who, std::int64_t& target)
{
    const std::string said = who + " = " + clip(arg.text);
    if (arg.kind == LiteralKind::Int) {
        if (const auto value = python_int_value(arg.value()))
            return void(target = *value);
        return fail(arg.value_begin, "the integer " + clip(arg.text) + " given for " + who +
                                         " does not fit in 64 bits (the largest allowed is 9223372036854775807).");
    }
    if (arg.kind == LiteralKind::Float) {
        std::string advice = "write a whole number";
        const auto value = python_float_value(arg.value());
        if (value && std::fabs(*value) < 9.0e18) {
            const auto low = static_cast<std::int64_t>(std::floor(*value));
            const auto high = static_cast<std::int64_t>(std::ceil(*value));
            advice = low == high
                         ? "write " + std::to_string(low)
                         : "write a whole number such as " + std::to_string(low) + " or " + std::to_string(high);
            // Every int slot is a size: advising 0 or less would only trade this error for the next one.
            if (high <= 0)
                advice = "write a positive whole number such as " + int_example(arg.slot);
            else if (low <= 0)
                advice = "write " + std::to_string(high);
        }
        return fail(arg.value_begin, said + " is a float where an int belongs; " + advice + ".");
    }
    const std::string example = int_example(arg.slot);
    if (arg.kind == LiteralKind::Bool)
        return fail(arg.value_begin,
                    said + " is a bool, but " + arg.slot + " needs a positive integer such as " + example + ".");
    if (arg.kind == LiteralKind::None)
        return fail(arg.value_begin,
                    said + " leaves " + arg.slot + " unset, but it needs a positive integer such as " + example + ".");
    fail(arg.value_begin,
         said + " is not a literal number; write the integer itself, as in " + arg.slot + "=" + example + ".");
}

void Binder::assign_dropout(const CallArgument& arg, const std::string& who)
{
    const std::string range = "; dropout is a probability in [0, 1], such as 0.0 or 0.1.";
    if (arg.kind == LiteralKind::Int) {
        if (const auto value = python_int_value(arg.value()))
            return void(config().dropout = static_cast<double>(*value));
        return fail(arg.value_begin,
                    "the integer " + clip(arg.text) + " given for " + who + " is far too large" + range);
    }
    if (arg.kind == LiteralKind::Float) {
        if (const auto value = python_float_value(arg.value()))
            return void(config().dropout = *value);
        return fail(arg.value_begin, "the float " + clip(arg.text) + " given for " + who + " is too large" + range);
    }
    fail(arg.value_begin, who + " = " + clip(arg.text) + " is not a number literal" + range);
}

void Binder::assign(const CallArgument& arg, std::size_t position)
{
    const std::string who = where(arg, position);
    Config& c = config();
    if (arg.slot == "d_in")
        return assign_int(arg, who, c.d_in);
    if (arg.slot == "d_out")
        return assign_int(arg, who, c.d_out);
    if (arg.slot == "context_length")
        return assign_int(arg, who, c.context_length);
    if (arg.slot == "num_heads")
        return assign_int(arg, who, c.num_heads);
    if (arg.slot == "num_kv_groups")
        return assign_int(arg, who, c.num_kv_groups);
    if (arg.slot == "window_size") { // None: the whole causal context; validate() judges the number
        if (arg.kind == LiteralKind::None)
            return void(c.window_size.reset());
        std::int64_t window = 0;
        assign_int(arg, who, window);
        if (!out_.error)
            c.window_size = window;
        return;
    }
    if (arg.slot == "dropout")
        return assign_dropout(arg, who);
    if (arg.slot == "qkv_bias") {
        if (arg.kind == LiteralKind::Bool)
            return void(c.qkv_bias = arg.value() == "True");
        return fail(arg.value_begin, who + " must be True or False, not " + clip(arg.text) + ".");
    }
}

} // namespace

ParsedCall parse_call(std::string_view text)
{
    ParsedCall out;
    try {
        out = parse_call_syntax(text);
        // Read left to right, a misspelt class name comes before anything wrong in its arguments.
        const std::string& name = out.syntax.class_name;
        const auto kind = module_kind_from_name(name);
        if (!name.empty() && !kind) {
            out.error = CallError{unknown_class_message(name), out.syntax.class_begin};
            return out;
        }
        if (out.error || !kind)
            return out;
        Binder(*kind, text, out).bind();
        if (out.error)
            out.config.reset();
    } catch (...) {
        // Only allocation can throw here; report it instead of letting it escape into the GUI.
        out.config.reset();
        out.error = CallError{"the call could not be read because memory ran out.", 0};
    }
    return out;
}

} // namespace attnlab
