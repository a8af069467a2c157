// Ask the class, as the class's phones reach it: the answer reader's refusals row by row; the server over
// loopback -- listening only between start and stop, the page and nothing else served, an answer counted in the
// tally and the log once, whatever a hostile client sends refused with one sentence and nothing counted (no or
// wrong token, bad JSON, invalid UTF-8, a 10 MB body, a closed or unknown question, 1,000 answers from one device,
// 2,000 idle connections, one byte a second), and 200 devices answering 20 questions over two rounds while the
// window steps stages: every answer in the tally and in the log, none twice.
#include "common/raw_http.h"
#include "common/session_fixtures.h"
#include "features/poll/poll_request.h"
#include "features/poll/poll_server.h"
#include "features/poll/poll_actions.h"
#include "features/poll/poll_state.h"
#include "shell/app_shell.h"
#include "shell/lesson_questions.h"
#include "poll/poll_question.h"

#include <QCommandLineParser>
#include <QDockWidget>
#include <QJsonArray>
#include <QPushButton>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

#include <atomic>
#include <set>
#include <thread>
#include <utility>

using namespace attnlab;
using namespace attnlab::ui;
using namespace testing;

namespace {

const QByteArray kDevice = "d-0123456789abcdef";

QByteArray answerBody(const QString& question, int round, const QByteArray& device, const QJsonObject& answers)
{
    return QJsonDocument(QJsonObject{{"question", question},
                                     {"round", round},
                                     {"device", QString::fromLatin1(device)},
                                     {"answers", answers}})
        .toJson(QJsonDocument::Compact);
}

QStringList logLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// A poll over a trace of the book's toy, asking queries.view, logging to a file in `dir`.
struct OpenPoll {
    std::unique_ptr<Session> session;
    PollState poll;
    QString log;
    QByteArray token;
    quint16 port = 0;

    bool open(const QTemporaryDir& dir, ConnectionBounds bounds = {})
    {
        session = std::make_unique<Session>();
        session->document()->applyPreset(*findPreset(QStringLiteral("book")));
        if (!QTest::qWaitFor([this] { return idle(*session); }, 30000))
            return false;
        log = dir.filePath(QStringLiteral("class.jsonl"));
        PollOptions options;
        options.logPath = log;
        options.bounds = bounds;
        QString error;
        if (!poll.start(options, &error))
            return false;
        const auto trace = session->trace()->trace();
        poll.ask(poll::from_stage(*trace, question_for(*trace, "queries.view")));
        token = poll.joinAddress().section(QStringLiteral("?t="), 1).toLatin1();
        port = QUrl(poll.joinAddress()).port();
        return port != 0 && !token.isEmpty();
    }
    QByteArray api(const QByteArray& path) const { return "/api/" + path + "?t=" + token; }
    QString id() const { return QString::fromStdString(poll.tally()->question().id); }
};

QJsonObject rightAnswer(const poll::Question& q)
{
    QJsonObject a;
    for (const poll::Field& f : q.fields)
        a.insert(QString::fromStdString(f.name), QString::fromStdString(f.right));
    return a;
}

} // namespace

class TestUiPoll : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsAnswers_data();
    void readsAnswers();
    void listensOnlyWhileOpen();
    void countsAndLogsOnce();
    void joinsByRoomCode();
    void refusesHostileRequests_data();
    void refusesHostileRequests();
    void refusesTenMegabytes();
    void refusesClosedQuestion();
    void boundsOneDeviceFlood();
    void survivesIdleConnections();
    void closesSlowSender();
    void classOfTwoHundred();
    void namesOnlyWhenAsked();
    void lessonQuestions_data();
    void lessonQuestions();
    void lessonQuestionFromTheDock();
    void sessionKeepsResults();
    void sessionRefusesBadResults_data();
    void sessionRefusesBadResults();
};

