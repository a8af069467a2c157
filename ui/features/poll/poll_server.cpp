#include "features/poll/poll_server.h"

#include <QFile>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QUrlQuery>

namespace attnlab::ui {

namespace {

using Status = QHttpServerResponder::StatusCode;

constexpr auto kJson = "application/json; charset=utf-8";

QByteArray builtIn(const QString& path)
{
    QFile file(QStringLiteral(":/poll/") + path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

// What every response says besides its body: never cached, never sniffed as another type, never framed, and
// the page may load only its own script and style (nothing a student sends can run as code on the projector's
// page or another phone's).
void PollServer::reply(const QHttpServerRequest& request, QTcpSocket* socket, const QByteArray& body,
                       const QByteArray& type, int status)
{
    auto responder = makeResponder(request, socket);
    responder.write(body,
                    {{"Content-Type", type},
                     {"Cache-Control", "no-store"},
                     {"X-Content-Type-Options", "nosniff"},
                     {"Referrer-Policy", "no-referrer"},
                     {"Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"}},
                    static_cast<Status>(status));
}

PollServer::PollServer(QString code, QString token, PollHandlers handlers, ConnectionBounds bounds, QObject* parent)
    : QAbstractHttpServer(parent), code_(std::move(code)), token_(std::move(token)), handlers_(std::move(handlers)),
      tcp_(new GuardedTcpServer(bounds, this))
{
    clock_.start();
}

bool PollServer::start(const QHostAddress& address, quint16 port, QString* error)
{
    if (!tcp_->listen(address, port)) {
        *error = QStringLiteral("Could not listen on %1 port %2: %3.")
                     .arg(address.toString())
                     .arg(port)
                     .arg(tcp_->errorString());
        return false;
    }
    port_ = tcp_->serverPort();
    bind(tcp_);
    return true;
}

bool PollServer::tokenOf(const QHttpServerRequest& request) const
{
    if (request.query().queryItemValue(QStringLiteral("t")) == token_)
        return true;
    const QByteArray cookies = request.value("Cookie");
    for (const QByteArray& part : cookies.split(';'))
        if (part.trimmed() == "attnlab-poll=" + token_.toLatin1())
            return true;
    return false;
}

bool PollServer::allowAnswer(const QString& device)
{
    const qint64 now = clock_.elapsed();
    if (buckets_.size() > 4096) // ids nobody uses any more (refilled) are forgotten, so a flood of ids is bounded
        buckets_.removeIf(
            [now](const auto& it) { return (now - it.value().at) / 1000.0 * kAnswersPerSecond >= kAnswerBurst; });
    auto it = buckets_.find(device);
    if (it == buckets_.end())
        it = buckets_.insert(device, {kAnswerBurst, now});
    it->tokens = std::min(kAnswerBurst, it->tokens + (now - it->at) / 1000.0 * kAnswersPerSecond);
    it->at = now;
    if (it->tokens < 1)
        return false;
    it->tokens -= 1;
    return true;
}

QByteArray PollServer::join(const QHttpServerRequest& request, int* status)
{
    const qint64 now = clock_.elapsed();
    const QString from = request.remoteAddress().toString();
    if (joinTries_.size() > 1024)
        joinTries_.clear();
    auto& tries = joinTries_[from];
    tries.removeIf([now](qint64 at) { return now - at > 60'000; });
    if (tries.size() >= kJoinTriesPerMinute) {
        *status = 429;
        return refusalJson(QStringLiteral("Too many room codes tried; wait a minute, or scan the QR code."));
    }
    tries.append(now);
    const QJsonObject body = QJsonDocument::fromJson(request.body().left(1024)).object();
    if (body.value(QLatin1String("code")).toString().trimmed().compare(code_, Qt::CaseInsensitive) != 0) {
        *status = 403;
        return refusalJson(QStringLiteral("That is not this room's code; check the code on the projector."));
    }
    *status = 200;
    return QJsonDocument(QJsonObject{{"token", token_}}).toJson(QJsonDocument::Compact);
}

QByteArray PollServer::answer(const QHttpServerRequest& request, int* status)
{
    QString error;
    const auto read = readAnswerRequest(request.body(), &error);
    if (!read) {
        *status = request.body().size() > kMostAnswerBytes ? 413 : 400;
        return refusalJson(error);
    }
    if (!allowAnswer(read->device)) {
        *status = 429;
        return refusalJson(QStringLiteral("Answers are coming too fast from this device; wait a second."));
    }
    const auto counted = handlers_.answer(*read, &error);
    if (!counted) {
        *status = 409;
        return refusalJson(error);
    }
    *status = 200;
    return QJsonDocument(QJsonObject{{"accepted", true}, {"answer", *counted}}).toJson(QJsonDocument::Compact);
}

bool PollServer::handleRequest(const QHttpServerRequest& request, QTcpSocket* socket)
{
    const QString path = request.url().path();
    const auto method = request.method();
    const bool get = method == QHttpServerRequest::Method::Get, post = method == QHttpServerRequest::Method::Post;
    static const QHash<QString, QPair<QString, QByteArray>> kFiles{
        {"/", {"index.html", "text/html; charset=utf-8"}},
        {"/index.html", {"index.html", "text/html; charset=utf-8"}},
        {"/poll.js", {"poll.js", "text/javascript; charset=utf-8"}},
        {"/poll.css", {"poll.css", "text/css; charset=utf-8"}}};
    if (get && kFiles.contains(path)) {
        const auto& [file, type] = kFiles.value(path);
        reply(request, socket, builtIn(file), type, 200);
        return true;
    }
    int status = 200;
    QByteArray body;
    if (path == QLatin1String("/api/join") && post) {
        body = join(request, &status);
    } else if (path.startsWith(QLatin1String("/api/")) && !tokenOf(request)) {
        status = 403;
        body = refusalJson(QStringLiteral("This address needs the poll's join token; scan the QR code or type the "
                                          "room code."));
    } else if (path == QLatin1String("/api/question") && get) {
        QString device = request.query().queryItemValue(QStringLiteral("d"));
        if (!isDeviceId(device))
            device.clear();
        body = QJsonDocument(handlers_.question(device)).toJson(QJsonDocument::Compact);
    } else if (path == QLatin1String("/api/answer") && post) {
        body = answer(request, &status);
    } else if (kFiles.contains(path) || path.startsWith(QLatin1String("/api/"))) {
        status = 405;
        body = refusalJson(QStringLiteral("That address does not take this method; the page uses GET and POST."));
    } else {
        status = 404;
        body = refusalJson(QStringLiteral("There is nothing at this address; open the join address the projector "
                                          "shows."));
    }
    reply(request, socket, body, kJson, status);
    return true;
}

void PollServer::missingHandler(const QHttpServerRequest& request, QTcpSocket* socket)
{
    reply(request, socket, refusalJson(QStringLiteral("There is nothing at this address.")), kJson, 404);
}

} // namespace attnlab::ui
