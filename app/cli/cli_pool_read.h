#pragma once
// `pool`'s reader: the `train --json` documents a class hands in, each read whole within stated bounds and checked
// field by field before any number of it is used, so a truncated, hand-edited or foreign file is named in one
// sentence and never crashes the teacher's command (tests/cli/test_cli_pool.cpp feeds it such files).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cli {

// A class is tens of files of tens of kilobytes; these bound what a mistaken folder (a whole disk, a video) costs.
inline constexpr std::size_t kPoolMaxFiles = 500;
inline constexpr std::uintmax_t kPoolMaxFileBytes = std::uintmax_t{64} << 20;
inline constexpr std::uintmax_t kPoolMaxTotalBytes = std::uintmax_t{256} << 20;

// One seed of one variant, as the file holds it.
struct PoolSeed {
    std::uint64_t seed = 0;
    bool diverged = false; // then only `entry` says how
    double loss = 0.0, accuracy = 0.0, steps_to_90 = 0.0;
    nlohmann::ordered_json entry;
};

struct PoolVariant {
    std::int64_t heads = 0, kv_groups = 0, head_dim = 0, kv_bytes_per_token = 0;
    std::vector<PoolSeed> seeds;
};

// The train option that sets a setting, and its value: what two files must share to be pooled.
struct PoolSetting {
    const char* key;    // train --json's name, e.g. "context_length"
    const char* option; // train's option, e.g. "--context"
    nlohmann::ordered_json value;
};

struct TrainDocument {
    std::string path;
    std::vector<PoolSetting> settings; // task, vocab, context, emb, layers, window (0: none), steps, batch, lr, wd
    std::vector<PoolVariant> variants; // in the file's order
    const nlohmann::ordered_json& value(const char* key) const; // one of the settings' keys
    std::int64_t setting(const char* key) const { return value(key).get<std::int64_t>(); }
};

// The files FILE... | DIR names, in the order given, each DIR as its *.json sorted by name (not recursive).
// Throws attnlab::Error with one sentence for none, an empty folder, more than kPoolMaxFiles files, or files
// together larger than kPoolMaxTotalBytes.
std::vector<std::string> pool_input_files(const std::vector<std::string>& inputs);

// Throws attnlab::Error naming the file and what is wrong with it.
TrainDocument read_train_document(const std::string& path);

} // namespace cli
