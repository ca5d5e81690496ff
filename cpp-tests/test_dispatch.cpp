// Registry::dispatch: Results in the order of the calls with the contents call() gives,
// refusals under both policies, a deadline (the tool polling RunningCall::cancelled()),
// a Canceller cancelled from another std::thread, RunningCall inside and outside
// tools, retry_later, on_cancel, exclusive tools, outcome_name.
//
// Tools that may outlive their dispatch keep their state in a std::shared_ptr they
// own, and each test waits for them to return before its registry goes away.
#include <toolgate.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"

namespace {

constexpr const char* CITY =
    R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})";

void nap(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void wait_for(const std::atomic<bool>& flag) {
    while (!flag.load()) nap(1);
}

struct Flags {
    std::atomic<bool> started{false};
    std::atomic<bool> saw_call{false};
    std::atomic<bool> saw_cancel{false};
    std::atomic<long long> ms_left{-2};
    std::atomic<bool> done{false};
    std::atomic<int> runs{0};
};

}  // namespace

TEST(results_in_order_with_call_contents) {
    toolgate::Registry reg;
    reg.add({"echo", "echo", CITY}, [](std::string_view args) { return std::string(args); });
    reg.add({"fail", "fails"},
            [](std::string_view) { return toolgate::Reply::error("no luck"); });
    const std::vector<toolgate::ToolCall> calls{
        {"c0", "echo", R"({"city":"Oslo"})"},
        {"c1", "echo", R"({"city":3})"},
        {"c2", "nope", "{}"},
        {"c3", "fail", ""},
        {"c4", "echo", R"({"city":"Rome"})"},
    };
    const std::vector<toolgate::Result> results = reg.dispatch(calls);
    CHECK_EQ(results.size(), calls.size());
    for (std::size_t i = 0; i < results.size() && i < calls.size(); ++i) {
        const toolgate::Result want = reg.call(calls[i].id, calls[i].name, calls[i].arguments);
        CHECK_EQ(results[i].call_id(), calls[i].id);
        CHECK_EQ(results[i].name(), calls[i].name);
        CHECK_EQ(results[i].content(), want.content());
        CHECK_EQ(results[i].is_error(), want.is_error());
        CHECK_EQ(results[i].outcome(), want.outcome());
    }
    if (results.size() == 5) {
        CHECK_EQ(results[0].content(), R"({"city":"Oslo"})");
        CHECK_EQ(results[1].outcome(), TG_OUTCOME_INVALID_ARGUMENTS);
        CHECK_EQ(results[2].content(), "error: unknown tool \"nope\"; available tools: echo, fail");
        CHECK_EQ(results[3].content(), "error: no luck");
        CHECK_EQ(results[4].tool_message(),
                 R"({"role":"tool","tool_call_id":"c4","content":"{\"city\":\"Rome\"}"})");
    }

    // All or nothing: the refused call keeps its refusal, the others are not run.
    toolgate::DispatchOptions options;
    options.policy = TG_DISPATCH_ALL_OR_NOTHING;
    const std::vector<toolgate::Result> none =
        reg.dispatch({calls[0], calls[2], calls[4]}, options);
    CHECK_EQ(none.size(), 3u);
    if (none.size() == 3) {
        CHECK_EQ(none[0].outcome(), TG_OUTCOME_NOT_RUN);
        CHECK_EQ(none[0].content(),
                 "error: not run: call \"c2\" to tool \"nope\" in the same batch was refused");
        CHECK_EQ(none[1].outcome(), TG_OUTCOME_UNKNOWN_TOOL);
        CHECK_EQ(none[2].outcome(), TG_OUTCOME_NOT_RUN);
    }
    CHECK(reg.dispatch({}).empty());

    // The caller's own mistakes throw.
    options.policy = 2;
    bool threw = false;
    try {
        (void)reg.dispatch(calls, options);
    } catch (const toolgate::Error& e) {
        threw = e.status() == TG_ERR_ARGUMENT;
    }
    CHECK(threw);
    toolgate::Error err;
    CHECK(!reg.dispatch({{"c0", "\xff", "{}"}}, err));
    CHECK_EQ(err.status(), TG_ERR_UTF8);
}

