#include "widgets/tab_text_fit.h"

#include <QEvent>
#include <QFontMetrics>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

namespace attnlab::ui {

namespace {

class TabTextFitter : public QObject {
public:
    TabTextFitter(QTabWidget* tabs, QList<QStringList> texts, bool currentKeepsName)
        : QObject(tabs), tabs_(tabs), texts_(std::move(texts)), currentKeepsName_(currentKeepsName)
    {
        for (int i = 0; i < tabs_->count() && i < texts_.size(); ++i) {
            if (texts_[i].isEmpty())
                continue;
            if (tabs_->tabToolTip(i).isEmpty() && texts_[i].size() > 1)
                tabs_->setTabToolTip(i, texts_[i].front());
            tabs_->tabBar()->setAccessibleTabName(i, texts_[i].front()); // "①" alone names nothing

            levels_ = std::max(levels_, static_cast<int>(texts_[i].size()));
        }
        tabs_->installEventFilter(this);
        if (currentKeepsName_)
            connect(tabs_, &QTabWidget::currentChanged, this, [this] { fit(); });
        fit();
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        switch (event->type()) {
        case QEvent::Resize:
        case QEvent::Show:
        case QEvent::FontChange:
        case QEvent::StyleChange: fit(); break;
        default: break;
        }
        return false;
    }

private:
    // Tab i's text at `level`; at the last level the current tab may keep the level before (its name beside
    // the other tabs' numbers).
    const QString& textAt(int i, int level) const
    {
        if (currentKeepsName_ && level > 0 && level == levels_ - 1 && i == tabs_->currentIndex())
            --level;
        return texts_[i][std::min<qsizetype>(level, texts_[i].size() - 1)];
    }

    void setLevel(int level)
    {
        for (int i = 0; i < tabs_->count() && i < texts_.size(); ++i)
            if (!texts_[i].isEmpty()) {
                const QString& text = textAt(i, level);
                if (tabs_->tabText(i) != text)
                    tabs_->setTabText(i, text);
            }
    }

    // The row's width at `level`, measured without setting a text (which would ask for a new layout and
    // bring this back): the row's width now, each text's advance replaced by the candidate's.
    int rowWidth(int level) const
    {
        const QFontMetrics fm = tabs_->tabBar()->fontMetrics();
        int width = tabs_->tabBar()->sizeHint().width(); // every tab at its hint, the texts as they are now
        for (int i = 0; i < tabs_->count() && i < texts_.size(); ++i)
            if (!texts_[i].isEmpty()) {
                const QString& text = textAt(i, level);
                width += fm.horizontalAdvance(text) - fm.horizontalAdvance(tabs_->tabText(i));
            }
        return width;
    }

    void fit()
    {
        if (fitting_ || tabs_->width() <= 0)
            return;
        fitting_ = true;
        const int room = tabs_->width() - 4; // the pane's frame
        int level = 0;
        while (level + 1 < levels_ && rowWidth(level) > room)
            ++level; // the shortest, scrolling, if even that is too wide
        setLevel(level);
        fitting_ = false;
    }

    QTabWidget* tabs_;
    QList<QStringList> texts_;
    bool currentKeepsName_;
    int levels_ = 1;
    bool fitting_ = false;
};

} // namespace

void fitTabTexts(QTabWidget* tabs, const QList<QStringList>& texts, bool currentKeepsName)
{
    new TabTextFitter(tabs, texts, currentKeepsName);
}

bool tabRowFits(const QTabWidget* tabs)
{
    const QTabBar* bar = tabs->tabBar();
    for (int i = 0; i < bar->count(); ++i) {
        const QRect r = bar->tabRect(i);
        if (r.left() < 0 || r.right() >= bar->width() || r.right() >= tabs->width())
            return false;
    }
    return true;
}

} // namespace attnlab::ui
