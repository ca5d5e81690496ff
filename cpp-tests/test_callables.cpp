// Tools as callables: every kind of callable is accepted; the registry's copy of the
// callable's state is destroyed exactly once (replace, remove, registry destruction,
// every kind of failed registration, removal while a call runs, a tool removing
// itself); exceptions thrown by a tool become error results and never reach the
// library; Reply and the call context.
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

using toolgate::Error;
using toolgate::Registry;
using toolgate::Reply;

namespace {

// Tool state whose destruction is counted: a static counter bumped in the destructor
// of the object that owns the state (moves hand the ownership on, so the shells left
// by moving the callable into the registry do not count).
struct Probe {
    static inline std::atomic<int> destroyed{0};
    static inline std::atomic<int> live{0};
    bool owner = true;
    Probe() { ++live; }
    Probe(Probe&& o) noexcept : owner(std::exchange(o.owner, false)) {}
    Probe(const Probe& o) : owner(o.owner) {
        if (owner) ++live;
    }
    Probe& operator=(const Probe&) = delete;
    Probe& operator=(Probe&&) = delete;
    ~Probe() {
        if (owner) {
            ++destroyed;
            --live;
        }
    }
    static void reset() {
        destroyed = 0;
        live = 0;
    }
};

// A move-only functor: the registry must not need to copy it.
struct MoveOnlyTool {
    std::unique_ptr<int> value = std::make_unique<int>(7);
    Probe probe;
    std::string operator()(std::string_view) const { return std::to_string(*value); }
};

std::string plain_function(std::string_view args) { return "plain:" + std::string(args); }

}  // namespace

TEST(every_kind_of_callable) {
    Registry reg;
    reg.add({"lambda"}, [](std::string_view a) { return std::string(a); });
    reg.add({"fnptr"}, &plain_function);
    reg.add({"fnref"}, plain_function);
    reg.add({"stdfn"}, std::function<std::string(std::string_view)>(
                           [](std::string_view) { return std::string("function"); }));
    reg.add({"moveonly"}, MoveOnlyTool{});
    reg.add({"view"}, [](std::string_view) { return std::string_view("a view"); });
    reg.add({"cstr"}, [](std::string_view) { return "a C string"; });
    reg.add({"reply"}, [](std::string_view) { return Reply::ok("replied"); });
    reg.add({"generic"}, [](auto args) { return std::string(args.size(), 'x'); });

    CHECK_EQ(reg.call("1", "lambda", R"({"a":1})").content(), R"({"a":1})");
    CHECK_EQ(reg.call("1", "fnptr", "{}").content(), "plain:{}");
    CHECK_EQ(reg.call("1", "fnref", "{}").content(), "plain:{}");
    CHECK_EQ(reg.call("1", "stdfn", "{}").content(), "function");
    CHECK_EQ(reg.call("1", "moveonly", "{}").content(), "7");
    CHECK_EQ(reg.call("1", "view", "{}").content(), "a view");
    CHECK_EQ(reg.call("1", "cstr", "{}").content(), "a C string");
    CHECK_EQ(reg.call("1", "reply", "{}").content(), "replied");
    CHECK_EQ(reg.call("1", "generic", "{}").content(), "xx");
}

TEST(answers_keep_nul_bytes) {
    Registry reg;
    reg.add({"nul"}, [](std::string_view) { return std::string("a\0b", 3); });
    toolgate::Result r = reg.call("1", "nul", "{}");
    CHECK_EQ(r.content().size(), 3u);
    CHECK_EQ(r.content(), std::string("a\0b", 3));
}

