#include "call/slot.h"

namespace attnlab {

std::string slot_name(Slot slot)
{
    switch (slot) {
    case Slot::d_in: return "d_in";
    case Slot::d_out: return "d_out";
    case Slot::context_length: return "context_length";
    case Slot::dropout: return "dropout";
    case Slot::num_heads: return "num_heads";
    case Slot::qkv_bias: return "qkv_bias";
    case Slot::batch: return "batch";
    case Slot::num_tokens: return "num_tokens";
    case Slot::num_kv_groups: return "num_kv_groups";
    case Slot::window_size: return "window_size";
    }
    return "unknown";
}

std::optional<Slot> slot_from_name(std::string_view name)
{
    for (Slot slot : kSlots)
        if (name == slot_name(slot))
            return slot;
    return std::nullopt;
}

} // namespace attnlab
