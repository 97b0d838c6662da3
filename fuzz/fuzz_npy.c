/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_npy: bytes -> the CLI's .npy reader (tools/npy.c).
 *
 * The bytes are a whole .npy image. Checked:
 *   - npy_load_buffer never crashes, never reads outside the buffer, fails
 *     with a non-empty message or succeeds with count = product(shape),
 *     nbytes = count * itemsize = the bytes after the header, data = those
 *     bytes; npy_parse_header agrees with it; msg = NULL / a 1-byte message
 *     buffer give the same answer;
 *   - a successful header re-encodes (npy_encode_header, exact capacity and
 *     one byte less) and parses back to the same array description;
 *   - npy_load on a regular file holding the bytes, and (FUZZ_NPY_PIPE=1, the
 *     default) on a pipe holding them — what `maxpool ... /dev/stdin` reads —
 *     gives the same answer as npy_load_buffer.
 * Allocations out of proportion to the input are caught by libFuzzer's
 * -malloc_limit_mb (fuzz/run.sh sets it).
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_check.h"
#include "npy.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK FZ_CHECK

static char tmp_path[256];
static int use_pipe = 1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmp_path, sizeof tmp_path, "%s/maxpool_fuzz_npy.%ld.npy", dir, (long)getpid());
    const char *p = getenv("FUZZ_NPY_PIPE");
    if (p && strcmp(p, "0") == 0)
        use_pipe = 0;
    return 0;
}

static void check_msg(const char *msg, size_t cap, const char *what)
{
    CHECK(memchr(msg, '\0', cap) != NULL, "%s: message not terminated", what);
    CHECK(msg[0] != '\0', "%s: failed with an empty message", what);
}

static void same_description(const npy_array *a, const npy_array *b, const char *what)
{
    CHECK(a->dtype == b->dtype && a->ndim == b->ndim && a->count == b->count && a->itemsize == b->itemsize &&
              a->nbytes == b->nbytes && strcmp(a->descr, b->descr) == 0,
          "%s: array descriptions differ (%s ndim %d count %lld vs %s ndim %d count %lld)", what, a->descr, a->ndim,
          (long long)a->count, b->descr, b->ndim, (long long)b->count);
    for (int i = 0; i < a->ndim; ++i)
        CHECK(a->shape[i] == b->shape[i], "%s: shape[%d] %lld vs %lld", what, i, (long long)a->shape[i],
              (long long)b->shape[i]);
}

