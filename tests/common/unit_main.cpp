#include "common/unit_main.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct TestUnit {
    std::string name;
    int (*run)(int argc, char** argv);
};

std::vector<TestUnit>& units()
{
    static std::vector<TestUnit> list; // filled while the program starts, before main
    return list;
}

void list_units(std::FILE* out)
{
    for (const TestUnit& unit : units())
        std::fprintf(out, "%s\n", unit.name.c_str());
}

} // namespace

// Declared by common/unit_rename.h's main; a unit is the file its main is in, less folders and extension.
bool attnlab_register_test_unit(const char* file, int (*unit_main)(int, char**))
{
    std::string name = file;
    name.erase(0, name.find_last_of('/') + 1);
    name.erase(std::min(name.rfind('.'), name.size()));
    units().push_back({name, unit_main});
    return true;
}

namespace testing {

int run_test_unit(int argc, char** argv)
{
    std::sort(units().begin(), units().end(), [](const TestUnit& a, const TestUnit& b) { return a.name < b.name; });
    if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) {
        list_units(stdout);
        return 0;
    }
    const std::string wanted = argc >= 2 ? argv[1] : "";
    for (const TestUnit& unit : units()) {
        if (unit.name != wanted)
            continue;
        const std::string self = argv[0];
        const std::size_t slash = self.rfind('/');
        std::string program = (slash == std::string::npos ? std::string() : self.substr(0, slash + 1)) + wanted;
        argv[1] = program.data(); // argv[argc] stays the null pointer that ends the unit's arguments
        return unit.run(argc - 1, argv + 1);
    }
    std::fprintf(stderr, "%s: name the test unit to run (%s); this program holds:\n", argv[0],
                 argc >= 2 ? "no unit is called that" : "none named");
    list_units(stderr);
    return 2;
}

} // namespace testing
