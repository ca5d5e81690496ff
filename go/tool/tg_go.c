// C helpers of the Go binding; see tg_go.h.
#include <stdlib.h>
#include <string.h>

#include "tg_go.h"
#include "_cgo_export.h"

tg_status tg_go_handler(void *user_data, void *call_ctx, const char *args,
                        size_t args_len, tg_reply *reply) {
	tg_running_call *call = tg_running_call_current();
	tg_status status = toolgateGoHandler((uintptr_t)user_data, (uintptr_t)call_ctx,
	                                     (char *)args, args_len, reply, call);
	tg_running_call_free(call);
	return status;
}

void tg_go_destroy(void *user_data) {
	toolgateGoDestroy((uintptr_t)user_data);
}

void tg_go_cancel(void *data) {
	toolgateGoCancel((uintptr_t)data);
}

// The sink of the dispatch this thread is running (tg_go_dispatch): the observer is
// called on the dispatching thread, before tg_registry_dispatch returns.
static _Thread_local uintptr_t dispatch_sink;

void tg_go_observe(void *data, const tg_call_event *event) {
	uintptr_t sink = dispatch_sink;
	if ((uintptr_t)data == 0 && sink == 0) return;
	toolgateGoObserve((uintptr_t)data, sink, (tg_call_event *)event);
}

tg_status tg_go_on_cancel(tg_running_call *call, uintptr_t handle) {
	return tg_running_call_on_cancel(call, tg_go_cancel, (void *)handle);
}

static tg_go_error_view view_of(const tg_error *e) {
	tg_go_error_view v;
	memset(&v, 0, sizeof v);
	if (e == NULL) return v;
	if (tg_error_message(e, &v.msg, &v.msg_len) != TG_OK) v.msg_len = 0;
	if (tg_error_pointer(e, &v.ptr, &v.ptr_len) != TG_OK) v.ptr_len = 0;
	if (tg_error_keyword(e, &v.kw, &v.kw_len) != TG_OK) v.kw_len = 0;
	return v;
}

void tg_go_error_take(tg_error *e, char *buf) {
	tg_go_error_view v = view_of(e);
	if (v.msg_len) memcpy(buf, v.msg, v.msg_len);
	buf += v.msg_len;
	if (v.ptr_len) memcpy(buf, v.ptr, v.ptr_len);
	buf += v.ptr_len;
	if (v.kw_len) memcpy(buf, v.kw, v.kw_len);
	tg_error_free(e);
}

