#include "shell/presenter_view.h"

#include "features/poll/poll_state.h"
#include "features/poll/tally_chart.h"
#include "shell/lessons_panel.h"
#include "widgets/themed.h"

#include <QGridLayout>
#include <cmath>
#include <algorithm>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QLabel* wrapped(QFont font = {})
{
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    if (font != QFont())
        label->setFont(font);
    return label;
}

QFont sized(const QWidget* w, double factor, bool bold)
{
    QFont f = w->font();
    f.setPixelSize(std::max(1, static_cast<int>(f.pixelSize() > 0 ? f.pixelSize() * factor : 16 * factor)));
    f.setBold(bold);
    return f;
}

} // namespace

PresenterView::PresenterView(LessonsPanel* lessons, PollState* poll, QWidget* parent)
    : QWidget(parent, Qt::Window), lessons_(lessons), poll_(poll), ticker_(new QTimer(this))
{
    setObjectName(QStringLiteral("presenter-view"));
    setWindowTitle(tr("Attention Lab · Presenter view"));
    setAccessibleName(tr("Presenter view"));
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Presenter view</b> · only on this screen; the projector shows the app"));
    title->setWordWrap(true);
    clock_ = new QLabel;
    clock_->setObjectName(QStringLiteral("presenter-clock"));
    clock_->setFont(sized(this, 1.6, true));
    clock_->setAccessibleName(tr("Time since the presenter view opened"));
    top->addWidget(title, 1);
    top->addWidget(clock_);
    layout->addLayout(top);
    auto* columns = new QHBoxLayout;
    columns->addWidget(buildLesson(), 3);
    columns->addWidget(buildClass(), 2);
    layout->addLayout(columns, 1);

    connect(lessons_, &LessonsPanel::stepShown, this, &PresenterView::refreshLesson);
    connect(lessons_, &LessonsPanel::heldShown, this, &PresenterView::refreshHeld);
    connect(poll_, &PollState::changed, this, &PresenterView::refreshClass);
    connect(poll_, &PollState::answersChanged, this, &PresenterView::refreshClass);
    connect(ticker_, &QTimer::timeout, this, &PresenterView::tick);
    ticker_->start(1000);
    restartClock();
    refreshLesson();
    refreshClass();
    resize(1100, 720);
}

QWidget* PresenterView::buildLesson()
{
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    lessonHeading_ = wrapped(sized(this, 1.1, false));
    stepHeading_ = wrapped(sized(this, 1.4, true));
    stepHeading_->setObjectName(QStringLiteral("presenter-step"));
    text_ = new QTextBrowser;
    text_->setObjectName(QStringLiteral("presenter-step-text"));
    text_->setOpenExternalLinks(false);
    text_->setAccessibleName(tr("The step's text"));
    next_ = wrapped();
    next_->setObjectName(QStringLiteral("presenter-next"));
    result_ = wrapped();
    result_->setObjectName(QStringLiteral("presenter-check"));
    auto* buttons = new QHBoxLayout;
    previous_ = new QPushButton(tr("◀ Previous step"));
    showMe_ = new QPushButton(tr("Show me"));
    check_ = new QPushButton(tr("Check"));
    nextStep_ = new QPushButton(tr("Next step ▶"));
    revealStep_ = new QPushButton;
    revealStep_->setObjectName(QStringLiteral("presenter-reveal-step"));
    connect(revealStep_, &QPushButton::clicked, this, [this] { lessons_->reveal(); });
    for (QPushButton* b : {previous_, showMe_, check_, nextStep_})
        buttons->addWidget(b);
    connect(previous_, &QPushButton::clicked, this, [this] { lessons_->setStep(lessons_->step() - 1); });
    connect(nextStep_, &QPushButton::clicked, this, [this] { lessons_->setStep(lessons_->step() + 1); });
    connect(showMe_, &QPushButton::clicked, this, [this] {
        lessons_->showMe();
        result_->setText(tr("Set up on the projector."));
    });
    connect(check_, &QPushButton::clicked, this, [this] {
        const CheckResult r = lessons_->check();
        const RenderStyle style = styleFor(result_);
        result_->setText(QStringLiteral("<span style=\"color:%1\"><b>%2</b></span> %3")
                             .arg(cssColor(r.passed ? style.same : style.differs),
                                  r.passed ? tr("✔ Passed:") : tr("✘ Not yet:"), r.message.toHtmlEscaped()));
    });
    v->addWidget(lessonHeading_);
    v->addWidget(stepHeading_);
    v->addWidget(text_, 1);
    v->addWidget(result_);
    v->addWidget(revealStep_);
    v->addWidget(next_);
    v->addLayout(buttons);
    return box;
}

