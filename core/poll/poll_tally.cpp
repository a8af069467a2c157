#include "poll/poll_tally.h"

#include "tensor/error.h"

#include <algorithm>
#include <utility>

namespace attnlab::poll {

Tally::Tally(Question question) : question_(std::move(question)), rounds_(1) {}

void Tally::next_round()
{
    rounds_.emplace_back();
}

const std::map<std::string, Answer>& Tally::answers(int round) const
{
    if (round < 1 || round > this->round())
        throw Error("This poll has rounds 1 to " + std::to_string(this->round()) + ", not " + std::to_string(round) +
                    ".");
    return rounds_[static_cast<std::size_t>(round - 1)];
}

const Field& Tally::field(const std::string& name) const
{
    for (const Field& f : question_.fields)
        if (f.name == name)
            return f;
    throw Error("This question has no field " + quoted(name) + ".");
}

Answer Tally::record(const std::string& device, int round, const Answer& raw)
{
    if (round != this->round())
        throw Error("That answer is for round " + std::to_string(round) + "; round " + std::to_string(this->round()) +
                    " is open.");
    Answer answer = read_answer(question_, raw);
    auto& now = rounds_.back();
    if (!now.count(device) && now.size() >= kMostDevices)
        throw Error("This poll already counts " + std::to_string(kMostDevices) + " devices, the most it takes.");
    now[device] = answer;
    return answer;
}

bool Tally::has(int round, const std::string& device) const
{
    return answers(round).count(device) > 0;
}

std::size_t Tally::answered(int round) const
{
    return answers(round).size();
}

std::vector<ValueCount> Tally::distribution(int round, const std::string& name) const
{
    const Field& f = field(name);
    std::map<std::string, int> counts;
    for (const auto& [device, answer] : answers(round))
        ++counts[answer.at(name)];
    std::vector<ValueCount> out;
    for (const auto& [value, count] : counts)
        out.push_back({value, count, is_right(f, value)});
    std::stable_sort(out.begin(), out.end(), [](const ValueCount& a, const ValueCount& b) {
        return a.count != b.count ? a.count > b.count : a.right > b.right;
    });
    return out;
}

double Tally::right_share(int round) const
{
    const auto& all = answers(round);
    if (all.empty())
        return 0;
    std::size_t right = 0;
    for (const auto& entry : all) { // not a structured binding: clang 14 cannot capture one in the lambda
        const Answer& answer = entry.second;
        right += std::all_of(question_.fields.begin(), question_.fields.end(),
                             [&](const Field& f) { return is_right(f, answer.at(f.name)); });
    }
    return static_cast<double>(right) / static_cast<double>(all.size());
}

std::vector<std::string> Tally::wrong_said(int round, const std::string& name, std::size_t most) const
{
    const Field& f = field(name);
    std::vector<std::string> out;
    for (const ValueCount& v : distribution(round, name)) {
        if (v.right || out.size() >= most)
            continue;
        std::string given = v.value, truth = f.right;
        switch (f.kind) {
        case FieldKind::Size: {
            const std::int64_t size = size_of(f, v.value);
            if (v.value != std::to_string(size))
                given += " (" + std::to_string(size) + ")";
            truth = f.explanation.empty() ? f.right : f.explanation;
            break;
        }
        case FieldKind::Choice: {
            const auto at = [&](const std::string& i) { return f.choices.at(std::stoul(i)); };
            given = at(v.value);
            truth = at(f.right);
            break;
        }
        case FieldKind::Cells: given = v.value.empty() ? "no cell" : v.value; break;
        case FieldKind::YesNo: break;
        }
        out.push_back(std::to_string(v.count) + " said " + given + " where " + f.label + " is " + truth);
    }
    return out;
}

} // namespace attnlab::poll