void TestUiPoll::readsAnswers_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("refusal"); // empty: read
    const QByteArray good = R"({"question":"q","round":1,"device":"d-12345678","answers":{"a":"1"}})";
    QTest::newRow("good") << good << QString();
    QTest::newRow("with-name") << QByteArray(
                                      R"({"question":"q","round":2,"device":"d-12345678","answers":{},"name":"Ada"})")
                               << QString();
    QTest::newRow("empty") << QByteArray() << "not a JSON object";
    QTest::newRow("array") << QByteArray("[1,2]") << "not a JSON object";
    QTest::newRow("truncated") << good.left(30) << "not a JSON object";
    QTest::newRow("invalid-utf8")
        << QByteArray("{\"question\":\"\xff\xfe\",\"round\":1,\"device\":\"d-12345678\",\"answers\":{}}")
        << "not UTF-8";
    QTest::newRow("overlong-utf8") << QByteArray("{\"question\":\"\xc0\xaf\",\"round\":1}") << "not UTF-8";
    QTest::newRow("too-big") << QByteArray(kMostAnswerBytes + 1, ' ') << "at most 8192 bytes";
    QTest::newRow("no-device") << QByteArray(R"({"question":"q","round":1,"answers":{}})") << "\"device\"";
    QTest::newRow("device-markup") << QByteArray(R"({"question":"q","round":1,"device":"<b>d-1234</b>","answers":{}})")
                                   << "device id";
    QTest::newRow("round-0") << QByteArray(R"({"question":"q","round":0,"device":"d-12345678","answers":{}})")
                             << "round";
    QTest::newRow("round-half") << QByteArray(R"({"question":"q","round":1.5,"device":"d-12345678","answers":{}})")
                                << "round";
    QTest::newRow("round-huge") << QByteArray(R"({"question":"q","round":1e300,"device":"d-12345678","answers":{}})")
                                << "round";
    QTest::newRow("round-text") << QByteArray(R"({"question":"q","round":"1","device":"d-12345678","answers":{}})")
                                << "round";
    QTest::newRow("answers-array") << QByteArray(R"({"question":"q","round":1,"device":"d-12345678","answers":[]})")
                                   << "\"answers\"";
    QTest::newRow("answer-number") << QByteArray(
                                          R"({"question":"q","round":1,"device":"d-12345678","answers":{"a":1}})")
                                   << "Each answer is text";
    QTest::newRow("answer-long") << (R"({"question":"q","round":1,"device":"d-12345678","answers":{"a":")" +
                                     QByteArray(401, '1') + "\"}}")
                                 << "Each answer is text";
    QByteArray many = R"({"question":"q","round":1,"device":"d-12345678","answers":{)";
    for (int i = 0; i < 17; ++i)
        many += (i ? "," : "") + QByteArray("\"f") + QByteArray::number(i) + "\":\"1\"";
    QTest::newRow("seventeen-fields") << many + "}}"
                                      << "at most 16 fields";
    QTest::newRow("name-long") << (R"({"question":"q","round":1,"device":"d-12345678","answers":{},"name":")" +
                                   QByteArray(41, 'a') + "\"}")
                               << "longer than 40";
}

void TestUiPoll::readsAnswers()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, refusal);
    QString error;
    const auto read = readAnswerRequest(body, &error);
    if (refusal.isEmpty()) {
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->device, QStringLiteral("d-12345678"));
    } else {
        QVERIFY(!read);
        QVERIFY2(error.contains(refusal), qPrintable(error));
        QVERIFY(error.endsWith(QLatin1Char('.')));
        QCOMPARE(error.count(QLatin1String(". ")), 0); // one sentence
    }
}

void TestUiPoll::listensOnlyWhileOpen()
{
    PollState poll;
    QVERIFY(!poll.listening());
    QVERIFY(poll.joinAddress().isEmpty());
    QString error;
    PollOptions elsewhere;
    elsewhere.address = QHostAddress(QStringLiteral("192.0.2.1")); // TEST-NET-1: no machine's own
    QVERIFY(!poll.start(elsewhere, &error));
    QVERIFY2(error.contains(QLatin1String("not an address of this computer")), qPrintable(error));
    PollOptions badCode;
    badCode.code = QStringLiteral("<b>");
    QVERIFY(!poll.start(badCode, &error));
    QVERIFY2(error.contains(QLatin1String("4 to 8 letters or digits")), qPrintable(error));
    QVERIFY(poll.start({}, &error));
    const quint16 port = QUrl(poll.joinAddress()).port();
    QVERIFY(QUrl(poll.joinAddress()).host() == QLatin1String("127.0.0.1"));
    QCOMPARE(offThread([port] { return rawRequest(port, request("GET", "/")); }).status, 200);
    QCOMPARE(offThread([port] { return rawRequest(port, request("GET", "/poll.js")); }).status, 200);
    for (const QByteArray& path : {QByteArray("/../CMakeLists.txt"), QByteArray("/resources/poll/index.html"),
                                   QByteArray("/%2e%2e/etc/passwd"), QByteArray("/poll/index.html")})
        QCOMPARE(offThread([port, path] { return rawRequest(port, request("GET", path)); }).status, 404);
    poll.stop();
    QVERIFY(!poll.listening());
    QCOMPARE(offThread([port] { return rawConnect(port); }), -1); // nothing listens any more
}

