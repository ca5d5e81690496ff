// The header in a host without exceptions. Built twice by CMake:
//  - test_no_exceptions:        -fno-exceptions (the compiler has no exceptions at all);
//  - test_no_exceptions_optout: exceptions on, TOOLGATE_NO_EXCEPTIONS defined.
// In both only the non-throwing API (`Error&` overloads) is declared, and it works.
// No check may throw here, so this test uses printf and its own counters only.
#include <toolgate.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if TOOLGATE_THROWING_API
#error "the throwing API must not be declared here"
#endif

namespace {

template <class T, class = void>
struct has_throwing_compile : std::false_type {};
template <class T>
struct has_throwing_compile<T, std::void_t<decltype(T::compile(std::string_view()))>>
    : std::true_type {};
static_assert(!has_throwing_compile<toolgate::Schema>::value, "no throwing Schema::compile");

template <class T, class = void>
struct has_throwing_compile_with : std::false_type {};
template <class T>
struct has_throwing_compile_with<
    T, std::void_t<decltype(T::compile(std::string_view(), toolgate::CompileOptions()))>>
    : std::true_type {};
static_assert(!has_throwing_compile_with<toolgate::Schema>::value,
              "no throwing Schema::compile(json, options)");

template <class T, class = void>
struct has_throwing_call : std::false_type {};
template <class T>
struct has_throwing_call<T, std::void_t<decltype(std::declval<const T&>().call(
                                std::string_view(), std::string_view(), std::string_view()))>>
    : std::true_type {};
static_assert(!has_throwing_call<toolgate::Registry>::value, "no throwing Registry::call");
template <class T, class = void>
struct has_throwing_dispatch : std::false_type {};
template <class T>
struct has_throwing_dispatch<T, std::void_t<decltype(std::declval<const T&>().dispatch(
                                    std::vector<toolgate::ToolCall>()))>> : std::true_type {};
static_assert(!has_throwing_dispatch<toolgate::Registry>::value, "no throwing Registry::dispatch");
template <class T, class = void>
struct has_throwing_stream : std::false_type {};
template <class T>
struct has_throwing_stream<T, std::void_t<decltype(std::declval<const T&>().stream())>>
    : std::true_type {};
static_assert(!has_throwing_stream<toolgate::Schema>::value, "no throwing Schema::stream");
template <class T, class = void>
struct has_throwing_stream_call : std::false_type {};
template <class T>
struct has_throwing_stream_call<T, std::void_t<decltype(std::declval<const T&>().stream_call(
                                       std::string_view(), std::string_view()))>>
    : std::true_type {};
static_assert(!has_throwing_stream_call<toolgate::Registry>::value,
              "no throwing Registry::stream_call");
template <class T, class = void>
struct has_throwing_finish : std::false_type {};
template <class T>
struct has_throwing_finish<T, std::void_t<decltype(std::declval<T&>().finish())>>
    : std::true_type {};
static_assert(!has_throwing_finish<toolgate::SchemaStream>::value, "no throwing finish");
static_assert(!has_throwing_finish<toolgate::CallStream>::value, "no throwing finish");
static_assert(!std::is_default_constructible_v<toolgate::Registry>,
              "no throwing constructor: registries come from Registry::create");

int passed = 0;
int failed = 0;
void check(bool ok, const char* what, int line) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::fprintf(stderr, "test_no_exceptions.cpp:%d: FAILED: %s\n", line, what);
    }
}
#define CHECK(c) check((c) ? true : false, #c, __LINE__)

int destroyed = 0;
struct Counted {
    bool owner = true;
    Counted() = default;
    Counted(Counted&& o) noexcept : owner(std::exchange(o.owner, false)) {}
    ~Counted() {
        if (owner) ++destroyed;
    }
};

}  // namespace

