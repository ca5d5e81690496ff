/*
 * toolgate.hpp: the C++17 interface of toolgate, header-only over the C ABI of
 * toolgate.h (link with libtoolgate exactly as a C host does).
 *
 *     #include <toolgate.hpp>
 *
 *     toolgate::Registry reg;                      // names: TG_NAMES_DEFAULT
 *     reg.add({"get_weather", "Current weather for a city", R"({"type":"object",...})"},
 *             [](std::string_view args) { return std::string(R"({"temp_c":21})"); });
 *     toolgate::Result r = reg.call("call_1", "get_weather", R"({"city":"Paris"})");
 *     r.is_error(); r.content(); r.tool_message();
 *     r.outcome(); r.structured(); r.violations(); r.dialect_json(TG_DIALECT_ANTHROPIC);
 *
 *     // The calls of a provider's response, answered in its shape:
 *     std::vector<toolgate::ToolCall> calls = toolgate::read_calls(TG_DIALECT_ANTHROPIC, body);
 *
 *     // ... or run together on worker threads, under a deadline, stoppable:
 *     toolgate::Canceller stop;                    // stop.cancel() from any thread
 *     toolgate::DispatchOptions d;
 *     d.timeout_ms = 30000;
 *     d.canceller = &stop;
 *     std::vector<toolgate::Result> results = reg.dispatch(calls, d);
 *     // inside a tool: toolgate::RunningCall::current().cancelled(), .ms_left()
 *
 *     // Arguments as they stream in (a provider's deltas): refused at the first byte
 *     // after which no continuation can be valid; the tool runs only in finish(), as
 *     // call() runs it on all the bytes fed (the registry must outlive the stream):
 *     toolgate::CallStream s = reg.stream_call("call_2", "get_weather");
 *     for (std::string_view delta : deltas) if (s.feed(delta)) break;
 *     toolgate::Result streamed = s.finish();      // (a Schema's: schema.stream())
 *
 *     toolgate::RegistryOptions options;           // JSON Schema draft 2020-12 / draft-07
 *     options.schema.profile = TG_PROFILE_FULL;    // (the core profile is the default)
 *     toolgate::Registry full(options);
 *
 * Conventions:
 * - Handles (Schema, Registry, Result, SchemaStream, CallStream) are RAII and
 *   move-only: copying is deleted, a moved-from object is empty (its destructor does
 *   nothing; `explicit operator bool` is false) and may be assigned to again. `get()`
 *   lends the C handle, `release()` gives it up, and the `explicit` constructor from a
 *   C handle takes one over.
 * - Text goes in as `std::string_view` (pointer + length: NUL bytes are fine, nothing
 *   is NUL-terminated) and comes out as `std::string`, a copy that owns its bytes.
 *   The `*_view()` accessors of Result return views that live as long as the Result.
 * - Failures (what the C API reports through `tg_error **error_out`) are thrown as
 *   `toolgate::Error` (a std::runtime_error carrying the tg_status, the message and,
 *   for schema errors, the pointer and keyword in the schema).
 * - Every throwing function has a non-throwing overload taking `Error& err` last, in
 *   the manner of std::filesystem's `std::error_code&` overloads: on failure it sets
 *   `err` and returns `std::nullopt` / `false`; on success it clears `err`. Those
 *   overloads are `noexcept`: they never throw toolgate::Error (running out of memory
 *   ends the process, as it does in a build without exceptions).
 * - Built without exceptions (-fno-exceptions), or with TOOLGATE_NO_EXCEPTIONS defined,
 *   only the non-throwing overloads exist.
 * - A tool is any callable (lambda, functor, std::function, function pointer; move-only
 *   callables too) invocable on a const object as one of
 *       R fn(std::string_view args)
 *       R fn(std::string_view args, void* call_ctx)      // call_ctx: see Registry::call
 *   where R is anything a std::string_view can be made from (std::string, const char*,
 *   std::string_view: the tool's answer), or toolgate::Reply (an answer or an error).
 *   The registry keeps a heap copy of the callable and destroys it exactly once,
 *   through the C destroy callback: when the tool is replaced or removed or the
 *   registry is destroyed (after the calls still running on it have returned), or
 *   right away when the registration fails. That destructor may run on any thread
 *   and must not call into the registry (so a tool must not own its registry).
 * - A tool runs on every thread that calls the registry, and on the registry's worker
 *   threads for Registry::dispatch, several at once: that is why it is called as const
 *   (a `mutable` lambda does not compile); guard mutable state with a mutex or
 *   atomics. It may call into its registry (call, add, remove), but must not destroy
 *   it. A dispatched tool past its deadline keeps running after dispatch() returned
 *   (see Registry::dispatch): what it captures must outlive it, not only the dispatch.
 * - An exception thrown by a tool never reaches the library (its frames are Rust): it
 *   is caught in the trampoline and the call's result is the error
 *   `error: <what()>` (for an exception not derived from std::exception,
 *   `error: tool NAME failed`). Without exceptions, a tool reports failure by
 *   returning Reply::error(message).
 *
 * Thread-safety is that of the C API: a Schema and a Result may be read from any number
 * of threads at once; every const member of Registry, and add/add_or_replace/remove,
 * may run on the same Registry from any number of threads at once; destroying or
 * assigning to an object must not race with any other use of it.
 */
#ifndef TOOLGATE_HPP
#define TOOLGATE_HPP

#include "toolgate.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if __cplusplus < 201703L && (!defined(_MSVC_LANG) || _MSVC_LANG < 201703L)
#error "toolgate.hpp needs C++17 or later"
#endif

/* Whether the compiler has exceptions enabled (the trampoline then catches them). */
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define TOOLGATE_CPP_EXCEPTIONS 1
#else
#define TOOLGATE_CPP_EXCEPTIONS 0
#endif

/* Whether the throwing API is declared: with exceptions, unless the host opts out. */
#if TOOLGATE_CPP_EXCEPTIONS && !defined(TOOLGATE_NO_EXCEPTIONS)
#define TOOLGATE_THROWING_API 1
#else
#define TOOLGATE_THROWING_API 0
#endif

namespace toolgate {

/// The version of this header, "MAJOR.MINOR.PATCH" (TOOLGATE_VERSION of toolgate.h).
inline constexpr std::string_view header_version = TOOLGATE_VERSION;

/// The version of the library actually loaded (tg_version()); compare it with
/// header_version to detect a header/library mismatch.
inline std::string_view version() noexcept { return tg_version(); }

/// Static text naming and describing a status, e.g.
/// "TG_ERR_NULL: a required pointer argument is NULL" (tg_status_str()).
inline const char* status_name(tg_status status) noexcept { return tg_status_str(status); }

/// Why a call failed: the tg_status, the message, and for a schema compile error
/// (TG_ERR_SCHEMA) the JSON Pointer into the schema and the offending keyword.
/// `what()` is the message. A default-constructed Error means "no error"
/// (status() == TG_OK, `explicit operator bool` false), as std::error_code does.
class Error : public std::runtime_error {
public:
    Error() : std::runtime_error(std::string()), status_(TG_OK) {}
    explicit Error(tg_status status, const std::string& message,
                   std::string pointer = std::string(), std::string keyword = std::string())
        : std::runtime_error(message), status_(status) {
        if (!pointer.empty() || !keyword.empty()) {
            location_ = std::make_shared<const Location>(
                Location{std::move(pointer), std::move(keyword)});
        }
    }

    /// TG_OK for "no error", otherwise the status of the failed call.
    tg_status status() const noexcept { return status_; }
    /// The message (the same text as what()).
    std::string_view message() const noexcept { return what(); }
    /// For TG_ERR_SCHEMA: the RFC 6901 pointer into the schema ("" is the root).
    std::string_view pointer() const noexcept {
        return location_ ? std::string_view(location_->pointer) : std::string_view();
    }
    /// For TG_ERR_SCHEMA: the offending keyword (e.g. "format"), else empty.
    std::string_view keyword() const noexcept {
        return location_ ? std::string_view(location_->keyword) : std::string_view();
    }
    /// True when this holds an error.
    explicit operator bool() const noexcept { return status_ != TG_OK; }

private:
    struct Location {
        std::string pointer;
        std::string keyword;
    };
    tg_status status_;
    // Shared so that copying an Error (as a thrown exception is) never throws.
    std::shared_ptr<const Location> location_;
};

/// One violation of a schema: `path` ($, $.days, $["a.b"], $.tags[1]),
/// `pointer` (RFC 6901) to where the fix goes, the failing `keyword`, a terse
/// `message`, and `schema_location`, where the failing rule is written in the schema
/// (`#/properties/days/type`; `#` for malformed input).
struct ValidationError {
    std::string path;
    std::string pointer;
    std::string keyword;
    std::string message;
    std::string schema_location{};

    /// "path: message", the line the registry writes for it.
    std::string text() const { return path + ": " + message; }
    friend bool operator==(const ValidationError& a, const ValidationError& b) {
        return a.path == b.path && a.pointer == b.pointer && a.keyword == b.keyword &&
               a.message == b.message && a.schema_location == b.schema_location;
    }
    friend bool operator!=(const ValidationError& a, const ValidationError& b) {
        return !(a == b);
    }
};

/// The violations of one validation, sorted by path then message; empty means valid.
using ValidationErrors = std::vector<ValidationError>;

/// The violations as the registry writes them: one "path: message" line each, joined
/// by '\n' (no trailing newline; empty when there are none).
inline std::string to_text(const ValidationErrors& errors) {
    std::string out;
    for (const ValidationError& e : errors) {
        if (!out.empty()) out += '\n';
        out += e.text();
    }
    return out;
}

/// What a tool may return to choose between an answer and an error.
class Reply {
public:
    /// The tool's answer: the call's result content is `text`.
    static Reply ok(std::string text) { return Reply(false, std::move(text)); }
    /// The tool failed: the call's result is the error `error: <message>`.
    static Reply error(std::string message) { return Reply(true, std::move(message)); }

