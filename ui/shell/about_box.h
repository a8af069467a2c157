#pragma once
// Help > About: the version and what the numbers depend on (Qt, and the kernel that runs the products).
#include <QString>

class QWidget;

namespace attnlab::ui {

QString aboutText(); // rich text, also read by the test
void showAboutBox(QWidget* parent);

} // namespace attnlab::ui
