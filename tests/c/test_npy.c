/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tools/npy.c: round trips of every dtype (memory and file), numpy's exact
 * header bytes, and every malformed-file case giving an error, not a crash.
 *
 * npy.c belongs to the CLI, not the library, so it is compiled in here.
 */
#include "../../tools/npy.c" /* first: it sets _POSIX_C_SOURCE */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, checks = 0;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        ++checks;                                                                                                      \
        if (!(cond)) {                                                                                                 \
            ++failures;                                                                                                \
            fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
        }                                                                                                              \
    } while (0)

static char tmpdir[256];

static void path_in_tmp(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", tmpdir, name);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot create %s\n", path);
        exit(2);
    }
    if (n)
        fwrite(data, 1, n, f);
    fclose(f);
}

/* Number of leftover temporary files (.maxpool-tmp-*) in tmpdir. */
static int count_temp_files(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, ".maxpool-tmp-", 13) == 0)
            ++n;
    closedir(d);
    return n;
}

/* Builds a .npy image: version major.0, the given header dict (padded to 64
 * like numpy), then data_len bytes of data (pattern). Returns the size. */
static size_t build_image(unsigned char *buf, size_t cap, int major, const char *dict, size_t data_len)
{
    size_t prefix = major == 1 ? 10 : 12;
    size_t dlen = strlen(dict);
    size_t total = (prefix + dlen + 1 + 63) / 64 * 64;
    size_t hlen = total - prefix;
    if (total + data_len > cap)
        exit(2);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    if (prefix == 12) {
        buf[10] = (unsigned char)(hlen >> 16);
        buf[11] = (unsigned char)(hlen >> 24);
    }
    memcpy(buf + prefix, dict, dlen);
    memset(buf + prefix + dlen, ' ', hlen - dlen - 1);
    buf[total - 1] = '\n';
    for (size_t i = 0; i < data_len; ++i)
        buf[total + i] = (unsigned char)(i * 37 + 11);
    return total + data_len;
}

static void test_round_trips(void)
{
    static const maxpool_dtype all[] = {MAXPOOL_F32, MAXPOOL_F64, MAXPOOL_F16, MAXPOOL_BF16, MAXPOOL_I8,
                                        MAXPOOL_U8,  MAXPOOL_I16, MAXPOOL_U16, MAXPOOL_I32,  MAXPOOL_I64};
    static const char *const descr[] = {"<f4", "<f8", "<f2", "<V2", "|i1", "|u1", "<i2", "<u2", "<i4", "<i8"};
    static const size_t size[] = {4, 8, 2, 2, 1, 1, 2, 2, 4, 8};
    const int64_t shapes[][4] = {{2, 3, 4, 5}, {2, 0, 3, 0}, {3, 0, 0, 0}};
    const int ndims[] = {4, 3, 1};
    for (size_t t = 0; t < sizeof all / sizeof all[0]; ++t) {
        CHECK(strcmp(npy_descr_of(all[t]), descr[t]) == 0, "dtype %zu: descr %s", t, npy_descr_of(all[t]));
        for (int s = 0; s < 3; ++s) {
            int64_t count = 1;
            for (int i = 0; i < ndims[s]; ++i)
                count *= shapes[s][i];
            size_t nbytes = (size_t)count * size[t];
            unsigned char *data = (unsigned char *)malloc(nbytes + 1);
            for (size_t i = 0; i < nbytes; ++i)
                data[i] = (unsigned char)(i * 131 + t * 7 + 1);
            char path[400], msg[NPY_MESSAGE_SIZE] = "";
            path_in_tmp(path, sizeof path, "rt.npy");
            int rc = npy_save(path, descr[t], ndims[s], shapes[s], data, msg, sizeof msg);
            CHECK(rc == 0, "save %s: %s", descr[t], msg);
            npy_array a;
            rc = npy_load(path, &a, msg, sizeof msg);
            CHECK(rc == 0, "load %s: %s", descr[t], msg);
            if (rc == 0) {
                CHECK(a.dtype == all[t], "%s: dtype %d", descr[t], (int)a.dtype);
                CHECK(strcmp(a.descr, descr[t]) == 0, "%s: descr %s", descr[t], a.descr);
                CHECK(a.ndim == ndims[s], "%s: ndim %d", descr[t], a.ndim);
                CHECK(memcmp(a.shape, shapes[s], (size_t)ndims[s] * sizeof(int64_t)) == 0, "%s: shape", descr[t]);
                CHECK(a.count == count && a.itemsize == size[t] && a.nbytes == nbytes, "%s: sizes", descr[t]);
                CHECK(nbytes == 0 || memcmp(a.data, data, nbytes) == 0, "%s: data differs", descr[t]);
                npy_free(&a);
            }
            /* The same through memory, from the file's bytes. */
            FILE *f = fopen(path, "rb");
            unsigned char img[4096];
            size_t n = f ? fread(img, 1, sizeof img, f) : 0;
            if (f)
                fclose(f);
            CHECK(n > 0 && (n - nbytes) % 64 == 0, "%s: header not padded to 64 (%zu)", descr[t], n);
            rc = npy_load_buffer(img, n, &a, msg, sizeof msg);
            CHECK(rc == 0, "load_buffer %s: %s", descr[t], msg);
            if (rc == 0) {
                CHECK(a.dtype == all[t] && a.nbytes == nbytes && (nbytes == 0 || !memcmp(a.data, data, nbytes)),
                      "%s: buffer round trip", descr[t]);
                npy_free(&a);
            }
            free(data);
        }
    }
    /* 0-d array: shape () */
    {
        char path[400], msg[NPY_MESSAGE_SIZE] = "";
        path_in_tmp(path, sizeof path, "scalar.npy");
        double v = 2.5;
        CHECK(npy_save(path, "<f8", 0, NULL, &v, msg, sizeof msg) == 0, "save scalar: %s", msg);
        npy_array a;
        CHECK(npy_load(path, &a, msg, sizeof msg) == 0, "load scalar: %s", msg);
        CHECK(a.ndim == 0 && a.count == 1 && a.data && *(double *)a.data == 2.5, "scalar value");
        npy_free(&a);
    }
    CHECK(count_temp_files() == 0, "temporary files left: %d", count_temp_files());
}

