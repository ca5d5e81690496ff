// Provider dialects through the C++ API: Registry::definitions(dialect) gives each
// provider's exact bytes and their SHA-256; Registry::lint(target) the problems as JSON.
#include "check.hpp"

#include <toolgate.hpp>

#include <string>

namespace {

const std::string kSchema = R"({"type":"object","properties":{"q":{"type":"string"}}})";

toolgate::Registry search_registry() {
    toolgate::Registry reg;
    reg.add({"search", "Search", kSchema, false, 0},
            [](std::string_view) { return std::string("[]"); });
    return reg;
}

}  // namespace

TEST(definitions_per_dialect) {
    const toolgate::Registry reg = search_registry();
    const auto anthropic = reg.definitions(TG_DIALECT_ANTHROPIC);
    CHECK_EQ(anthropic.json,
             R"([{"name":"search","description":"Search","input_schema":)" + kSchema + "}]");
    CHECK_EQ(anthropic.fingerprint.size(), std::size_t{64});
    const auto gemini = reg.definitions(TG_DIALECT_GEMINI);
    CHECK_EQ(gemini.json,
             R"({"functionDeclarations":[{"name":"search","description":"Search","parametersJsonSchema":)" +
                 kSchema + "}]}");
    CHECK(gemini.fingerprint != anthropic.fingerprint);
    // The same registrations, the same bytes and fingerprint.
    CHECK_EQ(search_registry().definitions(TG_DIALECT_ANTHROPIC).fingerprint, anthropic.fingerprint);
}

TEST(lint_and_refusals) {
    const toolgate::Registry reg = search_registry();
    CHECK_EQ(reg.lint(TG_LINT_GEMINI), std::string("[]"));
    const std::string openai = reg.lint(TG_LINT_OPENAI_STRICT);
    CHECK(openai.find(R"("rule":"required-all")") != std::string::npos);
    toolgate::Error err;
    CHECK(!reg.lint(static_cast<tg_lint_target>(9), err).has_value());
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
}

TEST_MAIN("test_dialect")
