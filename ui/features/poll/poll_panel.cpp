#include "features/poll/poll_panel.h"

#include "features/poll/poll_state.h"
#include "features/poll/qr_image.h"
#include "features/poll/tally_chart.h"
#include "widgets/flow_layout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QNetworkInterface>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QLabel* wrapped(const QString& text = {})
{
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText); // a teacher's question is text, never markup
    return label;
}

QFont scaled(QFont font, qreal factor, bool bold = false)
{
    if (font.pointSizeF() > 0) // presentation mode sizes type in pixels
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(qRound(font.pixelSize() * factor));
    font.setBold(bold);
    return font;
}

} // namespace

PollPanel::PollPanel(PollState* poll, QWidget* parent) : QWidget(parent), poll_(poll)
{
    pages_ = new QStackedWidget;
    pages_->addWidget(buildStart());
    pages_->addWidget(buildRunning());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(pages_);
    // What the teacher did shows at once; what the class does is gathered: with 200 phones answering at once the
    // projector repaints ten times a second, not per answer.
    connect(poll_, &PollState::changed, this, &PollPanel::refresh);
    connect(poll_, &PollState::answersChanged, this, [this] {
        if (refreshQueued_)
            return;
        refreshQueued_ = true;
        QTimer::singleShot(100, this, [this] {
            refreshQueued_ = false;
            refresh();
        });
    });
    refresh();
}

QWidget* PollPanel::buildStart()
{
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(wrapped(tr("Every student answers the question on screen from a phone or laptop on this "
                                 "network: no app, no account. The app listens only until you stop the poll.")));
    address_ = new QComboBox;
    address_->setAccessibleName(tr("Listen on"));
    // The pages share the dock's width: a long address must not widen the running poll's page past the dock.
    address_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    address_->setMinimumContentsLength(16);
    for (const QHostAddress& a : QNetworkInterface::allAddresses())
        if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback())
            address_->addItem(tr("%1 (the class's network)").arg(a.toString()), a.toString());
    address_->addItem(tr("127.0.0.1 (this computer only: a demo)"), QStringLiteral("127.0.0.1"));
    port_ = new QSpinBox;
    port_->setRange(0, 65535);
    port_->setValue(8642);
    port_->setSpecialValueText(tr("any free port"));
    auto* form = new QFormLayout;
    form->addRow(tr("Listen on"), address_);
    form->addRow(tr("Port"), port_);
    layout->addLayout(form);
    auto* start = new QPushButton(tr("Open the poll"));
    start->setObjectName(QStringLiteral("poll-start"));
    connect(start, &QPushButton::clicked, this, &PollPanel::start);
    layout->addWidget(start);
    startError_ = wrapped();
    startError_->setObjectName(QStringLiteral("poll-start-error"));
    startError_->hide();
    layout->addWidget(startError_);
    layout->addStretch(1);
    return page;
}

QWidget* PollPanel::buildRunning()
{
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    qr_ = new QLabel;
    qr_->setAlignment(Qt::AlignCenter);
    qr_->setAccessibleName(tr("QR code of the join address"));
    join_ = wrapped();
    join_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    code_ = new QLabel;
    code_->setObjectName(QStringLiteral("poll-code"));
    code_->setFont(scaled(font(), 2.2, true));
    code_->setAccessibleName(tr("Room code"));
    prompt_ = wrapped();
    prompt_->setFont(scaled(font(), 1.25, true));
    count_ = new QLabel;
    count_->setObjectName(QStringLiteral("poll-count"));
    count_->setFont(scaled(font(), 1.6, true));
    hidden_ = wrapped(tr("The class's answers stay hidden until you show them, so the first answers do not "
                         "steer the rest."));
    message_ = wrapped();
    message_->hide();
    names_ = new QCheckBox(tr("Ask for names"));
    names_->setToolTip(tr("Off, nothing about a student is kept but the answer. On, the page offers a name box; "
                          "the names given show here and go to the log, never to the session file."));
    connect(names_, &QCheckBox::toggled, poll_, &PollState::setNamesAsked);
    named_ = wrapped();
    named_->setObjectName(QStringLiteral("poll-named"));
    show_ = new QPushButton(tr("Show answers"));
    show_->setCheckable(true);
    again_ = new QPushButton(tr("Vote again"));
    again_->setToolTip(tr("Let neighbours argue, then everyone answers again; the first round stays beside it."));
    close_ = new QPushButton(tr("Close voting"));
    reveal_ = new QPushButton(tr("Reveal"));
    reveal_->setToolTip(tr("Mark the right answer and show the stage."));
    connect(show_, &QPushButton::toggled, poll_, &PollState::setShown);
    connect(again_, &QPushButton::clicked, poll_, &PollState::voteAgain);
    connect(close_, &QPushButton::clicked, poll_, &PollState::closeVoting);
    connect(reveal_, &QPushButton::clicked, poll_, &PollState::reveal);
    auto* steps = new FlowLayout;
    for (QPushButton* b : {show_, again_, close_, reveal_})
        steps->addWidget(b);
    auto* askStage = new QPushButton(tr("Ask the shown stage"));
    auto* askChoice = new QPushButton(tr("Multiple choice…"));
    askLesson_ = new QPushButton(tr("Ask the lesson's question"));
    askLesson_->setObjectName(QStringLiteral("poll-ask-lesson"));
    askLesson_->setToolTip(tr("The guided lesson's step on screen has one right answer: ask the class for it."));
    askLesson_->hide();
    connect(askLesson_, &QPushButton::clicked, this, &PollPanel::askLessonRequested);
    auto* exportCsv = new QPushButton(tr("Export CSV…"));
    auto* stop = new QPushButton(tr("Stop the poll"));
    stop->setToolTip(tr("Stop listening; the class's answers so far stay."));
    connect(askStage, &QPushButton::clicked, this, &PollPanel::askStageRequested);
    connect(askChoice, &QPushButton::clicked, this, &PollPanel::askChoiceRequested);
    connect(exportCsv, &QPushButton::clicked, this, &PollPanel::exportRequested);
    connect(stop, &QPushButton::clicked, poll_, &PollState::stop);
    auto* asks = new FlowLayout;
    for (QPushButton* b : {askStage, askLesson_, askChoice, exportCsv, stop})
        asks->addWidget(b);
    chart_ = new TallyChart(poll_);
    // The QR code beside the address and the room code: a phone's camera, or a student typing from the back row.
    auto* joinRow = new QHBoxLayout;
    joinRow->addWidget(qr_);
    auto* joinText = new QVBoxLayout;
    joinText->addStretch(1);
    joinText->addWidget(new QLabel(tr("Room code")));
    joinText->addWidget(code_);
    joinText->addStretch(1);
    joinRow->addLayout(joinText, 1);
    layout->addLayout(joinRow);
    layout->addWidget(join_);
    layout->addWidget(prompt_);
    layout->addWidget(count_);
    layout->addLayout(steps);
    layout->addWidget(hidden_);
    layout->addWidget(chart_);
    layout->addWidget(message_);
    layout->addWidget(names_);
    layout->addWidget(named_);
    layout->addStretch(1);
    layout->addLayout(asks);
    return page;
}

