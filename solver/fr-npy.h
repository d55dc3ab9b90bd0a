/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NumPy .npy files, format versions 1.0, 2.0 and 3.0: little-endian
 * float32 ('<f4') or float64 ('<f8'), C order.  Anything else is refused with
 * a message naming the file and the fault; a malformed file never crashes or
 * hangs the reader. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "fr-array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most elements a file may declare before we refuse it as absurd (2^31). */
#define FR_NPY_MAX_ELEMENTS ((uint64_t) 1 << 31)

/* Reads path into out (dtype as stored).  On failure out is left cleared
 * and err names the file.  Nothing is allocated for the data before the
 * header's claim is judged: FR_E_INPUT when it declares more than
 * FR_NPY_MAX_ELEMENTS or more bytes than the file holds, FR_E_NOMEM when
 * the data exceeds the memory this process may use (fr-memory.h). */
fr_status fr_npy_read (const char *path, fr_array *out, fr_error *err);

/* The same from memory: the parser the file reader and the fuzzer share. */
fr_status fr_npy_parse (const uint8_t *bytes, size_t len, fr_array *out, fr_error *err);

/* Writes a (format 1.0, or 2.0 when the header needs it) atomically:
 * a temporary file beside path is written, flushed and renamed, and a
 * failure leaves nothing behind. */
fr_status fr_npy_write (const char *path, const fr_array *a, fr_error *err);

/* Writes a as fr_npy_write does, into fp (open for writing, e.g. an
 * fr_atomic_file's); path only names it in messages. */
fr_status fr_npy_write_to (FILE *fp, const char *path, const fr_array *a, fr_error *err);

#ifdef __cplusplus
}
#endif
