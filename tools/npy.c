/* SPDX-License-Identifier: Apache-2.0 */
/* NumPy .npy read/write; see npy.h. */
#define _POSIX_C_SOURCE 200809L

#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Largest header accepted when reading (numpy itself refuses more than 10000
 * bytes unless told otherwise). */
#define NPY_MAX_HEADER ((size_t)1 << 20)

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

static const struct {
    const char *descr;
    maxpool_dtype dtype;
    size_t size;
} npy_types[] = {
    {"<f4", MAXPOOL_F32, 4}, {"<f8", MAXPOOL_F64, 8}, {"<f2", MAXPOOL_F16, 2},  {"<V2", MAXPOOL_BF16, 2},
    {"|i1", MAXPOOL_I8, 1},  {"|u1", MAXPOOL_U8, 1},  {"<i2", MAXPOOL_I16, 2},  {"<u2", MAXPOOL_U16, 2},
    {"<i4", MAXPOOL_I32, 4}, {"<i8", MAXPOOL_I64, 8},
};
#define NPY_NTYPES (sizeof npy_types / sizeof npy_types[0])

static const char npy_supported[] = "<f4 <f8 <f2 <V2 (bfloat16) |i1 |u1 <i2 <u2 <i4 <i8";

static int fail(char *msg, size_t msg_size, const char *fmt, ...)
{
    if (msg && msg_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msg_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static void swap_bytes(void *data, size_t count, size_t itemsize)
{
    unsigned char *p = (unsigned char *)data;
    if (itemsize < 2)
        return;
    for (size_t i = 0; i < count; ++i, p += itemsize)
        for (size_t a = 0, b = itemsize - 1; a < b; ++a, --b) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

const char *npy_descr_of(maxpool_dtype dtype)
{
    for (size_t i = 0; i < NPY_NTYPES; ++i)
        if (npy_types[i].dtype == dtype)
            return npy_types[i].descr;
    return NULL;
}

static int lookup_exact(const char *descr, maxpool_dtype *dtype, size_t *size)
{
    for (size_t i = 0; i < NPY_NTYPES; ++i)
        if (strcmp(npy_types[i].descr, descr) == 0) {
            if (dtype)
                *dtype = npy_types[i].dtype;
            if (size)
                *size = npy_types[i].size;
            return 0;
        }
    return -1;
}

/* Maps a descriptor read from a file to a dtype. Byte order: '<' little, '>'
 * big, '|' not applicable, '=' the host's. One-byte types take any order. */
static int lookup_descr(const char *descr, maxpool_dtype *dtype, size_t *size, char *msg, size_t msg_size)
{
    char key[8];
    size_t n = strlen(descr);
    if (n >= 3 && n < sizeof key && strchr("<>|=", descr[0])) {
        memcpy(key, descr, n + 1);
        if (key[0] == '=')
            key[0] = host_is_little_endian() ? '<' : '>';
        /* One-byte types: the byte order character carries no meaning. */
        key[0] = '|';
        if (lookup_exact(key, dtype, size) == 0)
            return 0;
        key[0] = descr[0] == '=' ? (host_is_little_endian() ? '<' : '>') : descr[0];
        if (key[0] == '<' && lookup_exact(key, dtype, size) == 0)
            return 0;
        if (key[0] == '>') {
            key[0] = '<';
            if (lookup_exact(key, NULL, NULL) == 0)
                return fail(msg, msg_size,
                            "big-endian data ('%s') is not supported; save it little-endian, e.g. "
                            "a.astype('%s')",
                            descr, key);
        }
    }
    return fail(msg, msg_size, "unsupported dtype '%s' (supported: %s)", descr, npy_supported);
}

static void format_shape(char *buf, size_t cap, int ndim, const int64_t *shape)
{
    size_t used = 0;
    int w = snprintf(buf, cap, "(");
    used = w > 0 ? (size_t)w : 0;
    for (int i = 0; i < ndim && used < cap; ++i) {
        w = snprintf(buf + used, cap - used, i ? ", %lld" : "%lld", (long long)shape[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
    if (used < cap)
        snprintf(buf + used, cap - used, ndim == 1 ? ",)" : ")");
}

/* ---- header dict parser ------------------------------------------------ */

typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        ++c->p;
}

static int take(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        ++c->p;
        return 1;
    }
    return 0;
}

/* A quoted Python string without escapes. */
static int parse_string(cursor *c, char *out, size_t cap)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return -1;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || *c->p == '\n')
            return -1;
        if (n + 1 < cap)
            out[n] = *c->p;
        ++n;
        ++c->p;
    }
    if (c->p >= c->end)
        return -1;
    ++c->p;
    if (n + 1 > cap) { /* too long for any descriptor we know: keep a marker */
        if (cap >= 4) {
            out[cap - 4] = out[cap - 3] = out[cap - 2] = '.';
            n = cap - 1;
        } else
            n = cap ? cap - 1 : 0;
    }
    if (cap)
        out[n] = '\0';
    return 0;
}

static int match_word(cursor *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        const char *after = c->p + n;
        if (after < c->end && ((*after >= 'a' && *after <= 'z') || (*after >= 'A' && *after <= 'Z') ||
                               (*after >= '0' && *after <= '9') || *after == '_'))
            return 0;
        c->p = after;
        return 1;
    }
    return 0;
}

