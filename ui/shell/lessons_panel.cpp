#include "shell/lessons_panel.h"
#include "widgets/lesson_target.h"

#include "features/session.h"
#include "widgets/themed.h"
#include "model/view_model.h"

#include <algorithm>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QPushButton* button(const QString& text, const QString& name, const QString& tip)
{
    auto* b = new QPushButton(text);
    b->setAccessibleName(name);
    b->setToolTip(tip);
    return b;
}

} // namespace

LessonsPanel::LessonsPanel(Session* session, MainWindow* window, QWidget* parent)
    : QWidget(parent), context_{session, window}
{
    nameTarget(this, QStringLiteral("lessons-panel"));
    choice_ = new QComboBox;
    choice_->setAccessibleName(tr("Lesson"));
    choice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    choice_->setMinimumContentsLength(16);
    choice_->setToolTip(tr("Choose a guided lesson; each walks through one idea of the chapter in a few steps."));
    for (const Lesson& l : lessons())
        choice_->addItem(l.title, l.id);
    heading_ = new QLabel;
    heading_->setWordWrap(true);
    heading_->setAccessibleName(tr("Lesson step"));
    text_ = new QTextBrowser;
    text_->setMinimumWidth(260); // narrow enough to sit beside the views at 1600 pixels
    text_->setAccessibleName(tr("Lesson text"));
    text_->setAccessibleDescription(tr("The current step: what to look at, and what to try in the window."));
    text_->setOpenExternalLinks(false);
    previous_ = button(tr("◀ Back"), tr("Previous step"), tr("Go back to the previous step of this lesson."));
    next_ = button(tr("Next ▶"), tr("Next step"), tr("Go on to the next step of this lesson."));
    showMe_ = button(tr("Show me"), tr("Show me"), tr("Let the app set up this step for you."));
    check_ = button(tr("Check"), tr("Check my work"), tr("Check whether the app's state does what this step asks."));
    reveal_ = button(tr("Reveal the answer"), tr("Reveal the answer"),
                     tr("Show the answer this step holds back, once the room has had its say."));
    nameTarget(reveal_, QStringLiteral("lesson-reveal"));
    hold_ = new QCheckBox(tr("Hold answers back")); // short: the dock is no wider for it on a projector
    nameTarget(hold_, QStringLiteral("lesson-hold-answers"));
    hold_->setToolTip(tr("Entering a step whose page shows its answer (lessons 5 and 6) hides that answer until "
                         "you press Reveal, so you can ask the room first."));
    hold_->setAccessibleDescription(hold_->toolTip());
    result_ = new QLabel;
    result_->setWordWrap(true);
    result_->setAccessibleName(tr("Check result"));
    nameTarget(result_, QStringLiteral("lesson-result"));

    auto* nav = new QHBoxLayout;
    nav->addWidget(previous_);
    nav->addWidget(next_);
    auto* act = new QHBoxLayout;
    act->addWidget(showMe_);
    act->addWidget(check_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(choice_);
    layout->addWidget(heading_);
    layout->addWidget(text_, 1);
    // The check's message over the buttons: under them, a message growing by a line moved every button up.
    layout->addWidget(result_);
    layout->addLayout(nav);
    layout->addLayout(act);
    layout->addWidget(reveal_);
    layout->addWidget(hold_);

    connect(choice_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setLesson(choice_->itemData(i).toString()); });
    connect(previous_, &QPushButton::clicked, this, [this] { setStep(step_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { setStep(step_ + 1); });
    connect(showMe_, &QPushButton::clicked, this, &LessonsPanel::showMe);
    connect(check_, &QPushButton::clicked, this, &LessonsPanel::check);
    connect(reveal_, &QPushButton::clicked, this, &LessonsPanel::reveal);
    connect(hold_, &QCheckBox::toggled, this, [this](bool on) {
        GuideState g = context_.session->view()->guide();
        g.holdAnswers = on;
        if (!on)
            g.held.clear(); // what is held now is shown: the teacher chose to show answers
        context_.session->view()->setGuide(g);
    });
    // The lesson, the step and what was passed are the Session's (saved with it); the panel shows them.
    followParts(session->parts(), this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Guide)
            followSession();
    });
    followSession();
}

void LessonsPanel::followSession()
{
    const GuideState& g = context_.session->view()->guide();
    const Lesson* l = findLesson(g.lesson);
    if (!l && !lessons().empty())
        l = &lessons().front(); // nothing chosen yet: the first lesson, at its start
    const int step = l && !l->steps.empty() ? std::clamp(g.step, 0, static_cast<int>(l->steps.size()) - 1) : 0;
    showHeld();
    if (l == lesson_ && step == step_)
        return;
    lesson_ = l;
    step_ = step;
    const QSignalBlocker block(choice_);
    choice_->setCurrentIndex(l ? choice_->findData(l->id) : -1);
    refresh();
    showHeld();
    Q_EMIT stepShown();
}