void TestUiPoll::countsAndLogsOnce()
{
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    const quint16 port = open.port;
    const QByteArray question =
        offThread([&] { return rawRequest(port, request("GET", open.api("question") + "&d=" + kDevice)); }).body;
    const QJsonObject state = QJsonDocument::fromJson(question).object();
    QCOMPARE(state.value("state").toString(), QStringLiteral("open"));
    QCOMPARE(state.value("question").toObject().value("id").toString(), open.id());
    QVERIFY2(!question.contains("\"right\""), question.constData()); // the page never gets the answer
    QCOMPARE(open.poll.present(), 1);

    const QJsonObject right = rightAnswer(open.poll.tally()->question());
    auto sent = offThread([&] {
        return rawRequest(port, request("POST", open.api("answer"), answerBody(open.id(), 1, kDevice, right)));
    });
    QCOMPARE(sent.status, 200);
    QCOMPARE(open.poll.tally()->answered(1), std::size_t(1));
    QCOMPARE(open.poll.tally()->right_share(1), 1.0);
    // Changed: counted once, as the latest; logged as it arrived.
    QJsonObject changed = right;
    changed.insert("axis-1", "num_heads");
    sent = offThread([&] {
        return rawRequest(port, request("POST", open.api("answer"), answerBody(open.id(), 1, kDevice, changed)));
    });
    QCOMPARE(sent.status, 200);
    QCOMPARE(open.poll.tally()->answered(1), std::size_t(1));
    QCOMPARE(open.poll.tally()->right_share(1), 0.0);
    const QStringList lines = logLines(open.log);
    QCOMPARE(lines.size(), 2);
    const QJsonObject last = QJsonDocument::fromJson(lines.last().toUtf8()).object();
    QCOMPARE(last.value("question").toString(), open.id());
    QCOMPARE(last.value("round").toInt(), 1);
    QCOMPARE(last.value("device").toString(), QString::fromLatin1(kDevice));
    QCOMPARE(last.value("answer").toObject().value("axis-1").toString(), QStringLiteral("num_heads"));
    // Vote again: round 2 counts apart, round 1 stays.
    open.poll.voteAgain();
    sent = offThread([&] {
        return rawRequest(port, request("POST", open.api("answer"), answerBody(open.id(), 1, kDevice, right)));
    });
    QCOMPARE(sent.status, 409);
    sent = offThread([&] {
        return rawRequest(port, request("POST", open.api("answer"), answerBody(open.id(), 2, kDevice, right)));
    });
    QCOMPARE(sent.status, 200);
    QCOMPARE(open.poll.tally()->right_share(2), 1.0);
    QCOMPARE(open.poll.tally()->right_share(1), 0.0);
    QVERIFY(open.poll.csv().contains("\"num_heads\",1,no"));
}

void TestUiPoll::joinsByRoomCode()
{
    PollState poll;
    QString error;
    PollOptions options;
    options.code = QStringLiteral("k7p2");
    QVERIFY(poll.start(options, &error));
    QCOMPARE(poll.code(), QStringLiteral("K7P2"));
    const quint16 port = QUrl(poll.joinAddress()).port();
    const auto wrong =
        offThread([port] { return rawRequest(port, request("POST", "/api/join", R"({"code":"AAAA"})")); });
    QCOMPARE(wrong.status, 403);
    const auto right =
        offThread([port] { return rawRequest(port, request("POST", "/api/join", R"({"code":" k7p2 "})")); });
    QCOMPARE(right.status, 200);
    QCOMPARE(QJsonDocument::fromJson(right.body).object().value("token").toString(),
             poll.joinAddress().section(QStringLiteral("?t="), 1));
    // Guessing is bounded per address: six tries a minute.
    int refused = 0;
    for (int i = 0; i < 10; ++i)
        refused += offThread([port] {
                       return rawRequest(port, request("POST", "/api/join", R"({"code":"BBBB"})"));
                   }).status == 429;
    QCOMPARE(refused, 10 - (PollServer::kJoinTriesPerMinute - 2));
}

