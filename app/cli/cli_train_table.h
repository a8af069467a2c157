#pragma once
// train's table of variants, shared by `train` (one sweep's runs) and `pool` (several students' `train --json`
// documents pooled): the same mean and sample std over seeds, the same columns and words, so a pooled table reads
// digit for digit as `train --seeds N` would print it for the same seeds.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cli {

std::string fixed(double v, int digits); // "%.*f"

// "0.881 +- 0.012", or "0.881 (1 seed)" where one seed gives no spread (the std is null).
std::string mean_std(const nlohmann::ordered_json& row, const char* mean, const char* std_key);

// The finished seeds' means and spreads into a variant's row: val_loss_mean, val_loss_std, val_accuracy_mean,
// val_accuracy_std, seeds_finished, steps_to_90_mean (train/sweep.h's spread, in the order given). A spread needs
// two runs: from one seed it is not 0 but unknown, so it is null. The values must not be empty.
void add_seed_means(nlohmann::ordered_json& row, const std::vector<double>& loss, const std::vector<double>& accuracy,
                    const std::vector<double>& steps_to_90);

// "4 head(s)", or "4 head(s) in 2 key/value group(s)" when they share keys and values.
std::string variant_name(std::int64_t heads, std::int64_t kv_groups);

// The columns both tables have, heads to "to 90% of best": the heading, and a row (its "diverged" sentence in
// place of the numbers when every seed diverged; each command adds its own last column to a finished row).
std::string table_heading();
std::string table_columns(const nlohmann::ordered_json& row);

// How the table's numbers were obtained, up to and with the steps to 90% (eval_every: SweepSpec::eval_every()).
std::string measures_how(std::int64_t eval_every);

} // namespace cli
