/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A minimal PNG encoder: 8-bit RGB, no filtering, zlib "stored" blocks.
 * The files are larger than compressed ones but need no zlib, so the tool
 * builds anywhere libfoldray does. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "fr-cancel.h"
#include "fr-status.h"

/* Largest width or height we write; also keeps every size in 32 bits. */
#define PNG_MAX_SIDE 16384

/* Writes width × height pixels, rows top to bottom, 3 bytes (R, G, B) per
 * pixel, to path atomically (all or nothing).  Once cancel (optional) is
 * raised, stops before the commit with FR_E_CANCELLED, leaving path as it
 * was and no temporary file. */
fr_status png_write_rgb (const char *path, const uint8_t *rgb, size_t width, size_t height,
                         const fr_cancel *cancel, fr_error *err);
