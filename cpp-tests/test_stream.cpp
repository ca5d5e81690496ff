// Streamed arguments through the C++ wrapper: Schema::stream() fed byte by byte or in
// chunks finishes with what Schema::validate gives for the whole bytes; a string where
// an integer goes is refused at its opening quote, and the refusal is final; a
// CallStream runs its tool once, in finish(), with the bytes fed unchanged and the
// Result call() gives; a stream destroyed unfinished (or refused) runs nothing; an
// unknown tool is refused at once; the size limit refuses the feed past it; empty and
// spent streams fail with the library's errors.
#include <toolgate.hpp>

#include "check.hpp"

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

static_assert(!std::is_copy_constructible_v<toolgate::SchemaStream>);
static_assert(!std::is_copy_assignable_v<toolgate::SchemaStream>);
static_assert(std::is_nothrow_move_constructible_v<toolgate::SchemaStream>);
static_assert(std::is_nothrow_move_assignable_v<toolgate::SchemaStream>);
static_assert(!std::is_copy_constructible_v<toolgate::CallStream>);
static_assert(!std::is_copy_assignable_v<toolgate::CallStream>);
static_assert(std::is_nothrow_move_constructible_v<toolgate::CallStream>);
static_assert(std::is_nothrow_move_assignable_v<toolgate::CallStream>);

constexpr std::string_view kSchema =
    R"({"type":"object","properties":{"n":{"type":"integer","minimum":0},)"
    R"("tags":{"type":"array","items":{"type":"string"},"maxItems":3},)"
    R"("unit":{"enum":["c","f"]}},"required":["n"],"additionalProperties":false})";

// Feeds `text` one byte at a time; returns how many bytes had been fed when the stream
// first said refused (0: never). Feeds every byte either way.
template <class Stream>
std::size_t feed_bytes(Stream& stream, std::string_view text) {
    std::size_t refused_at = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (stream.feed(text.substr(i, 1)) && refused_at == 0) refused_at = i + 1;
    }
    return refused_at;
}

// Whether `all` holds an error at the place and rule of `e`: path, pointer, keyword and
// schema location. (A rule decided on a value still open, maxItems or an enum of
// strings, says what had been read when it was decided: its message may differ.)
bool has_place_of(const toolgate::ValidationErrors& all, const toolgate::ValidationError& e) {
    for (const toolgate::ValidationError& x : all) {
        if (x.path == e.path && x.pointer == e.pointer && x.keyword == e.keyword &&
            x.schema_location == e.schema_location) {
            return true;
        }
    }
    return false;
}

// The tool the call streams reach: records each call's arguments and context.
struct Seen {
    std::mutex mu;
    std::vector<std::string> args;
    std::vector<void*> contexts;
    std::size_t count() {
        std::lock_guard<std::mutex> lock(mu);
        return args.size();
    }
};

toolgate::Registry registry_with(Seen& seen,
                                 const toolgate::RegistryOptions& options = {}) {
    toolgate::Registry reg(options);
    reg.add({"add", "Adds", kSchema}, [&seen](std::string_view args, void* ctx) {
        std::lock_guard<std::mutex> lock(seen.mu);
        seen.args.emplace_back(args);
        seen.contexts.push_back(ctx);
        return std::string(R"({"ok":true})");
    });
    return reg;
}

}  // namespace

