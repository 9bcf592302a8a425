// SPDX-License-Identifier: GPL-2.0
/*
 * json_check - validate one JSON text (RFC 8259) and optionally flatten it
 *
 *	json_check [-f] [FILE]
 *
 * Reads FILE (default stdin).  Exit 0 if it is exactly one valid JSON
 * value (whitespace around it allowed), 1 with "json_check: line L, column
 * C: what" on stderr if not, 2 on usage or read errors.  With -f every
 * scalar is printed as "path=value", one per line, the path in jq style
 * (.cpus[0].tasks[1].pid) and the value as it appears in the text (strings
 * with their quotes and escapes), so that a shell test without jq can grep:
 *
 *	.cpus[0].tasks[0].pid=1234
 *	.cpus[0].tasks[0].comm="spin"
 *
 * Strings must be valid UTF-8 without raw control characters; numbers
 * follow the JSON grammar; nesting is limited to 64 levels.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct js {
	const char *s;		/* the text */
	size_t len, pos;
	bool flatten;
	char path[4096];
	size_t plen;
	const char *err;
	size_t err_pos;
};

static bool fail(struct js *j, const char *what)
{
	if (!j->err) {
		j->err = what;
		j->err_pos = j->pos;
	}
	return false;
}

static void ws(struct js *j)
{
	while (j->pos < j->len && (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' ||
				   j->s[j->pos] == '\n' || j->s[j->pos] == '\r'))
		j->pos++;
}

static int peek(const struct js *j)
{
	return j->pos < j->len ? (unsigned char)j->s[j->pos] : -1;
}

static void emit(const struct js *j, size_t start)
{
	if (j->flatten)
		printf("%.*s=%.*s\n", (int)j->plen, j->path, (int)(j->pos - start), j->s + start);
}

static bool literal(struct js *j, const char *word)
{
	size_t n = strlen(word), start = j->pos;

	if (j->len - j->pos < n || memcmp(j->s + j->pos, word, n))
		return fail(j, "invalid literal");
	j->pos += n;
	emit(j, start);
	return true;
}

static bool hex4(struct js *j, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		int c = peek(j);

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned int)(c - 'A' + 10);
		else
			return fail(j, "bad \\u escape");
		j->pos++;
	}
	return true;
}

/* one UTF-8 sequence starting at j->pos (first byte >= 0x80) */
static bool utf8(struct js *j)
{
	const unsigned char *p = (const unsigned char *)j->s + j->pos;
	size_t left = j->len - j->pos;
	unsigned int cp;
	int n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2; cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3; cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4; cp = p[0] & 0x07;
	} else {
		return fail(j, "invalid UTF-8");
	}
	if (left < (size_t)n)
		return fail(j, "truncated UTF-8");
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return fail(j, "invalid UTF-8");
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return fail(j, "invalid UTF-8");
	j->pos += (size_t)n;
	return true;
}

static bool string(struct js *j, bool is_value)
{
	size_t start = j->pos;
	unsigned int u, u2;

	j->pos++;	/* the opening quote */
	for (;;) {
		int c = peek(j);

		if (c < 0)
			return fail(j, "unterminated string");
		if (c == '"') {
			j->pos++;
			break;
		}
		if (c < 0x20)
			return fail(j, "raw control character in a string");
		if (c == '\\') {
			j->pos++;
			c = peek(j);
			if (c < 0 || !strchr("\"\\/bfnrtu", c))
				return fail(j, "bad escape");
			j->pos++;
			if (c == 'u') {
				if (!hex4(j, &u))
					return false;
				if (u >= 0xdc00 && u <= 0xdfff)
					return fail(j, "lone low surrogate");
				if (u >= 0xd800 && u <= 0xdbff) {
					if (peek(j) != '\\' || j->pos + 1 >= j->len || j->s[j->pos + 1] != 'u')
						return fail(j, "lone high surrogate");
					j->pos += 2;
					if (!hex4(j, &u2))
						return false;
					if (u2 < 0xdc00 || u2 > 0xdfff)
						return fail(j, "bad surrogate pair");
				}
			}
			continue;
		}
		if (c >= 0x80) {
			if (!utf8(j))
				return false;
			continue;
		}
		j->pos++;
	}
	if (is_value)
		emit(j, start);
	return true;
}

static bool digits(struct js *j)
{
	size_t start = j->pos;

	while (peek(j) >= '0' && peek(j) <= '9')
		j->pos++;
	return j->pos > start;
}