/* The header numpy 2.x writes for np.save(f, np.zeros((2, 3), np.float32)). */
static void test_numpy_header_bytes(void)
{
    const char expect_dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    char buf[256];
    int64_t shape[2] = {2, 3};
    size_t n = npy_encode_header(buf, sizeof buf, "<f4", 2, shape);
    CHECK(n == 128, "header size %zu, numpy writes 128", n);
    CHECK(memcmp(buf, "\x93NUMPY\x01\x00\x76\x00", 10) == 0, "prefix differs from numpy's");
    CHECK(memcmp(buf + 10, expect_dict, sizeof expect_dict - 1) == 0, "dict differs: %.60s", buf + 10);
    int pad_ok = 1;
    for (size_t i = 10 + sizeof expect_dict - 1; i < 127; ++i)
        pad_ok &= buf[i] == ' ';
    CHECK(pad_ok && buf[127] == '\n', "padding differs from numpy's");
    /* 1-D shapes are written "(5,)" as Python does; numpy's header for
     * np.zeros(5, np.uint8) is 128 bytes too. */
    int64_t s1 = 5;
    const char expect_1d[] = "{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }";
    n = npy_encode_header(buf, sizeof buf, "|u1", 1, &s1);
    CHECK(n == 128 && memcmp(buf + 10, expect_1d, sizeof expect_1d - 1) == 0, "1-D shape: %.60s", buf + 10);
    /* Invalid descriptors and too-small buffers are refused. */
    CHECK(npy_encode_header(buf, sizeof buf, "<u4", 1, &s1) == 0, "encoded <u4");
    CHECK(npy_encode_header(buf, 32, "<f4", 2, shape) == 0, "encoded into 32 bytes");
}

