#pragma once
// Ask the class: the poll the teacher runs -- the server (listening only between start() and stop(), on the
// address picked), the question asked, its rounds (Vote again keeps the earlier round beside the new one),
// whether the class's distribution is shown yet, and the questions asked so far (for the CSV). Each accepted
// answer is counted in the tally and, when a log was asked for, written to it as one JSON line before the
// phone hears it was counted, so nothing accepted is lost if the app is killed.
#include "features/poll/connection_guard.h"
#include "poll/poll_tally.h"

#include <QFile>
#include <QHostAddress>
#include <QJsonObject>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace attnlab::ui {

class PollServer;
struct AnswerRequest;

struct PollOptions {
    QHostAddress address = QHostAddress::LocalHost; // loopback: a demo on this machine alone
    quint16 port = 0;                               // 0: one the system picks
    QString code;                                   // empty: four characters made up here
    QString logPath;                                // empty: no log
    ConnectionBounds bounds;                        // the tests shorten its times
};

class PollState : public QObject {
    Q_OBJECT
public:
    explicit PollState(QObject* parent = nullptr);
    ~PollState() override;

    // Opens the server; false with one sentence in *error (the address is not this machine's, the port is
    // taken, the log cannot be opened, the code is not 4 to 8 letters or digits).
    bool start(const PollOptions& options, QString* error);
    void stop(); // closes the server; the results stay
    bool listening() const;
    QString joinAddress() const;  // with the token: what the QR code holds
    QString shortAddress() const; // without it: what a student types, then the room code
    QString code() const { return code_; }

    void ask(poll::Question question); // a new question, round 1, answers hidden
    void closeVoting();                // no more answers this round
    void voteAgain();                  // the next round opens; the earlier ones stay beside it
    void setShown(bool shown);         // the distribution on the projector
    // Off by default: a phone's page then asks for no name and none is kept. On, the page offers a name box; a
    // name given is kept with that device's answers for this run and written to the log, never to the session.
    void setNamesAsked(bool asked);
    bool namesAsked() const { return namesAsked_; }
    // Who answered the open question's current round, by the names given (sorted; the unnamed counted apart).
    QStringList namesAnswered(int* unnamed = nullptr) const;
    void reveal(); // the right answers marked (and the stage shown, by whoever asked it)

    const poll::Tally* tally() const { return current_ < 0 ? nullptr : &asked_[static_cast<std::size_t>(current_)]; }
    bool accepting() const { return accepting_; }
    bool shown() const { return shown_; }
    bool revealed() const { return revealed_; }
    int present() const { return static_cast<int>(present_.size()); } // devices that have the question open
    const std::vector<poll::Tally>& asked() const { return asked_; }
    QString logError() const { return logError_; }
    // Connections closed at once for a bound (connection_guard.h), and those open now: the tests read them.
    qint64 refusedConnections() const;
    int openConnections() const;

    // The handlers the server calls (public for the tests, which call them without a socket).
    QJsonObject questionState(const QString& device);
    std::optional<QJsonObject> answer(const AnswerRequest& request, QString* error);

    // Every question asked, every round, every value given: question,prompt,round,field,value,count,right.
    QByteArray csv() const;

    // Its part of a session file, "class": the questions asked and each round's answers (poll_results_json.h);
    // absent when nothing was asked. Restoring replaces the results and asks nothing (the server is untouched).
    void saveSection(QJsonObject& file) const;
    void restoreSection(const QJsonObject& file);
    static bool checkSection(const QJsonObject& file, QString* error);
    static constexpr const char* kSectionKey = "class";

    static constexpr int kMostQuestions = 500; // a term of lectures; the oldest are dropped beyond it

Q_SIGNALS:
    void changed();         // what the teacher did: started, asked, showed, voted again, revealed, stopped
    void answersChanged();  // what the class did: a phone answered or opened the question (many a second)
    void revealRequested(); // Reveal: the page that asked shows its stage

private:
    std::unique_ptr<QFile> log_;
    QString logError_;
    QPointer<PollServer> server_;
    QHostAddress address_;
    QString code_, token_;
    std::vector<poll::Tally> asked_;
    int current_ = -1;
    bool accepting_ = false, shown_ = false, revealed_ = false, namesAsked_ = false;
    QHash<QString, QString> names_; // device -> name, while names are asked
    QSet<QString> present_;
};

} // namespace attnlab::ui