static bool number(struct js *j)
{
	size_t start = j->pos;

	if (peek(j) == '-')
		j->pos++;
	if (peek(j) == '0') {
		j->pos++;
	} else if (peek(j) >= '1' && peek(j) <= '9') {
		digits(j);
	} else {
		return fail(j, "bad number");
	}
	if (peek(j) == '.') {
		j->pos++;
		if (!digits(j))
			return fail(j, "bad fraction");
	}
	if (peek(j) == 'e' || peek(j) == 'E') {
		j->pos++;
		if (peek(j) == '+' || peek(j) == '-')
			j->pos++;
		if (!digits(j))
			return fail(j, "bad exponent");
	}
	emit(j, start);
	return true;
}

static bool value(struct js *j, int depth);

/* append ".key" (key of length n), or "[n]" if key is NULL */
static bool path_push(struct js *j, size_t n, const char *key)
{
	size_t room = sizeof(j->path) - j->plen;
	int w;

	if (key)
		w = snprintf(j->path + j->plen, room, ".%.*s", (int)n, key);
	else
		w = snprintf(j->path + j->plen, room, "[%zu]", n);
	if (w < 0 || (size_t)w >= room)
		return fail(j, "path too long");
	j->plen += (size_t)w;
	return true;
}

static bool object(struct js *j, int depth)
{
	size_t saved = j->plen, kstart;

	j->pos++;
	ws(j);
	if (peek(j) == '}') {
		j->pos++;
		return true;
	}
	for (;;) {
		ws(j);
		if (peek(j) != '"')
			return fail(j, "expected a string key");
		kstart = j->pos + 1;
		if (!string(j, false))
			return false;
		/* the key as written, without quotes (escapes kept) */
		if (!path_push(j, j->pos - 1 - kstart, j->s + kstart))
			return false;
		ws(j);
		if (peek(j) != ':')
			return fail(j, "expected ':'");
		j->pos++;
		if (!value(j, depth + 1))
			return false;
		j->plen = saved;
		ws(j);
		if (peek(j) == ',') {
			j->pos++;
			continue;
		}
		if (peek(j) == '}') {
			j->pos++;
			return true;
		}
		return fail(j, "expected ',' or '}'");
	}
}

static bool array(struct js *j, int depth)
{
	size_t saved = j->plen, i = 0;

	j->pos++;
	ws(j);
	if (peek(j) == ']') {
		j->pos++;
		return true;
	}
	for (;; i++) {
		if (!path_push(j, i, NULL))
			return false;
		if (!value(j, depth + 1))
			return false;
		j->plen = saved;
		ws(j);
		if (peek(j) == ',') {
			j->pos++;
			continue;
		}
		if (peek(j) == ']') {
			j->pos++;
			return true;
		}
		return fail(j, "expected ',' or ']'");
	}
}

static bool value(struct js *j, int depth)
{
	if (depth > MAX_DEPTH)
		return fail(j, "nested too deeply");
	ws(j);
	switch (peek(j)) {
	case '{': return object(j, depth);
	case '[': return array(j, depth);
	case '"': return string(j, true);
	case 't': return literal(j, "true");
	case 'f': return literal(j, "false");
	case 'n': return literal(j, "null");
	case -1: return fail(j, "unexpected end of input");
	default: return number(j);
	}
}

int main(int argc, char **argv)
{
	struct js j = { 0 };
	size_t cap = 0, n, line = 1, col = 1, i;
	char *buf = NULL;
	FILE *f = stdin;
	int a = 1;

	if (a < argc && !strcmp(argv[a], "-f")) {
		j.flatten = true;
		a++;
	}
	if (a < argc && argv[a][0] == '-' && argv[a][1]) {
		fprintf(stderr, "usage: json_check [-f] [FILE]\n");
		return 2;
	}
	if (a < argc && strcmp(argv[a], "-")) {
		f = fopen(argv[a], "rb");
		if (!f) {
			perror(argv[a]);
			return 2;
		}
	}
	for (;;) {
		if (j.len == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "json_check: out of memory\n");
				return 2;
			}
		}
		n = fread(buf + j.len, 1, cap - j.len, f);
		if (!n)
			break;
		j.len += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "json_check: read error\n");
		return 2;
	}
	j.s = buf;
	if (value(&j, 0)) {
		ws(&j);
		if (j.pos != j.len)
			fail(&j, "trailing characters after the value");
	}
	if (j.err) {
		for (i = 0; i < j.err_pos && i < j.len; i++) {
			if (buf[i] == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		fprintf(stderr, "json_check: line %zu, column %zu: %s\n", line, col, j.err);
		return 1;
	}
	free(buf);
	return 0;
}
