package tool

/*
#include "tg_go.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"unsafe"
)

// Profile says which keywords a schema may use.
type Profile int32

const (
	// ProfileCore is the default: type, enum, const, properties, required,
	// additionalProperties, items, minItems, maxItems, minLength, maxLength, pattern,
	// minimum, maximum, anyOf and the annotations (title, description, default,
	// examples, $schema, $comment). Any other keyword is refused.
	ProfileCore Profile = C.TG_PROFILE_CORE
	// ProfileFull is JSON Schema draft 2020-12 (or draft-07, when $schema names it or
	// the default draft is Draft7), every vocabulary: references ($ref, $defs, $id,
	// $anchor, $dynamicRef), every applicator, unevaluated*, every validation keyword,
	// and format asserted. Keywords no vocabulary defines are still refused (names
	// starting with "x-" are kept as annotations). References never reach the network:
	// they resolve inside the schema, to the drafts' meta-schemas, or to the resources
	// of the options.
	ProfileFull Profile = C.TG_PROFILE_FULL
)

// Draft is the JSON Schema draft of a full-profile schema without $schema.
type Draft int32

const (
	// DraftDefault is draft 2020-12.
	DraftDefault Draft = C.TG_DRAFT_DEFAULT
	// Draft7 is draft-07 (http://json-schema.org/draft-07/schema#).
	Draft7 Draft = C.TG_DRAFT_7
	// Draft2020_12 is draft 2020-12 (https://json-schema.org/draft/2020-12/schema).
	Draft2020_12 Draft = C.TG_DRAFT_2020_12
)

// Resource is a schema document that the full profile's references may reach,
// registered under an absolute URI: "$ref": "https://example.com/address.json"
// reaches the resource whose URI is https://example.com/address.json (a fragment after
// it points inside).
type Resource struct {
	URI    string
	Schema json.RawMessage
}

// CompileOptions say how a schema is compiled, by CompileWith and, through
// WithCompileOptions, for every tool of a registry. The zero value is what Compile
// uses: the core profile, nesting 128.
//
// A struct rather than functional options: a compile takes one fixed set of settings,
// its zero value is the default, and one value can be kept and shared between
// CompileWith and the registries of a program (WithCompileOptions).
type CompileOptions struct {
	// Profile is ProfileCore (the default) or ProfileFull.
	Profile Profile
	// DefaultDraft is the draft of a full-profile schema without $schema (the zero
	// value, DraftDefault, is draft 2020-12). A schema's own $schema wins.
	DefaultDraft Draft
	// MaxDepth is the nesting limit, of the schema (and its resources) and of the
	// instances it validates; 0 or less means the default (128), values above 1024
	// are taken as 1024.
	MaxDepth int
	// Resources are the documents references may reach besides the schema itself and
	// the drafts' meta-schemas. One that is not JSON is refused (ErrInvalidSchema:
	// `resource "URI" is not valid JSON: ...`).
	Resources []Resource
	// AnnotationFormats are format names the full profile accepts as annotations only,
	// unchecked (OpenAPI's "password", "binary"); any other format it does not assert
	// is refused.
	AnnotationFormats []string
	// MaskedValues keeps every value of the instance out of the violations' messages:
	// where a message would quote one it says "value" (`$.sky: value is not one of
	// ["sun","rain"]`), while what comes from the schema, paths, pointers and keywords
	// stay. For values that must not reach a log or a model's context. The default,
	// false, quotes values.
	MaskedValues bool
}

// CompileWith compiles a schema as opts say; CompileWith(raw, CompileOptions{}) is
// Compile(raw). The error is an *Error wrapping ErrInvalidSchema (the schema, or a
// resource that is not JSON; Pointer and Keyword locate a problem of the schema) or
// ErrInvalidOption (a Profile or DefaultDraft that is none of the constants, a
// resource URI or a format name that is not UTF-8), with the library's message.
func CompileWith(raw json.RawMessage, opts CompileOptions) (*Schema, error) {
	c := newCOptions(&opts)
	defer c.release()
	p, n := cbytes(raw)
	o := C.tg_go_compile_with(p, n, &c.c)
	runtime.KeepAlive(c)
	if o.status != C.TG_OK {
		return nil, takeError(o.status, o.error, o.view)
	}
	s := &Schema{ptr: o.schema, g: newGuard()}
	runtime.SetFinalizer(s, (*Schema).Close)
	return s, nil
}

// cOptions is the C form of a CompileOptions: the tg_compile_options and its two
// arrays live in Go memory and point at the options' strings and bytes. The C call
// reads them while they stay where they are: every Go object they point to is pinned
// until release, as cgo requires of Go pointers inside memory handed to C.
type cOptions struct {
	c       C.tg_compile_options
	res     []C.tg_resource
	formats []C.tg_str
	pin     runtime.Pinner
}

func newCOptions(o *CompileOptions) *cOptions {
	c := &cOptions{}
	c.c.size = C.size_t(unsafe.Sizeof(c.c))
	c.c.profile = C.tg_profile(o.Profile)
	c.c.default_draft = C.tg_draft(o.DefaultDraft)
	if o.MaxDepth > 0 {
		c.c.max_depth = C.size_t(o.MaxDepth)
	}
	if o.MaskedValues {
		c.c.masked_values = 1
	}
	if len(o.Resources) > 0 {
		c.res = make([]C.tg_resource, len(o.Resources))
		for i, r := range o.Resources {
			c.res[i].uri, c.res[i].uri_len = c.pinString(r.URI)
			c.res[i].json, c.res[i].json_len = c.pinBytes(r.Schema)
		}
		c.pin.Pin(&c.res[0])
		c.c.resources = &c.res[0]
		c.c.resource_count = C.size_t(len(c.res))
	}
	if len(o.AnnotationFormats) > 0 {
		c.formats = make([]C.tg_str, len(o.AnnotationFormats))
		for i, f := range o.AnnotationFormats {
			c.formats[i].ptr, c.formats[i].len = c.pinString(f)
		}
		c.pin.Pin(&c.formats[0])
		c.c.annotation_formats = &c.formats[0]
		c.c.annotation_format_count = C.size_t(len(c.formats))
	}
	return c
}

// pinString is the C view of s, pinned until release (Pin does nothing for a string
// that is not in the Go heap, such as a literal).
func (c *cOptions) pinString(s string) (*C.char, C.size_t) {
	if len(s) == 0 {
		return nil, 0
	}
	p := unsafe.StringData(s)
	c.pin.Pin(p)
	return (*C.char)(unsafe.Pointer(p)), C.size_t(len(s))
}

func (c *cOptions) pinBytes(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	p := unsafe.SliceData(b)
	c.pin.Pin(p)
	return (*C.char)(unsafe.Pointer(p)), C.size_t(len(b))
}

func (c *cOptions) release() { c.pin.Unpin() }

// WithProfile sets the profile of every tool's parameters schema (default
// ProfileCore): NewRegistry(WithProfile(ProfileFull)) registers tools declared in JSON
// Schema draft 2020-12 or draft-07.
func WithProfile(p Profile) Option {
	return func(o *registryOptions) { o.compile.Profile = p }
}

// WithDefaultDraft sets the draft of a full-profile parameters schema without $schema
// (default draft 2020-12).
func WithDefaultDraft(d Draft) Option {
	return func(o *registryOptions) { o.compile.DefaultDraft = d }
}

// WithResource adds a document the full profile's references may reach, under its
// absolute URI (see Resource). NewRegistry panics, and NewRegistryOrError returns an
// error, if it is not JSON.
func WithResource(uri string, schema json.RawMessage) Option {
	return func(o *registryOptions) {
		o.compile.Resources = append(o.compile.Resources, Resource{URI: uri, Schema: schema})
	}
}

// WithAnnotationFormats adds format names the full profile accepts as annotations
// only, unchecked (such as OpenAPI's "password" and "binary").
func WithAnnotationFormats(names ...string) Option {
	return func(o *registryOptions) {
		o.compile.AnnotationFormats = append(o.compile.AnnotationFormats, names...)
	}
}

// WithMaskedValues(true) keeps every value of arguments and of answers out of the
// registry's violation messages (and so out of the contents of refused calls and of
// Result.Violations): where a message would quote a value it says "value", e.g.
//
//	error: tool forecast returned an invalid result:
//	$.sky: value is not one of ["sun","rain"]
//
// so that what a model or a tool sent never reaches a log or the model through them.
// The default, false, quotes values. CompileOptions.MaskedValues (through
// WithCompileOptions) masks too: either one is enough.
func WithMaskedValues(masked bool) Option {
	return func(o *registryOptions) { o.maskedValues = masked }
}

// WithCompileOptions sets every compile option of the tools' schemas at once, as
// CompileWith takes them. It replaces what earlier WithProfile, WithDefaultDraft,
// WithResource, WithAnnotationFormats and WithMaxDepth options set (its MaxDepth is
// the registry's nesting limit); later ones change it.
func WithCompileOptions(c CompileOptions) Option {
	// Copied now: a caller's later change to its slices does not reach the option.
	c.Resources = append([]Resource(nil), c.Resources...)
	c.AnnotationFormats = append([]string(nil), c.AnnotationFormats...)
	return func(o *registryOptions) {
		o.compile = c
		o.compile.Resources = append([]Resource(nil), c.Resources...)
		o.compile.AnnotationFormats = append([]string(nil), c.AnnotationFormats...)
	}
}