TEST(schema_stream_byte_by_byte_finishes_as_validate) {
    const toolgate::Schema schema = toolgate::Schema::compile(kSchema);
    const std::vector<std::string_view> instances = {
        R"({ "n" : 3 })",
        R"({"n": 3, "tags": ["a", "b"], "unit": "f"})",
        R"({"n": 3)",                // truncated: decided at finish
        "",                          // empty: malformed, as validate says
        "  ",                        // whitespace only
        R"({"n": -1})",              // minimum, when the number closes
        R"({"n": 2, "tags": ["a", "b", "c", "d", "e"]})",  // maxItems
        R"({"n": 2, "unit": "kelvin"})",                   // enum of strings
        R"({"n": 2, "extra": 1})",                         // additionalProperties
        R"({"tags": []})",                                 // required, when it closes
        R"({"n": 1,})",                                    // trailing comma
        R"({"n": 1} x)",                                   // data after the value
    };
    for (std::string_view instance : instances) {
        toolgate::SchemaStream stream = schema.stream();
        const std::size_t refused_at = feed_bytes(stream, instance);
        CHECK_EQ(stream.refused(), refused_at != 0);
        CHECK_EQ(stream.bytes_read(), instance.size());
        const toolgate::ValidationErrors streamed = stream.finish();
        const toolgate::ValidationErrors whole = schema.validate(instance);
        if (refused_at == 0) {
            // Never refused: exactly validate's list, texts, pointers and locations.
            CHECK_EQ(toolgate::to_text(streamed), toolgate::to_text(whole));
            CHECK(streamed == whole);
        } else {
            // Refused: the refusal's errors are validate's for the whole bytes, at the
            // same places and rules.
            CHECK(!streamed.empty());
            for (const toolgate::ValidationError& e : streamed) {
                CHECK(has_place_of(whole, e));
            }
        }
    }
}

TEST(schema_stream_refusals_say_what_was_read) {
    const toolgate::Schema schema = toolgate::Schema::compile(kSchema);
    // maxItems counts the elements read when the one past the bound starts.
    toolgate::SchemaStream items = schema.stream();
    const std::string_view five = R"({"n": 2, "tags": ["a", "b", "c", "d", "e"]})";
    CHECK_EQ(feed_bytes(items, five), five.find("\"d\"") + 1);
    const toolgate::ValidationErrors refusal = items.finish();
    CHECK_EQ(toolgate::to_text(refusal), "$.tags: expected at most 3 items, got 4");
    CHECK_EQ(toolgate::to_text(schema.validate(five)), "$.tags: expected at most 3 items, got 5");
    // A string no listed string continues with: refused at its first such character.
    toolgate::SchemaStream unit = schema.stream();
    const std::string_view kelvin = R"({"n": 2, "unit": "kelvin"})";
    CHECK_EQ(feed_bytes(unit, kelvin), kelvin.find('k') + 1);
    CHECK_EQ(unit.finish().size(), std::size_t{1});
}

