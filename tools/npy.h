/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NumPy .npy files (format versions 1.0, 2.0 and 3.0): read and write, little-
 * endian, C order, the dtypes the library computes on.
 *
 * dtype descriptors:  <f4 <f8 <f2 |i1 |u1 <i2 <u2 <i4 <i8, and <V2 for
 * bfloat16 (what np.save writes for an ml_dtypes.bfloat16 array).
 *
 * Every function returns 0 on success and -1 on failure, with a one-line
 * message (no trailing newline) in msg. Nothing here prints or aborts.
 */
#ifndef MAXPOOL_TOOLS_NPY_H
#define MAXPOOL_TOOLS_NPY_H

#include "maxpool.h"

#include <stddef.h>
#include <stdint.h>

/** numpy's own limit on the number of dimensions. */
#define NPY_MAX_DIMS 64
/** Size of the message buffers the functions below fill. */
#define NPY_MESSAGE_SIZE 512

typedef struct npy_array {
    maxpool_dtype dtype; /* the element type the descriptor maps to */
    char descr[8];       /* canonical descriptor of dtype, e.g. "<f4" ("=f4" reads as "<f4") */
    int ndim;
    int64_t shape[NPY_MAX_DIMS];
    int64_t count;   /* number of elements (product of shape) */
    size_t itemsize; /* bytes per element */
    size_t nbytes;   /* count * itemsize */
    void *data;      /* nbytes bytes in host byte order; owned, release with npy_free */
} npy_array;

/** Canonical descriptor of a dtype ("<f4", "|i1", "<V2" for bf16, ...); NULL if invalid. */
const char *npy_descr_of(maxpool_dtype dtype);

/**
 * Parses the magic, version, length field and header dict at buf[0..len).
 * On success fills a (everything but data) and *data_offset, the offset of the
 * first data byte. Does not look at the data.
 */
int npy_parse_header(const void *buf, size_t len, npy_array *a, size_t *data_offset, char *msg, size_t msg_size);

/** Parses a whole .npy image in memory; a->data is a fresh copy. */
int npy_load_buffer(const void *buf, size_t len, npy_array *a, char *msg, size_t msg_size);

/** Reads a .npy file; messages start with the path. */
int npy_load(const char *path, npy_array *a, char *msg, size_t msg_size);

/** Releases a->data; a may be NULL or already freed. */
void npy_free(npy_array *a);

/**
 * Writes the header for (descr, ndim, shape) into buf, padded so that the data
 * starts at a multiple of 64 bytes (version 1.0, or 2.0 when the header does
 * not fit 1.0's 16-bit length). Returns the header size, or 0 if it does not
 * fit cap or the arguments are invalid.
 */
size_t npy_encode_header(char *buf, size_t cap, const char *descr, int ndim, const int64_t *shape);

/** "a directory", "a FIFO", "a symbolic link", ... for a st_mode, for messages. */
const char *npy_file_kind(unsigned mode);

/**
 * Whether path may be replaced by an atomic write: it does not exist, or it is
 * a regular file. A symlink (even to a regular file), a FIFO, a socket, a
 * device or a directory is refused (lstat: a symlink is not followed), so that
 * the rename never turns a special file into a regular one.
 */
int npy_check_output(const char *path, char *msg, size_t msg_size);

/*
 * Atomic writes. npy_save_begin writes the whole file to a temporary file in
 * the destination's directory; npy_save_commit renames it into place;
 * npy_save_abort removes it. A program that writes several outputs begins all
 * of them, then commits all of them, so that a failure leaves no output (and
 * never a half-written one). Both begin and commit refuse a destination that
 * npy_check_output refuses. npy_load reads regular files and pipes only.
 */
typedef struct npy_pending {
    char *tmp_path;   /* NULL when nothing is pending */
    char *final_path;
} npy_pending;

int npy_save_begin(npy_pending *p, const char *path, const char *descr, int ndim, const int64_t *shape,
                   const void *data, char *msg, size_t msg_size);
int npy_save_commit(npy_pending *p, char *msg, size_t msg_size);
void npy_save_abort(npy_pending *p);

/** begin + commit. */
int npy_save(const char *path, const char *descr, int ndim, const int64_t *shape, const void *data, char *msg,
             size_t msg_size);

#endif
