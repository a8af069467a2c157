#pragma once
// The poll's listening socket, bounded before a byte reaches the HTTP parser: how many connections at once (in all
// and from one address), how long one may sit idle or stay open, and how many bytes one may send. A phone polls a
// few hundred bytes every two seconds, so each bound is far above what a student needs and far below what a
// flood or a slow sender would hold. Beyond a bound the connection is closed, nothing else is done.
#include <QHash>
#include <QHostAddress>
#include <QTcpServer>

namespace attnlab::ui {

struct ConnectionBounds {
    int mostConnections = 256;     // in all
    int mostPerAddress = 64;       // from one address (a phone's browser opens about six)
    int idleMs = 15'000;           // no byte for this long: closed
    int lifetimeMs = 60'000;       // open this long: closed (the page reconnects; a slow sender cannot stay)
    qint64 mostBytes = 256 * 1024; // received over the connection's life
};

class GuardedTcpServer : public QTcpServer {
    Q_OBJECT
public:
    explicit GuardedTcpServer(ConnectionBounds bounds = {}, QObject* parent = nullptr);

    int openConnections() const { return open_; }
    qint64 refusedConnections() const { return refused_; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    ConnectionBounds bounds_;
    int open_ = 0;
    qint64 refused_ = 0;
    QHash<QHostAddress, int> perAddress_;
};

} // namespace attnlab::ui
