#pragma once
// In place of an answer a lesson step holds back (the first divergence, the settings' diagnosis): a card that says
// what is held and why, with a Reveal button, so the teacher can ask the room first and the held-back state is never
// mistaken for an empty page. Its look follows Predict First's question card: a tinted card with a Reveal button.
#include <QFrame>

class QLabel;
class QPushButton;

namespace attnlab::ui {

class HeldAnswerCard : public QFrame {
    Q_OBJECT
public:
    // `what`: one sentence naming what is held back and what the room can do meanwhile.
    explicit HeldAnswerCard(const QString& what, QWidget* parent = nullptr);
    void setWhat(const QString& what);
    QPushButton* revealButton() const { return reveal_; }

Q_SIGNALS:
    void revealed();

private:
    void restyle();

    QLabel* text_;
    QPushButton* reveal_;
};

} // namespace attnlab::ui
