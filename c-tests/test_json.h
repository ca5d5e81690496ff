/*
 * A minimal JSON reader for the shared test files (tests/vectors.json, results.json,
 * calls.json): strings decoded into byte buffers (NUL bytes kept), any value skipped
 * or kept as its raw text, and a small tree (json_node) for files read whole. It
 * trusts its input (the repository's own files) and reports the first error with its
 * byte offset.
 */
#ifndef TOOLGATE_TEST_JSON_H
#define TOOLGATE_TEST_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct reader {
    const char *s;
    size_t len;
    size_t pos;
    int failed;
} reader;

typedef struct buf {
    char *data;
    size_t len;
    size_t cap;
} buf;

static inline void buf_push(buf *b, const char *p, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 64 : b->cap;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        b->data = (char *)realloc(b->data, cap);
        if (b->data == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static inline void reader_fail(reader *r, const char *what) {
    if (!r->failed) {
        fprintf(stderr, "JSON file: %s at byte %zu\n", what, r->pos);
    }
    r->failed = 1;
}

static inline void skip_ws(reader *r) {
    while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\n' ||
                               r->s[r->pos] == '\r' || r->s[r->pos] == '\t')) {
        r->pos++;
    }
}

static inline int peek(reader *r) {
    skip_ws(r);
    return r->pos < r->len ? (unsigned char)r->s[r->pos] : -1;
}

static inline int eat(reader *r, char c) {
    if (peek(r) == (unsigned char)c) {
        r->pos++;
        return 1;
    }
    return 0;
}

static inline void expect(reader *r, char c) {
    if (!eat(r, c)) {
        char msg[32];
        snprintf(msg, sizeof msg, "expected '%c'", c);
        reader_fail(r, msg);
    }
}

static inline unsigned hex4(reader *r) {
    unsigned v = 0;
    int i;
    for (i = 0; i < 4; i++) {
        char c = r->pos < r->len ? r->s[r->pos++] : '\0';
        v <<= 4;
        if (c >= '0' && c <= '9') {
            v |= (unsigned)(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            v |= (unsigned)(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
            v |= (unsigned)(c - 'A' + 10);
        } else {
            reader_fail(r, "bad \\u escape");
        }
    }
    return v;
}

static inline void put_utf8(buf *out, unsigned cp) {
    char b[4];
    if (cp < 0x80) {
        b[0] = (char)cp;
        buf_push(out, b, 1);
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3f));
        buf_push(out, b, 2);
    } else if (cp < 0x10000) { /* a lone surrogate comes out as its 3-byte (invalid) form */
        b[0] = (char)(0xe0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f));
        buf_push(out, b, 3);
    } else {
        b[0] = (char)(0xf0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[3] = (char)(0x80 | (cp & 0x3f));
        buf_push(out, b, 4);
    }
}

/* Reads a JSON string into `out` (decoded, may contain NUL bytes). */
static inline void read_string(reader *r, buf *out) {
    out->len = 0;
    buf_push(out, "", 0);
    expect(r, '"');
    while (!r->failed) {
        char c;
        if (r->pos >= r->len) {
            reader_fail(r, "unterminated string");
            return;
        }
        c = r->s[r->pos++];
        if (c == '"') {
            return;
        }
        if (c != '\\') {
            buf_push(out, &c, 1);
            continue;
        }
        c = r->pos < r->len ? r->s[r->pos++] : '\0';
        switch (c) {
        case '"': case '\\': case '/': buf_push(out, &c, 1); break;
        case 'b': buf_push(out, "\b", 1); break;
        case 'f': buf_push(out, "\f", 1); break;
        case 'n': buf_push(out, "\n", 1); break;
        case 'r': buf_push(out, "\r", 1); break;
        case 't': buf_push(out, "\t", 1); break;
        case 'u': {
            unsigned cp = hex4(r);
            if (cp >= 0xd800 && cp < 0xdc00 && r->pos + 6 <= r->len && r->s[r->pos] == '\\' &&
                r->s[r->pos + 1] == 'u') {
                size_t save = r->pos;
                unsigned lo;
                r->pos += 2;
                lo = hex4(r);
                if (lo >= 0xdc00 && lo < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                } else {
                    r->pos = save;
                }
            }
            put_utf8(out, cp);
            break;
        }
        default: reader_fail(r, "bad escape"); return;
        }
    }
}