/* (d0, d1, ...) with optional trailing comma; () for a scalar. */
static int parse_shape(cursor *c, npy_array *a, char *msg, size_t msg_size)
{
    if (!take(c, '('))
        return fail(msg, msg_size, "malformed header: 'shape' is not a tuple");
    a->ndim = 0;
    for (;;) {
        if (take(c, ')'))
            break;
        skip_ws(c);
        if (c->p < c->end && *c->p == '-')
            return fail(msg, msg_size, "malformed header: negative dimension in 'shape'");
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return fail(msg, msg_size, "malformed header: 'shape' holds a non-integer");
        int64_t v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            int d = *c->p++ - '0';
            if (v > (INT64_MAX - d) / 10)
                return fail(msg, msg_size, "shape overflows: a dimension does not fit in int64");
            v = v * 10 + d;
        }
        if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) /* Python 2 long */
            ++c->p;
        if (a->ndim >= NPY_MAX_DIMS)
            return fail(msg, msg_size, "shape has more than %d dimensions", NPY_MAX_DIMS);
        a->shape[a->ndim++] = v;
        if (take(c, ','))
            continue;
        if (take(c, ')'))
            break;
        return fail(msg, msg_size, "malformed header: bad 'shape' tuple");
    }
    /* "(3)" is an int in Python, not a tuple; numpy would reject it. */
    return 0;
}

