// toolgate::CompileOptions for Schema::compile(json, options) and RegistryOptions::schema:
// each field's default, the C structs they become, the nesting limit, and bad options
// refused with the library's status and text. What needs the full profile's keywords is
// in test_full_profile.cpp.
#include "check.hpp"

#include <toolgate.hpp>

#include <string>

using toolgate::CompileOptions;
using toolgate::Error;
using toolgate::Registry;
using toolgate::RegistryOptions;
using toolgate::Schema;

namespace {

const std::string core_schema =
    R"({"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"]})";
const std::string refused =
    R"({"type":"object","properties":{"e":{"format":"email"}}})";

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string echo(std::string_view args) { return std::string(args); }

}  // namespace

TEST(default_options_are_the_core_profile) {
    const Schema schema = Schema::compile(core_schema, CompileOptions{});
    CHECK(schema.is_valid(R"({"city":"Paris"})"));
    CHECK_EQ(toolgate::to_text(schema.validate(R"({"city":""})")),
             "$.city: expected at least 1 character, got 0");
    CHECK_EQ(schema.json(), core_schema);

    const Schema any = Schema::compile("{}", CompileOptions{});
    CHECK(any.is_valid(nested(TG_DEFAULT_MAX_DEPTH)));
    CHECK(!any.is_valid(nested(TG_DEFAULT_MAX_DEPTH + 1)));

    Error with_options, plain;
    CHECK(!Schema::compile(refused, CompileOptions{}, with_options).has_value());
    CHECK(!Schema::compile(refused, plain).has_value());
    CHECK_EQ(with_options.status(), TG_ERR_SCHEMA);
    CHECK_EQ(with_options.message(), plain.message());
    CHECK_EQ(with_options.message(), "#/properties/e/format: unsupported keyword \"format\"");
    CHECK_EQ(with_options.pointer(), "/properties/e/format");
    CHECK_EQ(with_options.keyword(), "format");
}

TEST(every_profile_and_draft_value_is_accepted) {
    for (tg_profile profile : {TG_PROFILE_CORE, TG_PROFILE_FULL}) {
        for (tg_draft draft : {TG_DRAFT_DEFAULT, TG_DRAFT_7, TG_DRAFT_2020_12}) {
            CompileOptions options;
            options.profile = profile;
            options.default_draft = draft;
            Error err;
            const std::optional<Schema> schema = Schema::compile(core_schema, options, err);
            CHECK(schema.has_value());
            CHECK_EQ(err.status(), TG_OK);
            if (schema) {
                CHECK(schema->is_valid(R"({"city":"Paris"})"));
                CHECK(!schema->is_valid(R"({"city":3})"));
            }
        }
    }
}

TEST(max_depth_bounds_schema_and_instances) {
    CompileOptions options;
    options.max_depth = 3;
    const Schema schema = Schema::compile(R"({"items":{"items":{}}})", options);
    CHECK(schema.is_valid("[[[]]]"));
    CHECK_EQ(toolgate::to_text(schema.validate("[[[[]]]]")),
             "$: malformed JSON at line 1 column 4: nesting deeper than 3 levels");
    try {
        (void)Schema::compile(R"({"items":{"items":{"items":{}}}})", options);
        CHECK(false);
    } catch (const Error& e) {
        CHECK_EQ(e.status(), TG_ERR_SCHEMA);
        CHECK(e.message().find("nesting deeper than 3 levels") != std::string_view::npos);
    }
}

TEST(c_options_point_into_the_options) {
    CompileOptions options;
    options.profile = TG_PROFILE_FULL;
    options.default_draft = TG_DRAFT_7;
    options.max_depth = 9;
    options.resources.push_back({"https://example.com/a.json", R"({"type":"string"})"});
    options.annotation_formats = {"password", "binary"};
    const auto c = options.c_options();
    const tg_compile_options* o = c.get();
    CHECK_EQ(o->size, sizeof(tg_compile_options));
    CHECK_EQ(o->profile, TG_PROFILE_FULL);
    CHECK_EQ(o->default_draft, TG_DRAFT_7);
    CHECK_EQ(o->max_depth, std::size_t{9});
    CHECK_EQ(o->resource_count, std::size_t{1});
    CHECK(o->resources[0].uri == options.resources[0].uri.data());
    CHECK_EQ(o->resources[0].uri_len, options.resources[0].uri.size());
    CHECK(o->resources[0].json == options.resources[0].json.data());
    CHECK_EQ(o->resources[0].json_len, options.resources[0].json.size());
    CHECK_EQ(o->annotation_format_count, std::size_t{2});
    CHECK_EQ(std::string_view(o->annotation_formats[1].ptr, o->annotation_formats[1].len),
             "binary");

    const auto empty = CompileOptions{}.c_options();
    CHECK(empty.get()->resources == nullptr && empty.get()->resource_count == 0);
    CHECK(empty.get()->annotation_formats == nullptr);
    CHECK_EQ(empty.get()->profile, TG_PROFILE_CORE);
}