static void test_accepted_variants(void)
{
    unsigned char img[1024];
    char msg[NPY_MESSAGE_SIZE];
    npy_array a;
    struct {
        int major;
        const char *dict;
        maxpool_dtype dtype;
        size_t data;
    } ok[] = {
        {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", MAXPOOL_F32, 24},
        {3, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", MAXPOOL_I64, 24},
        {1, "{\"descr\": \"<f2\", \"fortran_order\": False, \"shape\": (1, 2)}", MAXPOOL_F16, 4},
        {1, "{'shape': (4,), 'fortran_order': False, 'descr': '<V2'}", MAXPOOL_BF16, 8},
        {1, "{'descr': '<i1', 'fortran_order': False, 'shape': (3,), }", MAXPOOL_I8, 3},
        {1, "{'descr': '>u1', 'fortran_order': False, 'shape': (3,), }", MAXPOOL_U8, 3},
        {1, "{'descr': '=f4', 'fortran_order': False, 'shape': (1,), }", MAXPOOL_F32, 4},
        {1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2L, 1L), }", MAXPOOL_U16, 4},
        {1, "{'descr': '<f8', 'fortran_order': True, 'shape': (), }", MAXPOOL_F64, 8}, /* see below */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
        size_t n = build_image(img, sizeof img, ok[i].major, ok[i].dict, ok[i].data);
        int rc = npy_load_buffer(img, n, &a, msg, sizeof msg);
        if (strstr(ok[i].dict, "True")) {
            /* Fortran order is refused even where it would not matter. */
            CHECK(rc != 0 && strstr(msg, "Fortran"), "fortran scalar: %s", msg);
            continue;
        }
        CHECK(rc == 0, "variant %zu (%s): %s", i, ok[i].dict, msg);
        if (rc == 0) {
            CHECK(a.dtype == ok[i].dtype && a.nbytes == ok[i].data, "variant %zu: dtype %d nbytes %zu", i,
                  (int)a.dtype, a.nbytes);
            CHECK(memcmp(a.data, img + n - ok[i].data, ok[i].data) == 0, "variant %zu: data", i);
            npy_free(&a);
        }
    }
}

/* Every malformed case: an error whose message contains `expect`, from
 * memory and from a file, and nothing allocated on the way out. */
static void expect_error(const unsigned char *img, size_t n, const char *expect, const char *what)
{
    char msg[NPY_MESSAGE_SIZE] = "";
    npy_array a;
    int rc = npy_load_buffer(img, n, &a, msg, sizeof msg);
    CHECK(rc == -1, "%s: accepted from memory", what);
    CHECK(strstr(msg, expect) != NULL, "%s: message '%s' lacks '%s'", what, msg, expect);
    CHECK(strchr(msg, '\n') == NULL, "%s: message has a newline", what);
    if (rc == 0)
        npy_free(&a);

    char path[400];
    path_in_tmp(path, sizeof path, "bad.npy");
    write_file(path, img, n);
    msg[0] = '\0';
    rc = npy_load(path, &a, msg, sizeof msg);
    CHECK(rc == -1, "%s: accepted from a file", what);
    CHECK(strstr(msg, expect) != NULL && strstr(msg, "bad.npy: ") != NULL, "%s: file message '%s' lacks '%s'",
          what, msg, expect);
    CHECK(rc != -1 || a.data == NULL, "%s: data left allocated", what);
    if (rc == 0)
        npy_free(&a);
}

static void test_malformed(void)
{
    unsigned char img[2048];
    size_t n;
    struct {
        const char *dict;
        size_t data;
        const char *expect;
    } bad[] = {
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24, "Fortran-order"},
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 24, "big-endian"},
        {"{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }", 8, "big-endian"},
        {"{'descr': '>V2', 'fortran_order': False, 'shape': (1,), }", 2, "big-endian"},
        {"{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }", 8, "unsupported dtype '<u4'"},
        {"{'descr': '<u8', 'fortran_order': False, 'shape': (2,), }", 16, "unsupported dtype"},
        {"{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", 2, "unsupported dtype"},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16, "unsupported dtype"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16, "unsupported dtype"},
        {"{'descr': '|V2', 'fortran_order': False, 'shape': (2,), }", 4, "unsupported dtype"},
        {"{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", 24, "unsupported dtype"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 8, "structured"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 23, "truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0, "truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 25, "size mismatch"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775807, 2), }", 0, "overflows"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }", 0, "overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 0, "overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3), }", 0, "negative"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,), }", 0, "malformed"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }", 24, "malformed"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }", 24, "malformed"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", 8, "malformed"},
        {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,), }", 8, "malformed"},
        {"{'descr': '<f4', 'shape': (2,), }", 8, "missing key 'fortran_order'"},
        {"{'fortran_order': False, 'shape': (2,), }", 8, "missing key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, }", 8, "missing key 'shape'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8, "duplicate"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1, }", 8, "unexpected key"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } junk", 8, "trailing"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }", 8, "malformed"},
        {"{'descr': 7, 'fortran_order': False, 'shape': (2,), }", 8, "malformed"},
        {"['descr', '<f4']", 8, "malformed"},
        {"", 8, "malformed"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,), }", 8, "malformed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        n = build_image(img, sizeof img, 1, bad[i].dict, bad[i].data);
        char what[64];
        snprintf(what, sizeof what, "case %zu", i);
        expect_error(img, n, bad[i].expect, what);
    }

    /* Prefix problems. */
    const char *good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    n = build_image(img, sizeof img, 1, good, 8);
    expect_error(img, 0, "truncated", "empty file");
    expect_error(img, 5, "truncated", "5 bytes");
    expect_error(img, 9, "truncated", "9 bytes");
    expect_error(img, 40, "truncated", "header cut");
    {
        unsigned char c[256];
        memcpy(c, img, n);
        c[1] = 'X';
        expect_error(c, n, "not a .npy file", "bad magic");
        memcpy(c, "PK\x03\x04", 4); /* a zip (.npz) */
        expect_error(c, n, "not a .npy file", "npz");
        memcpy(c, img, n);
        c[6] = 4;
        expect_error(c, n, "version 4.0", "version 4");
        c[6] = 1;
        c[7] = 1;
        expect_error(c, n, "version 1.1", "version 1.1");
        memcpy(c, img, n);
        c[8] = 0xff; /* header length beyond the file */
        expect_error(c, n, "truncated", "header length");
    }
    /* Version 2 with an absurd header length. */
    n = build_image(img, sizeof img, 2, good, 8);
    img[11] = 0x7f;
    expect_error(img, n, "too large", "v2 header length");
    /* Version 2, truncated in the 4-byte length. */
    n = build_image(img, sizeof img, 2, good, 8);
    expect_error(img, 11, "truncated", "v2 prefix");

    /* A directory and a missing file. */
    char msg[NPY_MESSAGE_SIZE] = "";
    npy_array a;
    CHECK(npy_load(tmpdir, &a, msg, sizeof msg) == -1 && strstr(msg, "directory"), "directory: %s", msg);
    char path[400];
    path_in_tmp(path, sizeof path, "does-not-exist.npy");
    CHECK(npy_load(path, &a, msg, sizeof msg) == -1 && strstr(msg, "cannot open"), "missing: %s", msg);
}

