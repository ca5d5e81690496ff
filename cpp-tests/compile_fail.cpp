// Programs that must NOT compile, one per TOOLGATE_CASE; ctest builds each and expects
// the compiler's error to mention the reason (see CMakeLists.txt).
#include <toolgate.hpp>

#include <string>
#include <utility>

int main() {
#if TOOLGATE_CASE == 1
    // A mutable lambda: tools run on several threads at once, so they are called as const.
    toolgate::Registry reg;
    int calls = 0;
    reg.add({"t"}, [calls](std::string_view) mutable { return std::to_string(++calls); });
#elif TOOLGATE_CASE == 2
    // A tool must answer with text (or a toolgate::Reply), not an int.
    toolgate::Registry reg;
    reg.add({"t"}, [](std::string_view) { return 42; });
#elif TOOLGATE_CASE == 3
    // Handles are move-only.
    toolgate::Schema a = toolgate::Schema::compile("{}");
    toolgate::Schema b = a;
    (void)b;
#elif TOOLGATE_CASE == 4
    toolgate::Registry a;
    toolgate::Registry b(a);
    (void)b;
#elif TOOLGATE_CASE == 5
    toolgate::Result a;
    toolgate::Result b;
    b = a;
#else
#error "unknown TOOLGATE_CASE"
#endif
    return 0;
}
