#include "cli/cli_pool_read.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace cli {

using json = nlohmann::ordered_json;
using attnlab::Error;
namespace fs = std::filesystem;

namespace {

// A train document nests seven levels (document, variants, variant, seeds, seed, curve, point); far deeper is
// not one, and is stopped while parsing.
constexpr int kMaxDepth = 16;
struct TooDeep {};

std::string file_named(const std::string& path)
{
    return "'" + attnlab::printable(path, 120) + "'";
}

// "more than 500 <what>, more than ...": a folder of a million files is refused, not listed.
std::string too_many(const std::string& what)
{
    return "more than " + std::to_string(kPoolMaxFiles) + " " + what +
           ", more than a class pools at once; split them into folders.";
}

// One file's fields, each checked as it is read; bad() names the file and the field.
class Fields {
public:
    explicit Fields(const std::string& path) : path_(path) {}

    [[noreturn]] void bad(const std::string& what) const
    {
        throw Error(file_named(path_) + " is not a train --json document: " + what +
                    "; give what `attention-lab-cli train ... --json` printed, unchanged.");
    }
    const json& at(const json& object, const char* key, const std::string& where) const
    {
        const auto it = object.find(key);
        if (it == object.end())
            bad(where + " has no \"" + key + "\"");
        return *it;
    }
    std::int64_t whole(const json& object, const char* key, const std::string& where, std::int64_t lo,
                       std::int64_t hi) const
    {
        const json& v = at(object, key, where);
        const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)
                                                 : v.is_number_integer() && v.get<std::int64_t>() <= hi;
        if (!fits || v.get<std::int64_t>() < lo)
            bad(where + "'s \"" + key + "\" is " + attnlab::printable(v.dump(), 40) + ", not a whole number from " +
                std::to_string(lo) + " to " + std::to_string(hi));
        return v.get<std::int64_t>();
    }
    double real(const json& object, const char* key, const std::string& where, double lo, double hi) const
    {
        const json& v = at(object, key, where);
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
            bad(where + "'s \"" + key + "\" is " + attnlab::printable(v.dump(), 40) + ", not a number from " +
                attnlab::printable(json(lo).dump()) + " to " + attnlab::printable(json(hi).dump()));
        return v.get<double>();
    }

private:
    std::string path_;
};

std::string read_bounded(const std::string& path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        throw Error(file_named(path) + " does not exist; give train --json documents or a folder of them.");
    if (!fs::is_regular_file(status))
        throw Error(file_named(path) + " is not a file; give train --json documents or a folder of them.");
    if (fs::file_size(path, ec) > kPoolMaxFileBytes && !ec)
        throw Error(file_named(path) +
                    " is larger than 64 MiB, far more than a train --json document holds; give the file train wrote.");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(file_named(path) + " cannot be opened for reading.");
    std::string text; // read in chunks up to the bound, whatever size the file claims (it may grow meanwhile)
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kPoolMaxFileBytes)
            throw Error(
                file_named(path) +
                " is larger than 64 MiB, far more than a train --json document holds; give the file train wrote.");
    }
    return text;
}

json parse(const std::string& path, const std::string& text)
{
    const Fields f(path);
    if (text.empty())
        f.bad("the file is empty (0 bytes)");
    try {
        return json::parse(text, [](int depth, json::parse_event_t, json&) {
            if (depth > kMaxDepth)
                throw TooDeep{};
            return true;
        });
    } catch (const TooDeep&) {
        f.bad("it nests deeper than " + std::to_string(kMaxDepth) + " levels");
    } catch (const json::parse_error& e) {
        f.bad(e.byte > text.size() ? "it does not parse as JSON: it ends after " + std::to_string(text.size()) +
                                         " bytes, inside the document (is it cut short?)"
                                   : "it does not parse as JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const json::exception&) { // out_of_range: a number beyond a double
        f.bad("it holds a number too large to read");
    }
}

PoolSeed read_seed(const Fields& f, const json& s, const std::string& where, std::int64_t steps)
{
    if (!s.is_object())
        f.bad(where + " is not an object");
    PoolSeed out;
    out.seed = static_cast<std::uint64_t>(f.whole(s, "seed", where, 0, INT64_MAX));
    const std::string seed_where = where + " (seed " + std::to_string(out.seed) + ")";
    if (s.contains("diverged")) {
        out.diverged = true;
        if (!s["diverged"].is_string())
            f.bad(seed_where + "'s \"diverged\" is not a sentence");
    } else {
        out.loss = f.real(s, "val_loss", seed_where, 0.0, 1e9);
        out.accuracy = f.real(s, "val_accuracy", seed_where, 0.0, 1.0);
        out.steps_to_90 = static_cast<double>(f.whole(s, "steps_to_90", seed_where, 0, steps));
    }
    for (const char* list : {"curve", "heads"})
        if (s.contains(list) && !s[list].is_array())
            f.bad(seed_where + "'s \"" + list + "\" is not a list");
    out.entry = s;
    return out;
}

} // namespace