static void test_atomic_writes(void)
{
    char path[400], msg[NPY_MESSAGE_SIZE] = "";
    float v[4] = {1, 2, 3, 4};
    int64_t shape[1] = {4};
    npy_array a;

    /* begin + abort: neither the output nor a temporary file remains. */
    path_in_tmp(path, sizeof path, "aborted.npy");
    npy_pending p;
    CHECK(npy_save_begin(&p, path, "<f4", 1, shape, v, msg, sizeof msg) == 0, "begin: %s", msg);
    CHECK(count_temp_files() == 1, "one temporary file while pending (%d)", count_temp_files());
    CHECK(access(path, F_OK) != 0, "output exists before commit");
    npy_save_abort(&p);
    CHECK(access(path, F_OK) != 0, "output exists after abort");
    CHECK(count_temp_files() == 0, "temporary file left after abort");

    /* Overwriting keeps the old content until the commit. */
    path_in_tmp(path, sizeof path, "over.npy");
    CHECK(npy_save(path, "<f4", 1, shape, v, msg, sizeof msg) == 0, "save: %s", msg);
    float w[4] = {5, 6, 7, 8};
    CHECK(npy_save_begin(&p, path, "<f4", 1, shape, w, msg, sizeof msg) == 0, "begin: %s", msg);
    CHECK(npy_load(path, &a, msg, sizeof msg) == 0 && ((float *)a.data)[0] == 1, "old content changed early");
    npy_free(&a);
    CHECK(npy_save_commit(&p, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(npy_load(path, &a, msg, sizeof msg) == 0 && ((float *)a.data)[0] == 5, "new content missing");
    npy_free(&a);
    CHECK(count_temp_files() == 0, "temporary file left after commit");

    /* A missing directory: an error naming the path, nothing created. */
    snprintf(path, sizeof path, "%s/no-such-dir/out.npy", tmpdir);
    CHECK(npy_save(path, "<f4", 1, shape, v, msg, sizeof msg) == -1 && strstr(msg, "out.npy"), "missing dir: %s",
          msg);
    /* Committing onto a directory fails and removes the temporary file. */
    path_in_tmp(path, sizeof path, "adir");
    mkdir(path, 0700);
    CHECK(npy_save(path, "<f4", 1, shape, v, msg, sizeof msg) == -1, "rename onto a directory succeeded");
    CHECK(count_temp_files() == 0, "temporary file left after a failed commit");
    rmdir(path);
    /* An unknown descriptor is refused before anything is created. */
    path_in_tmp(path, sizeof path, "u4.npy");
    CHECK(npy_save(path, "<u4", 1, shape, v, msg, sizeof msg) == -1 && access(path, F_OK) != 0, "saved <u4");
    CHECK(npy_save("", "<f4", 1, shape, v, msg, sizeof msg) == -1, "saved to an empty path");
}

static void cleanup(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[600];
        snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(tmpdir);
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_npy_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_round_trips();
    test_numpy_header_bytes();
    test_accepted_variants();
    test_malformed();
    test_atomic_writes();
    cleanup();
    printf("test_npy: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