    bool is_error() const noexcept { return is_error_; }
    const std::string& text() const noexcept { return text_; }

private:
    Reply(bool is_error, std::string text) : is_error_(is_error), text_(std::move(text)) {}
    bool is_error_;
    std::string text_;
};

/// A tool to register. The views are read during the registration only (copied).
struct ToolDef {
    /// Checked against the registry's name policy.
    std::string_view name;
    /// What the model reads to decide when to use the tool.
    std::string_view description{};
    /// The parameters JSON Schema; it must require an object. Empty means
    /// {"type":"object"}.
    std::string_view parameters{};
    /// Stored and exposed for the dispatcher (retry decisions).
    bool idempotent = false;
    /// Stored and exposed for the dispatcher; 0 means none.
    std::uint64_t timeout_ms = 0;
    /// The JSON Schema of the tool's answer; empty means none. With one, every answer
    /// must be JSON text of that shape: a conforming answer is passed on unchanged and
    /// the Result is structured(), any other becomes an error Result with outcome
    /// TG_OUTCOME_INVALID_RESULT (Result::invalid_result() keeps the answer). A schema
    /// that does not compile refuses the registration (TG_ERR_SCHEMA).
    std::string_view output_schema{};
    /// The tool runs alone in a Registry::dispatch: the calls before it finish first,
    /// and the calls after it wait for it.
    bool exclusive = false;
};

/// One registered tool as Registry::describe saw it (a copy).
struct ToolInfo {
    std::string name;
    std::string description;
    /// The parameters schema, compact JSON, keys in the author's order.
    std::string parameters;
    bool idempotent = false;
    std::uint64_t timeout_ms = 0;
    /// The output schema, compact JSON, keys in the author's order; none when the tool
    /// was registered without one.
    std::optional<std::string> output_schema{};
};

/// One tool call a provider's response asks for (read_calls).
struct ToolCall {
    /// The id its result must carry (Registry::call's call_id); empty for a Gemini call
    /// without one; for MCP the JSON-RPC id's JSON text (`7`, `"req-1"`).
    std::string id;
    /// The tool's name, as the provider sent it.
    std::string name;
    /// The argument bytes exactly as the provider sent them (empty: none, read as {}).
    std::string arguments;
};

namespace detail {

inline std::string_view view(const char* p, std::size_t n) noexcept {
    return p != nullptr ? std::string_view(p, n) : std::string_view();
}

/// Text owned by a C handle, read through one of the `(handle, &ptr, &len)` getters;
/// empty when the getter fails (a NULL handle).
template <class H>
std::string_view text(tg_status (*get)(const H*, const char**, std::size_t*),
                      const H* handle) noexcept {
    const char* p = nullptr;
    std::size_t n = 0;
    if (get(handle, &p, &n) != TG_OK) return std::string_view();
    return view(p, n);
}

template <class H>
std::string_view text_at(tg_status (*get)(const H*, std::size_t, const char**, std::size_t*),
                         const H* handle, std::size_t index) noexcept {
    const char* p = nullptr;
    std::size_t n = 0;
    if (get(handle, index, &p, &n) != TG_OK) return std::string_view();
    return view(p, n);
}

/// Turns a failed status and its tg_error (possibly NULL) into an Error; frees `e`.
inline Error take_error(tg_status status, tg_error* e) {
    if (e == nullptr) return Error(status, status_name(status));
    Error out(status, std::string(text(&tg_error_message, e)),
              std::string(text(&tg_error_pointer, e)), std::string(text(&tg_error_keyword, e)));
    tg_error_free(e);
    return out;
}

/// Copies a violation list into a vector.
inline ValidationErrors copy_errors(const tg_errors* list) {
    ValidationErrors out;
    std::size_t count = 0;
    if (tg_errors_count(list, &count) == TG_OK) {
        out.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
            out.push_back(ValidationError{
                std::string(text_at(&tg_errors_path, list, i)),
                std::string(text_at(&tg_errors_pointer, list, i)),
                std::string(text_at(&tg_errors_keyword, list, i)),
                std::string(text_at(&tg_errors_message, list, i)),
                std::string(text_at(&tg_errors_schema_location, list, i)),
            });
        }
    }
    return out;
}

/// Copies a violation list into a vector; frees `list`.
inline ValidationErrors take_errors(tg_errors* list) {
    ValidationErrors out = copy_errors(list);
    tg_errors_free(list);
    return out;
}

/// The C spec of a tool: it points at the texts it is given (valid while they are).
inline tg_tool_spec spec_of(std::string_view name, std::string_view description,
                            std::string_view parameters, bool idempotent,
                            std::uint64_t timeout_ms, std::string_view output_schema,
                            bool exclusive = false) noexcept {
    tg_tool_spec s{};
    s.size = sizeof s;
    s.name = name.data();
    s.name_len = name.size();
    s.description = description.data();
    s.description_len = description.size();
    s.parameters = parameters.empty() ? nullptr : parameters.data();
    s.parameters_len = parameters.size();
    s.output_schema = output_schema.empty() ? nullptr : output_schema.data();
    s.output_schema_len = output_schema.size();
    s.idempotent = idempotent ? 1u : 0u;
    s.timeout_ms = timeout_ms;
    s.exclusive = exclusive ? 1u : 0u;
    return s;
}

/// Copies a tg_text; frees it.
inline std::string take_text(tg_text* t) {
    std::string out(text(&tg_text_data, t));
    tg_text_free(t);
    return out;
}

/// An owning C handle: move-only, frees with `Free` (which accepts NULL).
template <class T, void (*Free)(T*)>
class Handle {
public:
    Handle() noexcept = default;
    explicit Handle(T* p) noexcept : p_(p) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) reset(std::exchange(o.p_, nullptr));
        return *this;
    }
    ~Handle() { Free(p_); }

    T* get() const noexcept { return p_; }
    T* release() noexcept { return std::exchange(p_, nullptr); }
    void reset(T* p = nullptr) noexcept { Free(std::exchange(p_, p)); }

private:
    T* p_ = nullptr;
};

template <class T>
struct is_std_function : std::false_type {};
template <class Sig>
struct is_std_function<std::function<Sig>> : std::true_type {};

/// Whether F can be empty (and so must be checked before it is registered).
template <class F>
inline constexpr bool nullable_callable_v =
    std::is_pointer_v<F> || std::is_member_pointer_v<F> || is_std_function<F>::value;

template <class F>
inline constexpr bool takes_ctx_v = std::is_invocable_v<const F&, std::string_view, void*>;

template <class F>
inline constexpr bool takes_args_v = std::is_invocable_v<const F&, std::string_view>;

template <class F, bool = takes_ctx_v<F>, bool = takes_args_v<F>>
struct tool_return {
    using type = void;
};
template <class F, bool Args>
struct tool_return<F, true, Args> {
    using type = std::invoke_result_t<const F&, std::string_view, void*>;
};
template <class F>
struct tool_return<F, false, true> {
    using type = std::invoke_result_t<const F&, std::string_view>;
};
template <class F>
using tool_return_t = typename tool_return<F>::type;

template <class R>
inline constexpr bool valid_tool_return_v =
    std::is_same_v<std::decay_t<R>, Reply> ||
    (!std::is_void_v<R> && std::is_constructible_v<std::string_view, R&>);

/// The compile-time rules for a tool's callable, shared by Registry::add and Batch::add.
template <class Fn>
constexpr void check_tool_type() {
    static_assert(takes_ctx_v<Fn> || takes_args_v<Fn>,
                  "a toolgate tool is called as fn(std::string_view args) or "
                  "fn(std::string_view args, void* call_ctx) on a const object: it runs on "
                  "several threads at once, so a `mutable` lambda is refused (guard mutable "
                  "state with a mutex or atomics)");
    static_assert(valid_tool_return_v<tool_return_t<Fn>>,
                  "a toolgate tool returns its answer as something a std::string_view can "
                  "be made from (std::string, const char*, std::string_view) or a "
                  "toolgate::Reply");
}

/// The C side of a callable of type F: the handler and destroy callbacks the registry
/// is given, with the heap copy of F as user_data. (tg_handler_fn and tg_destroy_fn are
/// declared outside the header's extern "C" block, so these C++ functions have exactly
/// their types.) Both are noexcept: nothing can unwind into the library's frames.
template <class F>
struct Trampoline {
    static tg_status call(void* user_data, void* call_ctx, const char* args,
                          std::size_t args_len, tg_reply* reply) noexcept {
        const F& fn = *static_cast<const F*>(user_data);
        const std::string_view a = view(args, args_len);
#if TOOLGATE_CPP_EXCEPTIONS
        try {
#endif
            if constexpr (takes_ctx_v<F>) {
                return deliver(std::invoke(fn, a, call_ctx), reply);
            } else {
                (void)call_ctx;
                return deliver(std::invoke(fn, a), reply);
            }
#if TOOLGATE_CPP_EXCEPTIONS
        } catch (const std::exception& e) {
            const char* what = e.what();
            if (what == nullptr) what = "";
            tg_reply_error(reply, what, std::strlen(what));
            return TG_ERR_HANDLER;
        } catch (...) {
            // No message to give: the library answers `error: tool NAME failed`.
            return TG_ERR_HANDLER;
        }
#endif
    }

    static void destroy(void* user_data) noexcept { delete static_cast<F*>(user_data); }

private:
    // The library copies the text before this returns, so a temporary answer is fine.
    template <class R>
    static tg_status deliver(R&& answer, tg_reply* reply) noexcept {
        if constexpr (std::is_same_v<std::decay_t<R>, Reply>) {
            const std::string& t = answer.text();
            if (answer.is_error()) {
                tg_reply_error(reply, t.data(), t.size());
                return TG_ERR_HANDLER;
            }
            tg_reply_ok(reply, t.data(), t.size());
        } else {
            const std::string_view t(answer);
            tg_reply_ok(reply, t.data(), t.size());
        }
        return TG_OK;
    }
};

}  // namespace detail

/// A schema document that the full profile's references may reach, registered under an
/// absolute URI: `"$ref": "https://example.com/address.json"` reaches the resource
/// registered as https://example.com/address.json (a fragment after it points inside).
struct Resource {
    std::string uri;
    /// The document, JSON text.
    std::string json;
};

class CCompileOptions;

