#include "features/kvheads/kv_stepper.h"

#include "designs/kv_cache_call.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_input.h"
#include "gpt/gpt_text.h"
#include "gpt/model_paths.h"
#include "model/job_failure.h"
#include "text/letter_tokens.h"
#include "text/tokenizer.h"

#include <QCoreApplication>

#include <algorithm>

namespace attnlab::ui {

namespace {

std::shared_ptr<const GptModel> shippedModel(const QString& name)
{
    const auto dirs = gpt_model_dirs(QCoreApplication::applicationDirPath().toStdString());
    // The shipped models are a few MB: read once (cached_gpt_model) and shared with the other tabs.
    return cached_gpt_model(resolve_gpt_model(name.toStdString(), dirs));
}

} // namespace

QString KvStepper::examplePrompt(const QString& modelName)
{
    try {
        const auto model = shippedModel(modelName);
        QString text = QString::fromStdString(example_text(*model));
        if (text.size() > 60) // whole words: a word cut in two is one the story's vocabulary does not know
            text = text.left(std::max<qsizetype>(1, text.lastIndexOf(QLatin1Char(' '), 60)));
        // At most a quarter of the context, so there is room to step: the induction model's example fills it.
        const std::size_t most =
            static_cast<std::size_t>(std::max<std::int64_t>(1, model->settings.context_length / 4));
        while (text.size() > 1 && tokenize_for(*model, text.toStdString()).ids.size() > most) {
            const int space = text.lastIndexOf(QLatin1Char(' '), -2);
            text = space > 0 ? text.left(space) : text.left(text.size() - 1);
        }
        return text.trimmed();
    } catch (...) {
        return {}; // open() says why
    }
}

QString KvStepper::open(const QString& modelName, const QString& prompt)
{
    model_.reset();
    prompt_.clear();
    reset();
    try {
        auto model = shippedModel(modelName);
        const TokenizedText t = tokenize_for(*model, prompt.toStdString());
        if (const std::string unreadable = unreadable_token_sentence(*model, t); !unreadable.empty())
            return QString::fromStdString(unreadable);
        if (t.ids.empty())
            return QStringLiteral("the prompt has no tokens; type the text the model continues.");
        shape_ = attention_shape_of(gpt_attention_config(*model), model->settings.n_layers);
        prompt_ = t.ids;
        prompt_.resize(std::min<std::size_t>(prompt_.size(), static_cast<std::size_t>(model->settings.context_length)));
        model_ = std::move(model);
    } catch (...) {
        return currentFailureSentence();
    }
    return {};
}

void KvStepper::reset()
{
    generator_.reset();
    generated_.clear();
    logits_.clear();
    lastAdded_ = 0;
    steps_ = 0;
}

bool KvStepper::full() const
{
    return model_ && generator_ && generator_->tokens() >= model_->settings.context_length;
}

QString KvStepper::step()
{
    if (!ready())
        return QStringLiteral("no model is open.");
    if (full())
        return QStringLiteral("the cache holds the model's whole context (%1 tokens); Reset starts again.")
            .arg(model_->settings.context_length);
    try {
        const std::int64_t before = cachedTokens();
        if (!generator_) {
            generator_ = std::make_unique<KvGenerator>(*model_, kBookLayerNormEps, model_->settings.context_length);
            logits_ = generator_->prefill(prompt_);
        } else {
            logits_ = generator_->step(generated_.back());
        }
        // The likeliest token, the first of equal maxima: the lowest id, as torch.argmax and generate_greedy choose.
        generated_.push_back(std::max_element(logits_.begin(), logits_.end()) - logits_.begin());
        lastAdded_ = cachedTokens() - before;
        ++steps_;
    } catch (...) {
        return currentFailureSentence();
    }
    return {};
}

std::vector<std::int64_t> KvStepper::cachedIds() const
{
    std::vector<std::int64_t> ids = prompt_;
    if (!generated_.empty())
        ids.insert(ids.end(), generated_.begin(), generated_.end() - 1); // the last chosen is not read yet
    ids.resize(static_cast<std::size_t>(cachedTokens()));
    return ids;
}

QString KvStepper::text(const std::vector<std::int64_t>& ids) const
{
    if (!model_ || ids.empty())
        return {};
    if (text_reader(*model_) == TextReader::Letters)
        return QString::fromStdString(letter_text(ids));
    return QString::fromStdString(verdict_tokenizer().decode(ids));
}

QStringList KvStepper::tokenLabels(const std::vector<std::int64_t>& ids) const
{
    QStringList labels;
    for (std::int64_t id : ids)
        labels << text({id});
    return labels;
}

std::int64_t KvStepper::costOf(std::int64_t from, std::int64_t to) const
{
    std::int64_t sum = 0;
    for (std::int64_t t = from + 1; t <= to; ++t)
        sum += multiply_adds_per_token(shape_, t).total();
    return sum * shape_.layers;
}

std::int64_t KvStepper::cachedMultiplyAdds() const
{
    return costOf(cachedTokens() - lastAdded_, cachedTokens());
}

std::int64_t KvStepper::fullMultiplyAdds() const
{
    return costOf(0, cachedTokens());
}

} // namespace attnlab::ui
