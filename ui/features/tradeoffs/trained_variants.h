#pragma once
// The shipped Verdict models side by side, for the trade-offs tab: each variant's losses (read from its
// file) and the same text through each variant's same layer, traced by the engine, with its heads'
// measures. A pure function of the text and layer; the Session keeps the last result.
#include "designs/measured_tradeoffs.h"
#include "forward/trace.h"
#include "gpt/head_measures.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace attnlab::ui {

struct TrainedVariant {
    int heads = 0;
    QString error; // the model could not be read, or has no such layer: the row says this instead
    TrainedLoss loss;
    QString how;                        // how the losses were obtained, from the file's metadata
    std::shared_ptr<const Trace> trace; // null when the text does not fit the model's context
    std::vector<HeadMeasures> measures;
};

struct TrainedVariants {
    std::string text;
    int layer = 0;
    std::size_t tokens = 0;
    std::vector<TrainedVariant> variants;
};

TrainedVariants computeTrainedVariants(const std::string& text, int layer);

} // namespace attnlab::ui
