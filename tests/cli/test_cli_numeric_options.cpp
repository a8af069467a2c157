// Every numeric option of every command, read from --help (so a new one is walked too, or named below as not a
// number), given a value below its range, one too large for any and one that is not a whole number: refused with
// exit 1 and one sentence naming the range that option accepts, in the app's words -- never int64's nineteen-digit
// bounds, never "from -..." for a count that starts at 0 or 1 (train --steps once said "give a whole number from
// -9223372036854775808 to 9223372036854775807").
#include "common/cli_runner.h"

#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kCall = QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)");

const QSet<QString> kWhole = {"tokens",  "batch",   "seed",          "dropout-seed", "layer",     "threads",   "repeat",
                              "d-in",    "d-out",   "d-in-of-input", "num-heads",    "d-out-min", "d-out-max", "vocab",
                              "context", "emb",     "layers",        "heads",        "seeds",     "steps",     "index",
                              "ids",     "d-model", "kv-heads",      "head-dim",     "kv-groups", "window"};
const QSet<QString> kReal = {"lr", "weight-decay"};
const QSet<QString> kNotNumbers = {
    "call",     "json",     "weights",   "layout",          "input", "train",     "max-memory",   "dump",     "model",
    "text",     "stage",    "tokenizer", "special-as-text", "bug",   "omit",      "no-transpose", "qkv-bias", "task",
    "save",     "dump-run", "top",       "summary",         "names", "text-file", "preset",       "presets",  "dtype",
    "no-cache", "compare",  "stages",    "category",        "gift",  "html",      "head-ablation"};

struct Usage {
    QString command, line;
    QStringList options;
};

// The usage lines of --help, each with its continuation lines ("      [--tokens T] ...").
QList<Usage> usages(const QString& help)
{
    QList<Usage> out;
    static const QRegularExpression command(QStringLiteral("^  ([a-z][a-z-]*)\\b(.*)$"));
    static const QRegularExpression option(QStringLiteral("--([a-z0-9-]+)"));
    for (const QString& line : help.split('\n')) {
        const auto m = command.match(line);
        if (m.hasMatch())
            out.append({m.captured(1), line, {}});
        else if (!out.isEmpty() && QRegularExpression(QStringLiteral("^      [\\[(-]")).match(line).hasMatch())
            out.last().line += line;
        else
            continue;
        for (auto it = option.globalMatch(line); it.hasNext();) {
            const QString name = it.next().captured(1);
            if (!out.last().options.contains(name))
                out.last().options << name;
        }
    }
    return out;
}

// What each usage needs to reach its options' parsing, with a file path under `dir`.
QStringList baseOf(const Usage& u, const QString& dir)
{
    const QString dump = dir + QStringLiteral("/never.safetensors");
    if (u.command == "run" && u.line.contains("--call C"))
        return {"--call", kCall, "--dump", dump};
    if (u.command == "run" && u.line.contains("h1|h2"))
        return {"--model", "h2", "--dump", dump};
    if (u.command == "run")
        return {"--model", ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f16", "--ids", "1", "--top"};
    if (u.command == "generate")
        return {"--model", "h4", "--ids", "1", "--tokens", "2"};
    if (u.command == "handout")
        return {"--call", kCall, "--gift", dump};
    if (u.command == "follow")
        return {"--call", kCall, "--stage", "queries.view", "--index", "0,0,0,0"};
    if (u.command == "bench")
        return {"--call", kCall, "--repeat", "1"};
    if (u.command == "diagnose")
        return {"--call", kCall, "--bug", "skip-head-transpose"};
    if (u.command == "tradeoffs" && u.line.contains("--d-out N --tokens"))
        return {"--d-out", "768", "--tokens", "16"};
    if (u.command == "tradeoffs")
        return {"--num-heads", "12"};
    if (u.command == "train")
        return {"--task", "induction", "--emb", "8",       "--layers", "1",       "--context",
                "12",     "--batch",   "4",     "--steps", "1",        "--heads", "2"};
    if (u.command == "kv-cache" && u.line.contains("--preset NAME"))
        return {"--preset", "gpt2-small"};
    if (u.command == "kv-cache" && u.line.contains("--d-model D"))
        return {"--d-model", "768", "--heads", "12", "--layers", "12", "--context", "1024"};
    if (u.command == "compare")
        return {"/nonexistent/recording.safetensors"};
    if (u.line.contains("--call C"))
        return {"--call", kCall};
    return {};
}

// The base without `option` and its value.
QStringList without(QStringList args, const QString& option)
{
    const int i = static_cast<int>(args.indexOf("--" + option));
    if (i >= 0)
        args.remove(i, 2);
    return args;
}

} // namespace

class TestCliNumericOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyNumericOptionSaysItsRange();
    void configLimitSaidAsALimit();
};

void TestCliNumericOptions::everyNumericOptionSaysItsRange()
{
    const Result help = cli({"--help"});
    QCOMPARE(help.code, 0);
    const QList<Usage> all = usages(help.out);
    QVERIFY(all.size() >= 18);
    QTemporaryDir dir;
    int walked = 0;
    for (const Usage& u : all) {
        for (const QString& option : u.options) {
            QVERIFY2(kWhole.contains(option) || kReal.contains(option) || kNotNumbers.contains(option),
                     qPrintable(QStringLiteral("--%1 of %2 is not classified here").arg(option, u.command)));
            if (!kWhole.contains(option) && !kReal.contains(option))
                continue;
            QStringList values = {QStringLiteral("-7"), QStringLiteral("1e309"), QStringLiteral("two")};
            if (kWhole.contains(option)) // a rate of 1e23 is a number a run takes (and diverges with, as it says)
                values << QStringLiteral("99999999999999999999999");
            for (const QString& bad : values) {
                QStringList args = QStringList{u.command} + without(baseOf(u, dir.path()), option);
                if (option == "dropout-seed")
                    args << "--train";
                args << "--" + option << bad;
                const Result r = cli(args);
                const QString what = args.join(' ') + " -> " + QString::number(r.code) + ": " + r.err;
                QVERIFY2(r.code == 1, qPrintable(what));
                QVERIFY2(r.err.count('\n') == 1 && r.err.trimmed().endsWith('.'), qPrintable(what));
                QVERIFY2(r.err.contains("--" + option + " ") && !r.err.contains("----"), qPrintable(what));
                QVERIFY2(!r.err.contains("9223372036854775807") && !r.err.contains("9223372036854775808"),
                         qPrintable(what));
                // torch.manual_seed's range is int64's; every other count has a range of its own.
                QVERIFY2(!r.err.contains("2^63") || option == "seed" || option == "dropout-seed", qPrintable(what));
                if (kWhole.contains(option) && option != "seed" && option != "dropout-seed") {
                    // The range is said: "a whole number from 1 to 10000000".
                    const auto range =
                        QRegularExpression(QStringLiteral("a whole number from (-?\\d+) to (\\d+)")).match(r.err);
                    QVERIFY2(range.hasMatch(), qPrintable(what));
                    QVERIFY2(range.captured(1).toLongLong() >= 0, qPrintable(what));
                }
                if (kReal.contains(option))
                    QVERIFY2(r.err.contains("number"), qPrintable(what));
                QVERIFY(!QFile::exists(dir.filePath("never.safetensors")));
                ++walked;
            }
        }
    }
    QVERIFY2(walked >= 100, qPrintable(QString::number(walked)));
}

// A config.json whose n_positions is a whole number beyond the reader's limit is refused by that limit, not as if
// it were not a positive whole number.
void TestCliNumericOptions::configLimitSaidAsALimit()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f16/model.safetensors", dir.filePath("model.safetensors")));
    QFile config(dir.filePath("config.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"n_head": 4, "n_positions": 1000000000})");
    config.close();
    const Result r = cli({"run", "--model", dir.path(), "--ids", "1", "--top"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("gives n_positions as 1000000000, where a whole number from 1 to 16777216 is needed."),
             qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliNumericOptions)
#include "test_cli_numeric_options.moc"
