// Concurrency: threads calling the same registry at once (valid calls, invalid calls,
// tools that throw, tools that call other tools) while other threads replace and
// remove tools; every result is checked, and every callable is destroyed exactly once.
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using toolgate::Registry;

namespace {

struct Probe {
    static inline std::atomic<int> created{0};
    static inline std::atomic<int> destroyed{0};
    bool owner = true;
    Probe() { ++created; }
    Probe(Probe&& o) noexcept : owner(std::exchange(o.owner, false)) {}
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;
    Probe& operator=(Probe&&) = delete;
    ~Probe() {
        if (owner) ++destroyed;
    }
};

int iterations() {
    const char* env = std::getenv("TOOLGATE_CPP_ITERATIONS");
    const int n = env ? std::atoi(env) : 0;
    return n > 0 ? n : 2000;
}

}  // namespace

TEST(parallel_calls_and_changes) {
    const int n = iterations();
    const int callers = 4;
    std::atomic<int> bad{0};
    std::atomic<long> runs{0};
    {
        Registry reg;
        reg.add({"echo", "", R"({"type":"object","properties":{"i":{"type":"integer"}},"required":["i"]})"},
                [p = Probe(), &runs](std::string_view args) {
                    ++runs;
                    return std::string(args);
                });
        reg.add({"thrower"}, [p = Probe()](std::string_view) -> std::string {
            throw std::runtime_error("thrown on purpose");
        });
        reg.add({"nested"}, [p = Probe(), &reg](std::string_view args) {
            return "nested:" + reg.call("inner", "echo", args).content();
        });

        std::atomic<bool> stop{false};
        // One thread keeps replacing and removing a tool the callers also call.
        std::thread changer([&] {
            int k = 0;
            while (!stop.load()) {
                const std::string tag = std::to_string(k++);
                reg.add_or_replace({"flaky"}, [p = Probe(), tag](std::string_view) { return tag; });
                if (k % 3 == 0) {
                    toolgate::Error err;
                    (void)reg.remove("flaky", err);  // may race with nothing: fine either way
                }
                std::this_thread::yield();
            }
        });

        std::vector<std::thread> threads;
        for (int t = 0; t < callers; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < n; ++i) {
                    const std::string args = "{\"i\":" + std::to_string(t * n + i) + "}";
                    const std::string id = "c" + std::to_string(t) + "_" + std::to_string(i);
                    switch (i % 5) {
                    case 0: {
                        toolgate::Result r = reg.call(id, "echo", args);
                        if (r.is_error() || r.content() != args || r.call_id() != id) ++bad;
                        break;
                    }
                    case 1: {
                        toolgate::Result r = reg.call(id, "echo", R"({"i":"x"})");
                        if (!r.is_error() ||
                            r.content() != "error: invalid arguments for echo:\n$.i: expected integer, got string")
                            ++bad;
                        break;
                    }
                    case 2: {
                        toolgate::Result r = reg.call(id, "thrower", "{}");
                        if (!r.is_error() || r.content() != "error: thrown on purpose") ++bad;
                        break;
                    }
                    case 3: {
                        toolgate::Result r = reg.call(id, "nested", args);
                        if (r.is_error() || r.content() != "nested:" + args) ++bad;
                        break;
                    }
                    default: {
                        toolgate::Result r = reg.call(id, "flaky", "{}");
                        // Either a tag (a number) or "unknown tool" while it is removed.
                        const std::string c = r.content();
                        const bool ok = r.is_error()
                                            ? c.rfind("error: unknown tool \"flaky\"", 0) == 0
                                            : !c.empty() && c.find_first_not_of("0123456789") == std::string::npos;
                        if (!ok) ++bad;
                    }
                    }
                }
            });
        }
        for (std::thread& th : threads) th.join();
        stop = true;
        changer.join();
        CHECK_EQ(bad.load(), 0);
        // echo ran for its own calls (case 0) and for nested calls (case 3).
        CHECK(runs.load() >= 2L * (n / 5) * callers);
    }
    CHECK_EQ(Probe::destroyed.load(), Probe::created.load());
}

TEST(parallel_schema_validation) {
    const toolgate::Schema schema = toolgate::Schema::compile(
        R"({"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]})");
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 2000; ++i) {
                const int v = (i % 2 == 0) ? i : -i - 1;
                const std::string doc = "{\"n\":" + std::to_string(v + t) + "}";
                const bool expect = v + t >= 0;
                if (schema.is_valid(doc) != expect) ++bad;
                if (schema.validate(doc).empty() != expect) ++bad;
            }
        });
    }
    for (std::thread& th : threads) th.join();
    CHECK_EQ(bad.load(), 0);
}

TEST_MAIN("test_threads")
