// Ownership of the RAII handles: move-only types, moved-from objects are empty and
// reusable, assignment frees what it replaces, results and lists outlive the registry
// and schema they came from, errors carry status, message and schema location.
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <string>
#include <type_traits>
#include <utility>

using toolgate::Error;
using toolgate::Registry;
using toolgate::Result;
using toolgate::Schema;

// Move-only, nothrow-movable, and not convertible from arbitrary things.
template <class T>
constexpr bool move_only_v = !std::is_copy_constructible_v<T> && !std::is_copy_assignable_v<T> &&
                             std::is_nothrow_move_constructible_v<T> &&
                             std::is_nothrow_move_assignable_v<T>;
static_assert(move_only_v<Schema>);
static_assert(move_only_v<Registry>);
static_assert(move_only_v<Result>);
static_assert(!std::is_convertible_v<tg_schema*, Schema>, "taking over a handle is explicit");
static_assert(!std::is_convertible_v<tg_registry*, Registry>, "taking over a handle is explicit");
static_assert(std::is_base_of_v<std::runtime_error, Error>);
static_assert(std::is_nothrow_copy_constructible_v<Error>, "exceptions copy without throwing");
static_assert(sizeof(Schema) == sizeof(void*) && sizeof(Registry) == sizeof(void*) &&
                  sizeof(Result) == sizeof(void*),
              "a handle is one pointer");

namespace {

using check::Probe;

Registry registry_with_probe(const char* name) {
    Registry reg;
    reg.add({name}, [p = Probe()](std::string_view) { return std::string("ok"); });
    return reg;
}

}  // namespace

