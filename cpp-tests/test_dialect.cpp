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

TEST(dotted_names_are_rewritten_and_collisions_refused) {
    toolgate::RegistryOptions options;
    options.names = TG_NAMES_MCP;
    toolgate::Registry reg(options);
    reg.add({"db.search", "Search", kSchema, false, 0},
            [](std::string_view) { return std::string("found"); });
    CHECK_EQ(reg.definitions(TG_DIALECT_OPENAI_RESPONSES).json,
             R"([{"type":"function","name":"db_search","description":"Search","parameters":)" +
                 kSchema + "}]");
    CHECK_EQ(reg.call("c", "db_search", "{}").content(), std::string_view("found"));
    reg.add({"db_search", "Search", kSchema, false, 0},
            [](std::string_view) { return std::string("other"); });
    toolgate::Error err;
    CHECK(!reg.definitions(TG_DIALECT_ANTHROPIC, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NAME);
    CHECK(std::string(err.what()).rfind("definitions for anthropic refused:\n", 0) == 0);
    CHECK_EQ(err.keyword(), std::string("name-collision"));
    // The registered name wins the call once it exists.
    CHECK_EQ(reg.call("c", "db_search", "{}").content(), std::string_view("other"));
}

TEST(strict_schema_and_lint_schema) {
    const std::string optional =
        R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]})";
    const toolgate::StrictSchema converted = toolgate::strict_schema(TG_LINT_OPENAI_STRICT, optional);
    CHECK_EQ(converted.schema,
             std::string(R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"]}},"required":["a","b"],"additionalProperties":false})"));
    CHECK_EQ(converted.report, std::string(R"({"nullable":["/properties/b"],"closed":[""]})"));
    toolgate::Error err;
    CHECK(!toolgate::strict_schema(TG_LINT_OPENAI_STRICT,
                                   R"({"type":"object","properties":{"a":{"type":"string","minLength":1}}})",
                                   err)
               .has_value());
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
    CHECK_EQ(std::string(err.what()),
             std::string("openai-strict cannot take the schema, even converted:\n"
                         "#/properties/a/minLength: keyword \"minLength\" is not supported by "
                         "openai-strict [unsupported-keyword]"));
    CHECK_EQ(err.pointer(), std::string("/properties/a/minLength"));
    const std::string lint = toolgate::lint_schema(TG_LINT_ANTHROPIC_STRICT, optional);
    CHECK_EQ(lint, std::string(R"([{"tool":"","pointer":"","rule":"additional-properties","message":"an object must set \"additionalProperties\": false"}])"));
}

TEST(targets_refuse_and_mark_strict) {
    toolgate::RegistryOptions options;
    options.targets = TG_TARGET_ANTHROPIC_STRICT;
    toolgate::Registry reg(options);
    toolgate::Error err;
    CHECK(!reg.add({"open", "", kSchema, false, 0},
                   [](std::string_view) { return std::string(); }, err));
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
    reg.add({"closed", "", R"({"type":"object","additionalProperties":false})", false, 0},
            [](std::string_view) { return std::string(); });
    const std::string json = reg.definitions(TG_DIALECT_ANTHROPIC).json;
    CHECK(json.size() > 15 && json.compare(json.size() - 15, 15, R"("strict":true}])") == 0);
}

TEST_MAIN("test_dialect")