/// How a schema is compiled: for Schema::compile(json, options), and for every tool of
/// a registry (RegistryOptions::schema). Every field's zero value is its default (the
/// core profile), so set only what differs:
///
///     toolgate::CompileOptions options;
///     options.profile = TG_PROFILE_FULL;
///     options.resources.push_back({"https://example.com/address.json", address_json});
///     options.annotation_formats = {"password", "binary"};
///     toolgate::Schema schema = toolgate::Schema::compile(json, options);
struct CompileOptions {
    /// Which keywords a schema may use: TG_PROFILE_CORE (the default: the core profile's
    /// table, anything else refused) or TG_PROFILE_FULL (JSON Schema draft 2020-12, or
    /// draft-07 when `$schema` names it: references, every applicator and validation
    /// keyword, `format` asserted).
    tg_profile profile = TG_PROFILE_CORE;
    /// The draft of a full-profile schema without `$schema`: TG_DRAFT_DEFAULT (draft
    /// 2020-12), TG_DRAFT_7 or TG_DRAFT_2020_12. A schema's own `$schema` wins.
    tg_draft default_draft = TG_DRAFT_DEFAULT;
    /// The nesting limit of the schema (and its resources) and of instances. 0: the
    /// default, TG_DEFAULT_MAX_DEPTH (128); above TG_MAX_DEPTH_LIMIT: clamped to it.
    std::size_t max_depth = 0;
    /// The documents references may reach besides the schema itself and the drafts'
    /// meta-schemas (references never reach the network). One that is not JSON makes
    /// compiling fail with TG_ERR_SCHEMA (`resource "URI" is not valid JSON: ...`).
    std::vector<Resource> resources;
    /// Format names the full profile accepts as annotations only, unchecked (OpenAPI's
    /// "password", "binary"); any other format it does not assert is refused.
    std::vector<std::string> annotation_formats;
    /// True: no value of the instance appears in a violation's message (where one
    /// would be quoted it says `value`), for values that must not reach a log or a
    /// model's context. The default quotes them.
    bool masked_values = false;

    /// The C struct these options stand for (see CCompileOptions).
    [[nodiscard]] CCompileOptions c_options() const;
};

/// The C form of a CompileOptions: a tg_compile_options and the arrays it points to,
/// which point into the CompileOptions' strings: valid while that CompileOptions lives,
/// unchanged. Neither copyable nor movable (it points into itself); made only by
/// CompileOptions::c_options(), as `const auto c = options.c_options();`.
class CCompileOptions {
public:
    CCompileOptions(const CCompileOptions&) = delete;
    CCompileOptions& operator=(const CCompileOptions&) = delete;

    /// The struct, for tg_schema_compile_with or tg_registry_options.schema.
    const tg_compile_options* get() const noexcept { return &c_; }

private:
    friend struct CompileOptions;
    explicit CCompileOptions(const CompileOptions& o) {
        resources_.reserve(o.resources.size());
        for (const Resource& r : o.resources) {
            tg_resource c{};
            c.uri = r.uri.data();
            c.uri_len = r.uri.size();
            c.json = r.json.data();
            c.json_len = r.json.size();
            resources_.push_back(c);
        }
        formats_.reserve(o.annotation_formats.size());
        for (const std::string& f : o.annotation_formats) {
            tg_str c{};
            c.ptr = f.data();
            c.len = f.size();
            formats_.push_back(c);
        }
        c_.size = sizeof c_;
        c_.profile = o.profile;
        c_.default_draft = o.default_draft;
        c_.max_depth = o.max_depth;
        c_.resources = resources_.empty() ? nullptr : resources_.data();
        c_.resource_count = resources_.size();
        c_.annotation_formats = formats_.empty() ? nullptr : formats_.data();
        c_.annotation_format_count = formats_.size();
        c_.masked_values = o.masked_values ? 1u : 0u;
    }

    std::vector<tg_resource> resources_;
    std::vector<tg_str> formats_;
    tg_compile_options c_{};
};

inline CCompileOptions CompileOptions::c_options() const { return CCompileOptions(*this); }

namespace detail {

/// tg_stream_feed for SchemaStream and CallStream: whether the stream is refused (false
/// with `err` set on failure); `refused` keeps a refusal once said.
inline bool stream_feed(tg_stream* stream, std::string_view bytes, bool& refused,
                        Error& err) noexcept {
    bool now = false;
    tg_error* e = nullptr;
    const tg_status st = tg_stream_feed(stream, bytes.data(), bytes.size(), &now, &e);
    if (st != TG_OK) {
        err = take_error(st, e);
        return false;
    }
    err = Error();
    refused = refused || now;
    return now;
}

}  // namespace detail

/// An instance of a Schema validated as its bytes arrive (Schema::stream()): feed()
/// says as soon as no continuation of the bytes fed can be valid, and finish() gives
/// exactly what Schema::validate gives for all of them (docs/streaming.md says which
/// rule refuses at which byte). Move-only RAII over tg_stream.
///
/// Lifetimes: the stream borrows the compiled schema, which must outlive it: do not
/// destroy (or assign to) the Schema it came from before the stream is destroyed
/// (moving the Schema keeps the same compiled schema, and is fine).
/// Thread-safety: one thread at a time.
class SchemaStream {
public:
    /// An empty SchemaStream (no handle).
    SchemaStream() noexcept = default;
    /// Takes over a schema stream from the C API (tg_schema_stream_new).
    explicit SchemaStream(tg_stream* owned) noexcept : h_(owned) {}

    /// Feeds `bytes`, the next part of the instance; true when the stream is refused (no
    /// continuation can be valid: finish() gives the refusal's errors). A refusal is
    /// final: later feeds say true again. On failure (an empty or finished stream) sets
    /// err and returns false.
    [[nodiscard]] bool feed(std::string_view bytes, Error& err) noexcept {
        return detail::stream_feed(h_.get(), bytes, refused_, err);
    }

    /// Whether a feed said the stream is refused (false for an empty stream).
    bool refused() const noexcept { return h_.get() != nullptr && refused_; }

    /// How many bytes were fed (0 for an empty stream).
    std::size_t bytes_read() const noexcept { return tg_stream_bytes_read(h_.get()); }

    /// The verdict on all the bytes fed: exactly what Schema::validate lists for them
    /// (empty: valid; validate_at_most's, for a stream from stream_at_most), or the
    /// refusal's errors when the stream was refused. The stream
    /// is then spent: a later feed or finish fails (TG_ERR_ARGUMENT). On failure (an
    /// empty or spent stream) sets err and returns std::nullopt.
    [[nodiscard]] std::optional<ValidationErrors> finish(Error& err) noexcept {
        tg_errors* list = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_stream_finish(h_.get(), &list, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return detail::take_errors(list);
    }

#if TOOLGATE_THROWING_API
    /// Feeds `bytes`; true when the stream is refused. Throws Error (an empty or
    /// finished stream).
    bool feed(std::string_view bytes) {
        Error err;
        const bool refused_now = feed(bytes, err);
        if (err) throw err;
        return refused_now;
    }
    /// The verdict on all the bytes fed (Schema::validate's); throws Error (an empty or
    /// finished stream).
    ValidationErrors finish() {
        Error err;
        std::optional<ValidationErrors> v = finish(err);
        if (!v) throw err;
        return std::move(*v);
    }
#endif

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    tg_stream* get() const noexcept { return h_.get(); }
    tg_stream* release() noexcept { return h_.release(); }

private:
    detail::Handle<tg_stream, &tg_stream_free> h_;
    bool refused_ = false;
};

/// A compiled JSON Schema: immutable, thread-safe. Move-only.
class Schema {
public:
    /// An empty Schema (no handle).
    Schema() noexcept = default;
    /// Takes over a schema from the C API.
    explicit Schema(tg_schema* owned) noexcept : h_(owned) {}

    /// Compiles `json`. `max_depth` bounds nesting of the schema and of instances
    /// (0: TG_DEFAULT_MAX_DEPTH). Failure: TG_ERR_SCHEMA, with err.pointer() and
    /// err.keyword() saying where.
    [[nodiscard]] static std::optional<Schema> compile(std::string_view json, Error& err,
                                                       std::size_t max_depth = 0) noexcept {
        tg_schema* s = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_schema_compile(json.data(), json.size(), max_depth, &s, &e);
        return made(st, s, e, err);
    }

    /// Compiles `json` as `options` say (the profile, the default draft, the nesting
    /// limit, resources, annotation formats). Failure: TG_ERR_SCHEMA (the schema, or a
    /// resource that is not JSON), TG_ERR_ARGUMENT (a profile or draft that is none of
    /// its values), TG_ERR_UTF8 (a resource URI or a format name not UTF-8).
    [[nodiscard]] static std::optional<Schema> compile(std::string_view json,
                                                       const CompileOptions& options,
                                                       Error& err) noexcept {
        const CCompileOptions c = options.c_options();
        tg_schema* s = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_schema_compile_with(json.data(), json.size(), c.get(), &s, &e);
        return made(st, s, e, err);
    }

    /// Whether `instance` is well-formed JSON that satisfies the schema (the fast path;
    /// empty input is malformed). On failure (an empty Schema) sets err and returns false.
    [[nodiscard]] bool is_valid(std::string_view instance, Error& err) const noexcept {
        return check(&tg_schema_is_valid, instance, err);
    }

    /// `is_valid` for tool-call arguments, as a registry checks them: empty arguments
    /// (no bytes, or only whitespace) mean `{}`.
    [[nodiscard]] bool is_valid_arguments(std::string_view args, Error& err) const noexcept {
        return check(&tg_schema_is_valid_arguments, args, err);
    }

    /// Every violation of `instance`, sorted by path then message (empty: valid;
    /// malformed JSON, empty input included, is one violation at `$`, keyword `json`).
    [[nodiscard]] std::optional<ValidationErrors> validate(std::string_view instance,
                                                           Error& err) const noexcept {
        return list(&tg_schema_validate, instance, err);
    }

    /// `validate` for tool-call arguments: empty arguments mean `{}`.
    [[nodiscard]] std::optional<ValidationErrors> validate_arguments(std::string_view args,
                                                                     Error& err) const noexcept {
        return list(&tg_schema_validate_arguments, args, err);
    }

    /// `validate` listing at most `max` violations (a list that goes back to a model or
    /// a log): the first `max` met in the instance, sorted, then, when there were more,
    /// one last violation at `$` (keyword `violations`) that says so. Validation stops
    /// there, so an instance that breaks a rule a million times costs about what a valid
    /// one does. A Registry lists at most TG_LISTED_VIOLATIONS (100) in a refusal.
    [[nodiscard]] std::optional<ValidationErrors> validate_at_most(std::string_view instance,
                                                                   std::size_t max,
                                                                   Error& err) const noexcept {
        return list_at_most(&tg_schema_validate_at_most, instance, max, err);
    }

    /// `validate_at_most` for tool-call arguments: empty arguments mean `{}`.
    [[nodiscard]] std::optional<ValidationErrors> validate_arguments_at_most(
        std::string_view args, std::size_t max, Error& err) const noexcept {
        return list_at_most(&tg_schema_validate_arguments_at_most, args, max, err);
    }

    /// A stream of one instance of this schema, validated as its bytes are fed (see
    /// SchemaStream). The stream borrows the compiled schema: this Schema must not be
    /// destroyed (or assigned to) before the stream is. On failure (an empty Schema)
    /// sets err and returns std::nullopt.
    [[nodiscard]] std::optional<SchemaStream> stream(Error& err) const noexcept {
        tg_stream* st_out = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_schema_stream_new(h_.get(), &st_out, &e);
        return made_stream(st, st_out, e, err);
    }

