#include "gpt/model_paths.h"

#include "tensor/error.h"

#include <cstdlib>
#include <filesystem>

namespace attnlab {

namespace fs = std::filesystem;

std::vector<std::string> gpt_model_dirs(const std::string& exe_dir)
{
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("ATTNLAB_MODELS_DIR"); env && *env)
        dirs.emplace_back(env);
    if (!exe_dir.empty())
        dirs.push_back((fs::path(exe_dir) / ".." / "share" / "attention-lab" / "models").lexically_normal().string());
#ifdef ATTNLAB_SOURCE_MODELS_DIR
    dirs.emplace_back(ATTNLAB_SOURCE_MODELS_DIR);
#endif
    return dirs;
}

const std::vector<int>& shipped_gpt_heads()
{
    static const std::vector<int> heads = {1, 2, 4, 8};
    return heads;
}

std::string gpt_model_name(int num_heads)
{
    return "verdict-gpt-h" + std::to_string(num_heads);
}

std::string induction_model_name()
{
    return "induction-gpt-h4";
}

std::string resolve_gpt_model(const std::string& name_or_path, const std::vector<std::string>& dirs)
{
    if (name_or_path.empty())
        throw Error("the model name is empty; give h1, h2, h4, h8, induction-h4 or the path of a model file.");
    std::error_code ec;
    if (name_or_path.find('/') != std::string::npos || fs::is_regular_file(name_or_path, ec))
        return name_or_path;
    std::string stem = name_or_path;
    if (stem.size() > 12 && stem.ends_with(".safetensors"))
        stem.resize(stem.size() - 12);
    if (!stem.empty() && stem.find_first_not_of("0123456789") == std::string::npos)
        stem = "h" + stem;
    if (stem.size() <= 3 && stem[0] == 'h')
        stem = "verdict-gpt-" + stem;
    if (stem == "induction-h4" || stem == "induction")
        stem = induction_model_name();
    std::string searched;
    for (const std::string& dir : dirs) {
        const fs::path candidate = fs::path(dir) / (stem + ".safetensors");
        if (fs::is_regular_file(candidate, ec))
            return candidate.string();
        searched += (searched.empty() ? "" : ", ") + dir;
    }
    throw Error("no model '" + name_or_path + "' in " + (searched.empty() ? std::string("any folder") : searched) +
                "; give h1, h2, h4, h8, induction-h4 or the path of a model file.");
}

} // namespace attnlab
