#include "features/poll/connection_guard.h"

#include <QTcpSocket>
#include <QTimer>

#include <memory>

namespace attnlab::ui {

GuardedTcpServer::GuardedTcpServer(ConnectionBounds bounds, QObject* parent) : QTcpServer(parent), bounds_(bounds)
{
    setMaxPendingConnections(bounds_.mostConnections);
}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    auto* socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    const QHostAddress from = socket->peerAddress();
    if (open_ >= bounds_.mostConnections || perAddress_.value(from) >= bounds_.mostPerAddress) {
        ++refused_;
        socket->abort();
        socket->deleteLater();
        return;
    }
    ++open_;
    ++perAddress_[from];
    auto* idle = new QTimer(socket);
    idle->setSingleShot(true);
    idle->start(bounds_.idleMs);
    connect(idle, &QTimer::timeout, socket, &QTcpSocket::abort);
    QTimer::singleShot(bounds_.lifetimeMs, socket, &QTcpSocket::abort);
    // Connected before the HTTP server's own reader (it connects when it takes the pending connection), so the
    // bytes are counted as they arrive, before they are parsed.
    auto received = std::make_shared<qint64>(0);
    connect(socket, &QTcpSocket::readyRead, socket, [this, socket, idle, received] {
        *received += socket->bytesAvailable();
        if (*received > bounds_.mostBytes) {
            socket->abort();
            return;
        }
        idle->start(bounds_.idleMs);
    });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket, from] {
        --open_;
        if (--perAddress_[from] <= 0)
            perAddress_.remove(from);
        socket->deleteLater();
    });
    addPendingConnection(socket);
}

} // namespace attnlab::ui