/* Skips any JSON value. */
static inline void skip_value(reader *r, int depth) {
    int c = peek(r);
    if (depth > 200) {
        reader_fail(r, "too deep");
        return;
    }
    if (c == '"') {
        buf tmp = {NULL, 0, 0};
        read_string(r, &tmp);
        free(tmp.data);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        r->pos++;
        if (eat(r, close)) {
            return;
        }
        do {
            if (c == '{') {
                buf key = {NULL, 0, 0};
                read_string(r, &key);
                free(key.data);
                expect(r, ':');
            }
            skip_value(r, depth + 1);
        } while (!r->failed && eat(r, ','));
        expect(r, close);
    } else if (c != -1) {
        /* number or literal */
        size_t start = r->pos;
        while (r->pos < r->len && strchr(",}] \n\r\t", r->s[r->pos]) == NULL) {
            r->pos++;
        }
        if (r->pos == start) {
            reader_fail(r, "unexpected character");
        }
    } else {
        reader_fail(r, "unexpected end");
    }
}

static inline int read_bool(reader *r) {
    skip_ws(r);
    if (r->len - r->pos >= 4 && memcmp(r->s + r->pos, "true", 4) == 0) {
        r->pos += 4;
        return 1;
    }
    if (r->len - r->pos >= 5 && memcmp(r->s + r->pos, "false", 5) == 0) {
        r->pos += 5;
        return 0;
    }
    reader_fail(r, "expected a boolean");
    return 0;
}

/* ---- A tree, for files read whole. ---- */

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_node {
    json_kind kind;
    const char *raw; /* the value's text in the file */
    size_t raw_len;
    int boolean;
    buf string;              /* JSON_STRING: decoded */
    struct json_node *items; /* JSON_ARRAY and JSON_OBJECT: the values */
    buf *keys;               /* JSON_OBJECT: the keys, decoded */
    size_t count;
} json_node;

static inline void json_free(json_node *n) {
    size_t i;
    free(n->string.data);
    for (i = 0; i < n->count; i++) {
        json_free(&n->items[i]);
        if (n->keys != NULL) {
            free(n->keys[i].data);
        }
    }
    free(n->items);
    free(n->keys);
    memset(n, 0, sizeof *n);
}

static inline void json_read(reader *r, json_node *n, int depth) {
    int c = peek(r);
    memset(n, 0, sizeof *n);
    n->raw = r->s + r->pos;
    if (depth > 200) {
        reader_fail(r, "too deep");
        return;
    }
    if (c == '"') {
        n->kind = JSON_STRING;
        read_string(r, &n->string);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        n->kind = c == '{' ? JSON_OBJECT : JSON_ARRAY;
        r->pos++;
        if (!eat(r, close)) {
            do {
                n->items = (json_node *)realloc(n->items, (n->count + 1) * sizeof *n->items);
                if (n->items == NULL) {
                    exit(2);
                }
                if (c == '{') {
                    n->keys = (buf *)realloc(n->keys, (n->count + 1) * sizeof *n->keys);
                    if (n->keys == NULL) {
                        exit(2);
                    }
                    memset(&n->keys[n->count], 0, sizeof *n->keys);
                    read_string(r, &n->keys[n->count]);
                    expect(r, ':');
                }
                json_read(r, &n->items[n->count], depth + 1);
                n->count++;
            } while (!r->failed && eat(r, ','));
            expect(r, close);
        }
    } else if (c == 't' || c == 'f') {
        n->kind = JSON_BOOL;
        n->boolean = read_bool(r);
    } else {
        n->kind = c == 'n' ? JSON_NULL : JSON_NUMBER;
        skip_value(r, depth);
    }
    n->raw_len = (size_t)(r->s + r->pos - n->raw);
}

/* The member `key` of an object, or NULL. */
static inline const json_node *json_get(const json_node *n, const char *key) {
    size_t i;
    if (n == NULL || n->kind != JSON_OBJECT) {
        return NULL;
    }
    for (i = 0; i < n->count; i++) {
        if (strcmp(n->keys[i].data, key) == 0) {
            return &n->items[i];
        }
    }
    return NULL;
}

/* A string member's decoded text ("" when absent or not a string) and its length. */
static inline const char *json_str(const json_node *n, const char *key, size_t *len) {
    const json_node *v = json_get(n, key);
    if (v == NULL || v->kind != JSON_STRING || v->string.data == NULL) {
        if (len != NULL) {
            *len = 0;
        }
        return "";
    }
    if (len != NULL) {
        *len = v->string.len;
    }
    return v->string.data;
}

/* Reads a whole file into a tree; exits with a message when it cannot (a missing
 * shared file is a failure, never a skip). `text` keeps the file (raw spans point
 * into it). */
static inline void json_load(const char *path, buf *text, json_node *root) {
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t got;
    reader r;
    if (f == NULL) {
        fprintf(stderr, "FAILED: shared test file %s cannot be read (it is required)\n", path);
        exit(1);
    }
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_push(text, chunk, got);
    }
    fclose(f);
    r.s = text->data;
    r.len = text->len;
    r.pos = 0;
    r.failed = 0;
    json_read(&r, root, 0);
    if (r.failed) {
        fprintf(stderr, "FAILED: %s is not JSON\n", path);
        exit(1);
    }
}

#endif /* TOOLGATE_TEST_JSON_H */