TEST(schema_stream_chunks_finish_as_validate) {
    const toolgate::Schema schema = toolgate::Schema::compile(kSchema);
    const std::string_view instance = R"({"n": 7, "tags": ["x", "y"], "unit": "c"})";
    for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{5}, instance.size()}) {
        toolgate::SchemaStream stream = schema.stream();
        for (std::size_t i = 0; i < instance.size(); i += chunk) {
            CHECK(!stream.feed(instance.substr(i, chunk)));
        }
        CHECK(!stream.refused());
        CHECK_EQ(stream.bytes_read(), instance.size());
        CHECK(stream.finish().empty());
    }
    // A truncated instance is never refused early; finish is validate's verdict.
    toolgate::SchemaStream stream = schema.stream();
    CHECK(!stream.feed(R"({"n": 7, "ta)"));
    CHECK(stream.finish() == schema.validate(R"({"n": 7, "ta)"));
}

TEST(schema_stream_at_most_lists_the_first_violations) {
    const toolgate::Schema schema =
        toolgate::Schema::compile(R"({"type":"object","required":["a","b","c"]})");
    // required is decided when the object closes, with every missing name.
    toolgate::SchemaStream stream = schema.stream_at_most(2);
    CHECK_EQ(feed_bytes(stream, "{}"), std::size_t{2});
    CHECK_EQ(toolgate::to_text(stream.finish()),
             "$: missing required property \"a\"\n$: missing required property \"b\"\n"
             "$: more violations not listed (the first 2 are)");
    // Unrefused: finish is validate_at_most's verdict.
    toolgate::SchemaStream truncated = schema.stream_at_most(1);
    CHECK(!truncated.feed(R"({"a":1)"));
    CHECK(truncated.finish() == schema.validate_at_most(R"({"a":1)", 1));
    toolgate::Schema empty;
    toolgate::Error err;
    CHECK(!empty.stream_at_most(1, err).has_value());
    CHECK_EQ(err.status(), TG_ERR_NULL);
}

TEST(schema_stream_refused_at_the_quote) {
    const toolgate::Schema schema = toolgate::Schema::compile(kSchema);
    toolgate::SchemaStream stream = schema.stream();
    const std::string_view instance = R"({"n": "five"})";
    // The opening quote of "five" is the 7th byte.
    CHECK_EQ(feed_bytes(stream, instance.substr(0, 6)), std::size_t{0});
    CHECK(!stream.refused());
    CHECK(stream.feed("\""));
    CHECK(stream.refused());
    CHECK_EQ(stream.bytes_read(), std::size_t{7});
    // A refusal is final: later feeds say refused again.
    CHECK(stream.feed("five\"}"));
    CHECK_EQ(stream.bytes_read(), instance.size());
    const toolgate::ValidationErrors errors = stream.finish();
    CHECK_EQ(errors.size(), std::size_t{1});
    if (errors.size() == 1) {
        CHECK_EQ(errors[0].text(), "$.n: expected integer, got string");
        CHECK_EQ(errors[0].pointer, "/n");
        CHECK_EQ(errors[0].keyword, "type");
        CHECK_EQ(errors[0].schema_location, "#/properties/n/type");
    }
    CHECK(errors == schema.validate(instance));

    // Spent: a later feed or finish fails with the library's TG_ERR_ARGUMENT.
    try {
        (void)stream.feed("x");
        CHECK(false);
    } catch (const toolgate::Error& e) {
        CHECK_EQ(e.status(), TG_ERR_ARGUMENT);
        CHECK(!e.message().empty());
    }
    toolgate::Error err;
    CHECK(!stream.finish(err));
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
}

TEST(call_stream_runs_the_tool_once_in_finish) {
    Seen seen;
    const toolgate::Registry reg = registry_with(seen);
    const std::string_view args = " {\"n\" : 3,\n \"tags\": [\"a\"] } ";
    int context = 0;
    toolgate::CallStream stream = reg.stream_call("call_1", "add");
    CHECK(stream);
    CHECK(!stream.refused());
    CHECK_EQ(feed_bytes(stream, args), std::size_t{0});
    CHECK_EQ(stream.bytes_read(), args.size());
    CHECK_EQ(seen.count(), std::size_t{0});  // nothing runs before finish
    const toolgate::Result r = stream.finish(&context);
    CHECK_EQ(seen.count(), std::size_t{1});
    if (seen.count() == 1) {
        CHECK_EQ(seen.args[0], args);  // the bytes fed, unchanged
        CHECK(seen.contexts[0] == &context);
    }
    CHECK(!r.is_error());
    CHECK_EQ(r.outcome(), TG_OUTCOME_ANSWERED);

    // The Result call() gives for the same bytes.
    const toolgate::Result direct = reg.call("call_1", "add", args, &context);
    CHECK_EQ(r.content(), direct.content());
    CHECK_EQ(r.tool_message(), direct.tool_message());
    CHECK_EQ(r.call_id(), "call_1");
    CHECK_EQ(r.name(), "add");

    // Spent: finishing again fails and runs nothing.
    toolgate::Error err;
    CHECK(!stream.finish(err));
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
    CHECK_EQ(seen.count(), std::size_t{2});  // the tool ran for call() only
}

TEST(call_stream_with_no_bytes_runs_with_empty_arguments) {
    Seen seen;
    toolgate::Registry reg(TG_NAMES_DEFAULT);
    reg.add({"ping", "", ""}, [&seen](std::string_view args) {
        std::lock_guard<std::mutex> lock(seen.mu);
        seen.args.emplace_back(args);
        return std::string("pong");
    });
    toolgate::CallStream stream = reg.stream_call("p1", "ping");
    const toolgate::Result r = stream.finish();
    const toolgate::Result direct = reg.call("p1", "ping", "");
    CHECK_EQ(r.content(), "pong");
    CHECK_EQ(r.tool_message(), direct.tool_message());
    CHECK_EQ(seen.count(), std::size_t{2});
}

TEST(call_stream_refused_early_runs_nothing) {
    Seen seen;
    const toolgate::Registry reg = registry_with(seen);
    const std::string_view args = R"({"n": "five"})";
    toolgate::CallStream stream = reg.stream_call("call_2", "add");
    CHECK_EQ(feed_bytes(stream, args), std::size_t{7});
    CHECK(stream.refused());
    const toolgate::Result r = stream.finish();
    CHECK_EQ(seen.count(), std::size_t{0});
    CHECK(r.is_error());
    CHECK_EQ(r.outcome(), TG_OUTCOME_INVALID_ARGUMENTS);
    CHECK_EQ(r.content(), "error: invalid arguments for add:\n$.n: expected integer, got string");
    CHECK_EQ(r.content(), reg.call("call_2", "add", args).content());
    CHECK_EQ(r.violations().size(), std::size_t{1});
}

TEST(call_stream_never_finished_runs_nothing) {
    Seen seen;
    const toolgate::Registry reg = registry_with(seen);
    {
        toolgate::CallStream stream = reg.stream_call("call_3", "add");
        CHECK(!stream.feed(R"({"n": 1})"));
    }
    {
        // Moved, then both destroyed: still nothing runs.
        toolgate::CallStream a = reg.stream_call("call_4", "add");
        CHECK(!a.feed(R"({"n": 2})"));
        toolgate::CallStream b = std::move(a);
        CHECK(!a);
        CHECK(b);
        CHECK_EQ(b.bytes_read(), std::size_t{8});
        toolgate::CallStream c;
        c = std::move(b);
        CHECK(c);
    }
    CHECK_EQ(seen.count(), std::size_t{0});
}

TEST(call_stream_unknown_tool_refused_at_once) {
    Seen seen;
    const toolgate::Registry reg = registry_with(seen);
    toolgate::CallStream stream = reg.stream_call("call_5", "nope");
    CHECK(stream.refused());  // before any byte
    CHECK_EQ(stream.bytes_read(), std::size_t{0});
    CHECK(stream.feed("{"));
    const toolgate::Result r = stream.finish();
    CHECK_EQ(r.outcome(), TG_OUTCOME_UNKNOWN_TOOL);
    const toolgate::Result direct = reg.call("call_5", "nope", "{");
    CHECK_EQ(r.content(), direct.content());
    CHECK_EQ(r.tool_message(), direct.tool_message());
    CHECK_EQ(seen.count(), std::size_t{0});
}

TEST(call_stream_refused_past_the_size_limit) {
    Seen seen;
    toolgate::RegistryOptions options;
    options.max_argument_bytes = 10;
    const toolgate::Registry reg = registry_with(seen, options);
    toolgate::CallStream stream = reg.stream_call("call_6", "add");
    CHECK(!stream.feed(R"({"n": )"));  // 6 bytes
    CHECK(stream.feed("12345"));       // 11: past the limit
    const toolgate::Result r = stream.finish();
    CHECK(r.is_error());
    CHECK_EQ(seen.count(), std::size_t{0});
}

TEST(empty_and_moved_from_streams_fail) {
    toolgate::Error err;
    const toolgate::Schema empty_schema;
    CHECK(!empty_schema.stream(err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    try {
        (void)empty_schema.stream();
        CHECK(false);
    } catch (const toolgate::Error& e) {
        CHECK_EQ(e.status(), TG_ERR_NULL);
    }

    const toolgate::Registry empty_registry(nullptr);
    CHECK(!empty_registry.stream_call("c", "add", err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    const toolgate::Registry reg;
    CHECK(!reg.stream_call("c", std::string_view("\xff", 1), err));
    CHECK_EQ(err.status(), TG_ERR_UTF8);

    const toolgate::Schema schema = toolgate::Schema::compile(kSchema);
    toolgate::SchemaStream a = schema.stream();
    CHECK(a.feed("\"")); // a string where an object goes
    toolgate::SchemaStream b(std::move(a));
    CHECK(!a);
    CHECK(!a.refused());
    CHECK_EQ(a.bytes_read(), std::size_t{0});
    CHECK(!a.feed("{", err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(!a.finish(err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(b.refused());
    CHECK_EQ(b.finish().size(), std::size_t{1});

    toolgate::CallStream none;
    CHECK(!none.refused());
    CHECK(!none.feed("{", err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(!none.finish(err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
}

TEST_MAIN("test_stream")
