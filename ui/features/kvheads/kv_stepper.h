#pragma once
// The cache, stepped: one of the shipped GPTs run greedily through the core's KvGenerator (gpt/kv_cache.h), one token
// per step. The first step reads the prompt at once (prefill); every later step feeds the token the last one chose,
// so the cache grows by one token and only that token's query, key and value are computed per head and layer.
// Plain C++ over the core, no widget: the page draws it and the tests check it against a full forward.
#include "designs/kv_cache.h"
#include "gpt/gpt_model.h"
#include "gpt/kv_cache.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

namespace attnlab::ui {

class KvStepper {
public:
    // The model ("h1".."h8", "induction-h4") and the prompt it continues; the cache starts empty. Returns one sentence
    // when the model cannot be read or the prompt has no token it reads, else "".
    QString open(const QString& modelName, const QString& prompt);
    // The model's example text (gpt_text.h's example_text) cut to a few words at a space; "" when it cannot be read.
    static QString examplePrompt(const QString& modelName);
    void reset(); // the cache emptied, nothing generated, the same model and prompt

    bool ready() const { return model_ != nullptr && !prompt_.empty(); }
    bool full() const; // the next step would pass the model's context_length
    // Prefill on the first step, one token after; returns one sentence when it cannot step, else "".
    QString step();

    const GptModel* model() const { return model_.get(); }
    int layers() const { return generator_ ? generator_->n_layers() : 0; }
    std::int64_t cachedTokens() const { return generator_ ? generator_->tokens() : 0; }
    std::int64_t lastAdded() const { return lastAdded_; } // tokens the last step put in the cache
    int steps() const { return steps_; }
    const std::vector<std::int64_t>& prompt() const { return prompt_; }
    const std::vector<std::int64_t>& generated() const { return generated_; }
    const std::vector<float>& logits() const { return logits_; } // the last step's, for its last token
    const KvGenerator* generator() const { return generator_.get(); }
    std::vector<std::int64_t> cachedIds() const; // the tokens whose keys and values the cache holds, in order

    QString text(const std::vector<std::int64_t>& ids) const; // decoded as the model reads
    QStringList tokenLabels(const std::vector<std::int64_t>& ids) const;

    // Multiply-adds of every layer's attention (core's multiply_adds_per_token) for the last step with the cache,
    // and for the same token without it: a forward over all the cached tokens again.
    std::int64_t cachedMultiplyAdds() const;
    std::int64_t fullMultiplyAdds() const;

private:
    std::int64_t costOf(std::int64_t from, std::int64_t to) const; // tokens at positions from+1..to, every layer

    std::shared_ptr<const GptModel> model_;
    AttentionShape shape_;
    std::vector<std::int64_t> prompt_, generated_;
    std::vector<float> logits_;
    std::unique_ptr<KvGenerator> generator_;
    std::int64_t lastAdded_ = 0;
    int steps_ = 0;
};

} // namespace attnlab::ui
