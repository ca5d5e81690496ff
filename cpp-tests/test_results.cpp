// Output schemas, what a Result says about its call, results in each provider's shape and
// the calls of a provider's response, through the C++ API: ToolDef::output_schema (also in
// a Batch), ToolInfo::output_schema, Result::outcome/structured/violations/
// invalid_result/dialect_json, results_message_json, read_calls, masked_values.
#include "check.hpp"

#include <toolgate.hpp>

#include <string>
#include <vector>

namespace {

const std::string kParams =
    R"({"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]})";
const std::string kOutput = R"({"type": "object", "properties": {"temp": {"type": "number"}}})";
const std::string kOutputCompact = R"({"type":"object","properties":{"temp":{"type":"number"}}})";

// The tool answers the text it is given as call_ctx.
toolgate::Registry weather_registry(const toolgate::RegistryOptions& options = {}) {
    toolgate::Registry reg(options);
    toolgate::ToolDef def{"get_weather", "Weather", kParams};
    def.output_schema = kOutput;
    reg.add(def, [](std::string_view, void* ctx) {
        return std::string(static_cast<const char*>(ctx));
    });
    reg.add({"echo", "Echo"}, [](std::string_view args) { return std::string(args); });
    return reg;
}

void* ctx(const char* text) { return const_cast<char*>(text); }

}  // namespace

TEST(output_schema_is_registered_and_described) {
    const toolgate::Registry reg = weather_registry();
    const toolgate::ToolInfo info = reg.describe("get_weather");
    CHECK(info.output_schema.has_value());
    CHECK_EQ(info.output_schema.value_or(""), kOutputCompact);
    CHECK(!reg.describe("echo").output_schema.has_value());
}

TEST(every_outcome) {
    const toolgate::Registry reg = weather_registry();
    const toolgate::Result ok = reg.call("c1", "get_weather", R"({"city":"Oslo"})", ctx(R"({"temp":4})"));
    CHECK_EQ(ok.outcome(), TG_OUTCOME_ANSWERED);
    CHECK(ok.structured() && !ok.is_error());
    CHECK(ok.violations().empty());
    CHECK(!ok.invalid_result().has_value());

    const toolgate::Result text = reg.call("c2", "echo", "{}");
    CHECK_EQ(text.outcome(), TG_OUTCOME_ANSWERED);
    CHECK(!text.structured());

    const toolgate::Result wrong =
        reg.call("c3", "get_weather", R"({"city":"Oslo"})", ctx(R"({"temp":"cold"})"));
    CHECK_EQ(wrong.outcome(), TG_OUTCOME_INVALID_RESULT);
    CHECK(wrong.is_error() && !wrong.structured());
    CHECK_EQ(wrong.content(), std::string("error: tool get_weather returned an invalid result:\n"
                                          "$.temp: expected number, got string"));
    CHECK_EQ(wrong.invalid_result().value_or("(none)"), std::string(R"({"temp":"cold"})"));
    const toolgate::ValidationErrors v = wrong.violations();
    CHECK_EQ(v.size(), std::size_t{1});
    if (!v.empty()) {
        CHECK(v[0] == (toolgate::ValidationError{"$.temp", "/temp", "type",
                                                 "expected number, got string",
                                                 "#/properties/temp/type"}));
    }

    const toolgate::Result empty = reg.call("c4", "get_weather", R"({"city":"Oslo"})", ctx(""));
    CHECK_EQ(empty.outcome(), TG_OUTCOME_INVALID_RESULT);
    CHECK(empty.invalid_result_view().has_value() && empty.invalid_result_view()->empty());

    const toolgate::Result refused = reg.call("c5", "get_weather", R"({"days":"3"})", ctx("{}"));
    CHECK_EQ(refused.outcome(), TG_OUTCOME_INVALID_ARGUMENTS);
    const toolgate::ValidationErrors why = refused.violations();
    CHECK_EQ(why.size(), std::size_t{2});
    if (why.size() == 2) {
        CHECK_EQ(why[0].schema_location, std::string("#/required"));
        CHECK_EQ(why[1].schema_location, std::string("#/properties/days/type"));
    }

    CHECK_EQ(reg.call("c6", "get_wether", "{}").outcome(), TG_OUTCOME_UNKNOWN_TOOL);
    CHECK_EQ(toolgate::Result().outcome(), TG_OUTCOME_INTERNAL);
}

