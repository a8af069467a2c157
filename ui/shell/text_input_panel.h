#pragma once
// The Text input source: a sentence goes through a GPT trained on The Verdict (or an opened checkpoint)
// and the attention under study is one of its layers. A switch, the variant (by num_heads, or the
// checkpoint by name) and layer pickers, the text,
// and the tokens as chips with their ids (<|unk|> marked). Everything lives in the Session; this
// panel only edits it and follows changed(flags).
#include "features/session.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace attnlab::ui {
class TokenChips;
}

namespace attnlab::ui {

class TextInputPanel : public QWidget {
    Q_OBJECT
public:
    explicit TextInputPanel(Session* session, QWidget* parent = nullptr);
    // The switch, pickers and summary only, the sentence and its chips folded away: on a projector, while
    // the lesson is about the heads, the chips left the heatmaps no room.
    void setCompact(bool compact);

protected:
    void changeEvent(QEvent* event) override; // the two rows' height follows the type
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitTokens();
    void fitRows(); // as tall as the wrapped choices' row needs at this width
    void sync();
    void syncOpenedEntry(); // the variant picker's entry for an opened checkpoint, while one is loaded
    void choose();          // the switch or a picker changed: study that variant's layer

    Session* session_;
    QCheckBox* enabled_;
    QComboBox* variant_;
    QComboBox* layer_;
    QLabel* about_;
    QLineEdit* text_;
    TokenChips* chips_;
    bool compact_ = false;
    QScrollArea* tokens_; // the chips, two rows high: 57 tokens in projector type filled the page
};

} // namespace attnlab::ui
