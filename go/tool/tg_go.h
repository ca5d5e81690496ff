// C helpers of the Go binding (tg_go.c): each folds several toolgate calls into one
// cgo call. Only declarations here: this header is included by the preamble of the
// file with //export functions.
#ifndef TG_GO_H
#define TG_GO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "toolgate.h"

// The trampolines' C side: they receive void* and hand the Go side a uintptr_t.
// tg_go_handler hands the Go side the call's tg_running_call (NULL outside a
// dispatch), which it frees when the Go side returns.
tg_status tg_go_handler(void *user_data, void *call_ctx, const char *args,
                        size_t args_len, tg_reply *reply);
void tg_go_destroy(void *user_data);
// The on_cancel callback of a dispatched Go call: data is a cgo.Handle.
void tg_go_cancel(void *data);
// The observer of every registry the binding makes: data is the registry's observer
// cgo.Handle (0 for none); the dispatch running on this thread may add its own
// (tg_go_dispatch's sink). Returns at once when there is neither.
void tg_go_observe(void *data, const tg_call_event *event);

// Has tg_go_cancel(handle) called when the call is cancelled.
tg_status tg_go_on_cancel(tg_running_call *call, uintptr_t handle);

// The three texts of a tg_error (owned by it).
typedef struct {
	size_t msg_len, ptr_len, kw_len;
	const char *msg, *ptr, *kw;
} tg_go_error_view;

// Copies the three texts of e into buf (at least their summed length) and frees e.
void tg_go_error_take(tg_error *e, char *buf);

typedef struct {
	tg_status status;
	tg_schema *schema;
	tg_error *error;
	tg_go_error_view view;
} tg_go_compile_out;

tg_go_compile_out tg_go_compile(const char *json, size_t len);
tg_go_compile_out tg_go_compile_with(const char *json, size_t len,
                                     const tg_compile_options *options);

// A text owned by a handle.
typedef struct {
	const char *ptr;
	size_t len;
} tg_go_str;

// The texts of one violation that tg_go_views lists, in this order: path, pointer,
// keyword, message, schema location.
#define TG_GO_VIOLATION_TEXTS 5

// The views of the count violations of e (TG_GO_VIOLATION_TEXTS per violation), in C
// memory (malloc; free with free()), or NULL when count is 0 or the allocation failed.
tg_go_str *tg_go_views(const tg_errors *e, size_t count);

// Frees what tg_go_views returned.
void tg_go_views_free(tg_go_str *views);

typedef struct {
	tg_status status;
	bool valid;
	tg_errors *errors;
	size_t count;
	// For an invalid instance, TG_GO_VIOLATION_TEXTS per violation (path, pointer,
	// keyword, message, schema location), in C memory (malloc); NULL if that
	// allocation failed. Free with tg_go_errors_release.
	tg_go_str *views;
} tg_go_check_out;

// ValidateJSON's native work in one call: the allocation-free validity check first,
// and only for an invalid instance the list of at most max violations (SIZE_MAX: all)
// with a view of every text, so that Go copies them without another cgo call.
tg_go_check_out tg_go_check(const tg_schema *s, const char *inst, size_t len, int arguments,
                            size_t max);

// Frees what tg_go_check returned for an invalid instance.
void tg_go_errors_release(tg_errors *e, tg_go_str *views);

typedef struct {
	tg_status status;
	tg_registry *registry;
	tg_error *error;
	tg_go_error_view view;
} tg_go_registry_out;

// A registry with the default name policy, this argument limit (0: the library's
// default; SIZE_MAX: no limit) and these schema options (which hold the nesting limit).
tg_go_registry_out tg_go_registry_new(size_t max_argument_bytes,
                                      const tg_compile_options *schema,
                                      uint32_t targets, uint32_t masked_values,
                                      uint64_t default_timeout_ms, size_t remember_call_ids,
                                      uintptr_t observer);

typedef struct {
	tg_status status;
	tg_error *error;
	tg_go_error_view view;
} tg_go_status_out;

// Registers the Go tool whose cgo.Handle is `handle` (cast to user_data here) with
// tg_registry_register_tool. The tg_tool_spec is built on the C stack, so no Go memory
// holds a pointer. A schema whose has_ flag is 0 is none. On failure
// tg_go_destroy(handle) has already run.
tg_go_status_out tg_go_register(tg_registry *r,
		const char *name, size_t name_len,
		const char *desc, size_t desc_len,
		const char *params, size_t params_len, int has_params,
		const char *output, size_t output_len, int has_output,
		uint64_t timeout_ms, uint32_t idempotent, uint32_t exclusive,
		uintptr_t handle, uint32_t flags);

// The numbers tg_go_register_batch takes per tool in lens: the lengths of the name,
// description, parameters and output schema, then 1 when the tool has parameters and
// 1 when it has an output schema, then its timeout_ms, idempotent and exclusive.
#define TG_GO_BATCH_NUMBERS 9

// Registers count Go tools at once, all or none (tg_registry_register_tools). texts
// holds each tool's name, description, parameters and output schema back to back;
// lens holds TG_GO_BATCH_NUMBERS numbers per tool. handles are the tools' cgo.Handles.
// On failure tg_go_destroy has already run for every handle.
tg_go_status_out tg_go_register_batch(tg_registry *r, const char *texts,
		const size_t *lens, const uintptr_t *handles, size_t count, uint32_t flags);

typedef struct {
	tg_status status;
	tg_text *text;
	const char *data;
	size_t len;
	tg_error *error;
	tg_go_error_view view;
} tg_go_text_out;

