#include "features/poll/poll_state.h"

#include "features/poll/poll_request.h"
#include "features/poll/poll_results_json.h"
#include "features/poll/poll_server.h"
#include "io/atomic_file.h"
#include "shell/shown_value.h"
#include "tensor/error.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QNetworkInterface>
#include <QRandomGenerator>

#include <algorithm>

namespace attnlab::ui {

namespace {

// No 0/O, 1/I/L: read off a projector from the back row.
constexpr char kCodeLetters[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

QString randomCode()
{
    QString code;
    for (int i = 0; i < 4; ++i)
        code += QLatin1Char(kCodeLetters[QRandomGenerator::system()->bounded(int(sizeof kCodeLetters) - 1)]);
    return code;
}

QString randomToken()
{
    QByteArray bytes(16, '\0');
    for (char& b : bytes)
        b = static_cast<char>(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(bytes.toHex());
}

QString csvCell(const QString& text)
{
    QString t = text;
    // A spreadsheet runs a cell that starts with = + - @ as a formula: a teacher's own question text is kept as text.
    if (!t.isEmpty() && QStringLiteral("=+-@").contains(t.front()))
        t.prepend(QLatin1Char('\''));
    return QLatin1Char('"') + t.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

bool localAddress(const QHostAddress& address)
{
    if (address.isLoopback() || address == QHostAddress::Any || address == QHostAddress::AnyIPv4)
        return true;
    return QNetworkInterface::allAddresses().contains(address);
}

} // namespace

PollState::PollState(QObject* parent) : QObject(parent) {}

PollState::~PollState() = default;

bool PollState::start(const PollOptions& options, QString* error)
{
    stop();
    QString code = options.code.trimmed().toUpper();
    if (code.isEmpty())
        code = randomCode();
    if (code.size() < 4 || code.size() > 8 ||
        !std::all_of(code.begin(), code.end(), [](QChar c) { return c.unicode() < 128 && c.isLetterOrNumber(); })) {
        *error = QStringLiteral("A room code is 4 to 8 letters or digits, not '%1'.").arg(shownValue(options.code));
        return false;
    }
    if (!localAddress(options.address)) {
        *error = QStringLiteral("%1 is not an address of this computer; its addresses are %2.")
                     .arg(options.address.toString(), [] {
                         QStringList all;
                         for (const QHostAddress& a : QNetworkInterface::allAddresses())
                             if (a.protocol() == QAbstractSocket::IPv4Protocol)
                                 all << a.toString();
                         return all.join(QStringLiteral(", "));
                     }());
        return false;
    }
    if (!options.logPath.isEmpty()) {
        // Appended to, so only a regular file or a new one: opening a FIFO for writing would wait for a reader
        // forever, a device would take the answers somewhere else.
        if (QFileInfo(options.logPath).isSymLink()) {
            *error = QStringLiteral("Could not open the class log %1: it is a symbolic link; give the path of the "
                                    "file it points to, or another name.")
                         .arg(shownValue(options.logPath));
            return false;
        }
        try {
            check_write_target(options.logPath.toStdString());
        } catch (const WriteError& e) {
            *error = QStringLiteral("Could not open the class log %1: %2")
                         .arg(shownValue(options.logPath), QString::fromStdString(e.reason()));
            return false;
        }
        auto log = std::make_unique<QFile>(options.logPath);
        if (!log->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered)) {
            *error = QStringLiteral("Could not open the class log %1: %2.").arg(options.logPath, log->errorString());
            return false;
        }
        log_ = std::move(log);
    }
    code_ = code;
    token_ = randomToken();
    auto* server = new PollServer(code_, token_,
                                  {[this](const QString& device) { return questionState(device); },
                                   [this](const AnswerRequest& request, QString* why) { return answer(request, why); }},
                                  options.bounds, this);
    if (!server->start(options.address, options.port, error)) {
        delete server;
        log_.reset();
        return false;
    }
    server_ = server;
    address_ = options.address == QHostAddress::Any || options.address == QHostAddress::AnyIPv4
                   ? QHostAddress(QHostAddress::LocalHost)
                   : options.address;
    Q_EMIT changed();
    return true;
}

void PollState::stop()
{
    if (server_)
        delete server_.data();
    log_.reset();
    accepting_ = false;
    present_.clear();
    Q_EMIT changed();
}

bool PollState::listening() const
{
    return !server_.isNull();
}

qint64 PollState::refusedConnections() const
{
    return server_ ? server_->sockets()->refusedConnections() : 0;
}

int PollState::openConnections() const
{
    return server_ ? server_->sockets()->openConnections() : 0;
}

QString PollState::shortAddress() const
{
    if (!server_)
        return {};
    const QString host = address_.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + address_.toString() + QLatin1Char(']')
                             : address_.toString();
    return QStringLiteral("http://%1:%2/").arg(host).arg(server_->port());
}

QString PollState::joinAddress() const
{
    return server_ ? shortAddress() + QStringLiteral("?t=") + token_ : QString();
}

void PollState::ask(poll::Question question)
{
    if (asked_.size() >= kMostQuestions) {
        asked_.erase(asked_.begin());
    }
    asked_.emplace_back(std::move(question));
    current_ = static_cast<int>(asked_.size()) - 1;
    accepting_ = true;
    shown_ = revealed_ = false;
    present_.clear();
    Q_EMIT changed();
}

void PollState::closeVoting()
{
    accepting_ = false;
    Q_EMIT changed();
}

void PollState::voteAgain()
{
    if (current_ < 0)
        return;
    asked_[static_cast<std::size_t>(current_)].next_round();
    accepting_ = true;
    shown_ = revealed_ = false;
    Q_EMIT changed();
}

void PollState::setShown(bool shown)
{
    shown_ = shown;
    Q_EMIT changed();
}

void PollState::setNamesAsked(bool asked)
{
    namesAsked_ = asked;
    if (!asked)
        names_.clear(); // turned off: what was given is forgotten
    Q_EMIT changed();
}

QStringList PollState::namesAnswered(int* unnamed) const
{
    QStringList named;
    int none = 0;
    if (const poll::Tally* t = tally())
        for (const auto& entry : t->answers(t->round())) {
            const QString name = names_.value(QString::fromStdString(entry.first));
            if (name.isEmpty())
                ++none;
            else
                named << name;
        }
    named.sort(Qt::CaseInsensitive);
    if (unnamed)
        *unnamed = none;
    return named;
}

void PollState::reveal()
{
    accepting_ = false;
    shown_ = revealed_ = true;
    Q_EMIT changed();
    Q_EMIT revealRequested();
}

QJsonObject PollState::questionState(const QString& device)
{
    const poll::Tally* t = tally();
    if (!t)
        return {{"state", "none"}, {"answered", 0}, {"names", namesAsked_}};
    if (!device.isEmpty() && accepting_ && present_.size() < static_cast<qsizetype>(poll::Tally::kMostDevices) &&
        !present_.contains(device)) {
        present_.insert(device);
        Q_EMIT answersChanged();
    }
    return {{"state", accepting_ ? "open" : "closed"},
            {"answered", static_cast<int>(t->answered(t->round()))},
            {"names", namesAsked_},
            {"question", questionJson(t->question(), t->round())}};
}

std::optional<QJsonObject> PollState::answer(const AnswerRequest& request, QString* error)
{
    if (current_ < 0 || request.question.toStdString() != tally()->question().id) {
        *error = QStringLiteral("That question is no longer asked; reload to see the current one.");
        return std::nullopt;
    }
    if (!accepting_) {
        *error = QStringLiteral("The teacher has closed this question.");
        return std::nullopt;
    }
    poll::Tally& t = asked_[static_cast<std::size_t>(current_)];
    poll::Answer counted;
    try {
        // Logged before counted: an answer the log could not keep is refused, not counted.
        counted = poll::read_answer(t.question(), request.values);
        if (request.round != t.round())
            throw Error("That answer is for round " + std::to_string(request.round) + "; round " +
                        std::to_string(t.round()) + " is open.");
        if (!t.has(t.round(), request.device.toStdString()) && t.answered(t.round()) >= poll::Tally::kMostDevices)
            throw Error("This poll already counts " + std::to_string(poll::Tally::kMostDevices) +
                        " devices, the most it takes.");
    } catch (const Error& e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
    QJsonObject values;
    for (const auto& [field, value] : counted)
        values.insert(QString::fromStdString(field), QString::fromStdString(value));
    const QString name = namesAsked_ ? request.name : QString(); // not asked: not kept, whatever a page sends
    if (log_) {
        QJsonObject line{{"question", request.question},
                         {"round", request.round},
                         {"device", request.device},
                         {"answer", values},
                         {"at", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
        if (!name.isEmpty())
            line.insert("name", name);
        const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
        const qint64 kept = log_->size(); // every line before this one is flushed whole
        if (log_->write(bytes) != bytes.size() || !log_->flush()) {
            logError_ = QStringLiteral("The class log could not be written: %1.").arg(log_->errorString());
            // A full disk takes part of a line: cut it off, so the log holds whole lines only (the answers counted).
            log_->unsetError();
            log_->resize(kept);
            *error = QStringLiteral("The teacher's computer could not keep this answer; try again.");
            Q_EMIT changed();
            return std::nullopt;
        }
    }
    t.record(request.device.toStdString(), request.round, request.values);
    present_.insert(request.device);
    if (!name.isEmpty() && (names_.contains(request.device) || names_.size() < 1000))
        names_.insert(request.device, name);
    Q_EMIT answersChanged();
    return values;
}

QByteArray PollState::csv() const
{
    QString out = QStringLiteral("question,prompt,round,field,value,count,right\n");
    for (const poll::Tally& t : asked_)
        for (int round = 1; round <= t.round(); ++round)
            for (const poll::Field& f : t.question().fields)
                for (const poll::ValueCount& v : t.distribution(round, f.name))
                    out += QStringList{csvCell(QString::fromStdString(t.question().id)),
                                       csvCell(QString::fromStdString(t.question().prompt)),
                                       QString::number(round),
                                       csvCell(QString::fromStdString(f.name)),
                                       csvCell(QString::fromStdString(v.value)),
                                       QString::number(v.count),
                                       v.right ? QStringLiteral("yes") : QStringLiteral("no")}
                               .join(QLatin1Char(',')) +
                           QLatin1Char('\n');
    return out.toUtf8();
}

void PollState::saveSection(QJsonObject& file) const
{
    if (!asked_.empty())
        file.insert(QLatin1String(kSectionKey), resultsToJson(asked_));
}

void PollState::restoreSection(const QJsonObject& file)
{
    QString error;
    auto results = file.contains(QLatin1String(kSectionKey))
                       ? resultsFromJson(file.value(QLatin1String(kSectionKey)).toObject(), &error)
                       : std::optional<std::vector<poll::Tally>>(std::vector<poll::Tally>{});
    if (!results) // checked before anything was applied: not reached for a file that was read
        return;
    asked_ = std::move(*results);
    current_ = -1;
    accepting_ = shown_ = revealed_ = false;
    present_.clear();
    Q_EMIT changed();
}

bool PollState::checkSection(const QJsonObject& file, QString* error)
{
    const QJsonValue part = file.value(QLatin1String(kSectionKey));
    if (part.isUndefined())
        return true;
    if (!part.isObject()) {
        *error = QStringLiteral("The session's \"class\" is not an object.");
        return false;
    }
    return resultsFromJson(part.toObject(), error).has_value();
}

} // namespace attnlab::ui
