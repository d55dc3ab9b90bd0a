/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shader programs from the GLSL in shaders/, for the canvas and the
 * headless EGL test alike: no GLib, and GL through epoxy (FR_GL_EPOXY) or
 * the system headers.  The sources carry no version line; this file adds
 * it, so the same text builds for desktop GL and GLES. */
#pragma once

#include <stddef.h>

/* The version line (and, for GLES, the precisions) put before every shader. */
static inline const char *
fr_gl_shader_header (int use_es)
{
  return use_es
    ? "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
    : "#version 330 core\n";
}

/* Compiles the vertex and fragment sources (NUL-terminated, each after
 * `header`) and links them, with attribute i bound to attributes[i] (a
 * NULL-terminated list), so the GLSL needs no layout qualifiers.  Returns
 * the program, or 0 with the compiler's or linker's message, naming the
 * stage, in log[log_size]. */
unsigned int fr_gl_program_link (const char         *header,
                                 const char         *vert,
                                 const char         *frag,
                                 const char * const *attributes,
                                 char               *log,
                                 size_t              log_size);
