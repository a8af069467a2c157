#include "lessons/contract.h"

#include "pages/debug/contract_slots.h"

#include <algorithm>

namespace attnlab::ui {

std::vector<std::string> flaggedSlots(const ContractReport& report)
{
    std::vector<std::string> out;
    for (const ContractFinding& f : report.findings)
        for (const std::string& slot : f.slots)
            if (std::find(out.begin(), out.end(), slot) == out.end())
                out.push_back(slot);
    return out;
}

} // namespace attnlab::ui
