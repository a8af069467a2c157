#pragma once
// Force-included (-include) into every test source, before its precompiled header: several test units link into
// one program (common/unit_main.h), so each unit's main, QTEST_MAIN's or its own, becomes a function of its own
// file that registers itself under the file's name ("test_tensor" for .../test_tensor.cpp):
//   int main(int argc, char** argv) { ... }
// reads as
//   int static attnlab_unit_main(int, char**); <registration>; static int attnlab_unit_main(int argc, ...) { ... }
// Only a #define, here and not on the command line: a precompiled header may follow it (GCC refuses one that
// mentions a macro defined on the command line only where it is used, and Qt's headers mention `main`).
#define main                                                                                                           \
    static attnlab_unit_main(int, char**);                                                                             \
    bool attnlab_register_test_unit(const char* file, int (*unit_main)(int, char**));                                  \
    [[maybe_unused]] static const bool attnlab_unit_registered =                                                       \
        attnlab_register_test_unit(__FILE__, &attnlab_unit_main);                                                      \
    static int attnlab_unit_main
