/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version line prepended to every shader in shaders/: the sources carry
 * none, so the same text builds for desktop GL and GLES.  Shared by the
 * canvas and the headless EGL test. */
#pragma once

static inline const char *
fr_gl_shader_header (int use_es)
{
  return use_es
    ? "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
    : "#version 330 core\n";
}
