#pragma once
// Launch options for the Text input: --model h1|h2|h4|h8|induction-h4|FILE [--layer L] [--text T] start the window
// on a layer of a GPT trained on The Verdict, of the shipped induction GPT or of a checkpoint (that is how the
// README's pictures of trained heads are made).
#include <QString>

class QCommandLineParser;

namespace attnlab::ui {

class Session;

void addTextOptions(QCommandLineParser& parser);
// Applies them; returns the sentence that refuses them, empty when fine. After applyStartupWeights.
QString applyStartupText(const QCommandLineParser& parser, Session& session);

} // namespace attnlab::ui