    /// `stream` listing at most `max` violations, as `validate_at_most`: a refusal
    /// lists the first `max` and the line that says there were more, and `finish`
    /// returns what `validate_at_most` returns for the whole bytes.
    [[nodiscard]] std::optional<SchemaStream> stream_at_most(std::size_t max,
                                                             Error& err) const noexcept {
        tg_stream* st_out = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_schema_stream_new_at_most(h_.get(), max, &st_out, &e);
        return made_stream(st, st_out, e, err);
    }

private:
    static std::optional<SchemaStream> made_stream(tg_status st, tg_stream* s, tg_error* e,
                                                   Error& err) noexcept {
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return SchemaStream(s);
    }

    static std::optional<Schema> made(tg_status st, tg_schema* s, tg_error* e, Error& err) {
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return Schema(s);
    }

    using check_fn = tg_status (*)(const tg_schema*, const char*, std::size_t, bool*);
    using list_fn = tg_status (*)(const tg_schema*, const char*, std::size_t, tg_errors**,
                                  tg_error**);

    bool check(check_fn fn, std::string_view instance, Error& err) const noexcept {
        bool valid = false;
        const tg_status st = fn(h_.get(), instance.data(), instance.size(), &valid);
        if (st != TG_OK) {
            err = detail::take_error(st, nullptr);
            return false;
        }
        err = Error();
        return valid;
    }

