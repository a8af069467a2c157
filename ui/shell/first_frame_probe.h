#pragma once
// For the start-up benchmark (tests/bench/first_frame.py): with ATTNLAB_EXIT_AFTER_FIRST_FRAME set in the
// environment, the program writes "first frame painted" on stdout once the first frame of its window has
// been painted, and exits. The benchmark times that from the process's start, outside it. An environment
// variable rather than an option: users never need it, and it stays out of --help and the man page.
class QWidget;

namespace attnlab::ui {

void exitAfterFirstFrameWhenAsked(QWidget* window);

} // namespace attnlab::ui