void TestUiPoll::refusesHostileRequests_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target"); // "{api}" stands for "/api/answer?t=TOKEN"
    QTest::addColumn<QByteArray>("body");   // "{id}" stands for the question's id
    QTest::addColumn<int>("status");
    const QByteArray ok =
        R"({"question":"{id}","round":1,"device":"d-0123456789abcdef","answers":{"axis-0":"1","axis-1":"1","axis-2":"1","axis-3":"1","contiguous":"yes","shares-storage":"yes"}})";
    QTest::newRow("no-token") << QByteArray("POST") << QByteArray("/api/answer") << ok << 403;
    QTest::newRow("wrong-token") << QByteArray("POST") << QByteArray("/api/answer?t=0000") << ok << 403;
    QTest::newRow("token-left-out") << QByteArray("POST") << QByteArray("/api/answer?x=1") << ok << 403;
    QTest::newRow("question-no-token") << QByteArray("GET") << QByteArray("/api/question") << QByteArray() << 403;
    QTest::newRow("malformed-json") << QByteArray("POST") << QByteArray("{api}") << QByteArray("{\"question\":") << 400;
    QTest::newRow("invalid-utf8") << QByteArray("POST") << QByteArray("{api}")
                                  << QByteArray(ok).replace("d-0123456789abcdef", "d-01234567\xff\xfe") << 400;
    QTest::newRow("unknown-question") << QByteArray("POST") << QByteArray("{api}")
                                      << QByteArray(ok).replace("{id}", "stage:nowhere") << 409;
    QTest::newRow("wrong-round") << QByteArray("POST") << QByteArray("{api}")
                                 << QByteArray(ok).replace("\"round\":1", "\"round\":2") << 409;
    QTest::newRow("markup-value") << QByteArray("POST") << QByteArray("{api}")
                                  << QByteArray(ok).replace("\"axis-0\":\"1\"", "\"axis-0\":\"<img src=x>\"") << 409;
    QTest::newRow("extra-field") << QByteArray("POST") << QByteArray("{api}")
                                 << QByteArray(ok).replace("\"contiguous\"", "\"extra\":\"1\",\"contiguous\"") << 409;
    QTest::newRow("missing-field") << QByteArray("POST") << QByteArray("{api}")
                                   << QByteArray(ok).replace("\"contiguous\":\"yes\",", "") << 409;
    QTest::newRow("put") << QByteArray("PUT") << QByteArray("{api}") << ok << 405;
    QTest::newRow("delete-page") << QByteArray("DELETE") << QByteArray("/") << QByteArray() << 405;
    QTest::newRow("get-answer") << QByteArray("GET") << QByteArray("{api}") << QByteArray() << 405;
}

void TestUiPoll::refusesHostileRequests()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    target.replace("{api}", open.api("answer"));
    body.replace("{id}", open.id().toUtf8());
    const auto r = offThread([&] { return rawRequest(open.port, request(method, target, body)); });
    QCOMPARE(r.status, status);
    const QString sentence = QJsonDocument::fromJson(r.body).object().value("error").toString();
    QVERIFY2(sentence.endsWith(QLatin1Char('.')) && !sentence.contains(QLatin1String(". ")), r.body.constData());
    QCOMPARE(open.poll.tally()->answered(1), std::size_t(0));
    QVERIFY(logLines(open.log).isEmpty());
}

void TestUiPoll::refusesTenMegabytes()
{
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    const QByteArray huge = request("POST", open.api("answer"), QByteArray(10 * 1024 * 1024, 'x'));
    const auto r = offThread([&] { return rawRequest(open.port, huge); });
    QVERIFY2(r.status == 0 || r.status == 413, QByteArray::number(r.status).constData()); // cut off, or refused
    QCOMPARE(open.poll.tally()->answered(1), std::size_t(0));
    // The server goes on answering.
    QCOMPARE(offThread([&] { return rawRequest(open.port, request("GET", open.api("question"))); }).status, 200);
}

void TestUiPoll::refusesClosedQuestion()
{
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    open.poll.closeVoting();
    const QByteArray body = answerBody(open.id(), 1, kDevice, rightAnswer(open.poll.tally()->question()));
    const auto r = offThread([&] { return rawRequest(open.port, request("POST", open.api("answer"), body)); });
    QCOMPARE(r.status, 409);
    QVERIFY(r.body.contains("closed"));
    QCOMPARE(QJsonDocument::fromJson(
                 offThread([&] { return rawRequest(open.port, request("GET", open.api("question"))); }).body)
                 .object()
                 .value("state")
                 .toString(),
             QStringLiteral("closed"));
}

void TestUiPoll::boundsOneDeviceFlood()
{
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    const QByteArray body = answerBody(open.id(), 1, kDevice, rightAnswer(open.poll.tally()->question()));
    const QByteArray one = request("POST", open.api("answer"), body);
    QElapsedTimer clock;
    clock.start();
    // 1,000 answers as fast as one connection sends them (a connection carries 256 KB, so a few connections).
    const auto [accepted, refused] = offThread([&] {
        int yes = 0, no = 0, sent = 0;
        while (sent < 1000) {
            const int fd = rawConnect(open.port);
            if (fd < 0)
                break;
            for (int i = 0; i < 100 && sent < 1000; ++i, ++sent) {
                if (!rawSend(fd, one))
                    break;
                const int status = rawRead(fd).status;
                yes += status == 200;
                no += status == 429;
            }
            ::close(fd);
        }
        return std::pair{yes, no};
    });
    const double seconds = clock.elapsed() / 1000.0;
    QVERIFY2(accepted <= PollServer::kAnswerBurst + PollServer::kAnswersPerSecond * seconds + 1,
             qPrintable(QStringLiteral("%1 accepted in %2 s").arg(accepted).arg(seconds)));
    QVERIFY2(refused >= 900 - PollServer::kAnswersPerSecond * seconds, qPrintable(QString::number(refused)));
    QCOMPARE(open.poll.tally()->answered(1), std::size_t(1));
    QCOMPARE(logLines(open.log).size(), accepted);
}

