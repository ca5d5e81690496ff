// TG_PROFILE_FULL through the C++ API: Schema::compile(json, options) and a Registry
// whose RegistryOptions::schema chooses it. The core profile refuses what the full
// profile accepts ($defs/$ref, oneOf, format, exclusiveMinimum); the default draft
// decides a schema without $schema; resources reach $ref; a declared annotation format
// is accepted.
//
// Every check here needs the core's full profile. A schema it must accept and refuses
// fails with "waits for the core's full profile" and the core's refusal, so a missing
// keyword reads as such and not as a bug of the wrapper.
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <optional>
#include <string>

using toolgate::CompileOptions;
using toolgate::Error;
using toolgate::Registry;
using toolgate::RegistryOptions;
using toolgate::Schema;

namespace {

CompileOptions full() {
    CompileOptions options;
    options.profile = TG_PROFILE_FULL;
    return options;
}

std::optional<Schema> must_compile(const std::string& json, const CompileOptions& options,
                                   int line) {
    Error err;
    std::optional<Schema> schema = Schema::compile(json, options, err);
    check::record(schema.has_value(), __FILE__, line, "waits for the core's full profile",
                  schema ? std::string()
                         : "it refuses a schema it must accept\n    schema:  " + json +
                               "\n    refused: " + std::string(err.message()));
    return schema;
}
#define MUST_COMPILE(json, options) must_compile((json), (options), __LINE__)

void must_refuse(const std::string& json, const CompileOptions& options,
                 std::string_view want, int line) {
    Error err;
    const bool refused = !Schema::compile(json, options, err).has_value() &&
                         err.status() == TG_ERR_SCHEMA &&
                         err.message().find(want) != std::string_view::npos;
    const bool waits = options.profile == TG_PROFILE_FULL &&
                       err.message().find("unsupported keyword") != std::string_view::npos;
    check::record(refused, __FILE__, line,
                  waits ? "waits for the core's full profile: refused as unsupported"
                        : "refused with the expected message",
                  refused ? std::string()
                          : "schema:  " + json + "\n    got:     " + std::string(err.message()) +
                                "\n    want:    " + std::string(want));
}
#define MUST_REFUSE(json, options, want) must_refuse((json), (options), (want), __LINE__)

// Both validation paths agree; when invalid, the single violation has `keyword`.
void verdict(const std::optional<Schema>& schema, const std::string& instance, bool want_valid,
             std::string_view keyword, int line) {
    if (!schema) return;  // must_compile said why
    const bool valid = schema->is_valid(instance);
    const toolgate::ValidationErrors errors = schema->validate(instance);
    const bool ok = valid == want_valid && errors.empty() == want_valid &&
                    (want_valid || (errors.size() == 1 && errors[0].keyword == keyword));
    check::record(ok, __FILE__, line, want_valid ? "valid" : "invalid",
                  ok ? std::string()
                     : instance + ": is_valid " + (valid ? "true" : "false") + ", errors:\n    " +
                           toolgate::to_text(errors) + "\n    want keyword: " +
                           std::string(keyword));
}
#define VALID(schema, instance) verdict((schema), (instance), true, "", __LINE__)
#define INVALID(schema, instance, keyword) verdict((schema), (instance), false, (keyword), __LINE__)

const std::string ref_schema =
    R"({"type":"object","$defs":{"City":{"type":"string","minLength":1}},)"
    R"("properties":{"city":{"$ref":"#/$defs/City"}},"required":["city"]})";

std::atomic<int> runs{0};
std::string echo(std::string_view args) {
    ++runs;
    return std::string(args);
}

}  // namespace

TEST(the_profile_decides_what_compiles) {
    const CompileOptions core;
    MUST_REFUSE(ref_schema, core, "unsupported keyword \"$defs\"");
    std::optional<Schema> s = MUST_COMPILE(ref_schema, full());
    VALID(s, R"({"city":"Paris"})");
    INVALID(s, R"({"city":""})", "minLength");
    if (s) CHECK_EQ(toolgate::to_text(s->validate(R"({"city":3})")), "$.city: expected string, got integer");

    const std::string one_of =
        R"({"type":"object","properties":{"n":{"oneOf":[{"type":"integer"},{"minimum":0}]}}})";
    MUST_REFUSE(one_of, core, "unsupported keyword \"oneOf\"");
    s = MUST_COMPILE(one_of, full());
    VALID(s, R"({"n":-1})");
    VALID(s, R"({"n":0.5})");
    INVALID(s, R"({"n":5})", "oneOf");

    const std::string exclusive = R"({"type":"object","properties":{"n":{"exclusiveMinimum":0}}})";
    MUST_REFUSE(exclusive, core, "unsupported keyword \"exclusiveMinimum\"");
    s = MUST_COMPILE(exclusive, full());
    VALID(s, R"({"n":0.5})");
    INVALID(s, R"({"n":0})", "exclusiveMinimum");

    const std::string email =
        R"({"type":"object","properties":{"e":{"type":"string","format":"email"}}})";
    MUST_REFUSE(email, core, "unsupported keyword \"format\"");
    s = MUST_COMPILE(email, full());
    VALID(s, R"({"e":"ada@example.com"})");
    INVALID(s, R"({"e":"not an email"})", "format");

    MUST_REFUSE(R"({"type":"object","typo":1})", full(), "\"typo\"");
}

