#pragma once
// Ask the class: a question the app already knows the answer to, described as fields a student's page can
// draw without knowing where it came from (a size per axis, yes/no, one of N, cells of a grid), and the
// reading of one student's answer against those fields. Made from a stage's Predict First question, the
// trained-heads question or a teacher's multiple choice; no Qt, no network (the server is in ui/).
#include "lessons/predict.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attnlab::poll {

enum class FieldKind {
    Size,   // a whole number, or one of `names` (an axis name standing for its size)
    YesNo,  // "yes" or "no"
    Choice, // one of `choices`, answered by its index ("0", "1", ...)
    Cells,  // cells of a `grid` × `grid` square, answered as "i-j" pairs joined by commas ("" for none)
};

std::string_view kind_name(FieldKind kind);

// Text from a phone or a file, as a refusal quotes it: in quotes, control bytes escaped, at most 40 characters.
std::string quoted(std::string_view text); // "size", "yes-no", "choice", "cells": the API's words

struct Field {
    std::string name;  // the answer's key: "axis-0", "contiguous", "shares-storage", "hidden", "choice"
    std::string label; // what the page shows beside it: "axis 0", "Contiguous?"
    FieldKind kind = FieldKind::Size;
    std::vector<std::string> choices;          // Choice: the options as shown
    std::map<std::string, std::int64_t> names; // Size: each name a student may give, with its size here
    std::int64_t grid = 0;                     // Cells: the square's side
    std::string right;                         // the answer in its canonical form ("64", "no", "2", "0-1,0-2")
    std::vector<std::string> also_right;       // Choice: others that count (a head within kHeadTie of the best)
    std::string explanation;                   // Size: "head_dim = d_out / num_heads = 768 / 12 = 64"
};

struct Question {
    std::string id;     // stable while the poll is open: "stage:queries.view", "heads:attn_weights", "choice:1"
    std::string prompt; // "What shape does queries.view have?"
    // What it is answered from, for a phone that cannot see the settings: "d_in = 768, ... · input: batch = 1,
    // num_tokens = 16" and the code line, one per line; empty when the prompt says all.
    std::string context;
    std::vector<Field> fields;
};

// A stage's Predict First question; `trace` gives the size of every axis name a student may use.
Question from_stage(const Trace& trace, const StageQuestion& question);
// Every stage's question but the input's, in the trace's order, as Predict First asks them (handouts).
std::vector<Question> every_stage(const Trace& trace);
// Which head looks at the previous token: one of the heads; any within kHeadTie of the best counts as right.
Question from_heads(const HeadQuestion& question);
// A teacher's multiple choice: 2 to 8 non-empty choices, `right` one of them. Throws Error otherwise.
Question from_choices(const std::string& prompt, const std::vector<std::string>& choices, int right);

// A question with one whole number for an answer (a guided lesson's "what is head_dim?"), and one with yes or no.
// `id` names where it comes from ("lesson:mend-split"); `explanation` says how the number comes about.
Question number_question(const std::string& id, const std::string& prompt, std::int64_t right,
                         const std::string& explanation);
Question yes_no_question(const std::string& id, const std::string& prompt, bool right);

// One student's answer, read against the question: every field present, each value of its kind, nothing
// else. The values come back canonical (trimmed, cells sorted, a Size name kept as the name). Throws Error
// with one sentence naming the field and what it accepts.
using Answer = std::map<std::string, std::string>;
Answer read_answer(const Question& question, const Answer& raw);

// Whether a canonical value of `field` is right: a Size by the size it stands for, the rest by equality
// (the heads question accepts every head within kHeadTie of the best).
bool is_right(const Field& field, const std::string& value);

// The size a canonical Size value stands for (its number, or the size of the name); -1 for another kind.
std::int64_t size_of(const Field& field, const std::string& value);

} // namespace attnlab::poll