void TestUiPoll::survivesIdleConnections()
{
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = std::min<rlim_t>(files.rlim_max, 8192);
    setrlimit(RLIMIT_NOFILE, &files);
    if (files.rlim_cur < 4500)
        QSKIP("This machine allows too few open files for 2,000 connections.");
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    const quint16 port = open.port;
    std::vector<int> idle;
    offThread([&] {
        for (int i = 0; i < 2000; ++i)
            if (const int fd = rawConnect(port, "127.0.0.1", 200); fd >= 0)
                idle.push_back(fd);
        return 0;
    });
    QTRY_VERIFY(open.poll.listening());
    QCoreApplication::processEvents();
    // Another device (another address) is still served while the 2,000 sit idle.
    const auto r = offThread([&] { return rawRequest(port, request("GET", open.api("question")), "127.0.0.2"); });
    QCOMPARE(r.status, 200);
    for (int fd : idle)
        ::close(fd);
}

void TestUiPoll::closesSlowSender()
{
    QTemporaryDir dir;
    OpenPoll open;
    ConnectionBounds bounds;
    bounds.idleMs = 1500;
    bounds.lifetimeMs = 3000;
    QVERIFY(open.open(dir, bounds));
    QElapsedTimer clock;
    clock.start();
    const QByteArray slow = request("GET", open.api("question"));
    std::atomic<qint64> closedAt{-1};
    std::thread sender([&] {
        const int fd = rawConnect(open.port);
        for (char c : slow) {
            if (!rawSend(fd, QByteArray(1, c)) || clock.elapsed() > 10000)
                break;
            char probe;
            if (::recv(fd, &probe, 1, MSG_DONTWAIT) == 0) // closed by the server
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
        }
        closedAt = clock.elapsed();
        ::close(fd);
    });
    // Meanwhile the others are served.
    QCOMPARE(offThread([&] { return rawRequest(open.port, request("GET", open.api("question"))); }).status, 200);
    QTRY_VERIFY_WITH_TIMEOUT(closedAt >= 0, 15000);
    sender.join();
    QVERIFY2(closedAt < 6000, qPrintable(QString::number(closedAt.load())));
}