int main() {
    toolgate::Error err;
    std::optional<toolgate::Registry> reg = toolgate::Registry::create(TG_NAMES_DEFAULT, err);
    CHECK(reg.has_value() && !err);
    if (!reg) return 1;

    CHECK(reg->add({"lookup", "", R"({"type":"object","required":["id"]})"},
                   [c = Counted()](std::string_view args) {
                       if (args.find("\"missing\"") != std::string_view::npos)
                           return toolgate::Reply::error("no such record");
                       return toolgate::Reply::ok("found " + std::string(args));
                   },
                   err));
    CHECK(!err);

    std::optional<toolgate::Result> r = reg->call("c1", "lookup", R"({"id":"a"})", err);
    CHECK(r && !r->is_error() && r->content() == R"(found {"id":"a"})");
    r = reg->call("c2", "lookup", R"({"id":"missing"})", err);
    CHECK(r && r->is_error() && r->content() == "error: no such record");
    r = reg->call("c3", "lookup", "{}", err);
    CHECK(r && r->is_error() &&
          r->content() == "error: invalid arguments for lookup:\n$: missing required property \"id\"");

    // Failures come back through err.
    CHECK(!reg->add({"lookup"}, [c = Counted()](std::string_view) { return ""; }, err));
    CHECK(err.status() == TG_ERR_DUPLICATE && !err.message().empty());
    CHECK(destroyed == 1);  // the refused callable, once
    CHECK(!reg->remove("nope", err) && err.status() == TG_ERR_NOT_FOUND);

    std::optional<toolgate::Schema> bad = toolgate::Schema::compile(R"({"format":"date"})", err);
    CHECK(!bad && err.status() == TG_ERR_SCHEMA && err.keyword() == "format");
    toolgate::CompileOptions options;
    options.max_depth = 1;
    std::optional<toolgate::Schema> shallow =
        toolgate::Schema::compile(R"({"type":"array"})", options, err);
    CHECK(shallow && !err);
    if (shallow) CHECK(shallow->is_valid("[]", err) && !shallow->is_valid("[[]]", err));
    options.profile = static_cast<tg_profile>(5);
    CHECK(!toolgate::Schema::compile("{}", options, err) && err.status() == TG_ERR_ARGUMENT);
    toolgate::RegistryOptions registry_options;
    registry_options.schema.profile = static_cast<tg_profile>(5);
    CHECK(!toolgate::Registry::create(registry_options, err) && err.status() == TG_ERR_ARGUMENT);

    std::optional<toolgate::Schema> s = toolgate::Schema::compile(R"({"type":"integer"})", err);
    CHECK(s && !err);
    if (s) {
        CHECK(s->is_valid("3", err) && !err);
        std::optional<toolgate::ValidationErrors> v = s->validate("\"x\"", err);
        CHECK(v && v->size() == 1 && (*v)[0].text() == "$: expected integer, got string");
    }

    std::optional<std::vector<std::string>> names = reg->names(err);
    CHECK(names && names->size() == 1 && (*names)[0] == "lookup");
    std::optional<std::string> defs = reg->definitions(err);
    CHECK(defs && defs->find("\"lookup\"") != std::string::npos);

    // Dispatch, a Canceller, RunningCall and outcome_name without exceptions.
    {
        const std::vector<toolgate::ToolCall> calls{{"d1", "lookup", R"({"id":"b"})"},
                                                    {"d2", "nope", "{}"}};
        std::optional<std::vector<toolgate::Result>> rs = reg->dispatch(calls, err);
        CHECK(rs && !err && rs->size() == 2);
        if (rs && rs->size() == 2) {
            CHECK((*rs)[0].call_id() == "d1" && (*rs)[0].content() == R"(found {"id":"b"})");
            CHECK((*rs)[1].outcome() == TG_OUTCOME_UNKNOWN_TOOL);
        }
        const toolgate::Canceller stop;
        CHECK(stop.cancel());
        toolgate::DispatchOptions options_d;
        options_d.canceller = &stop;
        rs = reg->dispatch({calls[0]}, options_d, err);
        CHECK(rs && rs->size() == 1 && (*rs)[0].outcome() == TG_OUTCOME_CANCELLED &&
              (*rs)[0].content() == "error: call cancelled");
        options_d.policy = 9;
        CHECK(!reg->dispatch(calls, options_d, err) && err.status() == TG_ERR_ARGUMENT);
        CHECK(!toolgate::RunningCall::current());
        CHECK(std::string_view(toolgate::outcome_name(TG_OUTCOME_CANCELLED)) == "cancelled");
    }

    // Streams without exceptions: a schema stream refused at the quote, a call stream
    // whose tool runs in finish, an unknown tool refused at once, a spent stream.
    if (s) {
        std::optional<toolgate::SchemaStream> st = s->stream(err);
        CHECK(st && !err);
        if (st) {
            CHECK(!st->feed("", err) && !err);
            CHECK(st->feed("\"", err) && !err && st->refused());
            CHECK(st->bytes_read() == 1);
            std::optional<toolgate::ValidationErrors> v = st->finish(err);
            CHECK(v && v->size() == 1 && (*v)[0].text() == "$: expected integer, got string");
            CHECK(!st->finish(err) && err.status() == TG_ERR_ARGUMENT);
            CHECK(!st->feed("1", err) && err.status() == TG_ERR_ARGUMENT);
        }
        CHECK(!toolgate::Schema().stream(err) && err.status() == TG_ERR_NULL);
    }
    {
        std::optional<toolgate::CallStream> cs = reg->stream_call("s1", "lookup", err);
        CHECK(cs && !err && !cs->refused());
        if (cs) {
            CHECK(!cs->feed(R"({"id")", err) && !err);
            CHECK(!cs->feed(R"(:"s"})", err) && !err);
            int ctx = 0;
            std::optional<toolgate::Result> sr = cs->finish(&ctx, err);
            CHECK(sr && !err && sr->content() == R"(found {"id":"s"})");
            CHECK(!cs->finish(err) && err.status() == TG_ERR_ARGUMENT);
        }
        std::optional<toolgate::CallStream> unknown = reg->stream_call("s2", "nope", err);
        CHECK(unknown && unknown->refused());
        if (unknown) {
            CHECK(unknown->feed("{}", err) && !err);
            std::optional<toolgate::Result> ur = unknown->finish(err);
            CHECK(ur && ur->outcome() == TG_OUTCOME_UNKNOWN_TOOL);
        }
    }

    reg.reset();  // destroys the registry and its tool
    CHECK(destroyed == 2);

    std::printf("test_no_exceptions: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
