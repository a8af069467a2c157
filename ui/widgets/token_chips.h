#pragma once
// The tokens of the Text input as chips: each token with its id below it, unknown words struck
// through and tinted, marked <|unk|>. Painted and flowed by hand: a rich-text label re-laid-out its
// whole document on every keystroke, which cost the GUI thread more than the forward pass.
#include "text/tokenizer.h"

#include <QWidget>

#include <vector>

namespace attnlab::ui {

class TokenChips : public QWidget {
    Q_OBJECT
public:
    explicit TokenChips(QWidget* parent = nullptr);
    void setTokens(const TokenizedText& tokens);
    const TokenizedText& tokens() const { return tokens_; }
    // What one chip says, e.g. "Jack 57" or "Hello → <|unk|> 1131" (tests, accessibility).
    // `unknownAs` is what the model reads for an unknown token ("" when it cannot read one at all).
    static QString chipText(const std::string& token, std::int64_t id, bool unknown,
                            const std::string& unknownAs = std::string(kUnknownToken));
    // The tooltip of one chip: the token, its id, and what the marks of GPT-2's readable pieces stand for.
    static QString chipTip(const std::string& token, std::int64_t id, bool unknown,
                           const std::string& unknownAs = std::string(kUnknownToken));
    int chipAt(const QPoint& pos) const; // -1 between chips

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    int rowsHeight(int rows) const; // what `rows` rows of chips take, gaps between them included

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    std::vector<QRect> flow(int width) const; // one rectangle per chip, rows wrapped at `width`
    QSize chipSize(std::size_t i) const;
    QString unknownMark() const;         // what an unknown chip says the model reads instead
    QString idText(std::size_t i) const; // the id line of chip i

    TokenizedText tokens_;
};

} // namespace attnlab::ui
