#include "cli/cli_train_heads.h"

#include <algorithm>
#include <cstdio>

namespace cli {

using namespace attnlab::train;

nlohmann::ordered_json heads_json(const HeadReport& report)
{
    nlohmann::ordered_json heads = nlohmann::ordered_json::array();
    for (const HeadStats& h : report.heads) {
        const HeadShares& s = h.shares;
        heads.push_back({{"layer", h.layer},
                         {"head", h.head},
                         {"previous", s.previous},
                         {"first", s.first},
                         {"self", s.self},
                         {"induction", s.induction_positions ? nlohmann::ordered_json(s.induction) : nullptr},
                         {"induction_positions", s.induction_positions},
                         {"entropy", s.entropy},
                         {"role", role_name(h.role)},
                         {"ablated_loss", report.ablated ? nlohmann::ordered_json(h.ablated.loss) : nullptr},
                         {"ablated_accuracy", report.ablated ? nlohmann::ordered_json(h.ablated.accuracy) : nullptr}});
    }
    return heads;
}

std::string ablation_note(const HeadReport& report)
{
    if (report.ablated)
        return {};
    return report.skipped +
           (report.skipped.find("as asked") == std::string::npos ? " --head-ablation all measures it anyway." : "");
}

void print_heads(const HeadReport& report)
{
    if (!report.ablated)
        std::printf("  (%s)\n", ablation_note(report).c_str());
    std::printf("  layer  head   prev  first   self  induction  entropy  role            ablated loss  ablated acc\n");
    for (const HeadStats& h : report.heads) {
        const HeadShares& s = h.shares;
        char induction[16] = "        -";
        if (s.induction_positions)
            std::snprintf(induction, sizeof induction, "%9.3f", s.induction);
        char ablated[32] = "           -            -";
        if (report.ablated)
            std::snprintf(ablated, sizeof ablated, "%12.3f  %11.3f", h.ablated.loss, h.ablated.accuracy);
        std::printf("  %5lld  %4lld  %5.3f  %5.3f  %5.3f  %s  %7.3f  %-14s  %s\n", static_cast<long long>(h.layer),
                    static_cast<long long>(h.head), s.previous, s.first, s.self, induction, s.entropy,
                    role_name(h.role), ablated);
    }
}

std::string heads_how()
{
    return "heads: attention weights in eval mode on the task's held-out sequences; prev, first and self: the share "
           "on t-1, on token 0 and on t itself, entropy in nats, each averaged over query positions 1 .. T-1; "
           "induction: the share on the tokens right after earlier occurrences of the current token, averaged over "
           "the positions that have one (- when none); ablated: held-out loss and accuracy with that head's output "
           "zeroed (its columns of out_proj), - where the report left the ablation out (it reruns the layers after "
           "each head, heads x (layers + 1) / 2 held-out passes: by default only when that costs no more than "
           "the training did, or 16 passes); " +
           std::string(kHeadRoleRule);
}

} // namespace cli
