#pragma once
// The heads part of `train`: every head of every finished run measured on its task's held-out sequences
// (core/train/head_report.h), as JSON and as the table printed under each variant.
#include "train/head_report.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cli {

// One report per run, the runs in parallel on `threads` threads, one engine thread each.
std::vector<attnlab::train::HeadReport> head_reports(const std::vector<attnlab::train::RunResult>& runs, int threads);

nlohmann::ordered_json heads_json(const attnlab::train::HeadReport& report);
void print_heads(const attnlab::train::HeadReport& report);
// How the numbers were obtained and the role rule, printed once under the tables.
std::string heads_how();

} // namespace cli
