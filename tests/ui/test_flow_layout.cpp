// The flow layout the fix buttons, the text-input choices and the values selectors wrap in: items
// left to right, onto a new row when the width runs out; a word-wrapped label takes the rest of its
// row (or a whole row of its own) so that a short sentence stays on one line when there is room.
#include "widgets/flow_layout.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

using attnlab::ui::FlowLayout;

namespace {

struct Row {
    QWidget host;
    FlowLayout* flow = new FlowLayout(&host);
    QList<QWidget*> items;

    void add(QWidget* w)
    {
        flow->addWidget(w);
        items << w;
    }
    // A checkbox, then a word-wrapped sentence after it: the text-input row's shape.
    std::pair<QCheckBox*, QLabel*> addCheckAndSentence(const QString& check, const QString& sentenceText)
    {
        auto* box = new QCheckBox(check);
        auto* label = new QLabel(sentenceText);
        label->setWordWrap(true);
        add(box);
        add(label);
        return {box, label};
    }
    void layOut(int width)
    {
        host.resize(width, flow->heightForWidth(width));
        flow->setGeometry(QRect(0, 0, width, host.height()));
    }
};

QLabel* sentence(const QString& text)
{
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    return label;
}

int oneLine(const QLabel* label)
{
    return label->fontMetrics().horizontalAdvance(label->text());
}

} // namespace

class TestFlowLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buttonsWrapWhenTheWidthRunsOut_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("rows");
        QTest::newRow("wide-one-row") << 2000 << 1;
        QTest::newRow("narrow-one-per-row") << 10 << 4;
    }

    void buttonsWrapWhenTheWidthRunsOut()
    {
        QFETCH(int, width);
        QFETCH(int, rows);
        Row row;
        for (const char* text : {"d_out = 768", "d_out = 780", "num_heads = 10", "num_heads = 5"})
            row.add(new QPushButton(QString::fromLatin1(text)));
        row.layOut(width);
        QSet<int> tops;
        for (QWidget* w : row.items) {
            tops << w->geometry().top();
            QVERIFY(w->width() >= std::min(w->sizeHint().width(), std::max(width, 1)));
        }
        QCOMPARE(tops.size(), rows);
        // What heightForWidth promised is what the items use.
        int bottom = 0;
        for (QWidget* w : row.items)
            bottom = std::max(bottom, w->geometry().bottom() + 1);
        QCOMPARE(bottom, row.flow->heightForWidth(width));
    }

    // Beside a checkbox with room to spare, a sentence takes the rest of the row, on one line.
    void sentenceTakesTheRestOfItsRow()
    {
        Row row;
        const auto [check, about] = row.addCheckAndSentence(QStringLiteral("Text through a GPT"),
                                                            QStringLiteral("off: the input is seeded random numbers"));
        const int width = check->sizeHint().width() + oneLine(about) + 60;
        row.layOut(width);
        QCOMPARE(about->geometry().top(), check->geometry().top());
        QCOMPARE(about->geometry().right(), width - 1);
        QCOMPARE(about->height(), about->heightForWidth(about->width()));
        QVERIFY(about->height() < 2 * about->fontMetrics().lineSpacing()); // one line
    }

    // Without room beside the checkbox it goes under it, as wide as the row: still one line when the
    // row is wide enough for it (its own size hint would have broken it in two).
    void sentenceMovesUnderWhenTheRowIsFull()
    {
        Row row;
        const auto [check, about] =
            row.addCheckAndSentence(QStringLiteral("Text through a GPT trained on The Verdict"),
                                    QStringLiteral("off: the input is seeded random numbers, not a sentence"));
        const int width = std::max(check->sizeHint().width(), oneLine(about)) + 20;
        row.layOut(width);
        QVERIFY(about->geometry().top() > check->geometry().bottom());
        QCOMPARE(about->geometry().left(), 0);
        QCOMPARE(about->width(), width);
        QVERIFY(about->height() < 2 * about->fontMetrics().lineSpacing());
    }

    // Narrower than the sentence: it wraps within the row and the layout grows as tall as its lines.
    void longSentenceWrapsWithinTheRow()
    {
        Row row;
        QLabel* about =
            sentence(QStringLiteral("57 tokens, 0 unknown · verdict-gpt-h4: held-out loss 5.216 nats (3 seeds: "
                                    "5.184 ± 0.034), and more words so that it needs several lines here"));
        row.add(about);
        const int width = oneLine(about) / 3;
        row.layOut(width);
        QVERIFY(about->width() <= width);
        QVERIFY(about->height() >= 3 * about->fontMetrics().lineSpacing());
        QCOMPARE(row.flow->heightForWidth(width), about->geometry().bottom() + 1);
    }
};

QTEST_MAIN(TestFlowLayout)
#include "test_flow_layout.moc"