TEST(default_draft_decides_a_schema_without_dollar_schema) {
    // In draft-07 a $ref's siblings are ignored; in draft 2020-12 they apply too.
    const std::string siblings =
        R"({"type":"object","definitions":{"s":{"type":"string"}},)"
        R"("properties":{"a":{"$ref":"#/definitions/s","maxLength":1}}})";
    const std::string siblings_07 =
        R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",)"
        R"("definitions":{"s":{"type":"string"}},)"
        R"("properties":{"a":{"$ref":"#/definitions/s","maxLength":1}}})";
    CompileOptions options = full();
    for (tg_draft draft : {TG_DRAFT_DEFAULT, TG_DRAFT_2020_12}) {
        options.default_draft = draft;
        std::optional<Schema> s = MUST_COMPILE(siblings, options);
        VALID(s, R"({"a":"x"})");
        INVALID(s, R"({"a":"xyz"})", "maxLength");
        s = MUST_COMPILE(siblings_07, options);
        VALID(s, R"({"a":"xyz"})");
    }
    options.default_draft = TG_DRAFT_7;
    std::optional<Schema> s = MUST_COMPILE(siblings, options);
    VALID(s, R"({"a":"xyz"})");
    INVALID(s, R"({"a":1})", "type");
}

TEST(resources_reach_ref) {
    const std::string uri = "https://example.com/schemas/city.json";
    const std::string uses =
        R"({"type":"object","properties":{"city":{"$ref":")" + uri + R"("},)" +
        R"("name":{"$ref":")" + uri + R"(#/$defs/name"}}})";
    CompileOptions options = full();
    MUST_REFUSE(uses, options, uri);
    std::optional<Schema> s;
    {
        // The options (and their strings) go away; the schema keeps its own copy.
        CompileOptions scoped = full();
        scoped.resources.push_back(
            {uri, R"({"$defs":{"name":{"type":"string","minLength":1}},"type":"object",)"
                  R"("properties":{"name":{"$ref":"#/$defs/name"}},"required":["name"]})"});
        s = MUST_COMPILE(uses, scoped);
    }
    VALID(s, R"({"city":{"name":"Paris"},"name":"Ada"})");
    INVALID(s, R"({"city":{}})", "required");
    INVALID(s, R"({"name":""})", "minLength");
}

TEST(annotation_formats_are_accepted_unchecked) {
    const std::string schema =
        R"({"type":"object","properties":{"pw":{"type":"string","format":"password"},)"
        R"("e":{"type":"string","format":"email"}}})";
    CompileOptions options = full();
    MUST_REFUSE(schema, options, "\"password\"");
    options.annotation_formats = {"binary", "password"};
    std::optional<Schema> s = MUST_COMPILE(schema, options);
    VALID(s, R"({"pw":"hunter2"})");
    INVALID(s, R"({"pw":7})", "type");
    INVALID(s, R"({"e":"not an email"})", "format");
}

TEST(registry_compiles_tools_with_its_schema_options) {
    Registry core;
    Error err;
    CHECK(!core.add({"weather", "", ref_schema}, echo, err));
    CHECK_EQ(err.message(),
             "invalid parameters for \"weather\": #/$defs: unsupported keyword \"$defs\"\n"
             "#/properties/city/$ref: unsupported keyword \"$ref\"");

    RegistryOptions options;
    options.schema.profile = TG_PROFILE_FULL;
    Registry reg(options);
    const bool added = reg.add({"weather", "", ref_schema}, echo, err);
    check::record(added, __FILE__, __LINE__, "waits for the core's full profile",
                  added ? std::string() : "registering: " + std::string(err.message()));
    if (added) {
        CHECK_EQ(reg.call("c1", "weather", R"({"city":3})").content(),
                 "error: invalid arguments for weather:\n$.city: expected string, got integer");
        const int before = runs.load();
        CHECK_EQ(reg.call("c2", "weather", R"({"city":"Paris"})").content(), R"({"city":"Paris"})");
        CHECK_EQ(runs.load(), before + 1);
    }
}

TEST_MAIN("test_full_profile")