TEST(empty_callables_are_refused) {
    Registry reg;
    Error err;
    std::string (*null_fn)(std::string_view) = nullptr;
    CHECK(!reg.add({"a"}, null_fn, err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(!reg.add({"b"}, std::function<std::string(std::string_view)>(), err));
    CHECK_EQ(err.status(), TG_ERR_NULL);
    CHECK(reg.names().empty());
}

TEST(destroyed_once_when_registry_is_destroyed) {
    Probe::reset();
    {
        Registry reg;
        reg.add({"t"}, [p = Probe()](std::string_view) { return "t"; });
        reg.add({"u"}, MoveOnlyTool{});
        CHECK_EQ(reg.call("1", "t", "{}").content(), "t");
        CHECK_EQ(Probe::destroyed.load(), 0);
        CHECK_EQ(Probe::live.load(), 2);
    }
    CHECK_EQ(Probe::destroyed.load(), 2);
    CHECK_EQ(Probe::live.load(), 0);
}

TEST(destroyed_once_on_replace) {
    Probe::reset();
    Registry reg;
    reg.add({"t"}, [p = Probe()](std::string_view) { return "first"; });
    reg.add_or_replace({"t"}, [p = Probe()](std::string_view) { return "second"; });
    CHECK_EQ(Probe::destroyed.load(), 1);  // the first tool's state, right away
    CHECK_EQ(reg.call("1", "t", "{}").content(), "second");
    reg.add_or_replace({"new"}, [p = Probe()](std::string_view) { return "added"; });
    CHECK_EQ(Probe::destroyed.load(), 1);  // nothing was replaced
    CHECK_EQ(reg.call("1", "new", "{}").content(), "added");
    reg = Registry(nullptr);
    CHECK_EQ(Probe::destroyed.load(), 3);
    CHECK_EQ(Probe::live.load(), 0);
}

TEST(destroyed_once_on_remove) {
    Probe::reset();
    Registry reg;
    reg.add({"t"}, [p = Probe()](std::string_view) { return "t"; });
    reg.remove("t");
    CHECK_EQ(Probe::destroyed.load(), 1);
    CHECK(reg.call("1", "t", "{}").is_error());
    reg = Registry(nullptr);
    CHECK_EQ(Probe::destroyed.load(), 1);
}

TEST(destroyed_once_when_registration_fails) {
    Registry reg;
    reg.add({"taken"}, [](std::string_view) { return ""; });
    const toolgate::ToolDef bad[] = {
        {"taken"},                                         // TG_ERR_DUPLICATE
        {"no spaces"},                                     // TG_ERR_NAME
        {"s", "", R"({"type":"string"})"},                 // TG_ERR_NOT_OBJECT
        {"f", "", R"({"type":"object","format":"x"})"},    // TG_ERR_SCHEMA
        {"j", "", "{"},                                    // TG_ERR_SCHEMA (not JSON)
        {std::string_view("\xc3", 1)},                     // TG_ERR_UTF8
    };
    int expected = 0;
    for (const toolgate::ToolDef& def : bad) {
        Probe::reset();
        Error err;
        CHECK(!reg.add(def, [p = Probe()](std::string_view) { return ""; }, err));
        CHECK(static_cast<bool>(err));
        CHECK_EQ(Probe::destroyed.load(), 1);
        CHECK_EQ(Probe::live.load(), 0);
        // And through the throwing overload.
        Probe::reset();
        bool threw = false;
        try {
            reg.add(def, MoveOnlyTool{});
        } catch (const Error&) {
            threw = true;
        }
        CHECK(threw);
        CHECK_EQ(Probe::destroyed.load(), 1);
        CHECK_EQ(Probe::live.load(), 0);
        ++expected;
    }
    CHECK_EQ(expected, 6);
    CHECK_EQ(reg.names().size(), 1u);
}

TEST(lvalue_callables_are_copied_and_the_copy_destroyed) {
    Probe::reset();
    {
        auto fn = [p = Probe()](std::string_view) { return "copy"; };
        {
            Registry reg;
            reg.add({"a"}, fn);
            reg.add({"b"}, fn);
            CHECK_EQ(Probe::live.load(), 3);
        }
        CHECK_EQ(Probe::destroyed.load(), 2);  // the two copies; the original lives on
        CHECK_EQ(Probe::live.load(), 1);
    }
    CHECK_EQ(Probe::destroyed.load(), 3);
}

TEST(removal_waits_for_running_calls) {
    Probe::reset();
    Registry reg;
    std::mutex m;
    std::condition_variable cv;
    bool entered = false;
    bool release = false;
    reg.add({"slow"}, [p = Probe(), &m, &cv, &entered, &release](std::string_view) {
        std::unique_lock<std::mutex> lock(m);
        entered = true;
        cv.notify_all();
        cv.wait(lock, [&] { return release; });
        return std::string(p.owner ? "state alive" : "state moved");
    });
    std::string content;
    std::thread caller([&] { content = reg.call("1", "slow", "{}").content(); });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return entered; });
    }
    reg.remove("slow");  // the call is still running: the state must stay alive
    CHECK_EQ(Probe::destroyed.load(), 0);
    {
        std::lock_guard<std::mutex> lock(m);
        release = true;
    }
    cv.notify_all();
    caller.join();
    CHECK_EQ(content, "state alive");
    CHECK_EQ(Probe::destroyed.load(), 1);
}

