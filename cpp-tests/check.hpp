// A minimal test harness for the C++ wrapper tests: CHECK/CHECK_EQ record failures and
// keep going; TEST_MAIN runs the registered tests and prints a closing line
// "N passed, N failed" (checks), exiting non-zero on any failure.
#ifndef TOOLGATE_CPP_TESTS_CHECK_HPP
#define TOOLGATE_CPP_TESTS_CHECK_HPP

#include <atomic>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace check {

// Counts the destruction of tool state: only the owner of the state counts, not the
// moved-from shells of intermediate moves.
struct Probe {
    static inline std::atomic<int> destroyed{0};
    bool owner = true;
    Probe() = default;
    Probe(Probe&& o) noexcept : owner(std::exchange(o.owner, false)) {}
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;
    Probe& operator=(Probe&&) = delete;
    ~Probe() {
        if (owner) ++destroyed;
    }
};

inline std::atomic<int> passed{0};
inline std::atomic<int> failed{0};

struct Case {
    const char* name;
    void (*fn)();
};
inline std::vector<Case>& cases() {
    static std::vector<Case> all;
    return all;
}
struct Register {
    Register(const char* name, void (*fn)()) { cases().push_back({name, fn}); }
};

template <class T>
std::string show(const T& v) {
    if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(v));
    } else if constexpr (std::is_integral_v<T>) {
        return std::to_string(v);
    } else {
        const std::string_view s(v);
        std::string out = "\"";
        for (char c : s) {
            if (c == '\n') out += "\\n";
            else if (c == '"') out += "\\\"";
            else out += c;
        }
        return out + "\"";
    }
}

inline void record(bool ok, const char* file, int line, const char* expr, const std::string& detail) {
    if (ok) {
        ++passed;
        return;
    }
    ++failed;
    std::fprintf(stderr, "%s:%d: FAILED: %s%s%s\n", file, line, expr, detail.empty() ? "" : "\n    ",
                 detail.c_str());
}

inline int run_all(const char* program) {
    for (const Case& c : cases()) {
        const int before = failed.load();
        c.fn();
        std::printf("%s %s\n", failed.load() == before ? "ok  " : "FAIL", c.name);
    }
    std::printf("%s: %d passed, %d failed\n", program, passed.load(), failed.load());
    return failed.load() == 0 ? 0 : 1;
}

}  // namespace check

#define TEST(name)                                                  \
    static void name();                                             \
    static const check::Register name##_registered(#name, &name);   \
    static void name()

#define CHECK(cond) check::record(static_cast<bool>(cond), __FILE__, __LINE__, #cond, std::string())

// Strings (anything a std::string_view is made from) or integers.
#define CHECK_EQ(actual, expected)                                                          \
    do {                                                                                    \
        const auto check_a_ = (actual);                                                     \
        const auto check_e_ = (expected);                                                   \
        const bool check_ok_ = (check_a_ == check_e_);                                      \
        check::record(check_ok_, __FILE__, __LINE__, #actual " == " #expected,              \
                      check_ok_ ? std::string()                                             \
                                : "actual:   " + check::show(check_a_) +                    \
                                      "\n    expected: " + check::show(check_e_));          \
    } while (0)

#define TEST_MAIN(program) \
    int main() { return check::run_all(program); }

#endif
