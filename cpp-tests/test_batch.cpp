// Registry::add_batch: every tool or none, the refused tool named, every callable
// destroyed exactly once (those of a refused batch right away, of a batch never
// registered with it), override through add_or_replace_batch.
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <string>
#include <utility>

using toolgate::Batch;
using toolgate::Error;
using toolgate::Registry;

namespace {

using check::Probe;

const char* const CITY =
    R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})";

// A batch of tools t0..t{n-1} answering their own name, with `bad` swapped in at `at`.
Batch batch_of(int n, const toolgate::ToolDef* bad = nullptr, int at = -1) {
    Batch b;
    static std::string names[8];
    for (int i = 0; i < n; ++i) {
        names[i] = "t" + std::to_string(i);
        const toolgate::ToolDef def = (i == at && bad) ? *bad : toolgate::ToolDef{names[i], "", CITY};
        const std::string answer = names[i] + " ran";
        b.add(def, [p = Probe(), answer](std::string_view) { return answer; });
    }
    return b;
}

}  // namespace

TEST(accepted_batch_registers_every_tool) {
    Probe::destroyed = 0;
    {
        Registry reg;
        Batch b = batch_of(3);
        CHECK_EQ(b.size(), 3u);
        reg.add_batch(std::move(b));
        CHECK(b.empty());
        CHECK_EQ(Probe::destroyed.load(), 0);
        CHECK_EQ(reg.names().size(), 3u);
        const toolgate::Result r = reg.call("c1", "t1", R"({"city":"Oslo"})");
        CHECK(!r.is_error());
        CHECK_EQ(r.content(), "t1 ran");
        CHECK(reg.call("c2", "t2", "{}").is_error());

        Error err;
        CHECK(!reg.add_batch(batch_of(2), err));
        CHECK_EQ(err.status(), TG_ERR_DUPLICATE);
        CHECK_EQ(std::string(err.what()), R"(tool "t0" is already registered)");
        CHECK_EQ(Probe::destroyed.load(), 2);
        CHECK(reg.add_or_replace_batch(batch_of(2), err));
        CHECK_EQ(Probe::destroyed.load(), 4);  // the two replaced
    }
    CHECK_EQ(Probe::destroyed.load(), 7);
}

TEST(refused_batch_changes_nothing_and_names_the_tool) {
    const toolgate::ToolDef bad[] = {
        {"bad name"},
        {"s", "", R"({"type":"string"})"},
        {"t0"},
    };
    const tg_status want[] = {TG_ERR_NAME, TG_ERR_NOT_OBJECT, TG_ERR_DUPLICATE};
    const char* message[] = {
        R"(invalid tool name "bad name": must match ^[A-Za-z0-9_-]{1,64}$)",
        R"(parameters for "s" must declare "type": "object")",
        R"(tool "t0" is listed twice in the batch)",
    };
    for (int c = 0; c < 3; ++c) {
        for (int at = 1; at < 4; ++at) {
            Probe::destroyed = 0;
            Registry reg;
            reg.add({"kept"}, [](std::string_view) { return "kept"; });
            Error err;
            CHECK(!reg.add_batch(batch_of(4, &bad[c], at), err));
            CHECK_EQ(err.status(), want[c]);
            CHECK_EQ(std::string(err.what()), message[c]);
            CHECK_EQ(Probe::destroyed.load(), 4);
            CHECK_EQ(reg.names().size(), 1u);
        }
    }
}

TEST(batch_never_registered_destroys_its_callables) {
    Probe::destroyed = 0;
    {
        Batch b = batch_of(3);
        Batch moved = std::move(b);
        CHECK(b.empty());
        CHECK_EQ(moved.size(), 3u);
        Error err;
        std::function<std::string(std::string_view)> empty;
        CHECK(!moved.add({"e"}, empty, err));
        CHECK_EQ(err.status(), TG_ERR_NULL);
        CHECK_EQ(moved.size(), 3u);
    }
    CHECK_EQ(Probe::destroyed.load(), 3);
}

TEST(empty_batch_is_accepted) {
    Registry reg;
    reg.add_batch(Batch());
    Error err;
    CHECK(!reg.names(err).has_value() || reg.names(err)->empty());
}

TEST_MAIN("test_batch")