const json& TrainDocument::value(const char* key) const
{
    for (const PoolSetting& s : settings)
        if (std::string(s.key) == key)
            return s.value;
    throw Error("no setting " + std::string(key) + " is read from a train document.");
}

std::vector<std::string> pool_input_files(const std::vector<std::string>& inputs)
{
    std::vector<std::string> files;
    for (const std::string& input : inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            files.push_back(input);
        } else {
            std::vector<std::string> found;
            for (fs::directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec))
                if (it->path().extension() == ".json" && !it->is_directory(ec)) {
                    found.push_back(it->path().string());
                    if (found.size() > kPoolMaxFiles) // stop counting early
                        throw Error(file_named(input) + " holds " + too_many(".json files"));
                }
            if (ec)
                throw Error(file_named(input) + " cannot be listed (" + ec.message() + ").");
            if (found.empty())
                throw Error(file_named(input) + " holds no .json files; each student hands in the file that "
                                                "`attention-lab-cli train ... --json > FILE.json` wrote.");
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        }
        if (files.size() > kPoolMaxFiles)
            throw Error(too_many("files were given"));
    }
    std::uintmax_t total = 0;
    for (const std::string& file : files) {
        std::error_code ec;
        const std::uintmax_t size = fs::file_size(file, ec);
        total += ec ? 0 : std::min(size, kPoolMaxFileBytes + 1); // a missing file is named when it is read
        if (total > kPoolMaxTotalBytes)
            throw Error("the files hold more than 256 MiB together, far more than a class's train --json "
                        "documents; pool fewer at once.");
    }
    return files;
}

TrainDocument read_train_document(const std::string& path)
{
    const Fields f(path);
    const json doc = parse(path, read_bounded(path));
    if (!doc.is_object())
        f.bad("it holds JSON that is not an object");
    TrainDocument out{path, {}, {}};
    const json& task = f.at(doc, "task", "the document");
    if (!task.is_string() || task.get<std::string>().empty())
        f.bad("its \"task\" is not a task's name");
    out.settings.push_back({"task", "--task", task});
    const struct {
        const char *key, *option;
        std::int64_t hi;
    } wholes[] = {{"vocab_size", "--vocab", 1 << 20},   {"context_length", "--context", 1 << 16},
                  {"emb_dim", "--emb", 1 << 16},        {"n_layers", "--layers", 1024},
                  {"window_size", "--window", 1 << 16}, {"steps", "--steps", 10'000'000},
                  {"batch", "--batch", 1 << 16}};
    for (const auto& w : wholes) // no window_size: a sweep without a window (train names it only when given)
        out.settings.push_back({w.key, w.option,
                                std::string(w.key) == "window_size" && !doc.contains(w.key)
                                    ? 0
                                    : f.whole(doc, w.key, "the document", 1, w.hi)});
    for (const auto& r : {std::pair{"lr", "--lr"}, std::pair{"weight_decay", "--weight-decay"}})
        out.settings.push_back({r.first, r.second, f.real(doc, r.first, "the document", -1e300, 1e300)});
    const std::int64_t emb = out.setting("emb_dim"), layers = out.setting("n_layers"), steps = out.setting("steps");
    const json& variants = f.at(doc, "variants", "the document");
    if (!variants.is_array() || variants.empty() || variants.size() > 1000)
        f.bad("its \"variants\" is not a list of 1 to 1000 variants");
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const json& v = variants[i];
        const std::string where = "variant " + std::to_string(i + 1);
        if (!v.is_object())
            f.bad(where + " is not an object");
        PoolVariant pv;
        pv.heads = f.whole(v, "n_heads", where, 1, emb);
        pv.kv_groups = f.whole(v, "kv_groups", where, 1, pv.heads);
        pv.head_dim = f.whole(v, "head_dim", where, 1, emb);
        pv.kv_bytes_per_token = f.whole(v, "kv_bytes_per_token", where, 1, INT64_MAX);
        // What train derives from the shape: a file that says otherwise was edited or is not train's.
        if (emb % pv.heads || pv.heads % pv.kv_groups || pv.head_dim != emb / pv.heads ||
            pv.kv_bytes_per_token != 2 * layers * pv.kv_groups * pv.head_dim * 4)
            f.bad(where + "'s heads, key/value groups, head_dim and KV bytes do not fit emb " + std::to_string(emb) +
                  " and " + std::to_string(layers) + " layers");
        const json& seeds = f.at(v, "seeds", where);
        if (!seeds.is_array() || seeds.empty())
            f.bad(where + "'s \"seeds\" is not a list of seeds");
        for (std::size_t k = 0; k < seeds.size(); ++k)
            pv.seeds.push_back(read_seed(f, seeds[k], where + ", seed entry " + std::to_string(k + 1), steps));
        out.variants.push_back(std::move(pv));
    }
    return out;
}

} // namespace cli