void PollPanel::start()
{
    PollOptions options;
    options.address = QHostAddress(address_->currentData().toString());
    options.port = static_cast<quint16>(port_->value());
    QString error;
    const bool ok = poll_->start(options, &error);
    startError_->setText(error);
    startError_->setVisible(!ok);
    if (ok)
        Q_EMIT askStageRequested();
}

QSize PollPanel::sizeHint() const
{
    return {fontMetrics().averageCharWidth() * 40, QWidget::sizeHint().height()};
}

void PollPanel::setLessonQuestionAvailable(bool available)
{
    askLesson_->setVisible(available);
}

void PollPanel::setAskError(const QString& sentence)
{
    message_->setText(sentence);
    message_->setVisible(!sentence.isEmpty());
}

void PollPanel::refresh()
{
    pages_->setCurrentIndex(poll_->listening() ? 1 : 0);
    if (!poll_->listening())
        return;
    const QImage code = qrImage(poll_->joinAddress());
    const int side = std::max(1, 180 / std::max(1, code.width())) * code.width(); // whole pixels per module
    qr_->setPixmap(QPixmap::fromImage(code.scaled(side, side, Qt::KeepAspectRatio, Qt::FastTransformation)));
    join_->setText(tr("Scan the code, or open %1 and type the room code.").arg(poll_->shortAddress()));
    code_->setText(poll_->code());
    const poll::Tally* t = poll_->tally();
    prompt_->setText(t ? QString::fromStdString(t->question().prompt) : tr("No question asked yet."));
    const int answered = t ? static_cast<int>(t->answered(t->round())) : 0;
    const int present = std::max(answered, poll_->present());
    count_->setText(!t               ? QString()
                    : t->round() > 1 ? tr("Round %1: %2 of %3 answered").arg(t->round()).arg(answered).arg(present)
                                     : tr("%1 of %2 answered").arg(answered).arg(present));
    {
        const QSignalBlocker quiet(show_);
        show_->setChecked(poll_->shown());
    }
    show_->setEnabled(t);
    again_->setEnabled(t && !poll_->revealed());
    close_->setEnabled(t && poll_->accepting());
    reveal_->setEnabled(t && !poll_->revealed());
    hidden_->setVisible(t && !poll_->shown());
    // The bars need the room once shown; whoever has not joined by then still has the address and the code.
    qr_->setVisible(!poll_->shown());
    {
        const QSignalBlocker quiet(names_);
        names_->setChecked(poll_->namesAsked());
    }
    int unnamed = 0;
    const QStringList named = poll_->namesAnswered(&unnamed);
    named_->setVisible(poll_->namesAsked() && t);
    named_->setText(named.isEmpty() ? tr("No named answers yet.")
                                    : tr("Answered: %1%2")
                                          .arg(named.join(QStringLiteral(", ")),
                                               unnamed ? tr(" and %n without a name", "", unnamed) : QString()));
    if (!poll_->logError().isEmpty())
        setAskError(poll_->logError());
    chart_->updateGeometry();
    chart_->update();
}

} // namespace attnlab::ui