TEST(a_throwing_tool_is_a_handler_failure) {
    toolgate::Registry reg;
    toolgate::ToolDef def{"boom"};
    def.output_schema = R"({"type":"number"})";
    reg.add(def, [](std::string_view) -> std::string { throw std::runtime_error("down"); });
    const toolgate::Result r = reg.call("c", "boom", "{}");
    CHECK_EQ(r.outcome(), TG_OUTCOME_HANDLER_FAILED);
    CHECK_EQ(r.content(), std::string("error: down"));
    CHECK(!r.invalid_result().has_value());
}

TEST(a_reused_result_follows_each_call) {
    const toolgate::Registry reg = weather_registry();
    toolgate::Result r;
    reg.call_into("c1", "get_weather", R"({"city":"Oslo"})", r, ctx(R"({"temp":"x"})"));
    CHECK_EQ(r.outcome(), TG_OUTCOME_INVALID_RESULT);
    CHECK_EQ(r.violations().size(), std::size_t{1});
    reg.call_into("c2", "get_weather", R"({"city":"Oslo"})", r, ctx(R"({"temp":3})"));
    CHECK_EQ(r.outcome(), TG_OUTCOME_ANSWERED);
    CHECK(r.structured());
    CHECK(r.violations().empty());
    CHECK(!r.invalid_result().has_value());
}

TEST(results_in_each_dialect) {
    const toolgate::Registry reg = weather_registry();
    std::vector<toolgate::Result> turn;
    turn.push_back(reg.call("c1", "get_weather", R"({"city":"Oslo"})", ctx(R"({"temp":4})")));
    turn.push_back(reg.call("c2", "get_weather", R"({"days":"3"})", ctx("{}")));
    CHECK_EQ(turn[0].dialect_json(TG_DIALECT_OPENAI_CHAT), turn[0].tool_message());
    CHECK_EQ(turn[0].dialect_json(TG_DIALECT_MCP),
             std::string(R"({"content":[{"type":"text","text":"{\"temp\":4}"}],"structuredContent":{"temp":4},"isError":false})"));
    CHECK_EQ(turn[0].dialect_json(TG_DIALECT_GEMINI),
             std::string(R"({"functionResponse":{"id":"c1","name":"get_weather","response":{"output":{"temp":4}}}})"));
    CHECK_EQ(toolgate::results_message_json(TG_DIALECT_ANTHROPIC, turn),
             R"({"role":"user","content":[)" + turn[0].dialect_json(TG_DIALECT_ANTHROPIC) + "," +
                 turn[1].dialect_json(TG_DIALECT_ANTHROPIC) + "]}");
    CHECK_EQ(toolgate::results_message_json(TG_DIALECT_OPENAI_CHAT,
                                            std::vector<const toolgate::Result*>{&turn[1]}),
             "[" + turn[1].tool_message() + "]");
    CHECK_EQ(toolgate::results_message_json(TG_DIALECT_GEMINI, std::vector<toolgate::Result>{}),
             std::string(R"({"role":"user","parts":[]})"));

    toolgate::Error err;
    CHECK(!turn[0].dialect_json(static_cast<tg_dialect>(9), err).has_value());
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
    CHECK(!toolgate::results_message_json(TG_DIALECT_MCP,
                                          std::vector<const toolgate::Result*>{nullptr}, err)
               .has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK_EQ(err.message(), std::string_view("tg_results_message_json: argument `results[0]` is NULL"));
}

