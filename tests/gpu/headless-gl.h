/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the tests that draw without a window share: a GL context on an EGL
 * device (EGL_EXT_platform_device; the NVIDIA device on the GPU machine,
 * Mesa's software device elsewhere) and the shaders' text from the source
 * tree.  No GLib. */
#pragma once

#include <stddef.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

typedef struct {
  EGLDisplay dpy;
  EGLContext ctx;
  EGLSurface surf;
  char renderer[256];     /* GL_RENDERER, GL_VERSION and the device, for the log */
} Egl;

typedef enum {
  EGL_CTX_GL_CORE,        /* desktop OpenGL, core profile */
  EGL_CTX_GLES,           /* OpenGL ES */
} EglApi;

/* Makes a major.minor context of `api` current on a 16×16 pbuffer, trying
 * the devices in turn (NVIDIA's first when nvidia_first).  Returns 1, or 0
 * with the reason in why. */
int egl_open (Egl *e, EglApi api, int major, int minor, int nvidia_first,
              char *why, size_t why_len);

void egl_close (Egl *e);

/* The file root/rel as a NUL-terminated string (free it), or NULL. */
char *read_source_text (const char *root, const char *rel);
