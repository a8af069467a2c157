// The main of every test program (tests/CMakeLists.txt): runs the unit the command line names.
#include "common/unit_main.h"

#undef main // the real one; common/unit_rename.h renames every unit's

int main(int argc, char** argv)
{
    return testing::run_test_unit(argc, argv);
}
