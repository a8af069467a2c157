#pragma once
// One setting a student can change: a constructor slot or one of the input's two sizes. Named as the
// book's Python writes them, so slot_name() is the text the call line, the CLI and the GUI show.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

// num_kv_groups and window_size are appended: the values of the first eight are stored.
enum class Slot {
    d_in,
    d_out,
    context_length,
    dropout,
    num_heads,
    qkv_bias,
    batch,
    num_tokens,
    num_kv_groups,
    window_size
};

inline constexpr std::array kSlots = {Slot::d_in,      Slot::d_out,         Slot::context_length, Slot::dropout,
                                      Slot::num_heads, Slot::num_kv_groups, Slot::qkv_bias,       Slot::window_size,
                                      Slot::batch,     Slot::num_tokens};

std::string slot_name(Slot slot); // "d_in", "num_tokens", ...
std::optional<Slot> slot_from_name(std::string_view name);

} // namespace attnlab