    std::optional<ValidationErrors> list(list_fn fn, std::string_view instance,
                                         Error& err) const noexcept {
        tg_errors* list = nullptr;
        tg_error* e = nullptr;
        const tg_status st = fn(h_.get(), instance.data(), instance.size(), &list, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return detail::take_errors(list);
    }

    using list_at_most_fn = tg_status (*)(const tg_schema*, const char*, std::size_t,
                                          std::size_t, tg_errors**, tg_error**);

    std::optional<ValidationErrors> list_at_most(list_at_most_fn fn, std::string_view instance,
                                                 std::size_t max, Error& err) const noexcept {
        tg_errors* list = nullptr;
        tg_error* e = nullptr;
        const tg_status st = fn(h_.get(), instance.data(), instance.size(), max, &list, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return detail::take_errors(list);
    }

public:

#if TOOLGATE_THROWING_API
    /// Compiles `json`; throws Error (TG_ERR_SCHEMA, with pointer() and keyword()).
    static Schema compile(std::string_view json, std::size_t max_depth = 0) {
        Error err;
        std::optional<Schema> s = compile(json, err, max_depth);
        if (!s) throw err;
        return std::move(*s);
    }
    /// Compiles `json` as `options` say; throws Error (see the Error& overload).
    static Schema compile(std::string_view json, const CompileOptions& options) {
        Error err;
        std::optional<Schema> s = compile(json, options, err);
        if (!s) throw err;
        return std::move(*s);
    }
    /// Whether `instance` satisfies the schema; throws Error on an empty Schema.
    bool is_valid(std::string_view instance) const {
        Error err;
        const bool valid = is_valid(instance, err);
        if (err) throw err;
        return valid;
    }
    /// Every violation of `instance`; throws Error on an empty Schema.
    ValidationErrors validate(std::string_view instance) const {
        Error err;
        std::optional<ValidationErrors> v = validate(instance, err);
        if (!v) throw err;
        return std::move(*v);
    }
    /// `is_valid` for tool-call arguments (empty means `{}`); throws on an empty Schema.
    bool is_valid_arguments(std::string_view args) const {
        Error err;
        const bool valid = is_valid_arguments(args, err);
        if (err) throw err;
        return valid;
    }
    /// `validate` for tool-call arguments (empty means `{}`); throws on an empty Schema.
    ValidationErrors validate_arguments(std::string_view args) const {
        Error err;
        std::optional<ValidationErrors> v = validate_arguments(args, err);
        if (!v) throw err;
        return std::move(*v);
    }
    /// `validate_at_most` (see the Error& overload); throws Error on an empty Schema.
    ValidationErrors validate_at_most(std::string_view instance, std::size_t max) const {
        Error err;
        std::optional<ValidationErrors> v = validate_at_most(instance, max, err);
        if (!v) throw err;
        return std::move(*v);
    }
    /// `validate_arguments_at_most` (empty means `{}`); throws Error on an empty Schema.
    ValidationErrors validate_arguments_at_most(std::string_view args, std::size_t max) const {
        Error err;
        std::optional<ValidationErrors> v = validate_arguments_at_most(args, max, err);
        if (!v) throw err;
        return std::move(*v);
    }
    /// A stream of one instance of this schema (see the Error& overload); throws Error
    /// on an empty Schema.
    SchemaStream stream() const {
        Error err;
        std::optional<SchemaStream> st = stream(err);
        if (!st) throw err;
        return std::move(*st);
    }
    /// A stream listing at most `max` violations (see the Error& overload); throws
    /// Error on an empty Schema.
    SchemaStream stream_at_most(std::size_t max) const {
        Error err;
        std::optional<SchemaStream> st = stream_at_most(max, err);
        if (!st) throw err;
        return std::move(*st);
    }
#endif

    /// The schema as compact JSON, keys in the author's order (empty for an empty
    /// Schema).
    std::string json() const { return std::string(detail::text(&tg_schema_json, h_.get())); }

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    const tg_schema* get() const noexcept { return h_.get(); }
    tg_schema* release() noexcept { return h_.release(); }

private:
    detail::Handle<tg_schema, &tg_schema_free> h_;
};

/// The outcome of one Registry::call. Move-only. Independent of the registry: it
/// stays valid after the registry is gone. Registry::call_into refills one in place
/// (views taken from it before are then invalid).
class Result {
public:
    /// An empty Result (no handle).
    Result() noexcept = default;
    /// Takes over a result from the C API.
    explicit Result(tg_result* owned) noexcept : h_(owned) {}

    /// The id of the model's call this result answers.
    std::string call_id() const { return std::string(call_id_view()); }
    /// The name of the tool that was called.
    std::string name() const { return std::string(name_view()); }
    /// The tool's answer, or `error: ...` text the model can act on.
    std::string content() const { return std::string(content_view()); }
    /// Whether the call failed (unknown tool, invalid arguments, the tool's failure, an
    /// answer its output schema refused): every outcome but TG_OUTCOME_ANSWERED.
    bool is_error() const noexcept {
        bool v = false;
        return tg_result_is_error(h_.get(), &v) == TG_OK && v;
    }
    /// {"role":"tool","tool_call_id":ID,"content":CONTENT}, compact JSON.
    std::string tool_message() const { return std::string(tool_message_view()); }

    /// The same texts without a copy: views valid as long as this Result (empty for
    /// an empty Result).
    std::string_view call_id_view() const noexcept {
        return detail::text(&tg_result_call_id, h_.get());
    }
    std::string_view name_view() const noexcept { return detail::text(&tg_result_name, h_.get()); }
    std::string_view content_view() const noexcept {
        return detail::text(&tg_result_content, h_.get());
    }
    std::string_view tool_message_view() const noexcept {
        return detail::text(&tg_result_tool_message, h_.get());
    }

    /// What became of the call: TG_OUTCOME_ANSWERED, or the kind of failure
    /// (TG_OUTCOME_UNKNOWN_TOOL, _INVALID_ARGUMENTS, _HANDLER_FAILED, _INVALID_RESULT,
    /// _INTERNAL; for Registry::dispatch also _TIMED_OUT, _NOT_RUN, _CANCELLED).
    /// TG_OUTCOME_INTERNAL for an empty Result (outcome_name() spells each).
    tg_outcome outcome() const noexcept {
        tg_outcome v = TG_OUTCOME_INTERNAL;
        return tg_result_outcome(h_.get(), &v) == TG_OK ? v : TG_OUTCOME_INTERNAL;
    }
    /// Whether the content is the tool's answer checked against its output schema (so
    /// JSON of that shape).
    bool structured() const noexcept {
        bool v = false;
        return tg_result_structured(h_.get(), &v) == TG_OK && v;
    }
    /// The violations of a refused call (its arguments, or the tool's answer against
    /// its output schema), each with its schema location; empty otherwise.
    ValidationErrors violations() const {
        const tg_errors* list = nullptr;
        if (tg_result_violations(h_.get(), &list) != TG_OK) return ValidationErrors();
        return detail::copy_errors(list);
    }
    /// For TG_OUTCOME_INVALID_RESULT: the tool's answer its output schema refused (the
    /// content holds the refusal instead); none otherwise.
    std::optional<std::string> invalid_result() const {
        const std::optional<std::string_view> v = invalid_result_view();
        if (!v) return std::nullopt;
        return std::string(*v);
    }
    /// invalid_result() without a copy: a view valid as long as this Result.
    std::optional<std::string_view> invalid_result_view() const noexcept {
        const char* p = nullptr;
        std::size_t n = 0;
        if (tg_result_invalid_result(h_.get(), &p, &n) != TG_OK || p == nullptr) {
            return std::nullopt;
        }
        return std::string_view(p, n);
    }
    /// The item that answers the call in `dialect`'s shape, compact JSON
    /// (TG_DIALECT_OPENAI_CHAT: tool_message()). Fails with TG_ERR_ARGUMENT for a value
    /// that is not a tg_dialect, TG_ERR_NULL for an empty Result.
    [[nodiscard]] std::optional<std::string> dialect_json(tg_dialect dialect,
                                                          Error& err) const noexcept {
        tg_text* t = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_result_dialect_json(h_.get(), dialect, &t, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return detail::take_text(t);
    }
#if TOOLGATE_THROWING_API
    /// dialect_json(); throws Error.
    std::string dialect_json(tg_dialect dialect) const {
        Error err;
        std::optional<std::string> out = dialect_json(dialect, err);
        if (!out) throw err;
        return std::move(*out);
    }
#endif

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    const tg_result* get() const noexcept { return h_.get(); }
    tg_result* release() noexcept { return h_.release(); }

private:
    friend class Registry;
    detail::Handle<tg_result, &tg_result_free> h_;
};

/// What answers all the calls of one model turn in `dialect`'s shape, in the order of
/// `results` (tg_results_message_json): OpenAI's arrays of tool messages or
/// function_call_output items, Anthropic's user message, Gemini's Content, MCP's array
/// of JSON-RPC responses. Fails with TG_ERR_ARGUMENT (not a tg_dialect) or TG_ERR_NULL
/// (a null pointer or an empty Result among `results`).
[[nodiscard]] inline std::optional<std::string> results_message_json(
    tg_dialect dialect, const std::vector<const Result*>& results, Error& err) noexcept {
    std::vector<const tg_result*> c(results.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        c[i] = results[i] != nullptr ? results[i]->get() : nullptr;
    }
    tg_text* t = nullptr;
    tg_error* e = nullptr;
    const tg_status st = tg_results_message_json(dialect, c.data(), c.size(), &t, &e);
    if (st != TG_OK) {
        err = detail::take_error(st, e);
        return std::nullopt;
    }
    err = Error();
    return detail::take_text(t);
}
/// results_message_json for a vector of Results.
[[nodiscard]] inline std::optional<std::string> results_message_json(
    tg_dialect dialect, const std::vector<Result>& results, Error& err) noexcept {
    std::vector<const Result*> pointers(results.size());
    for (std::size_t i = 0; i < results.size(); ++i) pointers[i] = &results[i];
    return results_message_json(dialect, pointers, err);
}

/// The tool calls of a provider's response in `dialect`'s shape (tg_calls_read), in
/// the provider's order; empty for a response without calls. Fails with
/// TG_ERR_RESPONSE (not JSON, not the dialect's shape, a malformed call: the message
/// names it) or TG_ERR_ARGUMENT (not a tg_dialect).
[[nodiscard]] inline std::optional<std::vector<ToolCall>> read_calls(tg_dialect dialect,
                                                                     std::string_view response,
                                                                     Error& err) noexcept {
    tg_calls* calls = nullptr;
    tg_error* e = nullptr;
    const tg_status st = tg_calls_read(dialect, response.data(), response.size(), &calls, &e);
    if (st != TG_OK) {
        err = detail::take_error(st, e);
        return std::nullopt;
    }
    err = Error();
    std::vector<ToolCall> out;
    std::size_t count = 0;
    if (tg_calls_count(calls, &count) == TG_OK) {
        out.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
            out.push_back(ToolCall{std::string(detail::text_at(&tg_calls_id, calls, i)),
                                   std::string(detail::text_at(&tg_calls_name, calls, i)),
                                   std::string(detail::text_at(&tg_calls_arguments, calls, i))});
        }
    }
    tg_calls_free(calls);
    return out;
}

#if TOOLGATE_THROWING_API
/// results_message_json(); throws Error.
inline std::string results_message_json(tg_dialect dialect,
                                        const std::vector<const Result*>& results) {
    Error err;
    std::optional<std::string> out = results_message_json(dialect, results, err);
    if (!out) throw err;
    return std::move(*out);
}
/// results_message_json() for a vector of Results; throws Error.
inline std::string results_message_json(tg_dialect dialect, const std::vector<Result>& results) {
    Error err;
    std::optional<std::string> out = results_message_json(dialect, results, err);
    if (!out) throw err;
    return std::move(*out);
}
/// read_calls(); throws Error (TG_ERR_RESPONSE for a malformed response).
inline std::vector<ToolCall> read_calls(tg_dialect dialect, std::string_view response) {
    Error err;
    std::optional<std::vector<ToolCall>> out = read_calls(dialect, response, err);
    if (!out) throw err;
    return std::move(*out);
}
#endif

class CRegistryOptions;

/// How a registry is set up: its name policy, the largest arguments it reads, its
/// nesting limit and how its tools' schemas are compiled. Every field's zero value is
/// its default, so set only what differs:
///
///     toolgate::RegistryOptions options;
///     options.max_argument_bytes = 64 * 1024;
///     options.schema.profile = TG_PROFILE_FULL;
///     toolgate::Registry reg(options);
struct RegistryOptions {
    /// Which tool names the registry accepts.
    tg_name_policy names = TG_NAMES_DEFAULT;
    /// The largest argument text a call or a validation reads, in bytes; longer arguments
    /// are refused unread (`error: invalid arguments for NAME: N bytes is more than the
    /// limit of M`). 0: the default, TG_DEFAULT_MAX_ARGUMENT_BYTES (4 MiB); no_limit: none.
    std::size_t max_argument_bytes = 0;
    /// The nesting limit of the tools' schemas and of the arguments of calls. 0: the
    /// default, TG_DEFAULT_MAX_DEPTH (128); above TG_MAX_DEPTH_LIMIT: clamped to it.
    /// schema.max_depth says the same: set either (both only to the same value, or
    /// creating the registry fails with TG_ERR_ARGUMENT).
    std::size_t max_depth = 0;
    /// How every tool's parameters schema is compiled: the profile (TG_PROFILE_FULL for
    /// JSON Schema draft 2020-12 and draft-07), the default draft, resources, annotation
    /// formats. The default is the core profile.
    CompileOptions schema;
    /// The target dialects every tool must pass the lint of, as TG_TARGET_* bits
    /// (TG_TARGET_OPENAI_STRICT | TG_TARGET_GEMINI; 0, the default: none). A tool one of
    /// them would refuse is refused (TG_ERR_SCHEMA, every problem in the message), and
    /// the definitions of OpenAI (Anthropic) say "strict": true when its strict target
    /// is among them.
    std::uint32_t targets = 0;
    /// True: no value of an instance appears in a violation's message, of arguments and
    /// of answers alike (where one would be quoted it says `value`). schema.masked_values
    /// says the same: either masks. The default quotes them.
    bool masked_values = false;

    /// max_argument_bytes for a registry that reads arguments of any size.
    static constexpr std::size_t no_limit = SIZE_MAX;

    /// The C struct these options stand for (see CRegistryOptions).
    [[nodiscard]] CRegistryOptions c_options() const;
};

/// The C form of a RegistryOptions: a tg_registry_options whose `schema` points to the
/// CCompileOptions it also holds. Valid while the RegistryOptions it was made from
/// lives, unchanged; neither copyable nor movable. Made only by
/// RegistryOptions::c_options(), as `const auto c = options.c_options();`.
class CRegistryOptions {
public:
    CRegistryOptions(const CRegistryOptions&) = delete;
    CRegistryOptions& operator=(const CRegistryOptions&) = delete;

    /// The struct, for tg_registry_new_with.
    const tg_registry_options* get() const noexcept { return &c_; }

private:
    friend struct RegistryOptions;
    explicit CRegistryOptions(const RegistryOptions& o) : schema_(o.schema.c_options()) {
        c_.size = sizeof c_;
        c_.name_policy = o.names;
        c_.max_argument_bytes = o.max_argument_bytes;
        c_.max_depth = o.max_depth;
        c_.schema = schema_.get();
        c_.targets = o.targets;
        c_.masked_values = o.masked_values ? 1u : 0u;
    }

    CCompileOptions schema_;
    tg_registry_options c_{};
};

inline CRegistryOptions RegistryOptions::c_options() const { return CRegistryOptions(*this); }

/// A parameters schema converted to the form a target accepts (strict_schema).
struct StrictSchema {
    /// The converted schema, compact JSON.
    std::string schema;
    /// What the conversion did: {"nullable":[POINTER...],"closed":[POINTER...]}, the
    /// optional properties made required and nullable (the tool receives null for
    /// them) and the objects closed with "additionalProperties": false.
    std::string report;
};

/// Converts one parameters schema (JSON) to the form `target` accepts, keeping what it
/// means except for what the report states. When no such form exists: std::nullopt,
/// and `err` is TG_ERR_SCHEMA with one "#POINTER: MESSAGE [RULE]" line per reason, its
/// pointer and keyword the first reason's pointer and rule.
[[nodiscard]] inline std::optional<StrictSchema> strict_schema(tg_lint_target target,
                                                               std::string_view json,
                                                               Error& err) noexcept {
    tg_text* schema = nullptr;
    tg_text* report = nullptr;
    tg_error* e = nullptr;
    const tg_status st = tg_strict_schema(target, json.data(), json.size(), &schema, &report, &e);
    if (st != TG_OK) {
        err = detail::take_error(st, e);
        return std::nullopt;
    }
    err = Error();
    StrictSchema out;
    out.schema = detail::take_text(schema);
    out.report = detail::take_text(report);
    return out;
}

/// Every problem `target` finds in one parameters schema on its own (no tool name to
/// check): a compact JSON array of {tool: "", pointer, rule, message}, sorted ("[]" when
/// there is none).
[[nodiscard]] inline std::optional<std::string> lint_schema(tg_lint_target target,
                                                            std::string_view json,
                                                            Error& err) noexcept {
    tg_text* t = nullptr;
    tg_error* e = nullptr;
    const tg_status st = tg_schema_lint(target, json.data(), json.size(), &t, &e);
    if (st != TG_OK) {
        err = detail::take_error(st, e);
        return std::nullopt;
    }
    err = Error();
    return detail::take_text(t);
}

#if TOOLGATE_THROWING_API
/// strict_schema that throws Error when no strict form exists.
inline StrictSchema strict_schema(tg_lint_target target, std::string_view json) {
    Error err;
    auto out = strict_schema(target, json, err);
    if (!out) throw err;
    return std::move(*out);
}
/// lint_schema that throws Error (an unknown target, text that is not UTF-8).
inline std::string lint_schema(tg_lint_target target, std::string_view json) {
    Error err;
    auto out = lint_schema(target, json, err);
    if (!out) throw err;
    return std::move(*out);
}
#endif

/// A registry of tools. Move-only; destroying it (or assigning another registry to it)
/// destroys every tool's callable, once. No call may be running on it then, in
/// particular not from inside one of its tools.
/// Many tools to register at once with Registry::add_batch: all of them or none, for
/// one copy of the registry's tool set instead of one per tool. add() copies the
/// definition's texts and takes the callable; a Batch never registered destroys its
/// callables when it goes away.
class Batch {
public:
    Batch() = default;
    Batch(Batch&& o) noexcept : items_(std::move(o.items_)) { o.items_.clear(); }
    Batch& operator=(Batch&& o) noexcept {
        if (this != &o) {
            destroy_all();
            items_ = std::move(o.items_);
            o.items_.clear();
        }
        return *this;
    }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    ~Batch() { destroy_all(); }

    /// Adds the tool `def` run by `fn` (the same callables as Registry::add). Fails
    /// with TG_ERR_NULL for an empty std::function or function pointer; everything
    /// else (names, schemas, duplicates) is checked by Registry::add_batch.
    template <class F>
    [[nodiscard]] bool add(const ToolDef& def, F&& fn, Error& err) {
        using Fn = std::decay_t<F>;
        detail::check_tool_type<Fn>();
        if constexpr (detail::nullable_callable_v<Fn>) {
            if (!fn) {
                err = Error(TG_ERR_NULL, "the tool's callable is empty");
                return false;
            }
        }
        Item item{std::string(def.name),       std::string(def.description),
                  std::string(def.parameters), std::string(def.output_schema),
                  def.idempotent,              def.timeout_ms,
                  def.exclusive,               &detail::Trampoline<Fn>::call,
                  nullptr,
                  &detail::Trampoline<Fn>::destroy};
        items_.reserve(items_.size() + 1);  // the one step that may throw comes first
        item.user_data = new Fn(std::forward<F>(fn));
        items_.push_back(std::move(item));
        err = Error();
        return true;
    }
#if TOOLGATE_THROWING_API
    /// add(); throws Error.
    template <class F>
    Batch& add(const ToolDef& def, F&& fn) {
        Error err;
        if (!add(def, std::forward<F>(fn), err)) throw err;
        return *this;
    }
#endif

    /// How many tools the batch holds.
    std::size_t size() const noexcept { return items_.size(); }
    bool empty() const noexcept { return items_.empty(); }

private:
    friend class Registry;
    struct Item {
        std::string name, description, parameters, output_schema;
        bool idempotent;
        std::uint64_t timeout_ms;
        bool exclusive;
        tg_handler_fn handler;
        void* user_data;
        tg_destroy_fn destroy;
    };

    /// Hands every callable to the library (which destroys them itself from now on)
    /// and returns the status of tg_registry_register_tools.
    tg_status register_into(tg_registry* r, std::uint32_t flags, tg_error** e) noexcept {
        std::vector<tg_tool_spec> specs(items_.size());
        std::vector<tg_tool_binding> tools(items_.size());
        for (std::size_t i = 0; i < items_.size(); ++i) {
            const Item& it = items_[i];
            specs[i] = detail::spec_of(it.name, it.description, it.parameters, it.idempotent,
                                       it.timeout_ms, it.output_schema, it.exclusive);
            tools[i].spec = &specs[i];
            tools[i].handler = it.handler;
            tools[i].user_data = it.user_data;
            tools[i].destroy = it.destroy;
        }
        const tg_status st = tg_registry_register_tools(r, tools.data(), tools.size(), flags, e);
        items_.clear();  // owned by the library now, whatever the status
        return st;
    }

    void destroy_all() noexcept {
        for (Item& it : items_) it.destroy(it.user_data);
        items_.clear();
    }

    std::vector<Item> items_;
};

/// The name of `outcome` as every host spells it ("answered", "unknown_tool",
/// "invalid_arguments", "handler_failed", "invalid_result", "internal", "timed_out",
/// "not_run", "cancelled"); nullptr for a value that is not a tg_outcome
/// (tg_outcome_name()). Static text.
inline const char* outcome_name(tg_outcome outcome) noexcept { return tg_outcome_name(outcome); }

/// The host's way to stop dispatches from another thread (a user who pressed stop):
/// given in DispatchOptions::canceller, cancel() makes the calls of those dispatches not
/// yet answered end with `error: call cancelled` (TG_OUTCOME_CANCELLED), tells their
/// tools (RunningCall::cancelled()), and makes Registry::dispatch return at once. One
/// Canceller may serve several dispatches; once cancelled it stays so.
///
/// Move-only RAII over tg_canceller. It must outlive every dispatch given it (destroy
/// it only after they have returned). cancel() may be called from any thread, while
/// dispatches use it.
class Canceller {
public:
    /// A new canceller, not cancelled (tg_canceller_new never fails).
    Canceller() noexcept : h_(tg_canceller_new()) {}
    /// Takes over a canceller from the C API.
    explicit Canceller(tg_canceller* owned) noexcept : h_(owned) {}

    /// Cancels every dispatch given this canceller, running or to come. It does not
    /// wait: each dispatch cancels its calls on its own thread. False only for an empty
    /// (moved-from) Canceller.
    bool cancel() const noexcept { return tg_canceller_cancel(h_.get()) == TG_OK; }

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    const tg_canceller* get() const noexcept { return h_.get(); }
    tg_canceller* release() noexcept { return h_.release(); }

private:
    detail::Handle<tg_canceller, &tg_canceller_free> h_;
};

/// How one Registry::dispatch runs its calls. Every field's zero value means its
/// default (tg_dispatch_options).
struct DispatchOptions {
    /// What a refused call does to the rest of the batch: TG_DISPATCH_ISOLATE (the
    /// default: the valid calls run) or TG_DISPATCH_ALL_OR_NOTHING (no call runs; the
    /// others get `error: not run: ...`, TG_OUTCOME_NOT_RUN). Another value fails the
    /// dispatch with TG_ERR_ARGUMENT.
    std::uint32_t policy = TG_DISPATCH_ISOLATE;
    /// How many calls run at once; 0: the default, 8.
    std::uint32_t max_concurrency = 0;
    /// The most calls one batch may hold (a longer batch runs none); 0: the default, 128.
    std::uint32_t max_batch = 0;
    /// A deadline for the whole dispatch, in ms from its start; 0: none. The earliest
    /// of it and the tool's timeout_ms applies: a call still running then gets
    /// `error: tool NAME timed out after N ms` (TG_OUTCOME_TIMED_OUT).
    std::uint64_t timeout_ms = 0;
    /// How many times a call may run, the first included (only an idempotent tool whose
    /// handler failed after RunningCall::retry_later() runs again); 0: the default, 3.
    std::uint32_t max_attempts = 0;
    /// The pause before the first retry in ms, doubled before each next one; 0: the
    /// default, 100.
    std::uint64_t backoff_ms = 0;
    /// The host's canceller, or nullptr; borrowed for the dispatch (it must outlive it).
    const Canceller* canceller = nullptr;

    /// The C struct (its `size` set, the canceller's handle lent).
    tg_dispatch_options c_options() const noexcept {
        tg_dispatch_options o{};
        o.size = sizeof o;
        o.policy = policy;
        o.max_concurrency = max_concurrency;
        o.max_batch = max_batch;
        o.timeout_ms = timeout_ms;
        o.max_attempts = max_attempts;
        o.backoff_ms = backoff_ms;
        o.canceller = canceller != nullptr ? canceller->get() : nullptr;
        return o;
    }
};

/// The dispatched call a tool is running, as the tool sees it: whether the call is
/// cancelled (its deadline passed, or the host cancelled the dispatch), how long it
/// has left, and a way to mark a failure transient so that an idempotent tool is run
/// again. Get it with RunningCall::current() inside the tool, on the thread the tool
/// was called on; it is empty (`explicit operator bool` false) for a tool called by
/// Registry::call and outside tools. Move-only RAII over tg_running_call; it stays
/// valid after the call has ended (never cancelled then), and every member may be
/// used from any thread, so a tool may hand it to the threads doing its work.
///
/// A tool past its deadline is not stopped: its result is already the timeout's and
/// Registry::dispatch may have returned, but the tool keeps running until it returns
/// (what it answers is dropped). A tool that may block should poll cancelled().
class RunningCall {
public:
    /// An empty RunningCall.
    RunningCall() noexcept = default;
    /// Takes over a running call from the C API (nullptr: empty).
    explicit RunningCall(tg_running_call* owned) noexcept : h_(owned) {}

    /// The dispatched call the calling thread's tool is running; empty when there is
    /// none (a tool called by Registry::call, a thread not inside a tool).
    static RunningCall current() noexcept { return RunningCall(tg_running_call_current()); }

    /// True once the call's answer is no longer wanted: its deadline passed or the
    /// host cancelled the dispatch. False for an empty RunningCall.
    bool cancelled() const noexcept { return tg_running_call_cancelled(h_.get()); }
    /// The milliseconds left before the call's deadline (0 once it has passed), or -1
    /// when it has none (and for an empty RunningCall).
    std::int64_t ms_left() const noexcept { return tg_running_call_ms_left(h_.get()); }
    /// Marks the current attempt's failure as transient: when the tool then fails
    /// (throws, or returns Reply::error), an idempotent tool runs again after a backoff
    /// if attempts are left. False only for an empty RunningCall.
    bool retry_later() const noexcept { return tg_running_call_retry_later(h_.get()) == TG_OK; }
    /// Calls `fn(data)` once when the call is cancelled (tg_running_call_on_cancel):
    /// on the thread that called Registry::dispatch, before it returns, or at once, on
    /// this thread, if the call already is cancelled; never for a call answered in
    /// time. `fn` must be quick, must not block and must not throw. Nothing is owned:
    /// `data` must stay valid until `fn` has run or the dispatch has returned (the
    /// callback may run after the tool has returned, when it answered just as its
    /// deadline passed), so it must not point into the tool's stack frame unless the
    /// tool waits for the cancellation. False for an empty RunningCall or a null `fn`.
    bool on_cancel(tg_cancel_fn fn, void* data) const noexcept {
        return tg_running_call_on_cancel(h_.get(), fn, data) == TG_OK;
    }

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    const tg_running_call* get() const noexcept { return h_.get(); }
    tg_running_call* release() noexcept { return h_.release(); }

private:
    detail::Handle<tg_running_call, &tg_running_call_free> h_;
};

/// The arguments of one tool call validated as they arrive (Registry::stream_call()):
/// feed() says as soon as no continuation can be valid, and finish() runs the call on
/// all the bytes fed exactly as Registry::call runs it (empty arguments mean `{}`, the
/// size limit, the output schema) and gives the same Result. The tool runs only in
/// finish(): a stream destroyed unfinished runs nothing, and a refused one never runs
/// it. Move-only RAII over tg_stream.
///
/// Lifetimes: the stream borrows the registry, which must outlive it: do not destroy
/// (or assign to) the Registry it came from before the stream is destroyed (moving the
/// Registry keeps the same registry, and is fine).
/// Thread-safety: one thread at a time; the registry stays usable from other threads.
class CallStream {
public:
    /// An empty CallStream (no handle).
    CallStream() noexcept = default;
    /// Takes over a call stream from the C API (tg_registry_stream_call_new).
    explicit CallStream(tg_stream* owned) noexcept : h_(owned) {}

    /// Feeds `bytes`, the next part of the arguments; true when the call is refused (no
    /// continuation can be valid, or the tool is unknown: finish() gives the refusal's
    /// Result and runs nothing). A refusal is final: later feeds say true again. On
    /// failure (an empty or finished stream) sets err and returns false.
    [[nodiscard]] bool feed(std::string_view bytes, Error& err) noexcept {
        return detail::stream_feed(h_.get(), bytes, refused_, err);
    }

    /// Whether the call is refused: an unknown tool from the start, else once a feed
    /// said so (false for an empty stream).
    bool refused() const noexcept { return h_.get() != nullptr && refused_; }

    /// How many bytes were fed (0 for an empty stream).
    std::size_t bytes_read() const noexcept { return tg_stream_bytes_read(h_.get()); }

    /// Runs the call with all the bytes fed, as Registry::call runs it (`call_ctx` handed
    /// to a tool that takes it), and gives its Result; a refused stream gives its
    /// refusal, and no tool runs. The stream is then spent: a later feed or finish fails
    /// (TG_ERR_ARGUMENT). On failure (an empty or spent stream) sets err and returns
    /// std::nullopt.
    [[nodiscard]] std::optional<Result> finish(void* call_ctx, Error& err) noexcept {
        tg_result* r = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_stream_finish_call(h_.get(), call_ctx, &r, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return Result(r);
    }
    [[nodiscard]] std::optional<Result> finish(Error& err) noexcept {
        return finish(nullptr, err);
    }

#if TOOLGATE_THROWING_API
    /// Feeds `bytes`; true when the call is refused. Throws Error (an empty or finished
    /// stream).
    bool feed(std::string_view bytes) {
        Error err;
        const bool refused_now = feed(bytes, err);
        if (err) throw err;
        return refused_now;
    }
    /// Runs the call with all the bytes fed and gives Registry::call's Result; throws
    /// Error only for the caller's own mistakes (an empty or finished stream).
    Result finish(void* call_ctx = nullptr) {
        Error err;
        std::optional<Result> r = finish(call_ctx, err);
        if (!r) throw err;
        return std::move(*r);
    }
#endif

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    tg_stream* get() const noexcept { return h_.get(); }
    tg_stream* release() noexcept { return h_.release(); }

private:
    detail::Handle<tg_stream, &tg_stream_free> h_;
    bool refused_ = false;
};

class Registry {
public:
    /// Takes over a registry from the C API (nullptr: an empty Registry, as a
    /// moved-from one is). A new registry comes from Registry(policy) or create().
    explicit Registry(tg_registry* owned) noexcept : h_(owned) {}

    /// A new, empty registry whose tool names follow `policy`.
    [[nodiscard]] static std::optional<Registry> create(tg_name_policy policy,
                                                        Error& err) noexcept {
        tg_registry* r = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_new(policy, &r, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return Registry(r);
    }
    [[nodiscard]] static std::optional<Registry> create(Error& err) noexcept {
        return create(TG_NAMES_DEFAULT, err);
    }
    /// A new, empty registry set up by `options`. Failure: TG_ERR_ARGUMENT (a name
    /// policy, profile or draft that is none of its values; two different nesting
    /// limits), TG_ERR_SCHEMA (a resource that is not JSON), TG_ERR_UTF8 (a resource URI
    /// or a format name not UTF-8).
    [[nodiscard]] static std::optional<Registry> create(const RegistryOptions& options,
                                                        Error& err) noexcept {
        const CRegistryOptions o = options.c_options();
        tg_registry* r = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_new_with(o.get(), &r, &e);
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return std::nullopt;
        }
        err = Error();
        return Registry(r);
    }

    /// Registers `fn` as the tool `def`; fails with TG_ERR_DUPLICATE when the name is
    /// taken (and TG_ERR_NAME, TG_ERR_SCHEMA, TG_ERR_NOT_OBJECT, TG_ERR_NULL for an
    /// empty std::function or function pointer). Whatever the outcome, the registry's
    /// copy of `fn` is destroyed exactly once (right away when this fails).
    template <class F>
    [[nodiscard]] bool add(const ToolDef& def, F&& fn, Error& err) noexcept {
        return register_tool(def, std::forward<F>(fn), 0, err);
    }
    /// As add(), but a tool of the same name is replaced (its callable is destroyed
    /// once its running calls have returned).
    template <class F>
    [[nodiscard]] bool add_or_replace(const ToolDef& def, F&& fn, Error& err) noexcept {
        return register_tool(def, std::forward<F>(fn), TG_REGISTER_OVERRIDE, err);
    }

    /// Registers every tool of `batch`, or none (see Batch): each is checked as add()
    /// checks one, a name listed twice is refused (TG_ERR_DUPLICATE), and the error
    /// names the first tool refused. The batch is emptied whatever the outcome; the
    /// callables of a refused batch are destroyed before this returns.
    [[nodiscard]] bool add_batch(Batch&& batch, Error& err) noexcept {
        tg_error* e = nullptr;
        const tg_status st = batch.register_into(h_.get(), 0, &e);
        return done(st, e, err);
    }
    /// As add_batch(), but tools of the same names are replaced.
    [[nodiscard]] bool add_or_replace_batch(Batch&& batch, Error& err) noexcept {
        tg_error* e = nullptr;
        const tg_status st = batch.register_into(h_.get(), TG_REGISTER_OVERRIDE, &e);
        return done(st, e, err);
    }

    /// Removes the tool `name` (TG_ERR_NOT_FOUND if there is none). Calls running on
    /// it finish; its callable is destroyed once they have.
    [[nodiscard]] bool remove(std::string_view name, Error& err) noexcept {
        tg_error* e = nullptr;
        const tg_status st = tg_registry_unregister(h_.get(), name.data(), name.size(), &e);
        return done(st, e, err);
    }

    /// The tool `name`: description, parameters, metadata (TG_ERR_NOT_FOUND).
    [[nodiscard]] std::optional<ToolInfo> describe(std::string_view name,
                                                   Error& err) const noexcept {
        tg_tool_info* info = nullptr;
        tg_error* e = nullptr;
        const tg_status st =
            tg_registry_describe(h_.get(), name.data(), name.size(), &info, &e);
        if (!done(st, e, err)) return std::nullopt;
        ToolInfo out;
        out.name = std::string(detail::text(&tg_tool_info_name, info));
        out.description = std::string(detail::text(&tg_tool_info_description, info));
        out.parameters = std::string(detail::text(&tg_tool_info_parameters, info));
        tg_tool_info_idempotent(info, &out.idempotent);
        tg_tool_info_timeout_ms(info, &out.timeout_ms);
        const char* schema = nullptr;
        std::size_t schema_len = 0;
        if (tg_tool_info_output_schema(info, &schema, &schema_len) == TG_OK &&
            schema != nullptr) {
            out.output_schema = std::string(schema, schema_len);
        }
        tg_tool_info_free(info);
        return out;
    }

    /// The registered tool names, sorted (byte order).
    [[nodiscard]] std::optional<std::vector<std::string>> names(Error& err) const noexcept {
        tg_text* t = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_names(h_.get(), &t, &e);
        if (!done(st, e, err)) return std::nullopt;
        const std::string joined = detail::take_text(t);
        std::vector<std::string> out;
        if (joined.empty()) return out;
        std::size_t start = 0;
        for (;;) {
            const std::size_t nl = joined.find('\n', start);
            out.push_back(joined.substr(start, nl - start));
            if (nl == std::string::npos) break;
            start = nl + 1;
        }
        return out;
    }

    /// The tool definitions to send to the model: a compact JSON array of
    /// {name, description, parameters} sorted by name, byte-identical on every run.
    [[nodiscard]] std::optional<std::string> definitions(Error& err) const noexcept {
        tg_text* t = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_definitions(h_.get(), &t, &e);
        if (!done(st, e, err)) return std::nullopt;
        return detail::take_text(t);
    }

    /// The tools in a provider's shape (`dialect`), sorted by name, byte-stable, and
    /// the SHA-256 of those bytes (64 hex digits), for a prompt-cache key.
    /// Never what the provider would refuse: a dotted name is written with "_" for each
    /// "." for OpenAI, Anthropic and Gemini (a call by that spelling reaches the tool);
    /// anything else the provider's rules find fails with TG_ERR_NAME or TG_ERR_SCHEMA,
    /// the message naming each tool and rule.
    struct DialectDefinitions {
        std::string json;
        std::string fingerprint;
    };
    [[nodiscard]] std::optional<DialectDefinitions> definitions(tg_dialect dialect,
                                                                Error& err) const noexcept {
        tg_text* t = nullptr;
        tg_text* f = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_dialect_definitions(h_.get(), dialect, &t, &f, &e);
        if (!done(st, e, err)) return std::nullopt;
        DialectDefinitions out;
        out.json = detail::take_text(t);
        out.fingerprint = detail::take_text(f);
        return out;
    }

    /// Every problem `target` finds in the registered tools: a compact JSON array of
    /// {tool, pointer, rule, message}, sorted ("[]" when there is none).
    [[nodiscard]] std::optional<std::string> lint(tg_lint_target target,
                                                  Error& err) const noexcept {
        tg_text* t = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_lint(h_.get(), target, &t, &e);
        if (!done(st, e, err)) return std::nullopt;
        return detail::take_text(t);
    }

    /// Validates `args` against the parameters of the tool `name` without running it.
    [[nodiscard]] std::optional<ValidationErrors> validate(std::string_view name,
                                                           std::string_view args,
                                                           Error& err) const noexcept {
        tg_errors* list = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_validate(h_.get(), name.data(), name.size(),
                                                  args.data(), args.size(), &list, &e);
        if (!done(st, e, err)) return std::nullopt;
        return detail::take_errors(list);
    }

    /// Calls the tool `name` with the argument bytes `args` for the model's call
    /// `call_id`. Whatever the model sent, this gives a Result (an unknown tool,
    /// malformed JSON, schema violations and the tool's failure are error results);
    /// only the caller's own mistakes fail: TG_ERR_UTF8 (call_id or name not UTF-8),
    /// TG_ERR_NULL (an empty Registry). `call_ctx` is handed to a tool that takes it.
    [[nodiscard]] std::optional<Result> call(std::string_view call_id, std::string_view name,
                                             std::string_view args, void* call_ctx,
                                             Error& err) const noexcept {
        tg_result* r = nullptr;
        tg_error* e = nullptr;
        const tg_status st =
            tg_registry_call(h_.get(), call_id.data(), call_id.size(), name.data(), name.size(),
                             args.data(), args.size(), call_ctx, &r, &e);
        if (!done(st, e, err)) return std::nullopt;
        return Result(r);
    }
    [[nodiscard]] std::optional<Result> call(std::string_view call_id, std::string_view name,
                                             std::string_view args, Error& err) const noexcept {
        return call(call_id, name, args, nullptr, err);
    }

    /// call(), into `into`, which is refilled in place (made first if it is empty):
    /// reusing one Result per thread for many calls allocates nothing per call once its
    /// buffers have grown to fit. False, with `err` set and `into` unchanged, only for
    /// the caller's own mistakes (as for call()). `into` must not be used elsewhere,
    /// nor by the tool the call runs, until this returns.
    [[nodiscard]] bool call_into(std::string_view call_id, std::string_view name,
                                 std::string_view args, void* call_ctx, Result& into,
                                 Error& err) const noexcept {
        tg_error* e = nullptr;
        if (!into) {
            tg_result* fresh = nullptr;
            if (!done(tg_result_new(&fresh, &e), e, err)) return false;
            into = Result(fresh);
        }
        const tg_status st = tg_registry_call_into(h_.get(), call_id.data(), call_id.size(),
                                                   name.data(), name.size(), args.data(),
                                                   args.size(), call_ctx, into.h_.get(), &e);
        return done(st, e, err);
    }

    /// Starts the call `call_id` of the tool `name` whose arguments arrive in pieces (a
    /// provider's argument deltas): see CallStream. The tool runs only in
    /// CallStream::finish(), as call() would run it on all the bytes fed. An unknown
    /// tool is refused at once (refused() is true, finish() gives call()'s Result). The
    /// stream borrows the registry: this Registry must not be destroyed (or assigned to)
    /// before the stream is. Fails only for the caller's own mistakes, as call() does:
    /// TG_ERR_UTF8 (call_id or name not UTF-8), TG_ERR_NULL (an empty Registry).
    [[nodiscard]] std::optional<CallStream> stream_call(std::string_view call_id,
                                                        std::string_view name,
                                                        Error& err) const noexcept {
        tg_stream* st_out = nullptr;
        tg_error* e = nullptr;
        const tg_status st = tg_registry_stream_call_new(h_.get(), call_id.data(), call_id.size(),
                                                         name.data(), name.size(), &st_out, &e);
        if (!done(st, e, err)) return std::nullopt;
        std::optional<CallStream> out(CallStream{st_out});
        // Feeding nothing asks whether the call is refused already (an unknown tool).
        Error ignored;
        (void)out->feed(std::string_view(), ignored);
        return out;
    }

    /// Runs the calls of one model turn together (tg_registry_dispatch) and gives one
    /// Result per call, in the order of `calls`. Each call is checked as call() checks
    /// it (a refused call gets the same error Result, byte for byte; a call id used
    /// twice is refused); what a refusal does to the others is `options.policy`'s. The
    /// valid calls run on the registry's worker threads (never on this one), at most
    /// `options.max_concurrency` at once, an exclusive tool alone; an answered call has
    /// the Result call() gives. A call still running at its deadline gets
    /// `error: tool NAME timed out after N ms` (TG_OUTCOME_TIMED_OUT); a call of a
    /// dispatch whose canceller is cancelled, `error: call cancelled`
    /// (TG_OUTCOME_CANCELLED). Tools learn of both through RunningCall::current().
    ///
    /// Lifetimes: a tool past its deadline (or cancelled) is not stopped; this returns
    /// without waiting for it and it keeps running, its callable kept alive by the
    /// registry until it returns. `call_ctx` (handed to a tool that takes it) must stay
    /// valid until every tool of the dispatch has returned, not only until this
    /// returns. The Registry must not be destroyed while a dispatch on it runs.
    ///
    /// Fails, running nothing, only for the caller's own mistakes: TG_ERR_UTF8 (an id
    /// or a name not UTF-8), TG_ERR_ARGUMENT (an unknown policy), TG_ERR_NULL (an
    /// empty Registry).
    [[nodiscard]] std::optional<std::vector<Result>> dispatch(const std::vector<ToolCall>& calls,
                                                              const DispatchOptions& options,
                                                              void* call_ctx,
                                                              Error& err) const noexcept {
        std::vector<tg_call> c(calls.size());
        for (std::size_t i = 0; i < calls.size(); ++i) {
            c[i].id = calls[i].id.data();
            c[i].id_len = calls[i].id.size();
            c[i].name = calls[i].name.data();
            c[i].name_len = calls[i].name.size();
            c[i].args = calls[i].arguments.data();
            c[i].args_len = calls[i].arguments.size();
        }
        std::vector<tg_result*> out(calls.size(), nullptr);
        const tg_dispatch_options o = options.c_options();
        tg_error* e = nullptr;
        const tg_status st =
            tg_registry_dispatch(h_.get(), c.data(), c.size(), &o, call_ctx, out.data(), &e);
        if (!done(st, e, err)) return std::nullopt;
        std::vector<Result> results;
        results.reserve(out.size());
        for (tg_result* r : out) results.emplace_back(r);
        return results;
    }
    [[nodiscard]] std::optional<std::vector<Result>> dispatch(const std::vector<ToolCall>& calls,
                                                              const DispatchOptions& options,
                                                              Error& err) const noexcept {
        return dispatch(calls, options, nullptr, err);
    }
    [[nodiscard]] std::optional<std::vector<Result>> dispatch(const std::vector<ToolCall>& calls,
                                                              Error& err) const noexcept {
        return dispatch(calls, DispatchOptions(), nullptr, err);
    }

#if TOOLGATE_THROWING_API
    /// A new registry, without tools, whose tool names follow `policy`; throws Error.
    /// (Without exceptions, use create().)
    explicit Registry(tg_name_policy policy = TG_NAMES_DEFAULT) : h_(nullptr) {
        Error err;
        std::optional<Registry> r = create(policy, err);
        if (!r) throw err;
        *this = std::move(*r);
    }
    /// A new registry, without tools, set up by `options`; throws Error.
    explicit Registry(const RegistryOptions& options) : h_(nullptr) {
        Error err;
        std::optional<Registry> r = create(options, err);
        if (!r) throw err;
        *this = std::move(*r);
    }
    /// Registers `fn` as the tool `def`; throws Error (see the Error& overload).
    template <class F>
    void add(const ToolDef& def, F&& fn) {
        Error err;
        if (!add(def, std::forward<F>(fn), err)) throw err;
    }
    /// Registers or replaces the tool `def`; throws Error.
    template <class F>
    void add_or_replace(const ToolDef& def, F&& fn) {
        Error err;
        if (!add_or_replace(def, std::forward<F>(fn), err)) throw err;
    }
    /// Registers every tool of `batch` or none; throws Error.
    void add_batch(Batch&& batch) {
        Error err;
        if (!add_batch(std::move(batch), err)) throw err;
    }
    /// Registers or replaces every tool of `batch`, or none; throws Error.
    void add_or_replace_batch(Batch&& batch) {
        Error err;
        if (!add_or_replace_batch(std::move(batch), err)) throw err;
    }
    /// Removes the tool `name`; throws Error (TG_ERR_NOT_FOUND).
    void remove(std::string_view name) {
        Error err;
        if (!remove(name, err)) throw err;
    }
    /// Describes the tool `name`; throws Error (TG_ERR_NOT_FOUND).
    ToolInfo describe(std::string_view name) const {
        Error err;
        return value(describe(name, err), err);
    }
    /// The registered tool names, sorted; throws Error on an empty Registry.
    std::vector<std::string> names() const {
        Error err;
        return value(names(err), err);
    }
    /// The tool definitions (JSON array); throws Error on an empty Registry.
    std::string definitions() const {
        Error err;
        return value(definitions(err), err);
    }
    /// The tools in `dialect`'s shape with their fingerprint; throws Error.
    DialectDefinitions definitions(tg_dialect dialect) const {
        Error err;
        return value(definitions(dialect, err), err);
    }
    /// The lint of the tools against `target` (JSON array); throws Error.
    std::string lint(tg_lint_target target) const {
        Error err;
        return value(lint(target, err), err);
    }
    /// Validates `args` for the tool `name` without running it; throws Error.
    ValidationErrors validate(std::string_view name, std::string_view args) const {
        Error err;
        return value(validate(name, args, err), err);
    }
    /// Calls the tool `name`; throws Error only for the caller's own mistakes.
    Result call(std::string_view call_id, std::string_view name, std::string_view args,
                void* call_ctx = nullptr) const {
        Error err;
        return value(call(call_id, name, args, call_ctx, err), err);
    }
    /// Calls the tool `name` into `into` (see the Error& overload); throws Error only
    /// for the caller's own mistakes.
    void call_into(std::string_view call_id, std::string_view name, std::string_view args,
                   Result& into, void* call_ctx = nullptr) const {
        Error err;
        if (!call_into(call_id, name, args, call_ctx, into, err)) throw err;
    }
    /// Starts a call whose arguments arrive in pieces (see the Error& overload); throws
    /// Error only for the caller's own mistakes.
    CallStream stream_call(std::string_view call_id, std::string_view name) const {
        Error err;
        return value(stream_call(call_id, name, err), err);
    }
    /// Runs the calls of one model turn together (see the Error& overload); throws
    /// Error only for the caller's own mistakes.
    std::vector<Result> dispatch(const std::vector<ToolCall>& calls,
                                 const DispatchOptions& options = DispatchOptions(),
                                 void* call_ctx = nullptr) const {
        Error err;
        return value(dispatch(calls, options, call_ctx, err), err);
    }
#endif

    explicit operator bool() const noexcept { return h_.get() != nullptr; }
    tg_registry* get() const noexcept { return h_.get(); }
    tg_registry* release() noexcept { return h_.release(); }

private:
    static bool done(tg_status st, tg_error* e, Error& err) {
        if (st != TG_OK) {
            err = detail::take_error(st, e);
            return false;
        }
        err = Error();
        return true;
    }

#if TOOLGATE_THROWING_API
    template <class T>
    static T value(std::optional<T>&& v, const Error& err) {
        if (!v) throw err;
        return std::move(*v);
    }
#endif

    template <class F>
    bool register_tool(const ToolDef& def, F&& fn, std::uint32_t flags, Error& err) noexcept {
        using Fn = std::decay_t<F>;
        detail::check_tool_type<Fn>();
        if constexpr (detail::nullable_callable_v<Fn>) {
            if (!fn) {
                err = Error(TG_ERR_NULL, "the tool's callable is empty");
                return false;
            }
        }
        Fn* box = new Fn(std::forward<F>(fn));
        const tg_tool_spec spec =
            detail::spec_of(def.name, def.description, def.parameters, def.idempotent,
                            def.timeout_ms, def.output_schema, def.exclusive);
        tg_error* e = nullptr;
        // From here the library owns `box`: it runs Trampoline<Fn>::destroy exactly once,
        // before returning if the registration fails.
        const tg_status st =
            tg_registry_register_tool(h_.get(), &spec, &detail::Trampoline<Fn>::call, box,
                                      &detail::Trampoline<Fn>::destroy, flags, &e);
        return done(st, e, err);
    }

    detail::Handle<tg_registry, &tg_registry_free> h_;
};

}  // namespace toolgate

#endif /* TOOLGATE_HPP */
