/* SPDX-License-Identifier: Apache-2.0 */
/* Internal to the maxpool command-line tool: option tables and shared helpers. */
#ifndef MAXPOOL_TOOLS_CLI_H
#define MAXPOOL_TOOLS_CLI_H

#include "maxpool.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes (docs/cli.md). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_REJECTED 1 /* the library rejected the attributes / shape / dtype, or demo mismatch */
#define CLI_EXIT_USAGE 2    /* command-line syntax: unknown flag, malformed value, missing argument */
#define CLI_EXIT_FILE 3     /* a .npy file cannot be read, parsed or written */

#define CLI_MESSAGE_SIZE 768
#define CLI_LIST_CAPACITY 64 /* the longest list: --input_shape, up to the 64 dimensions of a .npy file */

typedef enum cli_kind {
    CLI_LIST,   /* comma-separated integers: 3,3 */
    CLI_INT,    /* one integer (int64) */
    CLI_STRING, /* passed through to the front-end, which validates it */
    CLI_CHOICE  /* one of choices[] (the CLI's own options) */
} cli_kind;

typedef struct cli_opt {
    const char *name; /* without the leading "--" */
    cli_kind kind;
    int capacity;               /* CLI_LIST: most values accepted */
    const char *const *choices; /* CLI_CHOICE: NULL-terminated */
    const char *metavar;        /* for --help */
    const char *help;           /* for --help, one line */
    /* filled by cli_parse */
    int seen;
    int n; /* CLI_LIST: number of values */
    int64_t list[CLI_LIST_CAPACITY];
    int64_t ival;
    const char *sval; /* the raw argument, every kind */
    int choice;       /* CLI_CHOICE: index into choices */
} cli_opt;

/* A table of options being built (fixed capacity). */
#define CLI_MAX_OPTS 32
typedef struct cli_table {
    cli_opt opt[CLI_MAX_OPTS];
    int count;
} cli_table;

/* Appends an option; returns it. */
cli_opt *cli_add(cli_table *t, const char *name, cli_kind kind, int capacity, const char *const *choices,
                 const char *metavar, const char *help);
/* The option named name, or NULL. */
cli_opt *cli_find(cli_table *t, const char *name);
/* Seen option named name, or NULL when absent. */
const cli_opt *cli_given(cli_table *t, const char *name);

/* Parses a decimal int64 (optional sign, no spaces). 0 ok, -1 not an integer, -2 out of range. */
int cli_parse_int64(const char *s, int64_t *out);
/* Parses "3,3" into vals[0..*n). 0 ok, -1 malformed, -2 out of range, -3 more than cap values. */
int cli_parse_list(const char *s, int64_t *vals, int cap, int *n);

/*
 * Parses argv[0..argc): --name value, --name=value, and positional arguments
 * (everything after "--" is positional). *help is set when --help or -h is
 * present. Returns 0, or -1 with a one-line message naming the flag (context
 * is the command for the hint, e.g. "maxpool onnx").
 */
int cli_parse(int argc, char **argv, cli_table *t, const char *context, const char **pos, int max_pos, int *npos,
              int *help, char *msg, size_t msg_size);

/* Prints "  --name METAVAR   help" for each option. */
void cli_print_options(FILE *f, const cli_table *t);

/* Prints "maxpool: <message>" and a newline on stderr; newlines in the message become spaces. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* "1,3,112,112" */
void cli_format_list(char *buf, size_t cap, const int64_t *v, int n);

/* The built-in demo (cli_demo.c). */
int cli_demo(int argc, char **argv);

#endif
