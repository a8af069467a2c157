#pragma once
// The heads part of `train`: every head of every finished run measured on its task's held-out sequences
// (core/train/head_report.h), as JSON and as the table printed under each variant.
#include "train/head_report.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cli {

nlohmann::ordered_json heads_json(const attnlab::train::HeadReport& report);
void print_heads(const attnlab::train::HeadReport& report);
// Empty when the report ablated its heads; else why not, and how to ask for it.
std::string ablation_note(const attnlab::train::HeadReport& report);
// How the numbers were obtained and the role rule, printed once under the tables.
std::string heads_how();

} // namespace cli
