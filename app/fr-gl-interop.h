/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA–GL interop for the traveltime texture: T goes from a CUDA device
 * buffer into a GL pixel-unpack buffer registered with CUDA, and from there
 * into the texture, so it never passes through host memory.
 *
 * Plain C over the CUDA runtime and GL: no GTK, so the application and the
 * headless EGL test (tests/gpu/interop-egl.c) share it.  Every call needs the
 * GL context current; every failure is returned (FR_E_DEVICE with a message)
 * so that the caller falls back to the host upload. */
#pragma once

#include <stddef.h>

#include "fr-grid-texture.h"
#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_gl_interop fr_gl_interop;

/* Fails when the current GL context is not on a CUDA device. */
fr_status fr_gl_interop_new (fr_gl_interop **out, fr_error *err);

/* Copies device_time (lay->count floats on the device, x fastest: a grid
 * of stride 1) into the texture bound to GL_TEXTURE_2D, which must already
 * be lay->width × lay->height R32F: map the buffer, copy device to device,
 * unmap, then the texture rows from it (fr_grid_texture_upload). */
fr_status fr_gl_interop_upload (fr_gl_interop *it, const void *device_time,
                                const fr_grid_texture *lay, fr_error *err);

/* Releases the registration, the buffer and the stream; NULL is a no-op. */
void fr_gl_interop_free (fr_gl_interop *it);

#ifdef __cplusplus
}
#endif
