// C helpers of the Go binding; see tg_go.h.
#include <stdlib.h>
#include <string.h>

#include "tg_go.h"
#include "_cgo_export.h"

tg_status tg_go_handler(void *user_data, void *call_ctx, const char *args,
                        size_t args_len, tg_reply *reply) {
	return toolgateGoHandler((uintptr_t)user_data, (uintptr_t)call_ctx, (char *)args,
	                         args_len, reply);
}

void tg_go_destroy(void *user_data) {
	toolgateGoDestroy((uintptr_t)user_data);
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
	default: return tg_errors_message(e, i, t, n);
	}
}

tg_go_check_out tg_go_check(const tg_schema *s, const char *inst, size_t len, int arguments) {
	tg_go_check_out o;
	memset(&o, 0, sizeof o);
	o.status = arguments ? tg_schema_is_valid_arguments(s, inst, len, &o.valid)
	                     : tg_schema_is_valid(s, inst, len, &o.valid);
	if (o.status != TG_OK || o.valid) return o;
	o.status = arguments ? tg_schema_validate_arguments(s, inst, len, &o.errors, NULL)
	                     : tg_schema_validate(s, inst, len, &o.errors, NULL);
	if (o.status != TG_OK) return o;
	o.status = tg_errors_count(o.errors, &o.count);
	if (o.status != TG_OK || o.count == 0) return o;
	o.views = calloc(4 * o.count, sizeof(tg_go_str));
	if (o.views == NULL) return o;
	for (size_t i = 0; i < o.count; i++) {
		for (int k = 0; k < 4; k++) {
			tg_go_str *v = &o.views[4 * i + k];
			if (text_at(o.errors, i, k, &v->ptr, &v->len) != TG_OK) v->len = 0;
		}
	}
	return o;
}

void tg_go_errors_release(tg_errors *e, tg_go_str *views) {
	free(views);
	tg_errors_free(e);
}

tg_go_registry_out tg_go_registry_new(size_t max_argument_bytes,
                                      const tg_compile_options *schema,
                                      uint32_t targets) {
	tg_go_registry_out o;
	tg_registry_options options;
	memset(&o, 0, sizeof o);
	memset(&options, 0, sizeof options);
	options.size = sizeof options;
	options.name_policy = TG_NAMES_DEFAULT;
	options.max_argument_bytes = max_argument_bytes;
	options.schema = schema;
	options.targets = targets;
	o.status = tg_registry_new_with(&options, &o.registry, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_status_out tg_go_register(tg_registry *r,
		const char *name, size_t name_len,
		const char *desc, size_t desc_len,
		const char *params, size_t params_len, int has_params,
		uintptr_t handle, uint32_t flags) {
	tg_go_status_out o;
	memset(&o, 0, sizeof o);
	tg_tool_def def;
	memset(&def, 0, sizeof def);
	def.name = name;
	def.name_len = name_len;
	def.description = desc;
	def.description_len = desc_len;
	if (has_params) {
		// Non-NULL even when empty: empty parameters are not a schema (refused).
		def.parameters = params_len ? params : "";
		def.parameters_len = params_len;
	}
	o.status = tg_registry_register(r, &def, tg_go_handler, (void *)handle, tg_go_destroy,
	                                flags, &o.error);
	if (o.status != TG_OK) o.view = view_of(o.error);
	return o;
}

tg_go_status_out tg_go_register_batch(tg_registry *r, const char *texts,
		const size_t *lens, const uintptr_t *handles, size_t count, uint32_t flags) {
	tg_go_status_out o;
	size_t i;
	const char *at = texts;
	tg_tool_entry *entries = count ? calloc(count, sizeof *entries) : NULL;
	memset(&o, 0, sizeof o);
	if (count && entries == NULL) {
		// No memory for the array: the handles are released all the same, as the
		// library would on any failure.
		for (i = 0; i < count; i++) tg_go_destroy((void *)handles[i]);
		o.status = TG_ERR_PANIC;
		return o;
	}
	for (i = 0; i < count; i++) {
		const size_t *l = lens + 4 * i;
		tg_tool_def *def = &entries[i].def;
		def->name = at;
		def->name_len = l[0];
		at += l[0];
		def->description = at;
		def->description_len = l[1];
		at += l[1];
		if (l[3]) {
			// Non-NULL even when empty: empty parameters are not a schema (refused).
			def->parameters = l[2] ? at : "";
			def->parameters_len = l[2];
		}
		at += l[2];
		entries[i].handler = tg_go_handler;
		entries[i].user_data = (void *)handles[i];
		entries[i].destroy = tg_go_destroy;
	}
	o.status = tg_registry_register_batch(r, entries, count, flags, &o.error);
	free(entries);
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
	if (tg_result_content(o.result, &o.content, &o.content_len) != TG_OK) o.content_len = 0;
	if (tg_result_is_error(o.result, &o.is_error) != TG_OK) o.is_error = true;
	return o;
}