void TestUiPoll::classOfTwoHundred()
{
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    openWindow(session, window, QStringLiteral("gpt2-small"));
    QTemporaryDir dir;
    PollState poll;
    PollOptions options;
    options.logPath = dir.filePath(QStringLiteral("class.jsonl"));
    QString error;
    QVERIFY2(poll.start(options, &error), qPrintable(error));
    const quint16 port = QUrl(poll.joinAddress()).port();
    const QByteArray token = poll.joinAddress().section(QStringLiteral("?t="), 1).toLatin1();
    constexpr int kDevices = 200, kQuestions = 20, kRounds = 2, kThreads = 8;
    std::atomic<bool> done{false};
    std::atomic<int> accepted{0}, failed{0}, slowedDown{0};
    // Each thread is 25 phones: it reads the open question and answers it for each of its phones not yet counted.
    std::vector<std::thread> phones;
    for (int t = 0; t < kThreads; ++t)
        phones.emplace_back([&, t] {
            std::set<QByteArray> answered; // "device question round"
            KeptConnection connection{port};
            bool tooFast = false;
            while (!done) {
                if (std::exchange(tooFast, false)) // as the page does: wait, then send again
                    std::this_thread::sleep_for(std::chrono::milliseconds(250));
                const auto q = connection.ask(request("GET", "/api/question?t=" + token));
                const QJsonObject state = QJsonDocument::fromJson(q.body).object();
                const QJsonObject question = state.value("question").toObject();
                if (state.value("state").toString() != QLatin1String("open")) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                    continue;
                }
                const int round = question.value("round").toInt();
                const int choices =
                    question.value("fields").toArray().at(0).toObject().value("choices").toArray().size();
                for (int d = t; d < kDevices; d += kThreads) {
                    const QByteArray device = "d-phone-" + QByteArray::number(d).rightJustified(4, '0');
                    const QByteArray key =
                        device + ' ' + question.value("id").toString().toUtf8() + ' ' + QByteArray::number(round);
                    if (answered.count(key))
                        continue;
                    const QJsonObject answer{{"choice", QString::number((d + round) % choices)}};
                    QElapsedTimer took;
                    took.start();
                    const auto r =
                        connection.ask(request("POST", "/api/answer?t=" + token,
                                               answerBody(question.value("id").toString(), round, device, answer)));
                    if (r.status == 429) { // faster than a phone: this one tries again on the next pass
                        ++slowedDown;
                        tooFast = true;
                    } else if (r.status == 200) {
                        answered.insert(key);
                        ++accepted;
                    } else if (r.status != 409) { // 409: the teacher moved on meanwhile
                        if (++failed < 5)
                            qWarning("phone %d: %d %s after %lld ms (errno %d)", d, r.status, r.body.constData(),
                                     took.elapsed(), errno);
                    }
                }
            }
        });
    for (int q = 0; q < kQuestions; ++q) {
        session->study()->nextStage(); // the window keeps stepping
        poll.ask(poll::from_choices("Question " + std::to_string(q), {"a", "b", "c"}, 0));
        for (int round = 1; round <= kRounds; ++round) {
            if (round > 1)
                poll.voteAgain();
            QTRY_COMPARE_WITH_TIMEOUT(poll.tally()->answered(round), std::size_t(kDevices), 60000);
        }
    }
    poll.closeVoting();
    done = true;
    for (std::thread& p : phones)
        p.join();
    qInfo("%d answers refused as too fast and sent again; %lld connections refused, %d open", slowedDown.load(),
          poll.refusedConnections(), poll.openConnections());
    QCOMPARE(failed.load(), 0);
    QCOMPARE(accepted.load(), kDevices * kQuestions * kRounds);
    const QStringList lines = logLines(options.logPath);
    QCOMPARE(lines.size(), kDevices * kQuestions * kRounds);
    std::set<QString> once;
    for (const QString& line : lines) {
        const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
        once.insert(o.value("device").toString() + o.value("question").toString() +
                    QString::number(o.value("round").toInt()));
    }
    QCOMPARE(once.size(), std::size_t(kDevices * kQuestions * kRounds)); // none twice
    QCOMPARE(poll.asked().size(), std::size_t(kQuestions));
    for (const poll::Tally& t : poll.asked())
        for (int round = 1; round <= kRounds; ++round)
            QCOMPARE(t.answered(round), std::size_t(kDevices));
}

void TestUiPoll::namesOnlyWhenAsked()
{
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    const QJsonObject right = rightAnswer(open.poll.tally()->question());
    const auto named = [&](const QByteArray& device, const QString& name) {
        QJsonObject o = QJsonDocument::fromJson(answerBody(open.id(), 1, device, right)).object();
        o.insert("name", name);
        return offThread([&] {
                   return rawRequest(open.port, request("POST", open.api("answer"), QJsonDocument(o).toJson()));
               })
            .status;
    };
    // Off (the default): the page is told so, and a name sent anyway is kept nowhere.
    const auto off = offThread([&] { return rawRequest(open.port, request("GET", open.api("question"))); });
    QCOMPARE(QJsonDocument::fromJson(off.body).object().value("names").toBool(), false);
    QCOMPARE(named("d-student-1", QStringLiteral("Ada")), 200);
    QVERIFY(open.poll.namesAnswered().isEmpty());
    QVERIFY(!logLines(open.log).last().contains(QLatin1String("Ada")));
    // On: the page offers the box, the name is listed and logged.
    open.poll.setNamesAsked(true);
    const auto on = offThread([&] { return rawRequest(open.port, request("GET", open.api("question"))); });
    QCOMPARE(QJsonDocument::fromJson(on.body).object().value("names").toBool(), true);
    QCOMPARE(named("d-student-2", QStringLiteral("  Ben\n  Okafor ")), 200);
    QCOMPARE(named("d-student-3", QString()), 200);
    int unnamed = 0;
    QCOMPARE(open.poll.namesAnswered(&unnamed), QStringList{QStringLiteral("Ben Okafor")});
    QCOMPARE(unnamed, 2); // student 1 (sent while names were off) and student 3
    QCOMPARE(QJsonDocument::fromJson(logLines(open.log).at(1).toUtf8()).object().value("name").toString(),
             QStringLiteral("Ben Okafor"));
    // Never in the session file.
    QJsonObject file;
    open.poll.saveSection(file);
    QVERIFY(!QJsonDocument(file).toJson().contains("Ben"));
    // Off again: forgotten.
    open.poll.setNamesAsked(false);
    QVERIFY(open.poll.namesAnswered().isEmpty());
}

