#pragma once
// The page and the JSON API a class answers through, served only while a poll is open, on the one address the
// teacher picked (docs/classroom.md documents the API):
//   GET  /  /poll.js  /poll.css          the built-in page (nothing else is served)
//   POST /api/join      {"code": "K7P2"}  -> {"token": ...}   the room code typed by hand, a few tries a minute
//   GET  /api/question?t=TOKEN[&d=DEV]  -> the open question, its round and how many answered
//   POST /api/answer?t=TOKEN            -> {"accepted": true, "answer": {...}} once it is counted (and logged)
// Every refusal is one sentence to that browser ({"error": ...}, a 4xx status) and nothing on the projector.
#include "features/poll/connection_guard.h"
#include "features/poll/poll_request.h"

#include <QAbstractHttpServer>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>

#include <functional>
#include <optional>

namespace attnlab::ui {

struct PollHandlers {
    // The state GET /api/question gives: {"state": "open"|"closed"|"none", "answered": n, "question": {...}}.
    // `device` is the page's id when it sent one (so the projector can count who is there), else empty.
    std::function<QJsonObject(const QString& device)> question;
    // Counts an answer; the canonical answer, or one sentence saying why it does not count.
    std::function<std::optional<QJsonObject>(const AnswerRequest& answer, QString* error)> answer;
};

class PollServer : public QAbstractHttpServer {
    Q_OBJECT
public:
    PollServer(QString code, QString token, PollHandlers handlers, ConnectionBounds bounds = {},
               QObject* parent = nullptr);

    // Listens on `address` (port 0: one the system picks); false with one sentence in *error.
    bool start(const QHostAddress& address, quint16 port, QString* error);
    quint16 port() const { return port_; }
    const GuardedTcpServer* sockets() const { return tcp_; }

    static constexpr int kJoinTriesPerMinute = 6;  // per address: a 4-character code is not guessed in a lecture
    static constexpr double kAnswersPerSecond = 4; // per device, with a burst of kAnswerBurst
    static constexpr double kAnswerBurst = 8;

protected:
    bool handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) override;
    void missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) override;

private:
    void reply(const QHttpServerRequest& request, QTcpSocket* socket, const QByteArray& body, const QByteArray& type,
               int status);
    bool tokenOf(const QHttpServerRequest& request) const;
    QByteArray join(const QHttpServerRequest& request, int* status);
    QByteArray answer(const QHttpServerRequest& request, int* status);
    bool allowAnswer(const QString& device);

    QString code_, token_;
    PollHandlers handlers_;
    GuardedTcpServer* tcp_;
    quint16 port_ = 0;
    struct Bucket {
        double tokens = 0;
        qint64 at = 0;
    };
    QHash<QString, Bucket> buckets_;          // per device
    QHash<QString, QList<qint64>> joinTries_; // per address: when, in ms
    QElapsedTimer clock_;
};

} // namespace attnlab::ui
