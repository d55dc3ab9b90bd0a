/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas's shader programs (app/fr-gl-program.c), headless: the GLSL in
 * shaders/ must compile and link as the canvas links it, under both headers
 * the canvas may choose (desktop GL 3.3 core and GLES 3.0), with every
 * uniform the canvas sets still active; and a broken shader must give 0 and
 * a message that names the failing stage.  Mesa's software EGL device
 * serves where there is no GPU.  TAP.
 *
 *   test-gl-program SOURCE_ROOT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>

#include "fr-gl-program.h"
#include "headless-gl.h"

static int n_tests, n_failed;

static void
check (int ok, const char *what, const char *api, const char *detail)
{
  n_tests++;
  n_failed += !ok;
  printf ("%s %d - %s: %s\n", ok ? "ok" : "not ok", n_tests, api, what);
  if (!ok && detail != NULL && detail[0] != '\0')
    printf ("# %s\n", detail);
}

/* What the canvas asks of each program: fr-canvas.c's realize. */
static const char * const field_attributes[] = { "a_pos", NULL };
static const char * const lines_attributes[] = { "a_pos", "a_shape", "a_color", "a_reach", NULL };
static const char * const field_uniforms[] = {
  "u_clip", "u_cells", "u_velocity", "u_time", "u_lut", "u_vrange", "u_size", "u_stride", "u_has_time",
  "u_interval", "u_front", "u_bands", NULL,
};
static const char * const lines_uniforms[] = { "u_viewport", "u_clip", NULL };

static void
check_program (const char *api, const char *header, const char *root, const char *name,
               const char * const *attributes, const char * const *uniforms)
{
  char rel[64], what[160], log[2048] = "", missing[512] = "";
  char *vert, *frag;
  unsigned int program;

  snprintf (rel, sizeof rel, "shaders/%s.vert.glsl", name);
  vert = read_source_text (root, rel);
  snprintf (rel, sizeof rel, "shaders/%s.frag.glsl", name);
  frag = read_source_text (root, rel);
  snprintf (what, sizeof what, "the %s shaders compile and link", name);
  if (vert == NULL || frag == NULL)
    {
      check (0, what, api, "cannot read the shaders under the source root");
      free (vert);
      free (frag);
      return;
    }
  program = fr_gl_program_link (header, vert, frag, attributes, log, sizeof log);
  check (program != 0, what, api, log);
  free (vert);
  free (frag);
  if (program == 0)
    return;

  /* A uniform the compiler dropped would make the canvas's setting of it a
   * silent no-op. */
  for (int i = 0; uniforms[i] != NULL; i++)
    if (glGetUniformLocation (program, uniforms[i]) < 0)
      snprintf (missing + strlen (missing), sizeof missing - strlen (missing), " %s",
                uniforms[i]);
  snprintf (what, sizeof what, "every uniform the canvas sets is active in %s", name);
  check (missing[0] == '\0', what, api, missing);

  missing[0] = '\0';
  for (int i = 0; attributes[i] != NULL; i++)
    if (glGetAttribLocation (program, attributes[i]) != i)
      snprintf (missing + strlen (missing), sizeof missing - strlen (missing), " %s",
                attributes[i]);
  snprintf (what, sizeof what, "attribute i of %s is bound to location i", name);
  check (missing[0] == '\0', what, api, missing);
  glDeleteProgram (program);
}

/* A broken program gives 0, and a message that starts with the stage. */
static void
check_failure (const char *api, const char *header, const char *what, const char *vert,
               const char *frag, const char *stage)
{
  static const char * const attributes[] = { "a_pos", NULL };
  char log[2048] = "", small[8] = "";
  char detail[2200];
  unsigned int program = fr_gl_program_link (header, vert, frag, attributes, log, sizeof log);

  snprintf (detail, sizeof detail, "program %u, log \"%s\"", program, log);
  check (program == 0 && strncmp (log, stage, strlen (stage)) == 0
         && strlen (log) > strlen (stage) + 2, what, api, detail);

  /* A log buffer too small for the message: the message's start, filling
   * the buffer, terminated. */
  memset (small, 'x', sizeof small);
  program = fr_gl_program_link (header, vert, frag, attributes, small, sizeof small);
  snprintf (detail, sizeof detail, "program %u, log \"%.*s\"", program, (int) sizeof small, small);
  check (program == 0 && memchr (small, '\0', sizeof small) != NULL
         && strlen (small) == sizeof small - 1 && strncmp (small, log, strlen (small)) == 0,
         "a short log buffer gets the cut message, terminated", api, detail);
}

static void
run_api (EglApi which, const char *root)
{
  const int es = which == EGL_CTX_GLES;
  const char *api = es ? "GLES 3.0" : "GL 3.3 core";
  const char *header = fr_gl_shader_header (es);
  static const char good_vert[] =
    "in vec2 a_pos;\nvoid main () { gl_Position = vec4 (a_pos, 0.0, 1.0); }\n";
  static const char good_frag[] =
    "out vec4 color;\nvoid main () { color = vec4 (1.0); }\n";
  Egl egl;
  char why[256];

  if (!egl_open (&egl, which, 3, es ? 0 : 3, 0, why, sizeof why))
    {
      check (0, "a headless context (setup-debian.sh installs Mesa's EGL)", api, why);
      return;
    }
  printf ("# %s: %s\n", api, egl.renderer);
  check_program (api, header, root, "field", field_attributes, field_uniforms);
  check_program (api, header, root, "lines", lines_attributes, lines_uniforms);
  check_failure (api, header, "a vertex shader that does not compile is named",
                 "void main () { gl_Position = undefined_value; }\n", good_frag, "vertex shader: ");
  check_failure (api, header, "a fragment shader that does not compile is named",
                 good_vert, "out vec4 color;\nvoid main () { color = 1; }\n", "fragment shader: ");
  check_failure (api, header, "a program that does not link is named",
                 good_vert, "out vec4 color;\nvoid paint () { color = vec4 (1.0); }\n", "link: ");
  egl_close (&egl);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s SOURCE_ROOT\n", argv[0]);
      return 2;
    }
  run_api (EGL_CTX_GL_CORE, argv[1]);
  run_api (EGL_CTX_GLES, argv[1]);
  printf ("1..%d\n", n_tests);
  return n_failed == 0 ? 0 : 1;
}