void TestUiPoll::lessonQuestions_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("numHeads"); // 0: the preset's
    QTest::addColumn<bool>("wrapper");
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("right"); // empty: no question
    QTest::newRow("mend-split-gpt2") << "gpt2-small" << 0 << false << "mend-split"
                                     << "64";
    QTest::newRow("mend-split-16-heads") << "gpt2-small" << 16 << false << "mend-split"
                                         << "48";
    QTest::newRow("mend-split-not-split") << "gpt2-small" << 10 << false << "mend-split"
                                          << "";
    QTest::newRow("break-split-10") << "gpt2-small" << 10 << false << "break-split"
                                    << "no";
    QTest::newRow("break-split-12") << "gpt2-small" << 0 << false << "break-split"
                                    << "yes";
    QTest::newRow("contiguous-first") << "book" << 0 << false << "contiguous-first"
                                      << "no";
    QTest::newRow("stack-heads-book") << "book" << 0 << true << "stack-heads"
                                      << "4";
    QTest::newRow("stack-heads-not-wrapper") << "book" << 0 << false << "stack-heads"
                                             << "";
    QTest::newRow("shows-a-stage") << "book" << 0 << false << "wide-projection"
                                   << ""; // asked as the shown stage
}

void TestUiPoll::lessonQuestions()
{
    QFETCH(QString, preset);
    QFETCH(int, numHeads);
    QFETCH(bool, wrapper);
    QFETCH(QString, step);
    QFETCH(QString, right);
    Session session;
    session.document()->applyPreset(*findPreset(preset));
    if (numHeads)
        session.document()->setSlot(Slot::num_heads, numHeads);
    if (wrapper)
        session.document()->setModuleKind(ModuleKind::MultiHeadAttentionWrapper);
    const auto question = lessonClassQuestion(step, {&session, nullptr});
    if (right.isEmpty()) {
        QVERIFY(!question);
        return;
    }
    QVERIFY(question);
    QCOMPARE(question->id, "lesson:" + step.toStdString());
    QCOMPARE(question->fields.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(question->fields[0].right), right);
    // The right answer reads as right, another as wrong.
    const poll::Answer canonical = poll::read_answer(*question, {{question->fields[0].name, right.toStdString()}});
    QVERIFY(poll::is_right(question->fields[0], canonical.begin()->second));
    QVERIFY(!poll::is_right(question->fields[0], right == QLatin1String("no")    ? "yes"
                                                 : right == QLatin1String("yes") ? "no"
                                                                                 : "1"));
}

void TestUiPoll::lessonQuestionFromTheDock()
{
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    openWindow(session, window, QStringLiteral("gpt2-small"));
    QCommandLineParser parser;
    addShellOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
    QVERIFY(parser.parse({"attention-lab", "--guide", "gpt2-split", "--guide-step", "3", "--screenshot", "x.png"}));
    AppShell shell(window.get(), session.get(), parser);
    QVERIFY(waitUntilSettled(*session));
    PollState& poll = *shell.poll()->state();
    QString error;
    QVERIFY2(poll.start({}, &error), qPrintable(error));
    shell.poll()->dock()->show();
    auto* ask = shell.poll()->dock()->findChild<QPushButton*>(QStringLiteral("poll-ask-lesson"));
    QVERIFY(ask);
    QTRY_VERIFY(ask->isVisible()); // the lesson step on screen (mend-split) has one right answer
    ask->click();
    QVERIFY(poll.tally());
    QCOMPARE(poll.tally()->question().id, std::string("lesson:mend-split"));
    QCOMPARE(poll.tally()->question().fields[0].right, std::string("64"));
    // A step without one: the button goes.
    shell.lessonsDock()->hide();
    QTRY_VERIFY(!ask->isVisible());
}

void TestUiPoll::sessionKeepsResults()
{
    QTemporaryDir dir;
    OpenPoll open;
    QVERIFY(open.open(dir));
    const poll::Question& q = open.poll.tally()->question();
    for (int round = 1; round <= 2; ++round) {
        if (round == 2)
            open.poll.voteAgain();
        for (int i = 0; i < 5; ++i) {
            AnswerRequest a{open.id(), round, QStringLiteral("d-student-%1").arg(i), {}, {}};
            for (const poll::Field& f : q.fields)
                a.values[f.name] = f.right;
            if (i >= round + 1)
                a.values["axis-1"] = "7"; // a wrong size
            QString error;
            QVERIFY2(open.poll.answer(a, &error), qPrintable(error));
        }
    }
    open.poll.ask(poll::from_choices("Which head looks back?", {"head 0", "head 1"}, 1));
    QJsonObject file;
    open.poll.saveSection(file);
    QVERIFY(file.contains("class"));
    QString error;
    QVERIFY2(PollState::checkSection(file, &error), qPrintable(error));
    PollState restored;
    restored.restoreSection(file);
    QCOMPARE(restored.asked().size(), std::size_t(2));
    QVERIFY(!restored.tally()); // nothing is asked after a restore
    QCOMPARE(restored.csv(), open.poll.csv());
    QCOMPARE(restored.asked()[0].right_share(1), 0.4);
    QCOMPARE(restored.asked()[0].right_share(2), 0.6);
    QJsonObject again;
    restored.saveSection(again);
    QCOMPARE(again, file); // the same bytes again
    // Nothing asked: no part in the file; a file without one clears the results.
    QJsonObject none;
    PollState().saveSection(none);
    QVERIFY(none.isEmpty());
    restored.restoreSection(none);
    QVERIFY(restored.asked().empty());
}

