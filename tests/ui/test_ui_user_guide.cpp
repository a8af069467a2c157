// Help > User Guide: the manual built into the app, every page readable offline and every link between
// its pages followed in place; links that leave the manual are named, not followed into nothing.
#include "shell/user_guide.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QTest>
#include <QTextBrowser>

using namespace attnlab::ui;

namespace {

QString page(const QString& name)
{
    QFile f(QStringLiteral(":/docs/") + name);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestUiUserGuide : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every page of docs/ is built in (the CMake glob), so a page added to the manual is in the guide.
    void everyManualPageIsBuiltIn()
    {
        const QStringList pages = QDir(QStringLiteral(":/docs")).entryList({QStringLiteral("*.md")});
        for (const char* expected : {"README.md", "architecture.md", "classroom.md", "cli.md", "stepper.md",
                                     "training.md", "tradeoffs.md", "heatmaps.md", "debugging.md", "designs.md"})
            QVERIFY2(pages.contains(QLatin1String(expected)), expected);
        for (const QString& p : pages) {
            const QString shown = guideMarkdown(page(p));
            QVERIFY2(shown.startsWith(QLatin1String("# ")), qPrintable(p));
            QVERIFY2(!shown.contains(QLatin1String("![")), qPrintable(p + ": a picture left as Markdown"));
        }
    }

    // Every link from one manual page to another lands on a built-in page.
    void everyLinkBetweenPagesLands()
    {
        static const QRegularExpression link(QStringLiteral("\\]\\(([a-z0-9-]+\\.md)(#[^)]*)?\\)"));
        int links = 0;
        for (const QString& p : QDir(QStringLiteral(":/docs")).entryList({QStringLiteral("*.md")})) {
            const QUrl here(QStringLiteral("qrc:/docs/") + p);
            for (const QRegularExpressionMatch& m : link.globalMatch(page(p))) {
                ++links;
                const QUrl target = guideTarget(here, QUrl(m.captured(1) + m.captured(2)));
                QVERIFY2(!target.isEmpty(), qPrintable(p + " links to " + m.captured(1)));
                QCOMPARE(target.fragment(), m.captured(2).mid(1));
            }
        }
        QVERIFY2(links > 20, qPrintable(QString::number(links)));
    }

    void targets_data()
    {
        QTest::addColumn<QString>("link");
        QTest::addColumn<QString>("target");
        QTest::newRow("page") << "stepper.md"
                              << "qrc:/docs/stepper.md";
        QTest::newRow("page-anchor") << "testing.md#screens-and-lessons"
                                     << "qrc:/docs/testing.md#screens-and-lessons";
        QTest::newRow("front-page") << "../README.md"
                                    << "";
        QTest::newRow("source-file") << "../tests/reference/head_colors_search.py"
                                     << "";
        QTest::newRow("picture") << "../resources/screenshots/lesson.png"
                                 << "";
        QTest::newRow("no-such-page") << "nowhere.md"
                                      << "";
        QTest::newRow("web") << "https://example.org/a.md"
                             << "";
        QTest::newRow("climb-out") << "../../docs/stepper.md"
                                   << "qrc:/docs/stepper.md";
    }
    void targets()
    {
        QFETCH(QString, link);
        QFETCH(QString, target);
        const QUrl got = guideTarget(QUrl(QStringLiteral("qrc:/docs/README.md")), QUrl(link));
        QCOMPARE(got.isEmpty() ? QString() : got.toString(), target);
    }

    void picturesBecomeTheirCaptions()
    {
        const QString shown =
            guideMarkdown(QStringLiteral("Before\n\n![A lesson step](../resources/screenshots/lesson.png)\n"));
        QVERIFY(shown.contains(QLatin1String("A lesson step")));
        QVERIFY(!shown.contains(QLatin1String("lesson.png")));
    }

    // The guide opens at the index, follows a link to a tab's page, names a link outside, and goes back.
    void guideFollowsLinksInPlace()
    {
        UserGuide guide;
        QTextBrowser* text = guide.browser();
        QCOMPARE(text->source().toString(), QStringLiteral("qrc:/docs/README.md"));
        QVERIFY(text->toPlainText().startsWith(QLatin1String("Attention Lab: the manual")));
        Q_EMIT text->anchorClicked(QUrl(QStringLiteral("stepper.md")));
        QCOMPARE(text->source().toString(), QStringLiteral("qrc:/docs/stepper.md"));
        QVERIFY(text->toPlainText().contains(QLatin1String("Predict First")));
        QVERIFY(text->isBackwardAvailable());
        Q_EMIT text->anchorClicked(QUrl(QStringLiteral("../README.md")));
        QCOMPARE(text->source().toString(), QStringLiteral("qrc:/docs/stepper.md"));
        auto* note = guide.findChild<QLabel*>(QStringLiteral("user-guide-note"));
        QVERIFY(note && note->text().contains(QLatin1String("../README.md")));
        text->backward();
        QCOMPARE(text->source().toString(), QStringLiteral("qrc:/docs/README.md"));
        QVERIFY(!guide.open(QStringLiteral("nowhere.md")));
        QVERIFY(guide.open(QStringLiteral("training.md")));
        QCOMPARE(text->source().toString(), QStringLiteral("qrc:/docs/training.md"));
    }
};

QTEST_MAIN(TestUiUserGuide)
#include "test_ui_user_guide.moc"