// which: 0 names, 1 definitions.
tg_go_text_out tg_go_text(const tg_registry *r, int which);

typedef struct {
	tg_status status;
	tg_text *text;
	const char *data;
	size_t len;
	tg_text *fingerprint;
	const char *fingerprint_data;
	size_t fingerprint_len;
	tg_error *error;
	tg_go_error_view view;
} tg_go_dialect_out;

// A dialect's definitions and their fingerprint, read in one call (one tool set).
tg_go_dialect_out tg_go_dialect_definitions(const tg_registry *r, int32_t dialect);

// The lint of the registered tools against a target, as JSON.
tg_go_text_out tg_go_lint(const tg_registry *r, int32_t target);

// The lint of one parameters schema against a target, as JSON.
tg_go_text_out tg_go_schema_lint(int32_t target, const char *json, size_t len);

typedef struct {
	tg_status status;
	tg_text *schema;
	const char *schema_data;
	size_t schema_len;
	tg_text *report;
	const char *report_data;
	size_t report_len;
	tg_error *error;
	tg_go_error_view view;
} tg_go_strict_out;

// One parameters schema converted for a target, with the report of the conversion.
tg_go_strict_out tg_go_strict_schema(int32_t target, const char *json, size_t len);

typedef struct {
	tg_status status;
	tg_result *result;
	const char *content;
	size_t content_len;
	bool is_error;
	bool structured;
	tg_outcome outcome;
	// How many times the handler ran (tg_result_attempts).
	uint32_t attempts;
	// The answer an output schema refused: invalid_len bytes at invalid (NULL when
	// there is none).
	const char *invalid;
	size_t invalid_len;
	// The result's violations (borrowed from it) and their number.
	const tg_errors *violations;
	size_t violation_count;
	tg_error *error;
	tg_go_error_view view;
} tg_go_call_out;

// One registry call and the reading of its result: every detail but the violations'
// texts (tg_go_views). `ctx` is a cgo.Handle (0 for none), cast to the opaque
// call_ctx here.
tg_go_call_out tg_go_call(const tg_registry *r,
		const char *id, size_t id_len,
		const char *name, size_t name_len,
		const char *args, size_t args_len,
		uintptr_t ctx);

// The calls of one dispatch: texts holds each call's id, name and arguments back to
// back, lens their lengths (3 per call). outs receives one reading per call, as
// tg_go_call makes it (each result owned by the caller). ctx is the cgo.Handle every
// handler gets as its call_ctx (0 for none); sink a cgo.Handle that tg_go_observe
// also reports this dispatch's events to (0 for none).
tg_go_status_out tg_go_dispatch(const tg_registry *r, const char *texts, const size_t *lens,
		size_t count, const tg_dispatch_options *options, uintptr_t ctx, uintptr_t sink,
		tg_go_call_out *outs);

typedef struct {
	tg_go_str *views;
	size_t count;
} tg_go_views_out;

// The views of a result's violations (tg_go_views; free with tg_go_views_free), which
// stay valid while the result lives.
tg_go_views_out tg_go_result_views(const tg_result *result);

// The item that answers result's call in the dialect's shape.
tg_go_text_out tg_go_result_json(const tg_result *result, int32_t dialect);

// What answers the count results of a turn in the dialect's shape.
tg_go_text_out tg_go_results_message(int32_t dialect, const tg_result *const *results,
                                     size_t count);

typedef struct {
	tg_status status;
	tg_calls *calls;
	size_t count;
	// 3 per call (id, name, arguments), in C memory (malloc; tg_go_calls_release);
	// NULL when count is 0 or the allocation failed.
	tg_go_str *views;
	tg_error *error;
	tg_go_error_view view;
} tg_go_calls_out;

// The tool calls of a provider's response, with a view of every text.
tg_go_calls_out tg_go_calls_read(int32_t dialect, const char *response, size_t len);

// Frees what tg_go_calls_read returned.
void tg_go_calls_release(tg_calls *calls, tg_go_str *views);

typedef struct {
	tg_status status;
	tg_stream *stream;
	// For a call stream: refused at once (an unknown tool).
	bool refused;
	tg_error *error;
	tg_go_error_view view;
} tg_go_stream_out;

// A stream of an instance of s (tg_schema_stream_new).
tg_go_stream_out tg_go_schema_stream(const tg_schema *s, size_t max);

// A stream of the arguments of the call id of the tool name (tg_registry_stream_call_new),
// and whether it is refused before any byte (an empty feed says so).
tg_go_stream_out tg_go_call_stream(const tg_registry *r, const char *id, size_t id_len,
		const char *name, size_t name_len);

typedef struct {
	tg_status status;
	bool refused;
	tg_error *error;
	tg_go_error_view view;
} tg_go_feed_out;

// Feeds len bytes to the stream (tg_stream_feed); the bytes are only read during the call.
tg_go_feed_out tg_go_stream_feed(tg_stream *stream, const char *bytes, size_t len);

// Finishes a schema stream (tg_stream_finish) and frees it: the violations as
// tg_go_check reads them (valid when there are none; free with tg_go_errors_release).
tg_go_check_out tg_go_stream_finish(tg_stream *stream);

// Finishes a call stream (tg_stream_finish_call, ctx a cgo.Handle or 0, as tg_go_call
// takes it), frees it and reads the result as tg_go_call does.
tg_go_call_out tg_go_stream_finish_call(tg_stream *stream, uintptr_t ctx);

#endif
