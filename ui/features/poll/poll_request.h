#pragma once
// The student page's JSON, read and written: an answer a phone posts (every part checked and bounded before
// anything counts it), the open question as the page draws it, and the one-sentence refusal a browser gets.
// Qt Core only, no sockets, so the fuzzer reads answers exactly as the server does.
#include "poll/poll_question.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace attnlab::ui {

struct AnswerRequest {
    QString question;    // the question's id
    int round = 0;       // 1 for the first
    QString device;      // the page's anonymous id
    poll::Answer values; // field name -> value, as sent (the tally reads them against the question)
    QString name;        // only when the teacher turned names on; else ignored
};

inline constexpr qsizetype kMostAnswerBytes = 8 * 1024; // a 8×8 mask answered cell by cell is under 400 bytes
inline constexpr int kMostAnswerFields = 16;
inline constexpr int kMostValueChars = 400;
inline constexpr int kMostNameChars = 40;

// Reads a POST /api/answer body. Refuses, with one sentence in *error, a body over kMostAnswerBytes, bytes that
// are not UTF-8, JSON that is not one object, a missing or mistyped part, or a part over its bound.
std::optional<AnswerRequest> readAnswerRequest(const QByteArray& body, QString* error);

// Whether `device` is an id the page makes: 8 to 64 letters, digits, '-' or '_'.
bool isDeviceId(const QString& device);

// The question as GET /api/question gives it: id, round, prompt and fields (name, label, kind, and names,
// choices or grid as the kind has them). Never the right answer.
QJsonObject questionJson(const poll::Question& question, int round);

QByteArray refusalJson(const QString& sentence); // {"error": sentence}

} // namespace attnlab::ui
