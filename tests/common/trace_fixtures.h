#pragma once
// A trace of one call, as the painter and colour tests draw it: random input (batch 1) or the book's six
// tokens (batch 2, as the book stacks them).
#include "call/call_parser.h"
#include "forward/experiment.h"

#include <cstdint>
#include <memory>
#include <string>

namespace testing {

inline std::shared_ptr<const attnlab::Trace> traceOf(const std::string& call, std::int64_t tokens,
                                                     attnlab::InputSource input = attnlab::InputSource::Random)
{
    attnlab::ExperimentSpec spec;
    spec.config = *attnlab::parse_call(call).config;
    spec.batch = input == attnlab::InputSource::Book ? 2 : 1;
    spec.num_tokens = tokens;
    spec.input = input;
    return std::make_shared<const attnlab::Trace>(attnlab::run(attnlab::prepare(spec)));
}

} // namespace testing
