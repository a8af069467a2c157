#pragma once
// Where the trained models are found: a name such as "h4", "verdict-gpt-h4" or "induction-h4" is looked up in
// the installed share folder beside the program, then in the source tree it was built from, so both an
// installed app and one run from its build folder find them; anything else is taken as a file path.
#include <string>
#include <vector>

namespace attnlab {

// The folders searched, in order: $ATTNLAB_MODELS_DIR when set, <exe_dir>/../share/attention-lab/models,
// then the source tree's resources/models (known at build time).
std::vector<std::string> gpt_model_dirs(const std::string& exe_dir);

// "h4", "4", "verdict-gpt-h4" or "verdict-gpt-h4.safetensors" -> the first existing file in `dirs`, as
// "induction-h4" or "induction-gpt-h4" (the shipped task model); a path with a '/' or an existing file is
// returned as is. Throws Error naming the folders searched
// and the valid names when nothing is found.
std::string resolve_gpt_model(const std::string& name_or_path, const std::vector<std::string>& dirs);

// The variants shipped with the app, by num_heads.
const std::vector<int>& shipped_gpt_heads(); // {1, 2, 4, 8}
std::string gpt_model_name(int num_heads);   // "verdict-gpt-h4"

// The shipped model trained by the app's own trainer on the induction task, whose heads differ clearly (a
// previous-token head in layer 0, induction heads in layer 1): resources/models/README.md says how it is made.
std::string induction_model_name(); // "induction-gpt-h4"

} // namespace attnlab
