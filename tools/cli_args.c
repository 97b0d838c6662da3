/* SPDX-License-Identifier: Apache-2.0 */
/* maxpool CLI: option tables, integer and list parsing, error output. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cli_opt *cli_add(cli_table *t, const char *name, cli_kind kind, int capacity, const char *const *choices,
                 const char *metavar, const char *help)
{
    if (t->count >= CLI_MAX_OPTS)
        return NULL; /* programming error; tables are far smaller */
    cli_opt *o = &t->opt[t->count++];
    memset(o, 0, sizeof *o);
    o->name = name;
    o->kind = kind;
    o->capacity = capacity > CLI_LIST_CAPACITY ? CLI_LIST_CAPACITY : capacity;
    o->choices = choices;
    o->metavar = metavar;
    o->help = help;
    return o;
}

cli_opt *cli_find(cli_table *t, const char *name)
{
    for (int i = 0; i < t->count; ++i)
        if (strcmp(t->opt[i].name, name) == 0)
            return &t->opt[i];
    return NULL;
}

const cli_opt *cli_given(cli_table *t, const char *name)
{
    const cli_opt *o = cli_find(t, name);
    return o && o->seen ? o : NULL;
}

int cli_parse_int64(const char *s, int64_t *out)
{
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (*p < '0' || *p > '9')
        return -1;
    /* Accumulate as a negative number so INT64_MIN parses. */
    int64_t v = 0;
    int overflow = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
        int d = *p - '0';
        if (v < (INT64_MIN + d) / 10)
            overflow = 1;
        else
            v = v * 10 - d;
    }
    if (*p != '\0')
        return -1;
    if (overflow || (!neg && v == INT64_MIN))
        return -2;
    *out = neg ? v : -v;
    return 0;
}

int cli_parse_list(const char *s, int64_t *vals, int cap, int *n)
{
    char item[64];
    int count = 0, range_error = 0;
    const char *p = s;
    if (*p == '\0')
        return -1;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        /* allow spaces around an element: "3, 3" */
        while (len && (*p == ' ' || *p == '\t'))
            ++p, --len;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            --len;
        if (len == 0 || len >= sizeof item)
            return len == 0 ? -1 : -2;
        memcpy(item, p, len);
        item[len] = '\0';
        int64_t v;
        int rc = cli_parse_int64(item, &v);
        if (rc == -1)
            return -1;
        if (rc == -2)
            range_error = 1;
        if (count >= cap)
            return -3;
        vals[count++] = v;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (range_error)
        return -2;
    *n = count;
    return 0;
}

static int set_value(cli_opt *o, const char *value, char *msg, size_t msg_size)
{
    if (o->seen) {
        snprintf(msg, msg_size, "--%s given more than once", o->name);
        return -1;
    }
    o->seen = 1;
    o->sval = value;
    switch (o->kind) {
    case CLI_LIST: {
        int rc = cli_parse_list(value, o->list, o->capacity, &o->n);
        if (rc == -1)
            snprintf(msg, msg_size, "--%s: '%s' is not a comma-separated list of integers", o->name, value);
        else if (rc == -2)
            snprintf(msg, msg_size, "--%s: '%s': a value does not fit in int64", o->name, value);
        else if (rc == -3)
            snprintf(msg, msg_size, "--%s: '%s': more than %d values", o->name, value, o->capacity);
        return rc ? -1 : 0;
    }
    case CLI_INT: {
        int rc = cli_parse_int64(value, &o->ival);
        if (rc == -1)
            snprintf(msg, msg_size, "--%s: '%s' is not an integer", o->name, value);
        else if (rc == -2)
            snprintf(msg, msg_size, "--%s: '%s' does not fit in int64", o->name, value);
        return rc ? -1 : 0;
    }
    case CLI_STRING:
        return 0;
    case CLI_CHOICE:
        for (int i = 0; o->choices[i]; ++i)
            if (strcmp(o->choices[i], value) == 0) {
                o->choice = i;
                return 0;
            }
        {
            char list[256] = "";
            size_t used = 0;
            for (int i = 0; o->choices[i] && used < sizeof list; ++i) {
                int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", o->choices[i]);
                if (w < 0)
                    break;
                used += (size_t)w;
            }
            snprintf(msg, msg_size, "--%s: '%s' is not one of: %s", o->name, value, list);
        }
        return -1;
    }
    return -1;
}

int cli_parse(int argc, char **argv, cli_table *t, const char *context, const char **pos, int max_pos, int *npos,
              int *help, char *msg, size_t msg_size)
{
    *npos = 0;
    *help = 0;
    /* --help anywhere (before "--") wins over every other problem. */
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            *help = 1;
            return 0;
        }
    }
    int only_positional = 0;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!only_positional && strcmp(a, "--") == 0) {
            only_positional = 1;
            continue;
        }
        if (only_positional || a[0] != '-' || a[1] == '\0') {
            if (*npos >= max_pos) {
                snprintf(msg, msg_size, "unexpected argument '%s' (see '%s --help')", a, context);
                return -1;
            }
            pos[(*npos)++] = a;
            continue;
        }
        if (a[1] != '-') {
            snprintf(msg, msg_size, "unknown option '%s' for '%s' (options start with --; see '%s --help')", a,
                     context, context);
            return -1;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        cli_opt *o = NULL;
        for (int k = 0; k < t->count; ++k)
            if (strlen(t->opt[k].name) == len && strncmp(t->opt[k].name, name, len) == 0)
                o = &t->opt[k];
        if (!o) {
            snprintf(msg, msg_size, "unknown option '--%.*s' for '%s' (see '%s --help')", (int)len, name, context,
                     context);
            return -1;
        }
        const char *value;
        if (eq)
            value = eq + 1;
        else if (i + 1 < argc)
            value = argv[++i];
        else {
            snprintf(msg, msg_size, "--%s needs a value (%s)", o->name, o->metavar ? o->metavar : "VALUE");
            return -1;
        }
        if (set_value(o, value, msg, msg_size) != 0)
            return -1;
    }
    return 0;
}

void cli_print_options(FILE *f, const cli_table *t)
{
    for (int i = 0; i < t->count; ++i) {
        const cli_opt *o = &t->opt[i];
        char head[64];
        snprintf(head, sizeof head, "--%s %s", o->name, o->metavar ? o->metavar : "");
        fprintf(f, "  %-30s %s\n", head, o->help ? o->help : "");
    }
}

void cli_error(const char *fmt, ...)
{
    char buf[CLI_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *p = buf; *p; ++p)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fprintf(stderr, "maxpool: %s\n", buf);
}

void cli_format_list(char *buf, size_t cap, const int64_t *v, int n)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (int i = 0; i < n && used < cap; ++i) {
        int w = snprintf(buf + used, cap - used, i ? ",%lld" : "%lld", (long long)v[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}