TEST(a_tool_may_remove_itself_and_call_others) {
    Probe::reset();
    Registry reg;
    reg.add({"helper"}, [](std::string_view a) { return "helped " + std::string(a); });
    reg.add({"once"}, [p = Probe(), &reg](std::string_view) {
        std::string inner = reg.call("inner", "helper", R"({"x":1})").content();
        reg.remove("once");
        return inner + (p.owner ? " (state alive)" : "");
    });
    CHECK_EQ(reg.call("1", "once", "{}").content(), R"(helped {"x":1} (state alive))");
    CHECK_EQ(Probe::destroyed.load(), 1);
    CHECK(reg.call("2", "once", "{}").is_error());
}

TEST(exceptions_become_error_results) {
    Registry reg;
    reg.add({"runtime"}, [](std::string_view) -> std::string {
        throw std::runtime_error("database unreachable");
    });
    reg.add({"toolgate_error"}, [](std::string_view) -> std::string {
        throw Error(TG_ERR_HANDLER, "quota exceeded");
    });
    reg.add({"bad_alloc"}, [](std::string_view) -> std::string { throw std::bad_alloc(); });
    reg.add({"not_std"}, [](std::string_view) -> std::string { throw 42; });
    reg.add({"empty_what"}, [](std::string_view) -> std::string { throw std::runtime_error(""); });
    reg.add({"replied_error"}, [](std::string_view) { return Reply::error("no such city"); });

    toolgate::Result r = reg.call("c1", "runtime", "{}");
    CHECK(r.is_error());
    CHECK_EQ(r.content(), "error: database unreachable");
    CHECK_EQ(r.tool_message(),
             R"({"role":"tool","tool_call_id":"c1","content":"error: database unreachable"})");
    CHECK_EQ(reg.call("c", "toolgate_error", "{}").content(), "error: quota exceeded");
    CHECK_EQ(reg.call("c", "bad_alloc", "{}").content(), "error: std::bad_alloc");
    CHECK_EQ(reg.call("c", "not_std", "{}").content(), "error: tool not_std failed");
    CHECK(reg.call("c", "empty_what", "{}").is_error());
    toolgate::Result e = reg.call("c", "replied_error", "{}");
    CHECK(e.is_error());
    CHECK_EQ(e.content(), "error: no such city");
    // The registry is unharmed and the tools still answer.
    CHECK_EQ(reg.call("c", "runtime", "{}").content(), "error: database unreachable");
}

TEST(call_context_is_passed_through) {
    struct Ctx {
        std::string user;
    };
    Registry reg;
    reg.add({"whoami"}, [](std::string_view, void* ctx) {
        return ctx ? static_cast<Ctx*>(ctx)->user : std::string("nobody");
    });
    Ctx alice{"alice"};
    CHECK_EQ(reg.call("1", "whoami", "{}", &alice).content(), "alice");
    CHECK_EQ(reg.call("1", "whoami", "{}").content(), "nobody");
    Error err;
    std::optional<toolgate::Result> r = reg.call("1", "whoami", "{}", &alice, err);
    CHECK(r.has_value() && r->content() == "alice");
}

TEST(metadata_is_stored) {
    Registry reg;
    reg.add({"m", "does m", R"({"type":"object"})", true, 1500}, [](std::string_view) { return ""; });
    const toolgate::ToolInfo info = reg.describe("m");
    CHECK(info.idempotent);
    CHECK_EQ(info.timeout_ms, 1500u);
    CHECK_EQ(info.description, "does m");
}

TEST(name_policies) {
    Registry dotted(TG_NAMES_DOTTED);
    dotted.add({"db.get_user"}, [](std::string_view) { return "u"; });
    Error err;
    CHECK(!dotted.add({"Db-Get"}, [](std::string_view) { return "u"; }, err));
    CHECK_EQ(err.status(), TG_ERR_NAME);
    Registry mcp(TG_NAMES_MCP);
    mcp.add({"ns.Tool-1"}, [](std::string_view) { return "m"; });
    CHECK_EQ(mcp.call("1", "ns.Tool-1", "{}").content(), "m");
    bool threw = false;
    try {
        Registry bogus(static_cast<tg_name_policy>(77));
    } catch (const Error& e) {
        threw = e.status() == TG_ERR_ARGUMENT;
    }
    CHECK(threw);
    CHECK(!Registry::create(static_cast<tg_name_policy>(-1), err).has_value());
    CHECK_EQ(err.status(), TG_ERR_ARGUMENT);
}

TEST_MAIN("test_callables")