int npy_parse_header(const void *buf, size_t len, npy_array *a, size_t *data_offset, char *msg, size_t msg_size)
{
    const unsigned char *b = (const unsigned char *)buf;
    memset(a, 0, sizeof *a);
    if (len < 8 || memcmp(b, npy_magic, 6) != 0) {
        if (len < 8 && memcmp(b, npy_magic, len < 6 ? len : 6) == 0)
            return fail(msg, msg_size, "truncated file: incomplete .npy header");
        return fail(msg, msg_size, "not a .npy file (bad magic string)");
    }
    int major = b[6], minor = b[7];
    size_t prefix, hlen;
    if (major == 1 && minor == 0) {
        prefix = 10;
        if (len < prefix)
            return fail(msg, msg_size, "truncated file: incomplete .npy header");
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
    } else if ((major == 2 || major == 3) && minor == 0) {
        prefix = 12;
        if (len < prefix)
            return fail(msg, msg_size, "truncated file: incomplete .npy header");
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    } else
        return fail(msg, msg_size, "unsupported .npy format version %d.%d (supported: 1.0, 2.0, 3.0)", major,
                    minor);
    if (hlen > NPY_MAX_HEADER)
        return fail(msg, msg_size, "malformed header: header length %zu is too large", hlen);
    if (len - prefix < hlen)
        return fail(msg, msg_size, "truncated file: the header needs %zu bytes, %zu present", hlen, len - prefix);

    cursor c = {(const char *)b + prefix, (const char *)b + prefix + hlen};
    char key[32], descr[24] = "";
    int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0;
    if (!take(&c, '{'))
        return fail(msg, msg_size, "malformed header: expected a dict");
    for (;;) {
        if (take(&c, '}'))
            break;
        if (parse_string(&c, key, sizeof key) != 0)
            return fail(msg, msg_size, "malformed header: expected a quoted key");
        if (!take(&c, ':'))
            return fail(msg, msg_size, "malformed header: expected ':' after '%s'", key);
        if (strcmp(key, "descr") == 0) {
            if (have_descr++)
                return fail(msg, msg_size, "malformed header: duplicate key 'descr'");
            skip_ws(&c);
            if (c.p < c.end && (*c.p == '[' || *c.p == '('))
                return fail(msg, msg_size, "unsupported dtype: structured arrays are not supported (supported: %s)",
                            npy_supported);
            if (parse_string(&c, descr, sizeof descr) != 0)
                return fail(msg, msg_size, "malformed header: 'descr' is not a string");
        } else if (strcmp(key, "fortran_order") == 0) {
            if (have_fortran++)
                return fail(msg, msg_size, "malformed header: duplicate key 'fortran_order'");
            if (match_word(&c, "True"))
                fortran = 1;
            else if (match_word(&c, "False"))
                fortran = 0;
            else
                return fail(msg, msg_size, "malformed header: 'fortran_order' is not True or False");
        } else if (strcmp(key, "shape") == 0) {
            if (have_shape++)
                return fail(msg, msg_size, "malformed header: duplicate key 'shape'");
            if (parse_shape(&c, a, msg, msg_size) != 0)
                return -1;
        } else
            return fail(msg, msg_size, "malformed header: unexpected key '%s'", key);
        if (take(&c, ','))
            continue;
        if (take(&c, '}'))
            break;
        return fail(msg, msg_size, "malformed header: expected ',' or '}'");
    }
    skip_ws(&c);
    while (c.p < c.end && *c.p == '\0') /* tolerate NUL padding */
        ++c.p;
    if (c.p != c.end)
        return fail(msg, msg_size, "malformed header: trailing characters after the dict");
    if (!have_descr || !have_fortran || !have_shape)
        return fail(msg, msg_size, "malformed header: missing key '%s'",
                    !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");

    if (lookup_descr(descr, &a->dtype, &a->itemsize, msg, msg_size) != 0)
        return -1;
    memcpy(a->descr, npy_descr_of(a->dtype), 4); /* canonical form, 3 characters */
    if (fortran)
        return fail(msg, msg_size,
                    "Fortran-order arrays are not supported; save a C-order array "
                    "(np.save(path, np.ascontiguousarray(a)))");

    int64_t count = 1;
    for (int i = 0; i < a->ndim; ++i)
        if (__builtin_mul_overflow(count, a->shape[i], &count)) {
            char s[64 * 22];
            format_shape(s, sizeof s, a->ndim, a->shape);
            return fail(msg, msg_size, "shape %.300s overflows: too many elements", s);
        }
    int64_t nbytes;
    if (__builtin_mul_overflow(count, (int64_t)a->itemsize, &nbytes) || (uint64_t)nbytes > (uint64_t)SIZE_MAX) {
        char s[64 * 22];
        format_shape(s, sizeof s, a->ndim, a->shape);
        return fail(msg, msg_size, "shape %.300s overflows: the data size does not fit", s);
    }
    a->count = count;
    a->nbytes = (size_t)nbytes;
    *data_offset = prefix + hlen;
    return 0;
}

static int size_mismatch(const npy_array *a, size_t avail, char *msg, size_t msg_size)
{
    char s[64 * 22];
    format_shape(s, sizeof s, a->ndim, a->shape);
    if (avail < a->nbytes)
        return fail(msg, msg_size, "truncated file: shape %.300s of %s needs %zu data bytes, %zu present", s, a->descr,
                    a->nbytes, avail);
    return fail(msg, msg_size, "size mismatch: shape %.300s of %s needs %zu data bytes, the file holds %zu", s,
                a->descr, a->nbytes, avail);
}

int npy_load_buffer(const void *buf, size_t len, npy_array *a, char *msg, size_t msg_size)
{
    size_t off;
    if (npy_parse_header(buf, len, a, &off, msg, msg_size) != 0)
        return -1;
    if (len - off != a->nbytes)
        return size_mismatch(a, len - off, msg, msg_size);
    a->data = malloc(a->nbytes ? a->nbytes : 1);
    if (!a->data)
        return fail(msg, msg_size, "out of memory (%zu bytes)", a->nbytes);
    memcpy(a->data, (const unsigned char *)buf + off, a->nbytes);
    if (!host_is_little_endian())
        swap_bytes(a->data, (size_t)a->count, a->itemsize);
    return 0;
}

/* First buffer size for data read from a pipe (npy_load). */
#define NPY_PIPE_CHUNK ((size_t)1 << 20)

int npy_load(const char *path, npy_array *a, char *msg, size_t msg_size)
{
    char m[NPY_MESSAGE_SIZE];
    memset(a, 0, sizeof *a);
    /* Only regular files and pipes (/dev/stdin, a FIFO) are read: a terminal
     * or a device could block forever or have side effects on open. stat
     * first, so that no such file is even opened; then open non-blocking, so
     * that a FIFO with no writer does not block the open (reading it then
     * gives end-of-file at once), and check the opened file itself. */
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(msg, msg_size, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        return fail(msg, msg_size, "%s: cannot read: is %s (only regular files and pipes are read)", path,
                    npy_file_kind(st.st_mode));
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fail(msg, msg_size, "%s: cannot open: %s", path, strerror(errno));
    int flags;
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) ||
        (flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        close(fd);
        return fail(msg, msg_size, "%s: cannot read: not a regular file or a pipe", path);
    }
    int regular = S_ISREG(st.st_mode); /* a pipe's size is not known up front */
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return fail(msg, msg_size, "%s: cannot open: %s", path, strerror(e));
    }

    /* The fixed prefix: magic, version, header length. */
    unsigned char pre[12];
    size_t got = fread(pre, 1, 10, f), prefix = 0, hlen = 0;
    if (got >= 8 && memcmp(pre, npy_magic, 6) == 0 && pre[7] == 0)
        prefix = pre[6] == 1 ? 10 : (pre[6] == 2 || pre[6] == 3) ? 12 : 0;
    if (prefix == 12 && got == 10)
        got += fread(pre + 10, 1, 2, f);
    if (prefix && got >= prefix) {
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
        if (prefix == 12)
            hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    }
    if (!prefix || got < prefix || hlen > NPY_MAX_HEADER) {
        size_t off0;
        npy_parse_header(pre, got, a, &off0, m, sizeof m); /* names the problem */
        fclose(f);
        memset(a, 0, sizeof *a);
        return fail(msg, msg_size, "%s: %s", path, m);
    }

    /* The header dict. */
    unsigned char *head = (unsigned char *)malloc(prefix + hlen);
    if (!head) {
        fclose(f);
        return fail(msg, msg_size, "%s: out of memory", path);
    }
    memcpy(head, pre, prefix);
    size_t have = prefix + fread(head + prefix, 1, hlen, f);
    size_t off = 0;
    int rc = npy_parse_header(head, have, a, &off, m, sizeof m);
    free(head);
    if (rc != 0) {
        fclose(f);
        memset(a, 0, sizeof *a);
        return fail(msg, msg_size, "%s: %s", path, m);
    }

    /* The data: exactly nbytes must follow. */
    if (regular && (uint64_t)st.st_size - off != a->nbytes) {
        uint64_t avail = (uint64_t)st.st_size - off;
        size_mismatch(a, avail > SIZE_MAX ? SIZE_MAX : (size_t)avail, m, sizeof m);
        fclose(f);
        memset(a, 0, sizeof *a);
        return fail(msg, msg_size, "%s: %s", path, m);
    }
    /* A regular file's size was checked above, so its nbytes are there to
     * be read. A pipe's are only claimed by the header: the buffer grows
     * with what arrives (doubling from 1 MiB), so a header that claims
     * gigabytes costs at most twice the bytes actually sent. */
    size_t cap = regular || a->nbytes <= NPY_PIPE_CHUNK ? a->nbytes : NPY_PIPE_CHUNK, pos = 0;
    a->data = malloc(cap ? cap : 1);
    for (;;) {
        if (!a->data) {
            size_t nb = cap;
            fclose(f);
            memset(a, 0, sizeof *a);
            return fail(msg, msg_size, "%s: out of memory (%zu bytes)", path, nb);
        }
        pos += fread((unsigned char *)a->data + pos, 1, cap - pos, f);
        if (pos < cap || cap == a->nbytes) /* end of the data (or of the pipe) */
            break;
        cap = cap <= a->nbytes / 2 ? 2 * cap : a->nbytes;
        void *grown = realloc(a->data, cap);
        if (!grown)
            free(a->data);
        a->data = grown;
    }
    int extra = pos == a->nbytes && fgetc(f) != EOF;
    int io_error = ferror(f);
    fclose(f);
    if (io_error || pos < a->nbytes || extra) {
        if (io_error)
            snprintf(m, sizeof m, "read error");
        else if (extra) {
            char s[64 * 22];
            format_shape(s, sizeof s, a->ndim, a->shape);
            snprintf(m, sizeof m, "size mismatch: shape %.300s of %s needs %zu data bytes, the file holds more", s,
                     a->descr, a->nbytes);
        } else
            size_mismatch(a, pos, m, sizeof m);
        npy_free(a);
        memset(a, 0, sizeof *a);
        return fail(msg, msg_size, "%s: %s", path, m);
    }
    if (!host_is_little_endian())
        swap_bytes(a->data, (size_t)a->count, a->itemsize);
    return 0;
}