TEST(bad_options_are_refused) {
    CompileOptions options;
    options.profile = static_cast<tg_profile>(7);
    Error err;
    CHECK(!Schema::compile(core_schema, options, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
    CHECK_EQ(err.message(),
             "tg_schema_compile_with: argument `options->profile` is 7, not a tg_profile value");

    options = CompileOptions{};
    options.default_draft = static_cast<tg_draft>(3);
    CHECK(!Schema::compile(core_schema, options, err).has_value());
    CHECK_EQ(err.message(),
             "tg_schema_compile_with: argument `options->default_draft` is 3, not a tg_draft "
             "value");

    options = CompileOptions{};
    options.resources.push_back({"https://example.com/a.json", "[1,"});
    try {
        (void)Schema::compile(core_schema, options);
        CHECK(false);
    } catch (const Error& e) {
        CHECK_EQ(e.status(), TG_ERR_SCHEMA);
        CHECK_EQ(e.message(),
                 "#: resource \"https://example.com/a.json\" is not valid JSON: malformed JSON "
                 "at line 1 column 4: unexpected end of input");
    }

    options = CompileOptions{};
    options.annotation_formats = {std::string("pass\xffword")};
    CHECK(!Schema::compile(core_schema, options, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_UTF8);
    CHECK_EQ(err.message(),
             "tg_schema_compile_with: argument `options->annotation_formats[0]` is not valid "
             "UTF-8");

    // A success clears err.
    CHECK(Schema::compile(core_schema, CompileOptions{}, err).has_value());
    CHECK_EQ(err.status(), TG_OK);
}

TEST(registry_schema_defaults_to_the_core_profile) {
    RegistryOptions options;
    const auto c = options.c_options();
    CHECK_EQ(c.get()->size, sizeof(tg_registry_options));
    CHECK(c.get()->schema != nullptr);
    CHECK_EQ(c.get()->schema->size, sizeof(tg_compile_options));
    CHECK_EQ(c.get()->schema->profile, TG_PROFILE_CORE);

    Registry reg(options);
    reg.add({"get_weather", "", core_schema}, echo);
    Error err;
    CHECK(!reg.add({"mail", "", refused}, echo, err));
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
    CHECK_EQ(err.message(), "invalid parameters for \"mail\": #/properties/e/format: "
                            "unsupported keyword \"format\"");
}

TEST(registry_nesting_limit_from_either_field) {
    for (int which = 0; which < 3; ++which) {
        RegistryOptions options;
        if (which != 1) options.max_depth = 3;
        if (which != 0) options.schema.max_depth = 3;
        Registry reg(options);
        reg.add({"echo"}, echo);
        CHECK_EQ(reg.call("c", "echo", R"({"a":[]})").content(), R"({"a":[]})");
        CHECK_EQ(reg.call("c", "echo", R"({"a":[[[]]]})").content(),
                 "error: invalid arguments for echo: malformed JSON at line 1 column 8: nesting "
                 "deeper than 3 levels");
    }
    RegistryOptions both;
    both.max_depth = 32;
    both.schema.max_depth = 16;
    Error err;
    CHECK(!Registry::create(both, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
    CHECK_EQ(err.message(), "tg_registry_new_with: argument `options->max_depth` is 32 and "
                            "`options->schema->max_depth` is 16: set one of them");
}

TEST(registry_bad_schema_options_are_refused) {
    RegistryOptions options;
    options.schema.profile = static_cast<tg_profile>(9);
    try {
        Registry reg(options);
        CHECK(false);
    } catch (const Error& e) {
        CHECK_EQ(e.status(), TG_ERR_ARGUMENT);
        CHECK_EQ(e.message(), "tg_registry_new_with: argument `options->schema->profile` is 9, "
                              "not a tg_profile value");
    }
    options.schema.profile = TG_PROFILE_FULL;
    options.schema.resources.push_back({"https://example.com/\xff", "{}"});
    Error err;
    CHECK(!Registry::create(options, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_UTF8);
    CHECK_EQ(err.message(), "tg_registry_new_with: argument `options->schema->resources[0].uri` "
                            "is not valid UTF-8");
}

TEST_MAIN("test_compile_options")
