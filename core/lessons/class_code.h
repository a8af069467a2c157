#pragma once
// The class's code: every student's recording (attention_lab_probe.py) compared with the book at once and
// tallied by where each first diverges -- by stage, in the stage table's order, and by known bug -- so a
// teacher sees "14 at attn_weights: softmax over the wrong axis" instead of opening forty files one by one.
// A file that cannot be read is counted and kept with its sentence; it never stops the others.
#include "lessons/compare_recording.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// A class is tens of recordings; this bounds the work a mistaken folder (a whole disk) can ask for.
inline constexpr std::size_t kClassCodeMaxFiles = 500;

struct ClassRecording {
    std::string path;
    std::optional<RecordingComparison> comparison; // none when the file could not be read or compared
    std::string error;                             // then the reader's one sentence
};

// The recordings that first diverge at one stage with one known bug (or none recognised).
struct ClassDivergenceGroup {
    std::string stage; // canonical stage, "heads.0.attn_scores.masked" for a wrapper's head, or "config"
    std::string bug;   // bugs.h name, or empty when no known bug gives these values
    std::vector<std::size_t> recordings; // indices into ClassCode::recordings, in file order
};

struct ClassCode {
    std::vector<ClassRecording> recordings; // in the order the files were given
    std::vector<std::size_t> matching;      // reach every stage with the book's values
    std::vector<ClassDivergenceGroup>
        groups;                          // by stage in the stage table's order, then the most common bug, none last
    std::vector<std::size_t> unreadable; // could not be read (or no book module takes them)
    std::size_t read() const { return recordings.size() - unreadable.size(); }
};

// The *.safetensors files directly in `folder`, sorted by name. Throws Error with one sentence when it is
// no folder, holds none or more than kClassCodeMaxFiles.
std::vector<std::string> class_recording_files(const std::string& folder);

// Compares each file (compare_recording_file, the same reader and limits) and tallies them. Throws Error
// only for an empty list or one longer than kClassCodeMaxFiles; a bad file is counted in `unreadable`.
ClassCode compare_class(const std::vector<std::string>& paths, std::int64_t num_heads = 0);

// Where a divergence stage sorts: "config" first, then the stage table's order (a wrapper head's
// "heads.N.<stage>" at its <stage>), unknown names last.
int class_stage_rank(const std::string& stage);

} // namespace attnlab
