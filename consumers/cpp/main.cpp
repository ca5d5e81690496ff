// An out-of-tree C++17 program using an installed toolgate through
// find_package(toolgate CONFIG): the get_weather example tool through toolgate.hpp.
// Exit status 0 means every text matched.
#include <toolgate.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

int main() {
    int failures = 0;
    auto expect = [&failures](const char* what, const std::string& got, const std::string& want) {
        if (got != want) {
            std::fprintf(stderr, "FAILED %s:\n  got:  %s\n  want: %s\n", what, got.c_str(), want.c_str());
            ++failures;
        }
    };
    try {
        expect("version", std::string(toolgate::version()), std::string(toolgate::header_version));

        toolgate::Registry reg;
        reg.add({"get_weather", "Current weather for a city",
                 R"({"type": "object", "properties": {"city": {"type": "string", "minLength": 1},
                     "days": {"type": "integer", "minimum": 1, "maximum": 7},
                     "unit": {"enum": ["c", "f"]}},
                     "required": ["city"], "additionalProperties": false})"},
                [](std::string_view args) -> std::string {
                    if (args.find("Atlantis") != std::string_view::npos)
                        throw std::runtime_error("no weather station in Atlantis");
                    return R"({"temp_c":21})";
                });

        expect("valid call", reg.call("call_1", "get_weather", R"({"city": "Paris"})").content(),
               R"({"temp_c":21})");
        toolgate::Result bad =
            reg.call("call_2", "get_weather", R"({"days": "3", "unit": "kelvin", "country": "FR"})");
        expect("invalid call", bad.content(),
               "error: invalid arguments for get_weather:\n"
               "$: missing required property \"city\"\n"
               "$: unexpected property \"country\"\n"
               "$.days: expected integer, got string\n"
               "$.unit: \"kelvin\" is not one of [\"c\",\"f\"]");
        expect("exception in the tool",
               reg.call("call_3", "get_weather", R"({"city": "Atlantis"})").content(),
               "error: no weather station in Atlantis");
    } catch (const toolgate::Error& e) {
        std::fprintf(stderr, "FAILED: toolgate::Error %s: %s\n", toolgate::status_name(e.status()), e.what());
        return 1;
    }
    std::printf("C++ consumer (toolgate %s): %s\n", std::string(toolgate::version()).c_str(),
                failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