TEST(deadline_seen_by_a_polling_tool) {
    auto flags = std::make_shared<Flags>();
    {
        toolgate::Registry reg;
        // The tool's deadline counts from the call's start, so the tool always runs (a
        // dispatch's counts from the dispatch's start: on a slow machine the call could
        // time out before it started, and `done` would never be set).
        toolgate::ToolDef slow{"slow"};
        slow.timeout_ms = 30;
        reg.add(slow, [flags](std::string_view) {
            const toolgate::RunningCall call = toolgate::RunningCall::current();
            flags->saw_call = static_cast<bool>(call);
            flags->ms_left = call.ms_left();
            while (call && !call.cancelled()) nap(1);
            flags->saw_cancel = call.cancelled();
            flags->done = true;
            return std::string("late");
        });
        const std::vector<toolgate::Result> results = reg.dispatch({{"c0", "slow", "{}"}});
        CHECK_EQ(results.size(), 1u);
        if (!results.empty()) {
            CHECK_EQ(results[0].content(), "error: tool slow timed out after 30 ms");
            CHECK_EQ(results[0].outcome(), TG_OUTCOME_TIMED_OUT);
            CHECK_EQ(std::string(toolgate::outcome_name(results[0].outcome())), "timed_out");
        }
        wait_for(flags->done);
    }
    CHECK(flags->saw_call);
    CHECK(flags->saw_cancel);
    CHECK(flags->ms_left >= 0 && flags->ms_left <= 30);
}

TEST(canceller_from_another_thread) {
    auto flags = std::make_shared<Flags>();
    auto echoes = std::make_shared<std::atomic<int>>(0);
    {
        toolgate::Registry reg;
        reg.add({"waits"}, [flags](std::string_view) {
            const toolgate::RunningCall call = toolgate::RunningCall::current();
            flags->started = true;
            while (call && !call.cancelled()) nap(1);
            flags->saw_cancel = call.cancelled();
            flags->done = true;
            return std::string("late");
        });
        reg.add({"echo"}, [echoes](std::string_view args) {
            ++*echoes;
            return std::string(args);
        });
        toolgate::Canceller stop;
        CHECK(static_cast<bool>(stop));
        toolgate::DispatchOptions options;
        options.canceller = &stop;
        options.max_concurrency = 1;  // the echo call waits its turn, never starts
        std::thread canceller([&] {
            wait_for(flags->started);
            stop.cancel();
        });
        const std::vector<toolgate::Result> results =
            reg.dispatch({{"c0", "waits", "{}"}, {"c1", "echo", "{}"}}, options);
        canceller.join();
        CHECK_EQ(results.size(), 2u);
        for (const toolgate::Result& r : results) {
            CHECK_EQ(r.content(), "error: call cancelled");
            CHECK_EQ(r.outcome(), TG_OUTCOME_CANCELLED);
        }
        wait_for(flags->done);
        CHECK_EQ(echoes->load(), 0);

        // Cancelled before the dispatch: nothing runs.
        const std::vector<toolgate::Result> again = reg.dispatch({{"c2", "echo", "{}"}}, options);
        CHECK(again.size() == 1 && again[0].outcome() == TG_OUTCOME_CANCELLED);
        CHECK_EQ(echoes->load(), 0);

        // A moved-from Canceller is empty.
        toolgate::Canceller moved = std::move(stop);
        CHECK(!stop);
        CHECK(!stop.cancel());
        CHECK(moved.cancel());
    }
    CHECK(flags->saw_cancel);
}

namespace {
std::atomic<int> cancel_callbacks{0};
void count_cancel(void*) { ++cancel_callbacks; }
}  // namespace