void npy_free(npy_array *a)
{
    if (a) {
        free(a->data);
        a->data = NULL;
    }
}

/* ---- writing -------------------------------------------------------------- */

size_t npy_encode_header(char *buf, size_t cap, const char *descr, int ndim, const int64_t *shape)
{
    size_t size;
    if (!descr || lookup_exact(descr, NULL, &size) != 0 || ndim < 0 || ndim > NPY_MAX_DIMS)
        return 0;
    char dict[64 * 24 + 128];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': ", descr);
    char s[64 * 22];
    for (int i = 0; i < ndim; ++i)
        if (shape[i] < 0)
            return 0;
    format_shape(s, sizeof s, ndim, shape);
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%s, }", s);
    if (n <= 0 || (size_t)n >= sizeof dict)
        return 0;
    size_t dlen = (size_t)n;
    /* Version 1.0 unless the header length does not fit 16 bits. */
    size_t prefix = 10;
    size_t total = (prefix + dlen + 1 + 63) / 64 * 64;
    if (total - prefix > 65535) {
        prefix = 12;
        total = (prefix + dlen + 1 + 63) / 64 * 64;
    }
    if (total > cap)
        return 0;
    size_t hlen = total - prefix;
    memcpy(buf, npy_magic, 6);
    buf[6] = (char)(prefix == 10 ? 1 : 2);
    buf[7] = 0;
    buf[8] = (char)(hlen & 0xff);
    buf[9] = (char)((hlen >> 8) & 0xff);
    if (prefix == 12) {
        buf[10] = (char)((hlen >> 16) & 0xff);
        buf[11] = (char)((hlen >> 24) & 0xff);
    }
    memcpy(buf + prefix, dict, dlen);
    memset(buf + prefix + dlen, ' ', total - prefix - dlen - 1);
    buf[total - 1] = '\n';
    return total;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