tg_go_compile_out tg_go_compile(const char *json, size_t len) {
	tg_go_compile_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_schema_compile(json, len, 0, &o.schema, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_compile_out tg_go_compile_with(const char *json, size_t len,
                                     const tg_compile_options *options) {
	tg_go_compile_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_schema_compile_with(json, len, options, &o.schema, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

static tg_status text_at(const tg_errors *e, size_t i, int k, const char **t, size_t *n) {
	switch (k) {
	case 0: return tg_errors_path(e, i, t, n);
	case 1: return tg_errors_pointer(e, i, t, n);
	case 2: return tg_errors_keyword(e, i, t, n);
	case 3: return tg_errors_message(e, i, t, n);
	default: return tg_errors_schema_location(e, i, t, n);
	}
}

tg_go_str *tg_go_views(const tg_errors *e, size_t count) {
	tg_go_str *views;
	if (count == 0) return NULL;
	views = calloc(TG_GO_VIOLATION_TEXTS * count, sizeof(tg_go_str));
	if (views == NULL) return NULL;
	for (size_t i = 0; i < count; i++) {
		for (int k = 0; k < TG_GO_VIOLATION_TEXTS; k++) {
			tg_go_str *v = &views[TG_GO_VIOLATION_TEXTS * i + k];
			if (text_at(e, i, k, &v->ptr, &v->len) != TG_OK) v->len = 0;
		}
	}
	return views;
}

void tg_go_views_free(tg_go_str *views) {
	free(views);
}

tg_go_check_out tg_go_check(const tg_schema *s, const char *inst, size_t len, int arguments,
                            size_t max) {
	tg_go_check_out o;
	memset(&o, 0, sizeof o);
	o.status = arguments ? tg_schema_is_valid_arguments(s, inst, len, &o.valid)
	                     : tg_schema_is_valid(s, inst, len, &o.valid);
	if (o.status != TG_OK || o.valid) return o;
	o.status = arguments ? tg_schema_validate_arguments_at_most(s, inst, len, max, &o.errors, NULL)
	                     : tg_schema_validate_at_most(s, inst, len, max, &o.errors, NULL);
	if (o.status != TG_OK) return o;
	o.status = tg_errors_count(o.errors, &o.count);
	if (o.status != TG_OK || o.count == 0) return o;
	o.views = tg_go_views(o.errors, o.count);
	return o;
}

void tg_go_errors_release(tg_errors *e, tg_go_str *views) {
	free(views);
	tg_errors_free(e);
}

tg_go_registry_out tg_go_registry_new(size_t max_argument_bytes,
                                      const tg_compile_options *schema,
                                      uint32_t targets, uint32_t masked_values,
                                      uint64_t default_timeout_ms, size_t remember_call_ids,
                                      uintptr_t observer) {
	tg_go_registry_out o;
	tg_registry_options options;
	memset(&o, 0, sizeof o);
	memset(&options, 0, sizeof options);
	options.size = sizeof options;
	options.name_policy = TG_NAMES_DEFAULT;
	options.max_argument_bytes = max_argument_bytes;
	options.schema = schema;
	options.targets = targets;
	options.masked_values = masked_values;
	options.default_timeout_ms = default_timeout_ms;
	options.remember_call_ids = remember_call_ids;
	options.observer = tg_go_observe;
	options.observer_data = (void *)observer;
	o.status = tg_registry_new_with(&options, &o.registry, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

// Fills spec from the texts at `at` (name, description, parameters, output schema,
// back to back) and the numbers of lens (TG_GO_BATCH_NUMBERS); returns the end of the
// texts.
static const char *spec_from(tg_tool_spec *spec, const char *at, const size_t *l) {
	memset(spec, 0, sizeof *spec);
	spec->size = sizeof *spec;
	spec->name = at;
	spec->name_len = l[0];
	at += l[0];
	spec->description = at;
	spec->description_len = l[1];
	at += l[1];
	if (l[4]) {
		// Non-NULL even when empty: empty parameters are not a schema (refused).
		spec->parameters = l[2] ? at : "";
		spec->parameters_len = l[2];
	}
	at += l[2];
	if (l[5]) {
		// Likewise: an empty output schema is refused, not taken for none.
		spec->output_schema = l[3] ? at : "";
		spec->output_schema_len = l[3];
	}
	at += l[3];
	spec->timeout_ms = l[6];
	spec->idempotent = (uint32_t)l[7];
	spec->exclusive = (uint32_t)l[8];
	return at;
}

tg_go_status_out tg_go_register(tg_registry *r,
		const char *name, size_t name_len,
		const char *desc, size_t desc_len,
		const char *params, size_t params_len, int has_params,
		const char *output, size_t output_len, int has_output,
		uint64_t timeout_ms, uint32_t idempotent, uint32_t exclusive,
		uintptr_t handle, uint32_t flags) {
	tg_go_status_out o;
	tg_tool_spec spec;
	memset(&o, 0, sizeof o);
	memset(&spec, 0, sizeof spec);
	spec.size = sizeof spec;
	spec.name = name;
	spec.name_len = name_len;
	spec.description = desc;
	spec.description_len = desc_len;
	if (has_params) {
		// Non-NULL even when empty: empty parameters are not a schema (refused).
		spec.parameters = params_len ? params : "";
		spec.parameters_len = params_len;
	}
	if (has_output) {
		spec.output_schema = output_len ? output : "";
		spec.output_schema_len = output_len;
	}
	spec.timeout_ms = timeout_ms;
	spec.idempotent = idempotent;
	spec.exclusive = exclusive;
	o.status = tg_registry_register_tool(r, &spec, tg_go_handler, (void *)handle,
	                                     tg_go_destroy, flags, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_status_out tg_go_register_batch(tg_registry *r, const char *texts,
		const size_t *lens, const uintptr_t *handles, size_t count, uint32_t flags) {
	tg_go_status_out o;
	size_t i;
	const char *at = texts;
	tg_tool_spec *specs = count ? calloc(count, sizeof *specs) : NULL;
	tg_tool_binding *bindings = count ? calloc(count, sizeof *bindings) : NULL;
	memset(&o, 0, sizeof o);
	if (count && (specs == NULL || bindings == NULL)) {
		// No memory for the arrays: the handles are released all the same, as the
		// library would on any failure.
		free(specs);
		free(bindings);
		for (i = 0; i < count; i++) tg_go_destroy((void *)handles[i]);
		o.status = TG_ERR_PANIC;
		return o;
	}
	for (i = 0; i < count; i++) {
		at = spec_from(&specs[i], at, lens + TG_GO_BATCH_NUMBERS * i);
		bindings[i].spec = &specs[i];
		bindings[i].handler = tg_go_handler;
		bindings[i].user_data = (void *)handles[i];
		bindings[i].destroy = tg_go_destroy;
	}
	o.status = tg_registry_register_tools(r, bindings, count, flags, &o.error);
	free(bindings);
	free(specs);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_text_out tg_go_text(const tg_registry *r, int which) {
	tg_go_text_out o;
	memset(&o, 0, sizeof o);
	if (which == 0) o.status = tg_registry_names(r, &o.text, &o.error);
	else o.status = tg_registry_definitions(r, &o.text, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	if (tg_text_data(o.text, &o.data, &o.len) != TG_OK) o.len = 0;
	return o;
}

tg_go_dialect_out tg_go_dialect_definitions(const tg_registry *r, int32_t dialect) {
	tg_go_dialect_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_registry_dialect_definitions(r, dialect, &o.text, &o.fingerprint, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	if (tg_text_data(o.text, &o.data, &o.len) != TG_OK) o.len = 0;
	if (tg_text_data(o.fingerprint, &o.fingerprint_data, &o.fingerprint_len) != TG_OK)
		o.fingerprint_len = 0;
	return o;
}

tg_go_text_out tg_go_lint(const tg_registry *r, int32_t target) {
	tg_go_text_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_registry_lint(r, target, &o.text, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	if (tg_text_data(o.text, &o.data, &o.len) != TG_OK) o.len = 0;
	return o;
}

tg_go_text_out tg_go_schema_lint(int32_t target, const char *json, size_t len) {
	tg_go_text_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_schema_lint(target, json, len, &o.text, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	if (tg_text_data(o.text, &o.data, &o.len) != TG_OK) o.len = 0;
	return o;
}

tg_go_strict_out tg_go_strict_schema(int32_t target, const char *json, size_t len) {
	tg_go_strict_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_strict_schema(target, json, len, &o.schema, &o.report, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	if (tg_text_data(o.schema, &o.schema_data, &o.schema_len) != TG_OK) o.schema_len = 0;
	if (tg_text_data(o.report, &o.report_data, &o.report_len) != TG_OK) o.report_len = 0;
	return o;
}

// Reads every detail of o->result but the violations' texts.
static void read_result(tg_go_call_out *o) {
	if (tg_result_content(o->result, &o->content, &o->content_len) != TG_OK) o->content_len = 0;
	if (tg_result_is_error(o->result, &o->is_error) != TG_OK) o->is_error = true;
	if (tg_result_outcome(o->result, &o->outcome) != TG_OK) o->outcome = TG_OUTCOME_INTERNAL;
	if (tg_result_structured(o->result, &o->structured) != TG_OK) o->structured = false;
	if (tg_result_attempts(o->result, &o->attempts) != TG_OK) o->attempts = 0;
	if (tg_result_invalid_result(o->result, &o->invalid, &o->invalid_len) != TG_OK) {
		o->invalid = NULL;
		o->invalid_len = 0;
	}
	if (tg_result_violations(o->result, &o->violations) != TG_OK ||
	    tg_errors_count(o->violations, &o->violation_count) != TG_OK) {
		o->violations = NULL;
		o->violation_count = 0;
	}
}

tg_go_call_out tg_go_call(const tg_registry *r,
		const char *id, size_t id_len,
		const char *name, size_t name_len,
		const char *args, size_t args_len,
		uintptr_t ctx) {
	tg_go_call_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_registry_call(r, id, id_len, name, name_len, args, args_len, (void *)ctx,
	                            &o.result, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	read_result(&o);
	return o;
}

tg_go_status_out tg_go_dispatch(const tg_registry *r, const char *texts, const size_t *lens,
		size_t count, const tg_dispatch_options *options, uintptr_t ctx, uintptr_t sink,
		tg_go_call_out *outs) {
	tg_go_status_out o;
	size_t i;
	const char *at = texts;
	uintptr_t outer = dispatch_sink;
	tg_call *calls = calloc(count, sizeof *calls);
	tg_result **results = calloc(count, sizeof *results);
	memset(&o, 0, sizeof o);
	if (calls == NULL || results == NULL) {
		free(calls);
		free(results);
		o.status = TG_ERR_PANIC;
		return o;
	}
	for (i = 0; i < count; i++) {
		const size_t *l = lens + 3 * i;
		calls[i].id = at;
		calls[i].id_len = l[0];
		at += l[0];
		calls[i].name = at;
		calls[i].name_len = l[1];
		at += l[1];
		calls[i].args = at;
		calls[i].args_len = l[2];
		at += l[2];
	}
	// An observer may dispatch again on this thread: the outer sink comes back after.
	dispatch_sink = sink;
	o.status = tg_registry_dispatch(r, calls, count, options, (void *)ctx, results, &o.error);
	dispatch_sink = outer;
	free(calls);
	if (o.status != TG_OK) {
		free(results);
		o.view = view_of(o.error);
		return o;
	}
	for (i = 0; i < count; i++) {
		memset(&outs[i], 0, sizeof outs[i]);
		outs[i].result = results[i];
		read_result(&outs[i]);
	}
	free(results);
	return o;
}

tg_go_views_out tg_go_result_views(const tg_result *result) {
	tg_go_views_out o;
	const tg_errors *list = NULL;
	memset(&o, 0, sizeof o);
	if (tg_result_violations(result, &list) != TG_OK || tg_errors_count(list, &o.count) != TG_OK) {
		o.count = 0;
		return o;
	}
	o.views = tg_go_views(list, o.count);
	return o;
}

static tg_go_text_out text_out(tg_status status, tg_text *text, tg_error *error) {
	tg_go_text_out o;
	memset(&o, 0, sizeof o);
	o.status = status;
	o.text = text;
	o.error = error;
	if (status != TG_OK) {
		o.view = view_of(error);
		return o;
	}
	if (tg_text_data(text, &o.data, &o.len) != TG_OK) o.len = 0;
	return o;
}

tg_go_text_out tg_go_result_json(const tg_result *result, int32_t dialect) {
	tg_text *text = NULL;
	tg_error *error = NULL;
	tg_status status = tg_result_dialect_json(result, dialect, &text, &error);
	return text_out(status, text, error);
}

tg_go_text_out tg_go_results_message(int32_t dialect, const tg_result *const *results,
                                     size_t count) {
	tg_text *text = NULL;
	tg_error *error = NULL;
	tg_status status = tg_results_message_json(dialect, results, count, &text, &error);
	return text_out(status, text, error);
}

tg_go_calls_out tg_go_calls_read(int32_t dialect, const char *response, size_t len) {
	tg_go_calls_out o;
	memset(&o, 0, sizeof o);
	// An empty response is still a response (refused as not JSON), never NULL.
	o.status = tg_calls_read(dialect, len ? response : "", len, &o.calls, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	if (tg_calls_count(o.calls, &o.count) != TG_OK || o.count == 0) {
		o.count = 0;
		return o;
	}
	o.views = calloc(3 * o.count, sizeof(tg_go_str));
	if (o.views == NULL) return o;
	for (size_t i = 0; i < o.count; i++) {
		tg_go_str *v = &o.views[3 * i];
		if (tg_calls_id(o.calls, i, &v[0].ptr, &v[0].len) != TG_OK) v[0].len = 0;
		if (tg_calls_name(o.calls, i, &v[1].ptr, &v[1].len) != TG_OK) v[1].len = 0;
		if (tg_calls_arguments(o.calls, i, &v[2].ptr, &v[2].len) != TG_OK) v[2].len = 0;
	}
	return o;
}

void tg_go_calls_release(tg_calls *calls, tg_go_str *views) {
	free(views);
	tg_calls_free(calls);
}

tg_go_stream_out tg_go_schema_stream(const tg_schema *s, size_t max) {
	tg_go_stream_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_schema_stream_new_at_most(s, max, &o.stream, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_stream_out tg_go_call_stream(const tg_registry *r, const char *id, size_t id_len,
		const char *name, size_t name_len) {
	tg_go_stream_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_registry_stream_call_new(r, id, id_len, name, name_len, &o.stream, &o.error);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	o.status = tg_stream_feed(o.stream, NULL, 0, &o.refused, &o.error);
	if (o.status != TG_OK) {
		tg_stream_free(o.stream);
		o.stream = NULL;
		o.view = view_of(o.error);
	}
	return o;
}

tg_go_feed_out tg_go_stream_feed(tg_stream *stream, const char *bytes, size_t len) {
	tg_go_feed_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_stream_feed(stream, bytes, len, &o.refused, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_check_out tg_go_stream_finish(tg_stream *stream) {
	tg_go_check_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_stream_finish(stream, &o.errors, NULL);
	tg_stream_free(stream);
	if (o.status != TG_OK) return o;
	o.status = tg_errors_count(o.errors, &o.count);
	if (o.status != TG_OK) return o;
	o.valid = o.count == 0;
	if (o.count > 0) o.views = tg_go_views(o.errors, o.count);
	return o;
}

tg_go_call_out tg_go_stream_finish_call(tg_stream *stream, uintptr_t ctx) {
	tg_go_call_out o;
	memset(&o, 0, sizeof o);
	o.status = tg_stream_finish_call(stream, (void *)ctx, &o.result, &o.error);
	tg_stream_free(stream);
	if (o.status != TG_OK) {
		o.view = view_of(o.error);
		return o;
	}
	read_result(&o);
	return o;
}
