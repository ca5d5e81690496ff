// toolgate::RegistryOptions: the argument size limit, the nesting limit and the name
// policy of a registry, through the throwing constructor and the noexcept create().
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <string>

using toolgate::Error;
using toolgate::Registry;
using toolgate::RegistryOptions;

namespace {

std::atomic<int> runs{0};

std::string echo(std::string_view args) {
    ++runs;
    return std::string(args);
}

// {"text":"xxx..."} of exactly `len` bytes.
std::string text_arguments(std::size_t len) {
    return "{\"text\":\"" + std::string(len - 11, 'x') + "\"}";
}

}  // namespace

TEST(default_options_are_the_defaults) {
    Registry reg{RegistryOptions{}};
    reg.add({"echo"}, echo);
    const std::string at_limit = text_arguments(TG_DEFAULT_MAX_ARGUMENT_BYTES);
    CHECK_EQ(reg.call("c", "echo", at_limit).content().size(), at_limit.size());
    const std::string over = text_arguments(TG_DEFAULT_MAX_ARGUMENT_BYTES + 1);
    toolgate::Result r = reg.call("c", "echo", over);
    CHECK(r.is_error());
    CHECK_EQ(r.content(), "error: invalid arguments for echo: 4194305 bytes is more than the "
                          "limit of 4194304");
    // The default name policy.
    try {
        reg.add({"db.get_user"}, echo);
        CHECK(false);
    } catch (const Error& e) {
        CHECK_EQ(e.status(), TG_ERR_NAME);
        CHECK_EQ(e.message(),
                 "invalid tool name \"db.get_user\": must match ^[A-Za-z0-9_-]{1,64}$");
    }
}

TEST(argument_limit_refuses_unread) {
    RegistryOptions options;
    options.max_argument_bytes = 10;
    Registry reg(options);
    reg.add({"echo"}, echo);
    const int before = runs.load();
    CHECK_EQ(reg.call("c", "echo", R"({"a":"12"})").content(), R"({"a":"12"})");
    toolgate::Result r = reg.call("c", "echo", R"({"a":"123"})");
    CHECK(r.is_error());
    CHECK_EQ(r.content(), "error: invalid arguments for echo: 11 bytes is more than the limit of 10");
    CHECK_EQ(runs.load(), before + 1);
    toolgate::ValidationErrors errors = reg.validate("echo", R"({"a":"123"})");
    CHECK_EQ(errors.size(), std::size_t{1});
    if (errors.size() == 1) {
        CHECK_EQ(errors[0].keyword, "size");
        CHECK_EQ(errors[0].message, "11 bytes is more than the limit of 10");
    }
}

TEST(no_limit_reads_any_size) {
    RegistryOptions options;
    options.max_argument_bytes = RegistryOptions::no_limit;
    Registry reg(options);
    reg.add({"echo"}, echo);
    const std::string big = text_arguments(TG_DEFAULT_MAX_ARGUMENT_BYTES + 4096);
    toolgate::Result r = reg.call("c", "echo", big);
    CHECK(!r.is_error());
    CHECK_EQ(r.content().size(), big.size());
}

TEST(nesting_limit_applies_to_arguments_and_schemas) {
    RegistryOptions options;
    options.max_depth = 3;
    Registry reg(options);
    reg.add({"echo"}, echo);
    CHECK_EQ(reg.call("c", "echo", R"({"a":{"b":[]}})").content(), R"({"a":{"b":[]}})");
    CHECK_EQ(reg.call("c", "echo", R"({"a":{"b":[[]]}})").content(),
             "error: invalid arguments for echo: malformed JSON at line 1 column 12: nesting "
             "deeper than 3 levels");
    Error err;
    const bool added = reg.add(
        {"deep", "", R"({"type":"object","properties":{"a":{"properties":{"b":{"items":{}}}}}})"},
        echo, err);
    CHECK(!added);
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
}

TEST(name_policy_and_create) {
    RegistryOptions options;
    options.names = TG_NAMES_DOTTED;
    Error err;
    std::optional<Registry> reg = Registry::create(options, err);
    CHECK(reg.has_value());
    if (reg) {
        CHECK(reg->add({"db.get_user"}, echo, err));
        CHECK(!reg->add({"get-weather"}, echo, err));
        CHECK_EQ(err.status(), TG_ERR_NAME);
    }
    options.names = static_cast<tg_name_policy>(7);
    CHECK(!Registry::create(options, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
    CHECK_EQ(err.message(), "tg_registry_new_with: argument `options->name_policy` is 7, not a "
                            "tg_name_policy value");
}

TEST(c_options_fill_the_c_struct) {
    RegistryOptions options;
    options.names = TG_NAMES_MCP;
    options.max_argument_bytes = 123;
    options.max_depth = 9;
    const auto c = options.c_options();
    const tg_registry_options& o = *c.get();
    CHECK_EQ(o.size, sizeof(tg_registry_options));
    CHECK_EQ(o.name_policy, TG_NAMES_MCP);
    CHECK_EQ(o.max_argument_bytes, std::size_t{123});
    CHECK_EQ(o.max_depth, std::size_t{9});
    CHECK(o.schema != nullptr);
}

TEST_MAIN("test_options")