void LessonsPanel::showHeld()
{
    const GuideState& g = context_.session->view()->guide();
    const LessonStep* s = currentStep();
    const QSignalBlocker block(hold_);
    hold_->setChecked(g.holdAnswers);
    reveal_->setVisible(s && !s->holds.isEmpty()); // only a step with an answer to hold has it
    reveal_->setEnabled(!g.held.isEmpty());
    reveal_->setText(g.held.isEmpty() && s && !s->holds.isEmpty() ? tr("Answer revealed") : tr("Reveal the answer"));
    Q_EMIT heldShown();
}

bool LessonsPanel::answerHeld() const
{
    return !context_.session->view()->guide().held.isEmpty();
}

void LessonsPanel::reveal()
{
    context_.session->view()->revealAnswer();
}

void LessonsPanel::holdAgain()
{
    GuideState g = context_.session->view()->guide();
    const LessonStep* s = currentStep();
    if (!s || !g.holdAnswers || s->holds.isEmpty() || g.held == s->holds)
        return;
    g.held = s->holds;
    context_.session->view()->setGuide(g);
}

void LessonsPanel::enter(GuideState g)
{
    const Lesson* l = findLesson(g.lesson);
    const LessonStep* s =
        l && g.step < static_cast<int>(l->steps.size()) ? &l->steps[static_cast<std::size_t>(g.step)] : nullptr;
    g.held = s && g.holdAnswers ? s->holds : QString(); // entering a step holds its answer back again
    context_.session->view()->setGuide(g);
    if (s && s->needs) // what the earlier steps would have left, so that a step entered directly works
        s->needs(context_);
}

const LessonStep* LessonsPanel::currentStep() const
{
    return lesson_ && !lesson_->steps.empty() ? &lesson_->steps[static_cast<std::size_t>(step_)] : nullptr;
}

bool LessonsPanel::setLesson(const QString& id)
{
    if (!findLesson(id))
        return false;
    GuideState g = context_.session->view()->guide();
    if (g.lesson != id) {
        g.lesson = id;
        g.passed.clear();
    }
    g.step = 0;
    enter(g);
    return true;
}

void LessonsPanel::setStep(int step)
{
    if (!lesson_ || lesson_->steps.empty())
        return;
    GuideState g = context_.session->view()->guide();
    g.lesson = lesson_->id;
    g.step = std::clamp(step, 0, static_cast<int>(lesson_->steps.size()) - 1);
    enter(g);
}

void LessonsPanel::showMe()
{
    if (!lesson_ || lesson_->steps.empty() || !lesson_->steps[static_cast<std::size_t>(step_)].showMe)
        return;
    lesson_->steps[static_cast<std::size_t>(step_)].showMe(context_);
    result_->setText(context_.session->view()->guide().held.isEmpty()
                         ? tr("Set up by the app: now press Check, or change something and check again.")
                         : tr("Set up by the app, its answer held back: ask the room, then press Reveal the answer."));
    Q_EMIT shownMe();
    result_->setStyleSheet(QString());
}

CheckResult LessonsPanel::check()
{
    CheckResult r{false, tr("This step has nothing to check.")};
    if (lesson_ && !lesson_->steps.empty() && lesson_->steps[static_cast<std::size_t>(step_)].check)
        r = lesson_->steps[static_cast<std::size_t>(step_)].check(context_);
    if (r.passed && lesson_) { // progress: this step is done, kept with the session
        GuideState g = context_.session->view()->guide();
        g.lesson = lesson_->id;
        g.step = step_;
        if (!g.passed.contains(step_)) {
            g.passed.append(step_);
            std::sort(g.passed.begin(), g.passed.end());
        }
        context_.session->view()->setGuide(g);
    }
    result_->setText((r.passed ? tr("✔ ") : tr("✘ ")) + r.message);
    const RenderStyle style = styleFor(result_);
    result_->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: bold; }")
                               .arg(cssColor(r.passed ? style.same : style.differs)));
    return r;
}

void LessonsPanel::refresh()
{
    const int count = lesson_ ? static_cast<int>(lesson_->steps.size()) : 0;
    if (count == 0) {
        heading_->clear();
        text_->clear();
        return;
    }
    const LessonStep& s = lesson_->steps[static_cast<std::size_t>(step_)];
    const GuideState& g = context_.session->view()->guide();
    const int passed = g.lesson == lesson_->id ? static_cast<int>(g.passed.size()) : 0;
    heading_->setText(tr("<b>Step %1 of %2 · %3</b>").arg(step_ + 1).arg(count).arg(s.title.toHtmlEscaped()) +
                      (passed > 0 ? tr(" &nbsp;(%1 of %2 checked)").arg(passed).arg(count) : QString()));
    text_->setMarkdown(s.text);
    previous_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < count);
    showMe_->setEnabled(static_cast<bool>(s.showMe));
    check_->setEnabled(static_cast<bool>(s.check));
    result_->clear();
    result_->setStyleSheet(QString());
}

} // namespace attnlab::ui
