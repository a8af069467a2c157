#include "features/poll/poll_actions.h"

#include "features/poll/poll_panel.h"
#include "features/poll/poll_state.h"
#include "features/session.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "poll/poll_question.h"
#include "shell/exporters.h"
#include "shell/shown_value.h"
#include "tensor/error.h"

#include <QAction>
#include <QCommandLineParser>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSpinBox>

#include <cstdio>

namespace attnlab::ui {

void addPollOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("ask-class"),
         QStringLiteral("Open a poll on the shown question at start and print its join address (Ask the Class).")},
        {QStringLiteral("class-address"),
         QStringLiteral("With --ask-class: listen on this address of this computer (default 127.0.0.1)."),
         QStringLiteral("A")},
        {QStringLiteral("class-port"), QStringLiteral("With --ask-class: listen on this port (default: a free one)."),
         QStringLiteral("P")},
        {QStringLiteral("class-code"), QStringLiteral("With --ask-class: the room code (4 to 8 letters or digits)."),
         QStringLiteral("C")},
        {QStringLiteral("class-log"),
         QStringLiteral("With --ask-class: append one JSON line per accepted answer to this file."),
         QStringLiteral("FILE")},
    });
}

PollActions::PollActions(QWidget* window, Session* session, QObject* parent)
    : QObject(parent), window_(window), session_(session), state_(session->poll())
{
    panel_ = new PollPanel(state_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the buttons flow, the text wraps
    dock_ = new QDockWidget(tr("Ask the Class"), window);
    dock_->setObjectName(QStringLiteral("poll-dock"));
    dock_->setAccessibleName(tr("Ask the Class"));
    dock_->setWidget(scroll);
    dock_->hide();
    QAction* toggle = dock_->toggleViewAction();
    toggle->setText(tr("Ask the &Class"));
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    toggle->setToolTip(tr("Every student answers the question on screen from a phone; the projector shows how the "
                          "class voted."));
    connect(panel_, &PollPanel::askStageRequested, this, &PollActions::askShownStage);
    connect(panel_, &PollPanel::askChoiceRequested, this, &PollActions::chooseAndAsk);
    connect(panel_, &PollPanel::askLessonRequested, this, &PollActions::askLessonQuestion);
    connect(panel_, &PollPanel::exportRequested, this, &PollActions::exportCsv);
    connect(state_, &PollState::revealRequested, this, [this] {
        const poll::Tally* t = state_->tally();
        // A stage's question (its shape, or which head) reveals that stage; a lesson's or a teacher's has none.
        if (t && (t->question().id.rfind("stage:", 0) == 0 || t->question().id.rfind("heads:", 0) == 0))
            session_->study()->revealStage();
    });
}

QAction* PollActions::toggleAction() const
{
    return dock_->toggleViewAction();
}

bool PollActions::askShownStage()
{
    const auto trace = session_->trace()->trace();
    const StageQuestion* question = session_->study()->question();
    if (!trace || !question) {
        panel_->setAskError(tr("The shown stage has no question yet: fix the settings, or wait for the forward pass."));
        return false;
    }
    panel_->setAskError({});
    // The stage stays hidden on the projector until Reveal, as Predict First keeps it.
    session_->study()->setPredictFirst(true);
    if (const auto heads = session_->study()->headQuestion())
        state_->ask(poll::from_heads(*heads));
    else
        state_->ask(poll::from_stage(*trace, *question));
    return true;
}

void PollActions::setLessonQuestion(LessonQuestion question)
{
    lessonQuestion_ = std::move(question);
    lessonStepChanged();
}

void PollActions::lessonStepChanged()
{
    panel_->setLessonQuestionAvailable(lessonQuestion_ && lessonQuestion_().has_value());
}

bool PollActions::askLessonQuestion()
{
    const auto question = lessonQuestion_ ? lessonQuestion_() : std::nullopt;
    if (!question) {
        panel_->setAskError(tr("The lesson step on screen has no question with one right answer."));
        return false;
    }
    panel_->setAskError({});
    state_->ask(*question);
    return true;
}

bool PollActions::askChoice(const QString& prompt, const QStringList& choices, int right, QString* error)
{
    std::vector<std::string> options;
    for (const QString& c : choices)
        options.push_back(c.trimmed().toStdString());
    try {
        state_->ask(poll::from_choices(prompt.trimmed().toStdString(), options, right));
    } catch (const Error& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

void PollActions::chooseAndAsk()
{
    QDialog dialog(window_);
    dialog.setWindowTitle(tr("Ask a multiple choice"));
    auto* prompt = new QLineEdit;
    prompt->setMaxLength(300);
    auto* choices = new QPlainTextEdit;
    choices->setPlaceholderText(tr("One choice per line, 2 to 8"));
    auto* right = new QSpinBox;
    right->setRange(1, 8);
    auto* error = new QLabel;
    error->setWordWrap(true);
    error->setTextFormat(Qt::PlainText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("Question"), prompt);
    form->addRow(tr("Choices"), choices);
    form->addRow(tr("Right choice (from 1)"), right);
    form->addRow(error);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        QStringList lines = choices->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QString why;
        if (askChoice(prompt->text(), lines, right->value() - 1, &why))
            dialog.accept();
        else
            error->setText(why);
    });
    dialog.exec();
}

void PollActions::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export the class's answers"),
                                                      QStringLiteral("class-answers.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writeFileAtomically(path, state_->csv(), &error, tr("the class's answers")))
        panel_->setAskError(error);
}

bool PollActions::startFromCommandLine(const QCommandLineParser& parser, QString* error)
{
    const QStringList withPoll{QStringLiteral("class-address"), QStringLiteral("class-port"),
                               QStringLiteral("class-code"), QStringLiteral("class-log")};
    if (!parser.isSet(QStringLiteral("ask-class"))) {
        for (const QString& option : withPoll)
            if (parser.isSet(option)) {
                *error = tr("--%1 needs --ask-class.").arg(option);
                return false;
            }
        return true;
    }
    PollOptions options;
    if (parser.isSet(QStringLiteral("class-address"))) {
        const QString text = parser.value(QStringLiteral("class-address"));
        if (!options.address.setAddress(text)) {
            *error = tr("--class-address takes an IP address of this computer such as 127.0.0.1, not '%1'.")
                         .arg(shownValue(text));
            return false;
        }
    }
    if (parser.isSet(QStringLiteral("class-port"))) {
        bool ok = false;
        const uint port = parser.value(QStringLiteral("class-port")).toUInt(&ok);
        if (!ok || port > 65535) {
            *error = tr("--class-port takes a whole number from 0 (any free port) to 65535, not '%1'.")
                         .arg(shownValue(parser.value(QStringLiteral("class-port"))));
            return false;
        }
        options.port = static_cast<quint16>(port);
    }
    options.code = parser.value(QStringLiteral("class-code"));
    options.logPath = parser.value(QStringLiteral("class-log"));
    if (!state_->start(options, error)) {
        *error = tr("--ask-class: %1").arg(*error);
        return false;
    }
    std::printf("Ask the class: %s (room code %s)\n", qPrintable(state_->joinAddress()), qPrintable(state_->code()));
    std::fflush(stdout);
    dock_->show();
    session_->whenSettled(this, [this] { askShownStage(); });
    return true;
}

} // namespace attnlab::ui