/* npy_load on `path` must agree with the buffer result. */
static void load_and_compare(const char *path, int rc_buf, const npy_array *ref, const char *what)
{
    npy_array c;
    char msg[NPY_MESSAGE_SIZE];
    const int rc = npy_load(path, &c, msg, sizeof msg);
    if (rc_buf == 0) {
        CHECK(rc == 0, "%s: npy_load failed (%s) where npy_load_buffer succeeded", what, msg);
        same_description(ref, &c, what);
        CHECK(ref->nbytes == 0 || memcmp(ref->data, c.data, ref->nbytes) == 0, "%s: data differs", what);
    } else {
        CHECK(rc != 0, "%s: npy_load succeeded where npy_load_buffer failed", what);
        check_msg(msg, sizeof msg, what);
    }
    npy_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    npy_array a, h;
    char msg[NPY_MESSAGE_SIZE], msg2[NPY_MESSAGE_SIZE];
    memset(msg, 0x55, sizeof msg);
    const int rc = npy_load_buffer(data, size, &a, msg, sizeof msg);
    size_t off = 0;
    const int rch = npy_parse_header(data, size, &h, &off, msg2, sizeof msg2);
    if (rc != 0) {
        check_msg(msg, sizeof msg, "npy_load_buffer");
        if (rch != 0)
            check_msg(msg2, sizeof msg2, "npy_parse_header");
    } else {
        CHECK(rch == 0, "npy_load_buffer succeeded, npy_parse_header failed: %s", msg2);
        same_description(&a, &h, "npy_parse_header vs npy_load_buffer");
        CHECK(a.ndim >= 0 && a.ndim <= NPY_MAX_DIMS, "ndim %d", a.ndim);
        int64_t count = 1;
        for (int i = 0; i < a.ndim; ++i) {
            CHECK(a.shape[i] >= 0, "shape[%d] = %lld", i, (long long)a.shape[i]);
            CHECK(!__builtin_mul_overflow(count, a.shape[i], &count), "count overflows");
        }
        CHECK(a.count == count, "count %lld != product %lld", (long long)a.count, (long long)count);
        CHECK(a.itemsize == maxpool_dtype_size(a.dtype), "itemsize %zu for %s", a.itemsize, a.descr);
        CHECK(a.nbytes == (size_t)count * a.itemsize, "nbytes %zu", a.nbytes);
        CHECK(off <= size && size - off == a.nbytes, "data offset %zu + nbytes %zu != size %zu", off, a.nbytes, size);
        CHECK(npy_descr_of(a.dtype) && strcmp(npy_descr_of(a.dtype), a.descr) == 0, "descr %s", a.descr);
        CHECK(a.data != NULL, "no data");
        CHECK(a.nbytes == 0 || memcmp(a.data, data + off, a.nbytes) == 0, "data is not the bytes after the header");

        /* the header re-encodes and parses back */
        char hb[8192];
        const size_t hn = npy_encode_header(hb, sizeof hb, a.descr, a.ndim, a.shape);
        CHECK(hn > 0, "npy_encode_header failed for %s ndim %d", a.descr, a.ndim);
        CHECK(hn % 64 == 0, "header size %zu not a multiple of 64", hn);
        npy_array b;
        size_t off2 = 0;
        CHECK(npy_parse_header(hb, hn, &b, &off2, msg2, sizeof msg2) == 0, "re-encoded header does not parse: %s",
              msg2);
        CHECK(off2 == hn, "re-encoded data offset %zu != %zu", off2, hn);
        same_description(&a, &b, "re-encoded header");
        char *exact = (char *)malloc(hn);
        CHECK(npy_encode_header(exact, hn, a.descr, a.ndim, a.shape) == hn, "encode with exact capacity");
        free(exact);
        char *shortbuf = (char *)malloc(hn - 1);
        CHECK(npy_encode_header(shortbuf, hn - 1, a.descr, a.ndim, a.shape) == 0, "encode into one byte less");
        free(shortbuf);
    }

    /* no message buffer / a one-byte one: same answer */
    npy_array t;
    CHECK((npy_load_buffer(data, size, &t, NULL, 0) == 0) == (rc == 0), "msg NULL changes the result");
    npy_free(&t);
    char *one = (char *)malloc(1);
    CHECK((npy_load_buffer(data, size, &t, one, 1) == 0) == (rc == 0), "msg_size 1 changes the result");
    if (rc != 0)
        CHECK(one[0] == '\0', "1-byte message not terminated");
    free(one);
    npy_free(&t);

    /* the same bytes as a regular file */
    FILE *fp = fopen(tmp_path, "wb");
    if (fp) {
        const size_t w = fwrite(data, 1, size, fp);
        const int ok = fclose(fp) == 0 && w == size;
        if (ok)
            load_and_compare(tmp_path, rc, &a, "regular file");
        unlink(tmp_path);
    }

    /* and through a pipe (no size known up front), small inputs only */
    if (use_pipe && size <= 32768) {
        int pfd[2];
        if (pipe(pfd) == 0) {
            size_t done = 0;
            while (done < size) {
                const ssize_t k = write(pfd[1], data + done, size - done);
                if (k <= 0)
                    break;
                done += (size_t)k;
            }
            close(pfd[1]);
            if (done == size) {
                char path[64];
                snprintf(path, sizeof path, "/dev/fd/%d", pfd[0]);
                load_and_compare(path, rc, &a, "pipe");
            }
            close(pfd[0]);
        }
    }
    npy_free(&a);
    return 0;
}