TEST(schema_move_construct_and_assign) {
    Schema a = Schema::compile(R"({"type":"object","required":["x"]})");
    CHECK(static_cast<bool>(a));
    const tg_schema* raw = a.get();
    Schema b(std::move(a));
    CHECK(!a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(b.get() == raw);
    CHECK(!b.is_valid("{}"));
    CHECK(b.is_valid(R"({"x":1})"));

    Schema c = Schema::compile(R"({"type":"string"})");
    c = std::move(b);  // frees c's old schema (ASan would report a leak or double free)
    CHECK(c.get() == raw);
    CHECK(!b);
    c = std::move(c);  // self-move leaves it intact
    CHECK(c.get() == raw);
    b = Schema::compile(R"({"type":"integer"})");  // a moved-from object is reusable
    CHECK(b.is_valid("3"));
}

TEST(empty_documents_are_malformed_and_empty_arguments_are_an_object) {
    Schema s = Schema::compile(R"({"type":"object","required":["x"]})");
    CHECK(!s.is_valid(""));
    CHECK_EQ(s.validate(" ").at(0).keyword, std::string("json"));
    CHECK(!s.is_valid_arguments(""));
    CHECK_EQ(s.validate_arguments("").at(0).message,
             std::string("missing required property \"x\""));
    Schema open = Schema::compile(R"({"type":"object"})");
    CHECK(open.is_valid_arguments(" \n"));
    CHECK(open.validate_arguments("").empty());
}

TEST(validate_at_most_lists_the_first_violations_and_says_there_were_more) {
    Schema s = Schema::compile(R"({"type":"array","items":{"type":"string"}})");
    const toolgate::ValidationErrors two = s.validate_at_most("[1,2,3]", 2);
    CHECK_EQ(two.size(), std::size_t{3});
    CHECK_EQ(two.at(0).text(), std::string("$[0]: expected string, got integer"));
    CHECK_EQ(two.at(1).text(), std::string("$[1]: expected string, got integer"));
    CHECK_EQ(two.at(2).text(), std::string("$: more violations not listed (the first 2 are)"));
    CHECK_EQ(two.at(2).keyword, std::string("violations"));
    CHECK(s.validate_at_most("[1,2,3]", TG_LISTED_VIOLATIONS) == s.validate("[1,2,3]"));
    CHECK_EQ(s.validate_at_most("[1,2,3,", 1).at(0).keyword, std::string("json"));
    Schema required = Schema::compile(R"({"type":"object","required":["x"]})");
    CHECK_EQ(required.validate_arguments_at_most("", 1).at(0).message,
             std::string("missing required property \"x\""));
    Schema empty;
    Error err;
    CHECK(!empty.validate_at_most("{}", 1, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(!empty.validate_arguments_at_most("{}", 1, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
}

TEST(empty_schema_reports_null) {
    Schema empty;
    CHECK(!empty);
    CHECK_EQ(empty.json(), "");
    Error err;
    CHECK(!empty.is_valid("{}", err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(!empty.validate("{}", err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
    bool threw = false;
    try {
        (void)empty.validate("{}");
    } catch (const Error& e) {
        threw = e.status() == TG_ERR_NULL;
    }
    CHECK(threw);
}

TEST(release_and_adopt) {
    Schema a = Schema::compile(R"({"type":"object"})");
    tg_schema* raw = a.release();
    CHECK(!a);
    CHECK(raw != nullptr);
    Schema b(raw);  // takes it back; freed once, by b
    CHECK(b.get() == raw);

    Registry reg;
    tg_registry* r = reg.release();
    Registry again(r);
    CHECK(again.get() == r);
    CHECK(again.names().empty());
}

TEST(compile_error_carries_status_message_and_location) {
    bool threw = false;
    try {
        (void)Schema::compile(R"({"type":"object","properties":{"x":{"format":"email"}}})");
    } catch (const Error& e) {
        threw = true;
        CHECK_EQ(e.status(), TG_ERR_SCHEMA);
        CHECK_EQ(e.keyword(), "format");
        CHECK_EQ(e.pointer().substr(0, 13), "/properties/x");
        CHECK(e.message().find("format") != std::string_view::npos);
        CHECK_EQ(std::string_view(e.what()), e.message());
        const std::runtime_error& base = e;  // catchable as the standard type
        CHECK(std::string_view(base.what()).find("unsupported") != std::string_view::npos);
    }
    CHECK(threw);

    Error err;
    CHECK(!err);
    CHECK_EQ(err.status(), TG_OK);
    std::optional<Schema> s = Schema::compile("{not json", err);
    CHECK(!s.has_value());
    CHECK(static_cast<bool>(err));
    CHECK_EQ(err.status(), TG_ERR_SCHEMA);
    CHECK(!err.message().empty());
    // Success clears the error, as std::error_code overloads do.
    s = Schema::compile(R"({"type":"object"})", err);
    CHECK(s.has_value());
    CHECK(!err);
    CHECK(err.keyword().empty() && err.pointer().empty() && err.message().empty());
}

TEST(registry_errors_have_statuses) {
    Registry reg;
    auto ok = [](std::string_view) { return "ok"; };
    reg.add({"t"}, ok);
    struct Case {
        toolgate::ToolDef def;
        tg_status want;
    };
    const Case cases[] = {
        {{"t"}, TG_ERR_DUPLICATE},
        {{"a b"}, TG_ERR_NAME},
        {{"s", "", R"({"type":"string"})"}, TG_ERR_NOT_OBJECT},
        {{"f", "", R"({"type":"object","oneOf":[]})"}, TG_ERR_SCHEMA},
    };
    for (const Case& c : cases) {
        Error err;
        CHECK(!reg.add(c.def, ok, err));
        CHECK_EQ(err.status(), c.want);
        CHECK(!err.message().empty());
        bool threw = false;
        try {
            reg.add(c.def, ok);
        } catch (const Error& e) {
            threw = e.status() == c.want;
        }
        CHECK(threw);
    }
    Error err;
    CHECK(!reg.remove("missing", err));
    CHECK_EQ(err.status(), TG_ERR_NOT_FOUND);
    CHECK(!reg.describe("missing", err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NOT_FOUND);
    CHECK(!reg.validate("missing", "{}", err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NOT_FOUND);
    // Only the caller's own mistakes fail a call: a name that is not UTF-8.
    CHECK(!reg.call("id", std::string_view("\xff", 1), "{}", err).has_value());
    CHECK_EQ(err.status(), TG_ERR_UTF8);
    CHECK(reg.call("id", "t", "{}", err).has_value());
    CHECK(!err);
}

TEST(moved_from_registry_is_empty_and_reports_null) {
    Registry a;
    Registry b(std::move(a));
    CHECK(!a);
    CHECK(static_cast<bool>(b));
    Error err;
    CHECK(!a.call("id", "x", "{}", err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(!a.names(err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
    Probe::destroyed = 0;
    // Registering on an empty registry fails, and the callable is still destroyed once.
    CHECK(!a.add({"t"}, [p = Probe()](std::string_view) { return ""; }, err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK_EQ(Probe::destroyed.load(), 1);
}

TEST(registry_assignment_destroys_the_old_tools_once) {
    Probe::destroyed = 0;
    {
        Registry a = registry_with_probe("a");
        Registry b = registry_with_probe("b");
        CHECK_EQ(Probe::destroyed.load(), 0);
        a = std::move(b);  // a's old registry (tool "a") is freed here
        CHECK_EQ(Probe::destroyed.load(), 1);
        CHECK_EQ(a.names().size(), 1u);
        CHECK_EQ(a.names().at(0), "b");
        CHECK(!b);
    }  // tool "b" goes with a; b is empty and frees nothing
    CHECK_EQ(Probe::destroyed.load(), 2);
}

TEST(results_and_lists_outlive_their_sources) {
    Result r;
    toolgate::ValidationErrors errs;
    std::string_view content;
    {
        Registry reg;
        reg.add({"echo", "", R"({"type":"object","required":["q"]})"},
                [](std::string_view args) { return std::string(args); });
        r = reg.call("c1", "echo", R"({"q":"hi"})");
        content = r.content_view();
        errs = reg.validate("echo", "{}");
    }  // the registry is gone: the result stays valid (ASan checks the read)
    CHECK_EQ(content, R"({"q":"hi"})");
    CHECK_EQ(r.content(), R"({"q":"hi"})");
    CHECK_EQ(r.call_id_view(), "c1");
    CHECK_EQ(errs.size(), 1u);
    Result moved = std::move(r);
    CHECK(!r);
    CHECK_EQ(r.content(), "");
    CHECK(!r.is_error());
    CHECK_EQ(moved.content_view(), R"({"q":"hi"})");
}

TEST(destruction_order_of_locals) {
    // Objects declared later are destroyed first: a Result declared before its registry
    // outlives it, one declared after dies first. Both orders are fine.
    Probe::destroyed = 0;
    Result early;
    {
        Registry reg = registry_with_probe("p");
        early = reg.call("1", "p", "{}");
        Result late = reg.call("2", "p", "{}");
        CHECK_EQ(late.content(), "ok");
    }
    CHECK_EQ(Probe::destroyed.load(), 1);
    CHECK_EQ(early.content(), "ok");
}

TEST_MAIN("test_raii")
