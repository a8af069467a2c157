// Session files on disk: the bytes checked before they are read as JSON (a directory, an empty or
// oversized file), JSON errors said in words, and the weights file a session names checked to exist
// -- each refusal one sentence, nothing applied. The JSON half of session_file.h is in session_file.cpp.
#include "model/session_file.h"

#include "io/atomic_file.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

namespace attnlab::ui {

namespace {

// A session without models is about 1 KB; its sweep's models (features/tradeoffs/sweep_run_models.h) add at most
// 48 MiB of weights, a third more as base64.
constexpr qint64 kLargestSessionFile = qint64{80} << 20;

QString jsonErrorSentence(const QJsonParseError& e, const QByteArray& bytes)
{
    if (e.error == QJsonParseError::IllegalUTF8String)
        return QObject::tr("it holds bytes that are not UTF-8 text (at byte %1), so it is not a session file.")
            .arg(e.offset);
    if (e.error == QJsonParseError::DeepNesting)
        return QObject::tr("its JSON is nested too deeply (at byte %1) to be a session.").arg(e.offset);
    // A lone string, number or literal is JSON, but Qt reads only objects and arrays as documents.
    const QByteArray text = bytes.trimmed();
    if (!text.isEmpty() && QByteArrayLiteral("\"-0123456789tfn").contains(text.front()))
        return QObject::tr("its JSON is not an object, so it is not an Attention Lab session.");
    // An error at the very end, whatever Qt calls it, is what a file cut short looks like.
    const bool atEnd = e.offset >= text.size() - 1 || e.error == QJsonParseError::UnterminatedObject ||
                       e.error == QJsonParseError::UnterminatedArray || e.error == QJsonParseError::UnterminatedString;
    return (atEnd ? QObject::tr("it is not valid JSON (%1 at byte %2), perhaps cut short.")
                  : QObject::tr("it is not valid JSON (%1 at byte %2)."))
        .arg(e.errorString())
        .arg(e.offset);
}

// The session names a weights file: refusing a missing one now beats an engine error later.
QString weightsFileProblem(const SessionState& state)
{
    const ExperimentSpec& spec = state.document.spec;
    if (spec.weights_path.empty())
        return {};
    const QString path = QString::fromStdString(spec.weights_path);
    const QFileInfo info(path);
    if (!info.exists())
        return QObject::tr("the weights file '%1' it names does not exist.").arg(path);
    if (info.isDir())
        return QObject::tr("the weights file '%1' it names is a directory, not a .safetensors file.").arg(path);
    return {};
}

} // namespace

std::optional<SessionState> parseSession(const QByteArray& bytes, const SessionFeatures& features, QString* error)
{
    QString local;
    QString& err = error ? *error : local;
    if (bytes.trimmed().isEmpty()) {
        err = QObject::tr("it is empty, so it holds no session.");
        return std::nullopt;
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        err = jsonErrorSentence(parseError, bytes);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        err = QObject::tr("its JSON is not an object, so it is not an Attention Lab session.");
        return std::nullopt;
    }
    return sessionFromJson(doc.object(), features, &err);
}

bool saveSessionFile(const QString& path, const SessionState& state, const SessionFeatures& features, QString* error)
{
    // Serialized whole first: the atomic writer then puts either all of it or nothing under `path`.
    const QByteArray bytes = serializeSession(state, features);
    try {
        write_file_atomically(QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), bytes.size()));
        return true;
    } catch (const std::exception& e) {
        const auto* write = dynamic_cast<const WriteError*>(&e);
        if (error)
            *error = QObject::tr("Could not save the session to %1: %2")
                         .arg(path, QString::fromStdString(write ? write->reason() : std::string(e.what())));
        return false;
    }
}

std::optional<SessionState> loadSessionFile(const QString& path, const SessionFeatures& features, QString* error)
{
    const QFileInfo info(path);
    QString why;
    std::optional<SessionState> state;
    if (info.isDir()) {
        why = QObject::tr("it is a directory, not a session file.");
    } else if (info.exists() && info.size() > kLargestSessionFile) {
        why = QObject::tr("it is %1 MiB, more than the %2 MiB a session file may be.")
                  .arg(info.size() >> 20)
                  .arg(kLargestSessionFile >> 20);
    } else {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            if (error)
                *error = QObject::tr("Could not open %1: %2.").arg(path, file.errorString());
            return std::nullopt;
        }
        state = parseSession(file.read(kLargestSessionFile), features, &why);
        if (state)
            why = weightsFileProblem(*state);
    }
    if (!why.isEmpty()) {
        if (error)
            *error = QObject::tr("%1 was not opened: %2").arg(info.fileName(), why);
        return std::nullopt;
    }
    return state;
}

} // namespace attnlab::ui
