#pragma once
// A blocking HTTP/1.1 client over a plain socket, for the poll server's tests: it runs on a thread of its own
// (the server answers on the Qt thread, which the test keeps spinning), sends exactly the bytes it is given --
// hostile ones too -- and reads one response, every wait bounded.
#include <QByteArray>
#include <QCoreApplication>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <string_view>

namespace testing {

struct RawResponse {
    int status = 0; // 0: no response (refused, closed or timed out)
    QByteArray body;
};

// Connects from `from` (another loopback address is another "device's" address) to 127.0.0.1:port.
inline int rawConnect(quint16 port, const char* from = "127.0.0.1", int timeoutMs = 5000)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    timeval tv{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (std::string_view(from) != "127.0.0.1") { // bound only when asked: a bound port is not reused as freely
        sockaddr_in local{};
        local.sin_family = AF_INET;
        ::inet_pton(AF_INET, from, &local.sin_addr);
        ::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local);
    }
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

inline bool rawSend(int fd, const QByteArray& bytes)
{
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const auto n = ::send(fd, bytes.constData() + sent, static_cast<size_t>(bytes.size() - sent), MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += n;
    }
    return true;
}

// Reads one response (headers and Content-Length bytes of body).
inline RawResponse rawRead(int fd)
{
    QByteArray in;
    char buffer[8192];
    RawResponse r;
    for (;;) {
        const qsizetype end = in.indexOf("\r\n\r\n");
        if (end >= 0) {
            const QByteArray head = in.left(end).toLower();
            const qsizetype at = head.indexOf("content-length:");
            const qsizetype length =
                at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
            if (in.size() >= end + 4 + length) {
                r.status = in.mid(9, 3).toInt();
                r.body = in.mid(end + 4, length);
                return r;
            }
        }
        const auto n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            return r;
        in.append(buffer, n);
    }
}

inline QByteArray request(const QByteArray& method, const QByteArray& target, const QByteArray& body = {})
{
    return method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
           "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// One request on a connection of its own.
inline RawResponse rawRequest(quint16 port, const QByteArray& bytes, const char* from = "127.0.0.1")
{
    const int fd = rawConnect(port, from);
    if (fd < 0)
        return {};
    RawResponse r = rawSend(fd, bytes) ? rawRead(fd) : RawResponse{};
    ::close(fd);
    return r;
}

// A connection kept open across requests, as a browser keeps one: opened again when the server closed it (a
// connection's lifetime is bounded), once per request.
struct KeptConnection {
    quint16 port = 0;
    int fd = -1;
    ~KeptConnection() { drop(); }
    void drop()
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    RawResponse ask(const QByteArray& bytes)
    {
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (fd < 0)
                fd = rawConnect(port);
            if (fd < 0)
                return {};
            if (rawSend(fd, bytes))
                if (RawResponse r = rawRead(fd); r.status != 0)
                    return r;
            drop();
        }
        return {};
    }
};

// Runs `work` on a thread of its own while this thread keeps serving events, up to `timeoutMs`.
template <class Work> auto offThread(Work work, int timeoutMs = 60000)
{
    auto result = std::async(std::launch::async, std::move(work));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (result.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready &&
           std::chrono::steady_clock::now() < deadline)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    return result.get(); // past the deadline this waits; every socket wait inside is bounded, so it ends
}

} // namespace testing
