#pragma once
// The main of a test program that holds several units (tests/CMakeLists.txt: the units of one label and the same
// needs share a program, so each is not linked on its own). Each unit's own main registers itself under its
// file's name (common/unit_rename.h), and the command line names the unit to run: `tests_core test_tensor`.
namespace testing {

// Runs the unit argv[1] names, with argv[0] become that unit's program path (so QCoreApplication's
// applicationName is the unit's, as when it was a program of its own) and the arguments after it as they
// are. `--list` prints the units; no name, or a name that is no unit, is refused (exit 2) with the list.
int run_test_unit(int argc, char** argv);

} // namespace testing