void TestUiPoll::sessionRefusesBadResults_data()
{
    QTest::addColumn<QByteArray>("part");
    QTest::addColumn<QString>("refusal");
    const QByteArray field = R"({"name":"choice","label":"Which?","kind":"choice","choices":["a","b"],"right":"1"})";
    const auto asked = [&](const QByteArray& f, const QByteArray& rounds) {
        return R"({"asked":[{"question":{"id":"choice:q","prompt":"q","fields":[)" + f + R"(]},"rounds":)" + rounds +
               "}]}";
    };
    QTest::newRow("good") << asked(field, R"([[{"choice":"0"}],[{"choice":"1"}]])") << QString();
    QTest::newRow("not-an-object") << QByteArray("[]") << "not an object";
    QTest::newRow("no-list") << QByteArray("{}") << "\"asked\"";
    QTest::newRow("kind-unknown") << asked(QByteArray(field).replace("\"choice\",\"choices\"", "\"html\",\"choices\""),
                                           "[[]]")
                                  << "the kinds are";
    QTest::newRow("right-not-a-choice") << asked(QByteArray(field).replace("\"right\":\"1\"", "\"right\":\"5\""),
                                                 "[[]]")
                                        << "";
    QTest::newRow("no-rounds") << asked(field, "[]") << "1 to 99 rounds";
    QTest::newRow("answer-not-canonical") << asked(field, R"([[{"choice":" 1"}]])") << "not written as the app writes";
    QTest::newRow("answer-other-field") << asked(field, R"([[{"x":"1"}]])") << "no field";
    QTest::newRow("cells-grid-9") << asked(R"({"name":"hidden","label":"h","kind":"cells","grid":9,"right":""})",
                                           "[[]]")
                                  << "from 1 to 8";
    QTest::newRow("size-with-choices")
        << asked(R"({"name":"axis-0","label":"a","kind":"size","choices":["a","b"],"right":"2"})", "[[]]")
        << "parts another kind has";
    // Found by fuzz_session: an axis name of control bytes, listed whole in a refusal of 1,100 characters.
    QTest::newRow("axis-name-control-bytes")
        << asked(R"({"name":"axis-0","label":"a","kind":"size","names":{"b\u0000\u0010":2},"right":"2"})",
                 R"([[{"axis-0":"c"}]])")
        << "an axis name that is not 1 to 64 letters";
    QTest::newRow("axis-name-long") << asked(R"({"name":"axis-0","label":"a","kind":"size","names":{")" +
                                                 QByteArray(65, 'n') + R"(":2},"right":"2"})",
                                             "[[]]")
                                    << "an axis name that is not 1 to 64 letters";
    QTest::newRow("field-name-space") << asked(QByteArray(field).replace("\"name\":\"choice\"", "\"name\":\"a b\""),
                                               "[[]]")
                                      << "a field whose name is not 1 to 64";
    QTest::newRow("field-twice") << asked(field + "," + field, "[[]]") << "twice";
}

void TestUiPoll::sessionRefusesBadResults()
{
    QFETCH(QByteArray, part);
    QFETCH(QString, refusal);
    const QJsonDocument doc = QJsonDocument::fromJson(part);
    QVERIFY(!doc.isNull());
    const QJsonObject file{{"class", doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array())}};
    QString error;
    const bool read = PollState::checkSection(file, &error);
    if (QByteArray(QTest::currentDataTag()) == "good") {
        QVERIFY2(read, qPrintable(error));
        return;
    }
    QVERIFY(!read);
    QVERIFY2(error.contains(refusal), qPrintable(error));
    QVERIFY2(error.endsWith(QLatin1Char('.')) && !error.contains(QLatin1String(". ")), qPrintable(error));
}

QTEST_MAIN(TestUiPoll)
#include "test_ui_poll.moc"