TEST(calls_of_a_response) {
    const std::string response =
        R"({"role":"assistant","content":[{"type":"text","text":"Let me check."},)"
        R"({"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Oslo"}}]})";
    const std::vector<toolgate::ToolCall> calls = toolgate::read_calls(TG_DIALECT_ANTHROPIC, response);
    CHECK_EQ(calls.size(), std::size_t{1});
    if (calls.size() == 1) {
        CHECK_EQ(calls[0].id, std::string("toolu_1"));
        CHECK_EQ(calls[0].name, std::string("get_weather"));
        CHECK_EQ(calls[0].arguments, std::string(R"({"city": "Oslo"})"));
        // Answered by the registry, and back in the provider's shape.
        const toolgate::Registry reg = weather_registry();
        const toolgate::Result r =
            reg.call(calls[0].id, calls[0].name, calls[0].arguments, ctx(R"({"temp":4})"));
        CHECK_EQ(r.dialect_json(TG_DIALECT_ANTHROPIC),
                 std::string(R"({"type":"tool_result","tool_use_id":"toolu_1","content":"{\"temp\":4}"})"));
    }
    toolgate::Error err;
    CHECK(!toolgate::read_calls(TG_DIALECT_OPENAI_CHAT, "{\"choices\":[", err).has_value());
    CHECK_EQ(err.status(), TG_ERR_RESPONSE);
    CHECK_EQ(err.message(), std::string_view("openai-chat response: not valid JSON: malformed JSON at "
                                             "line 1 column 13: unexpected end of input"));
    bool thrown = false;
    try {
        (void)toolgate::read_calls(TG_DIALECT_GEMINI, R"({"parts":[{"functionCall":{"args":{}}}]})");
    } catch (const toolgate::Error& e) {
        thrown = e.status() == TG_ERR_RESPONSE;
    }
    CHECK(thrown);
    CHECK(toolgate::read_calls(TG_DIALECT_MCP, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})").empty());
}

TEST(refused_output_schema_loses_nothing) {
    toolgate::Registry reg = weather_registry();
    toolgate::ToolDef def{"get_weather"};
    def.output_schema = R"({"type":"integr"})";
    toolgate::Error err;
    CHECK(!reg.add_or_replace(def, [](std::string_view) { return "x"; }, err));
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
    CHECK_EQ(err.pointer(), std::string_view("/type"));
    CHECK_EQ(reg.describe("get_weather").output_schema.value_or(""), kOutputCompact);

    toolgate::Batch batch;
    toolgate::ToolDef good{"a"};
    good.output_schema = R"({"type":"string"})";
    batch.add(good, [](std::string_view) { return "\"x\""; });
    toolgate::ToolDef bad{"b"};
    bad.output_schema = "{";
    batch.add(bad, [](std::string_view) { return "x"; });
    CHECK(!reg.add_batch(std::move(batch), err));
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
    CHECK_EQ(reg.names().size(), std::size_t{2});

    toolgate::Batch again;
    again.add(good, [](std::string_view) { return "\"x\""; });
    reg.add_batch(std::move(again));
    CHECK_EQ(reg.describe("a").output_schema.value_or(""), std::string(R"({"type":"string"})"));
    CHECK(reg.call("c", "a", "{}").structured());
}

TEST(masked_values) {
    for (int where = 0; where < 3; ++where) {
        toolgate::RegistryOptions options;
        options.masked_values = where == 1;
        options.schema.masked_values = where == 2;
        toolgate::Registry reg(options);
        toolgate::ToolDef def{"level", "", R"({"type":"object","properties":{"unit":{"enum":["c","f"]}}})"};
        def.output_schema = R"({"enum":[1,2]})";
        reg.add(def, [](std::string_view) { return "\"secret-42\""; });
        const std::string arguments = reg.call("c", "level", R"({"unit":"secret-7"})").content();
        CHECK_EQ(arguments.find("secret-7") != std::string::npos, where == 0);
        CHECK(arguments.find("$.unit: ") != std::string::npos);
        const toolgate::Result answer = reg.call("c", "level", "{}");
        CHECK_EQ(answer.outcome(), TG_OUTCOME_INVALID_RESULT);
        CHECK_EQ(answer.content().find("secret-42") != std::string::npos, where == 0);
        CHECK(answer.content().find("[1,2]") != std::string::npos);
        CHECK_EQ(answer.invalid_result().value_or(""), std::string("\"secret-42\""));
    }
    toolgate::CompileOptions masked;
    masked.masked_values = true;
    const auto c = masked.c_options();
    CHECK_EQ(c.get()->masked_values, 1u);
}

TEST_MAIN("test_results")