QWidget* PresenterView::buildClass()
{
    auto* box = new QWidget;
    box->setObjectName(QStringLiteral("presenter-class"));
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    auto* heading = new QLabel(tr("<b>The class</b> (Ask the Class)"));
    heading->setFont(sized(this, 1.2, false));
    prompt_ = wrapped();
    count_ = wrapped(sized(this, 1.4, true));
    count_->setObjectName(QStringLiteral("presenter-count"));
    classState_ = wrapped();
    classState_->setObjectName(QStringLiteral("presenter-class-state"));
    chart_ = new TallyChart(poll_);
    chart_->setForTeacher(true); // the teacher sees the answers before the room does
    auto* buttons = new QGridLayout;
    showClass_ = new QPushButton;
    again_ = new QPushButton(tr("Vote again"));
    reveal_ = new QPushButton(tr("Reveal the answer"));
    buttons->addWidget(showClass_, 0, 0);
    buttons->addWidget(again_, 0, 1);
    buttons->addWidget(reveal_, 1, 0, 1, 2);
    connect(showClass_, &QPushButton::clicked, this, [this] { poll_->setShown(!poll_->shown()); });
    connect(again_, &QPushButton::clicked, this, [this] { poll_->voteAgain(); });
    connect(reveal_, &QPushButton::clicked, this, [this] { poll_->reveal(); });
    // The controls stay put under the count; the bars, as long as the question has fields, scroll below them.
    auto* bars = new QScrollArea;
    bars->setWidgetResizable(true);
    bars->setFrameShape(QFrame::NoFrame);
    bars->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* barsBox = new QWidget;
    auto* barsLayout = new QVBoxLayout(barsBox);
    barsLayout->setContentsMargins(0, 0, 0, 0);
    barsLayout->addWidget(chart_);
    barsLayout->addStretch(1);
    bars->setWidget(barsBox);
    v->addWidget(heading);
    v->addWidget(prompt_);
    v->addWidget(count_);
    v->addWidget(classState_);
    v->addLayout(buttons);
    v->addWidget(bars, 1);
    return box;
}

void PresenterView::refreshLesson()
{
    const Lesson* lesson = lessons_->lesson();
    const int count = lesson ? static_cast<int>(lesson->steps.size()) : 0;
    const LessonStep* step = lessons_->currentStep();
    for (QPushButton* b : {previous_, showMe_, check_, nextStep_})
        b->setEnabled(step != nullptr);
    result_->clear();
    if (!step) {
        lessonHeading_->setText(tr("No lesson open."));
        stepHeading_->setText(tr("Pick one in the Lessons menu: its steps appear here."));
        text_->clear();
        next_->clear();
        refreshHeld();
        return;
    }
    const int at = lessons_->step();
    lessonHeading_->setText(lesson->title.toHtmlEscaped());
    stepHeading_->setText(tr("Step %1 of %2 · %3").arg(at + 1).arg(count).arg(step->title.toHtmlEscaped()));
    text_->setMarkdown(step->text);
    next_->setText(at + 1 < count ? tr("<b>Next:</b> step %1 · %2")
                                        .arg(at + 2)
                                        .arg(lesson->steps[static_cast<std::size_t>(at + 1)].title.toHtmlEscaped())
                                  : tr("<b>Next:</b> nothing; this is the lesson's last step."));
    previous_->setEnabled(at > 0);
    nextStep_->setEnabled(at + 1 < count);
    showMe_->setEnabled(static_cast<bool>(step->showMe));
    check_->setEnabled(static_cast<bool>(step->check));
    refreshHeld();
}

void PresenterView::refreshHeld()
{
    // As the lessons panel's own Reveal: shown on a step with an answer to hold, enabled while it is held.
    const LessonStep* step = lessons_->currentStep();
    const bool held = lessons_->answerHeld();
    revealStep_->setVisible(step && !step->holds.isEmpty());
    revealStep_->setEnabled(held);
    revealStep_->setText(held ? tr("Reveal the step's answer on the projector") : tr("The step's answer is revealed"));
}

void PresenterView::refreshClass()
{
    const poll::Tally* t = poll_->tally();
    showClass_->setEnabled(t != nullptr);
    again_->setEnabled(t != nullptr);
    reveal_->setEnabled(t != nullptr && !poll_->revealed());
    showClass_->setText(poll_->shown() ? tr("Hide from the projector") : tr("Show on the projector"));
    if (!t) {
        prompt_->setText(poll_->listening() ? tr("The class is connected; no question asked yet.")
                                            : tr("Ask the Class is not running (View > Ask the Class)."));
        count_->clear();
        classState_->clear();
        chart_->updateGeometry();
        chart_->update();
        return;
    }
    prompt_->setText(QString::fromStdString(t->question().prompt).toHtmlEscaped());
    const int answered = static_cast<int>(t->answered(t->round()));
    const int present = std::max(answered, poll_->present());
    count_->setText(tr("Round %1: %2 of %3 answered").arg(t->round()).arg(answered).arg(present));
    const int right = static_cast<int>(std::lround(100.0 * t->right_share(t->round())));
    classState_->setText((answered > 0 ? tr("%1% right so far. ").arg(right) : QString()) +
                         (poll_->revealed()    ? tr("The answer is revealed on the projector.")
                          : poll_->shown()     ? tr("The room sees these bars.")
                          : poll_->accepting() ? tr("The room does not see these bars yet.")
                                               : tr("Voting is closed; the room does not see these bars.")));
    chart_->updateGeometry();
    chart_->update();
}

void PresenterView::restartClock()
{
    since_.start();
    tick();
}

void PresenterView::tick()
{
    const qint64 seconds = since_.elapsed() / 1000;
    clock_->setText(QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0')));
}

} // namespace attnlab::ui
