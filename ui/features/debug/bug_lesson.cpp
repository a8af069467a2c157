#include "features/debug/bug_lesson.h"

#include "forward/experiment.h"
#include "model/document_model.h"

#include <algorithm>
#include <exception>

namespace attnlab::ui {

BugLesson::BugLesson(DocumentModel* document, QObject* parent) : QObject(parent), document_(document) {}

void BugLesson::documentChanged(ChangeFlags flags)
{
    const bool newBug = (flags & ChangeFlag::Lesson) && bug() != diagnosed_;
    if (!(flags & ChangeFlag::Settings) && !newBug)
        return;
    stale_ = true;
    selected_ = -1; // new settings or a new bug: look at the new first divergence
    if (active_ || newBug)
        recompute();
}

Bug BugLesson::bug() const
{
    return document_->lessonState().bug;
}

void BugLesson::setBug(Bug bug)
{
    if (bug == this->bug() && !stale_)
        return;
    if (bug == this->bug()) { // the same bug on settings it has not seen yet
        selected_ = -1;
        recompute();
        return;
    }
    document_->setBug(bug); // comes back as ChangeFlag::Lesson, which diagnoses it
}

void BugLesson::setActive(bool active)
{
    active_ = active;
    if (active_ && stale_)
        recompute();
}

void BugLesson::setAnswerHeld(bool held)
{
    if (held == held_)
        return;
    held_ = held;
    // Held: no row is picked for the room. Revealed: the first divergence is the row looked at, as when nothing is
    // held.
    if (held_)
        selected_ = -1;
    else if (diagnosis_ && firstDivergenceRow() >= 0)
        selected_ = firstDivergenceRow();
    Q_EMIT changed();
    Q_EMIT rowSelected();
}

int BugLesson::firstDivergenceRow() const
{
    if (!diagnosis_ || !diagnosis_->first)
        return -1;
    const auto& rows = diagnosis_->stages;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].stage == diagnosis_->first->stage)
            return static_cast<int>(i);
    return -1;
}

void BugLesson::setSelectedRow(int row)
{
    if (!diagnosis_ || row < 0 || row >= static_cast<int>(diagnosis_->stages.size()) || row == selected_)
        return;
    selected_ = row;
    Q_EMIT rowSelected();
}

const Stage* BugLesson::bookStage(int row) const
{
    if (!diagnosis_ || row < 0 || row >= static_cast<int>(diagnosis_->stages.size()))
        return nullptr;
    return diagnosis_->correct.find(diagnosis_->stages[static_cast<std::size_t>(row)].stage);
}

const Stage* BugLesson::buggyStage(int row) const
{
    if (!diagnosis_ || row < 0 || row >= static_cast<int>(diagnosis_->stages.size()))
        return nullptr;
    return diagnosis_->buggy.find(diagnosis_->stages[static_cast<std::size_t>(row)].stage);
}

void BugLesson::recompute()
{
    stale_ = false;
    diagnosed_ = bug();
    diagnosis_.reset();
    error_.clear();
    const Config& config = document_->config();
    batch_ = std::min(document_->batch(), kMaxBatch);
    tokens_ = std::min(document_->numTokens(), kMaxTokens);
    capped_ = batch_ != document_->batch() || tokens_ != document_->numTokens();
    if (config.kind != ModuleKind::MultiHeadAttention) {
        error_ = tr("The injected bugs are one-line changes to MultiHeadAttention's forward, but the session holds "
                    "a %1. Pick a MultiHeadAttention preset or call to run them.")
                     .arg(QString::fromStdString(module_class_name(config.kind)));
    } else {
        ExperimentSpec spec;
        spec.config = config;
        spec.batch = batch_;
        spec.num_tokens = tokens_;
        spec.input = document_->usesBookInput() ? InputSource::Book : InputSource::Random;
        try {
            const Experiment e = prepare(spec); // refuses an invalid config before allocating anything
            diagnosis_ = diagnose(e.spec.config, e.weights, e.x, diagnosed_);
        } catch (const std::exception& e) {
            error_ = tr("The book's own module cannot run with these settings, so there is nothing to compare "
                        "against: %1")
                         .arg(QString::fromUtf8(e.what()));
        }
    }
    if (diagnosis_) {
        const int rows = static_cast<int>(diagnosis_->stages.size());
        const int first = firstDivergenceRow();
        // Held back, nothing is selected for the room: finding the first divergence is their question.
        if (selected_ < 0 || selected_ >= rows)
            selected_ = held_ ? -1 : (first >= 0 ? first : rows - 1);
    } else {
        selected_ = -1;
    }
    Q_EMIT changed();
}

} // namespace attnlab::ui
