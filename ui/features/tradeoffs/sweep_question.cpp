#include "features/tradeoffs/sweep_question.h"

#include <cstdio>

namespace attnlab::ui {

std::optional<poll::Question> bestVariantQuestion(const std::string& id, const std::vector<SweepRow>& rows,
                                                  bool grouped)
{
    if (rows.size() < 2 || rows.size() > 8)
        return std::nullopt;
    std::size_t best = 0;
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (rows[i].accuracy.mean > rows[best].accuracy.mean)
            best = i;
    std::vector<std::string> choices;
    for (const SweepRow& r : rows)
        choices.push_back(sweepVariantName(r.heads, r.kvGroups, grouped).toStdString());
    poll::Question q = poll::from_choices(grouped ? "Which number of key/value heads reached the best held-out "
                                                    "accuracy?"
                                                  : "Which head count reached the best held-out accuracy?",
                                          choices, static_cast<int>(best));
    q.id = id;
    poll::Field& f = q.fields.front();
    const SweepRow& top = rows[best];
    char line[160];
    std::snprintf(line, sizeof line, "%s: %.2f", choices[best].c_str(), top.accuracy.mean);
    f.explanation = line;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (i != best && rows[i].accuracy.mean >= top.accuracy.mean - top.accuracy.std) {
            f.also_right.push_back(std::to_string(i));
            std::snprintf(line, sizeof line, "; %s: %.2f, within the best one's spread over seeds (±%.2f)",
                          choices[i].c_str(), rows[i].accuracy.mean, top.accuracy.std);
            f.explanation += line;
        }
    return q;
}

} // namespace attnlab::ui
