// A small C++ host for toolgate: registers two tools, prints the definitions a model
// would see, then answers three model calls (a valid one, one the model got wrong, and
// one whose tool fails), printing the tool message of each.
//
// Build and run: bash examples/run.sh cpp
#include <toolgate.hpp>

#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kWeatherSchema =
    R"({"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, )"
    R"("days": {"type": "integer", "minimum": 1, "maximum": 7}, )"
    R"("unit": {"enum": ["c", "f"]}}, "required": ["city"], "additionalProperties": false})";

constexpr std::string_view kTimeSchema =
    R"({"type": "object", "properties": {"timezone": {"type": "string", )"
    R"("pattern": "^[A-Za-z_]+/[A-Za-z_]+$"}}, "required": ["timezone"], )"
    R"("additionalProperties": false})";

void call(const toolgate::Registry& reg, std::string_view call_id, std::string_view name,
          std::string_view args) {
    const toolgate::Result r = reg.call(call_id, name, args);
    std::cout << "\nmodel calls " << name << "(" << args << ")\n"
              << "tool message: " << r.tool_message() << "\n"
              << "content:\n"
              << r.content() << "\n";
}

}  // namespace

int main() {
    std::cout << "toolgate " << tg_version() << "\n";
    try {
        // A host's limits: arguments over 64 KiB are refused before they are read.
        toolgate::RegistryOptions options;
        options.max_argument_bytes = 64 * 1024;
        toolgate::Registry reg(options);

        toolgate::ToolDef weather{"get_weather", "Weather forecast for a city, 1 to 7 days ahead.",
                                  kWeatherSchema};
        weather.idempotent = true;
        weather.timeout_ms = 5000;
        // A tool gets the argument bytes exactly as the model sent them, after they
        // passed the schema; a real one would parse them with its JSON library.
        reg.add(weather, [](std::string_view args) {
            return "forecast for " + std::string(args) + ": sunny, 21 C";
        });
        // A tool that fails: the exception's what() reaches the model as "error: ...".
        reg.add({"get_time", "Current time in an IANA time zone.", kTimeSchema},
                [](std::string_view) -> std::string {
                    throw std::runtime_error("the clock service is not configured");
                });

        std::cout << "definitions (sorted by name):\n" << reg.definitions() << "\n";

        call(reg, "call_1", "get_weather", R"({"city":"Paris","days":3})");
        call(reg, "call_2", "get_weather", R"({"days": "3", "unit": "kelvin", "country": "FR"})");
        call(reg, "call_3", "get_time", R"({"timezone":"Europe/Paris"})");
    } catch (const toolgate::Error& e) {
        std::cerr << toolgate::status_name(e.status()) << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
