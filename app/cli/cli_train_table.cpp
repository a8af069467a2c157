#include "cli/cli_train_table.h"

#include "train/sweep.h"

#include <cstdio>

namespace cli {

using json = nlohmann::ordered_json;

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string mean_std(const json& row, const char* mean, const char* std_key)
{
    const std::string m = fixed(row[mean].get<double>(), 3);
    return row[std_key].is_null() ? m + " (1 seed)" : m + " +- " + fixed(row[std_key].get<double>(), 3);
}

void add_seed_means(json& row, const std::vector<double>& loss, const std::vector<double>& accuracy,
                    const std::vector<double>& steps_to_90)
{
    using attnlab::train::spread;
    const attnlab::train::Spread l = spread(loss), a = spread(accuracy), t = spread(steps_to_90);
    const json none = nullptr;
    row.update({{"val_loss_mean", l.mean},
                {"val_loss_std", loss.size() > 1 ? json(l.std) : none},
                {"val_accuracy_mean", a.mean},
                {"val_accuracy_std", loss.size() > 1 ? json(a.std) : none},
                {"seeds_finished", loss.size()},
                {"steps_to_90_mean", t.mean}});
}

std::string variant_name(std::int64_t heads, std::int64_t kv_groups)
{
    std::string name = std::to_string(heads) + " head(s)";
    if (kv_groups != heads)
        name += " in " + std::to_string(kv_groups) + " key/value group(s)";
    return name;
}

std::string table_heading()
{
    return "heads  kv_groups  head_dim  KV bytes/token  held-out loss     held-out accuracy  to 90% of best";
}

std::string table_columns(const json& row)
{
    char buf[512];
    const long long heads = row["n_heads"].get<long long>(), groups = row["kv_groups"].get<long long>(),
                    head_dim = row["head_dim"].get<long long>(), kv_bytes = row["kv_bytes_per_token"].get<long long>();
    if (row.contains("diverged"))
        std::snprintf(buf, sizeof buf, "%5lld  %9lld  %8lld  %14lld  %s", heads, groups, head_dim, kv_bytes,
                      row["diverged"].get<std::string>().c_str());
    else
        std::snprintf(buf, sizeof buf, "%5lld  %9lld  %8lld  %14lld  %-14s    %-14s     %14.0f", heads, groups,
                      head_dim, kv_bytes, mean_std(row, "val_loss_mean", "val_loss_std").c_str(),
                      mean_std(row, "val_accuracy_mean", "val_accuracy_std").c_str(),
                      row["steps_to_90_mean"].get<double>());
    return buf;
}

std::string measures_how(std::int64_t eval_every)
{
    return "held-out loss and accuracy: mean cross-entropy and share of correct next-token guesses over the task's "
           "held-out positions after the last step, eval mode; mean +- sample std over seeds (a spread needs two: "
           "one seed says \"1 seed\"); to 90% of best: the first held-out measurement (every " +
           std::to_string(eval_every) + " steps) reaching 90% of that run's own best accuracy (not 90% accuracy)";
}

} // namespace cli