TEST(running_call_inside_tools) {
    CHECK(!toolgate::RunningCall::current());
    auto seen = std::make_shared<Flags>();
    auto flaky = std::make_shared<Flags>();
    auto waits = std::make_shared<Flags>();
    toolgate::Registry reg;
    reg.add({"seen"}, [seen](std::string_view) {
        const toolgate::RunningCall call = toolgate::RunningCall::current();
        seen->saw_call = static_cast<bool>(call);
        seen->ms_left = call.ms_left();
        return std::string("ok");
    });
    // Fails once as transient, then answers.
    toolgate::ToolDef flaky_def{"flaky"};
    flaky_def.idempotent = true;
    reg.add(flaky_def, [flaky](std::string_view) {
        if (flaky->runs++ == 0) {
            CHECK(toolgate::RunningCall::current().retry_later());
            return toolgate::Reply::error("busy");
        }
        return toolgate::Reply::ok("done");
    });
    // Registers a callback, then waits for the cancellation (its deadline, 20 ms from
    // its start).
    toolgate::ToolDef waits_def{"waits"};
    waits_def.timeout_ms = 20;
    reg.add(waits_def, [waits](std::string_view) {
        const toolgate::RunningCall call = toolgate::RunningCall::current();
        CHECK(call.on_cancel(&count_cancel, nullptr));
        CHECK(!call.on_cancel(nullptr, nullptr));
        while (!call.cancelled()) nap(1);
        waits->done = true;
        return std::string();
    });

    // Through call(): no running call.
    CHECK_EQ(reg.call("c0", "seen", "{}").content(), "ok");
    CHECK(!seen->saw_call);
    CHECK_EQ(seen->ms_left.load(), -1);
    // Through dispatch(): its call, without a deadline (-1).
    CHECK_EQ(reg.dispatch({{"c1", "seen", "{}"}})[0].content(), "ok");
    CHECK(seen->saw_call);
    CHECK_EQ(seen->ms_left.load(), -1);

    // retry_later: run again (twice in all) for an idempotent tool.
    toolgate::DispatchOptions options;
    options.backoff_ms = 1;
    const std::vector<toolgate::Result> retried = reg.dispatch({{"c2", "flaky", "{}"}}, options);
    CHECK(retried.size() == 1 && retried[0].content() == "done");
    CHECK_EQ(flaky->runs.load(), 2);

    // on_cancel: once, at the deadline.
    const std::vector<toolgate::Result> late = reg.dispatch({{"c3", "waits", "{}"}}, options);
    CHECK(late.size() == 1 && late[0].outcome() == TG_OUTCOME_TIMED_OUT);
    wait_for(waits->done);
    CHECK_EQ(cancel_callbacks.load(), 1);
    CHECK(!toolgate::RunningCall::current());
    const toolgate::RunningCall empty;
    CHECK(!empty.cancelled() && empty.ms_left() == -1 && !empty.retry_later());
}

TEST(exclusive_tool_runs_alone) {
    auto running = std::make_shared<std::atomic<int>>(0);
    auto overlapped = std::make_shared<std::atomic<int>>(0);
    toolgate::Registry reg;
    auto tool = [running, overlapped](bool exclusive) {
        return [running, overlapped, exclusive](std::string_view) {
            if (running->fetch_add(1) != 0 && exclusive) ++*overlapped;
            nap(2);
            --*running;
            return std::string("{}");
        };
    };
    reg.add({"shared"}, tool(false));
    toolgate::ToolDef alone{"alone"};
    alone.exclusive = true;
    reg.add(alone, tool(true));
    CHECK(reg.describe("alone").name == "alone");
    std::vector<toolgate::ToolCall> calls;
    for (int i = 0; i < 7; ++i) {
        calls.push_back({"c" + std::to_string(i), i == 3 ? "alone" : "shared", "{}"});
    }
    for (const toolgate::Result& r : reg.dispatch(calls)) CHECK_EQ(r.content(), "{}");
    CHECK_EQ(overlapped->load(), 0);
}

TEST(outcome_names) {
    CHECK_EQ(std::string(toolgate::outcome_name(TG_OUTCOME_ANSWERED)), "answered");
    CHECK_EQ(std::string(toolgate::outcome_name(TG_OUTCOME_NOT_RUN)), "not_run");
    CHECK_EQ(std::string(toolgate::outcome_name(TG_OUTCOME_CANCELLED)), "cancelled");
    CHECK(toolgate::outcome_name(static_cast<tg_outcome>(99)) == nullptr);
}

TEST_MAIN("test_dispatch")
