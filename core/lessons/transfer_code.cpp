// The Python each transfer writes, built from the student's choices per line (written or not, .T or
// not), so no caller edits source text to show a variant.
#include "lessons/transfer.h"

namespace attnlab {

namespace {

std::string parameter_name(TransferRole role)
{
    return "W_" + role_name(role); // W_query
}

// `target = torch.nn.Parameter(source.T)` and its note; without .T when not transposed, commented out
// when not written.
std::string assignment(const std::string& target, const std::string& source, const TransferLine& line,
                       const std::string& note)
{
    const std::string code = target + " = torch.nn.Parameter(" + source + (line.transpose ? ".T" : "") + ")" + note;
    return line.written ? code : "# " + code + "   <- missing";
}

} // namespace

std::vector<std::string> transfer_code(const TransferSpec& spec)
{
    std::vector<std::string> lines;
    for (TransferRole role : kTransferRoles) {
        const std::string name = parameter_name(role);
        lines.push_back(assignment("sa_v1." + name, "sa_v2." + name + ".weight", spec.line(role), ""));
    }
    return lines;
}

std::vector<std::string> gpt2_transfer_code(const TransferSpec& spec)
{
    std::vector<std::string> lines = {
        "q_w, k_w, v_w = torch.split(block.attn.c_attn.weight, d, dim=-1)  # (d, 3d) -> 3 x (d, d), Conv1D (in, out)"};
    for (TransferRole role : kTransferRoles) {
        const std::string part = role_name(role).substr(0, 1) + "_w"; // q_w, k_w, v_w
        const std::string note = role == TransferRole::Query ? "  # nn.Linear stores (out, in)" : "";
        lines.push_back(assignment("mha." + parameter_name(role) + ".weight", part, spec.line(role), note));
    }
    return lines;
}

} // namespace attnlab