const char *npy_file_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    return S_ISREG(m)    ? "a regular file"
           : S_ISDIR(m)  ? "a directory"
           : S_ISLNK(m)  ? "a symbolic link"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
                         : "not a regular file";
}

int npy_check_output(const char *path, char *msg, size_t msg_size)
{
    struct stat st;
    if (lstat(path, &st) != 0) /* lstat: a symlink is seen, not followed */
        return errno == ENOENT ? 0 : fail(msg, msg_size, "%s: cannot write: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(msg, msg_size, "%s: cannot write: is %s (only a regular file is replaced)", path,
                    npy_file_kind(st.st_mode));
    return 0;
}

void npy_save_abort(npy_pending *p)
{
    if (!p)
        return;
    if (p->tmp_path) {
        unlink(p->tmp_path);
        free(p->tmp_path);
    }
    free(p->final_path);
    p->tmp_path = p->final_path = NULL;
}

int npy_save_begin(npy_pending *p, const char *path, const char *descr, int ndim, const int64_t *shape,
                   const void *data, char *msg, size_t msg_size)
{
    p->tmp_path = p->final_path = NULL;
    size_t itemsize;
    if (!path || !*path)
        return fail(msg, msg_size, "empty output path");
    if (!descr || lookup_exact(descr, NULL, &itemsize) != 0)
        return fail(msg, msg_size, "%s: cannot write dtype '%s'", path, descr ? descr : "(null)");
    int64_t count = 1;
    for (int i = 0; i < ndim; ++i)
        if (shape[i] < 0 || __builtin_mul_overflow(count, shape[i], &count))
            return fail(msg, msg_size, "%s: invalid shape", path);
    int64_t nbytes;
    if (__builtin_mul_overflow(count, (int64_t)itemsize, &nbytes) || (uint64_t)nbytes > SIZE_MAX)
        return fail(msg, msg_size, "%s: invalid shape", path);

    char header[4096];
    size_t hsize = npy_encode_header(header, sizeof header, descr, ndim, shape);
    if (hsize == 0)
        return fail(msg, msg_size, "%s: cannot encode the header", path);

    /* Refuse, before anything is written, a destination that is not a
     * regular file (commits of several outputs should not fail half-way). */
    if (npy_check_output(path, msg, msg_size) != 0)
        return -1;

    /* Temporary file in the destination's directory, so rename is atomic.
     * mkstemp opens with O_CREAT | O_EXCL, which never follows a symlink. */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    static const char tmpl[] = ".maxpool-tmp-XXXXXX";
    char *tmp = (char *)malloc(dirlen + sizeof tmpl);
    p->final_path = dup_string(path);
    if (!tmp || !p->final_path) {
        free(tmp);
        free(p->final_path);
        p->final_path = NULL;
        return fail(msg, msg_size, "%s: out of memory", path);
    }
    memcpy(tmp, path, dirlen);
    memcpy(tmp + dirlen, tmpl, sizeof tmpl);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        free(p->final_path);
        p->final_path = NULL;
        return fail(msg, msg_size, "%s: cannot create: %s", path, strerror(e));
    }
    p->tmp_path = tmp;
    /* mkstemp creates 0600; give the file the permissions a plain create would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, (mode_t)(0666 & ~mask));

    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        npy_save_abort(p);
        return fail(msg, msg_size, "%s: cannot write: %s", path, strerror(e));
    }
    int ok = fwrite(header, 1, hsize, f) == hsize;
    if (ok && nbytes > 0) {
        if (host_is_little_endian())
            ok = fwrite(data, 1, (size_t)nbytes, f) == (size_t)nbytes;
        else {
            unsigned char chunk[4096];
            size_t per = sizeof chunk / itemsize * itemsize;
            for (size_t done = 0; ok && done < (size_t)nbytes; done += per) {
                size_t n = (size_t)nbytes - done < per ? (size_t)nbytes - done : per;
                memcpy(chunk, (const unsigned char *)data + done, n);
                swap_bytes(chunk, n / itemsize, itemsize);
                ok = fwrite(chunk, 1, n, f) == n;
            }
        }
    }
    int e = errno;
    if (ok && fflush(f) != 0) {
        ok = 0;
        e = errno;
    }
    if (ok && fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS) {
        ok = 0;
        e = errno;
    }
    if (fclose(f) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (!ok) {
        npy_save_abort(p);
        return fail(msg, msg_size, "%s: cannot write: %s", path, strerror(e));
    }
    return 0;
}

int npy_save_commit(npy_pending *p, char *msg, size_t msg_size)
{
    if (!p->tmp_path)
        return fail(msg, msg_size, "nothing to commit");
    /* Checked again: the destination may have been replaced since begin.
     * (rename never writes through a symlink; it would replace the link.) */
    if (npy_check_output(p->final_path, msg, msg_size) != 0) {
        npy_save_abort(p);
        return -1;
    }
    if (rename(p->tmp_path, p->final_path) != 0) {
        int e = errno;
        char *final_path = p->final_path;
        p->final_path = NULL;
        npy_save_abort(p);
        fail(msg, msg_size, "%s: cannot write: %s", final_path, strerror(e));
        free(final_path);
        return -1;
    }
    free(p->tmp_path);
    free(p->final_path);
    p->tmp_path = p->final_path = NULL;
    return 0;
}

int npy_save(const char *path, const char *descr, int ndim, const int64_t *shape, const void *data, char *msg,
             size_t msg_size)
{
    npy_pending p;
    if (npy_save_begin(&p, path, descr, ndim, shape, data, msg, msg_size) != 0)
        return -1;
    return npy_save_commit(&p, msg, msg_size);
}
