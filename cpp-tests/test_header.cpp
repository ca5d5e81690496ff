// The header on its own: included first (self-contained) and twice (include guard),
// compiled with extra-strict warnings (-Wshadow -Wconversion -Wsign-conversion
// -Wold-style-cast ...) in C++17, and again in C++20; every template instantiated once.
#include <toolgate.hpp>
#include <toolgate.hpp>

#include <cstdio>
#include <functional>

namespace {

struct Functor {
    std::string operator()(std::string_view args, void* ctx) const {
        return std::string(args) + (ctx != nullptr ? "+ctx" : "");
    }
};

}  // namespace

int main() {
    toolgate::Error err;
    std::optional<toolgate::Registry> reg = toolgate::Registry::create(err);
    if (!reg) return 1;
    int failures = 0;
    failures += reg->add({"a"}, [](std::string_view s) { return std::string(s); }, err) ? 0 : 1;
    failures += reg->add({"b"}, Functor{}, err) ? 0 : 1;
    failures += reg->add_or_replace({"c"},
                                    std::function<toolgate::Reply(std::string_view)>(
                                        [](std::string_view) { return toolgate::Reply::ok("c"); }),
                                    err)
                    ? 0
                    : 1;
    int ctx = 0;
    std::optional<toolgate::Result> r = reg->call("1", "b", "{}", &ctx, err);
    failures += (r && r->content() == "{}+ctx") ? 0 : 1;
#if TOOLGATE_THROWING_API
    failures += toolgate::Schema::compile("{}").json() == "{}" ? 0 : 1;
    failures += reg->call("2", "c", "{}").content() == "c" ? 0 : 1;
#endif
    std::printf("test_header: %d passed, %d failed\n", failures == 0 ? 1 : 0, failures == 0 ? 0 : 1);
    return failures == 0 ? 0 : 1;
}
