/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas's shader programs (app/fr-gl-program.c), headless: the GLSL in
 * shaders/ must compile and link as the canvas links it, under both headers
 * the canvas may choose (desktop GL 3.3 core and GLES 3.0), with every
 * uniform the canvas sets still active; and a broken shader must give 0 and
 * a message that names the failing stage.  Mesa's software EGL device
 * serves where there is no GPU.  TAP.
 *
 * The field shader also draws a grid laid out as app/fr-grid-texture.c lays
 * it, in one texture and wrapped over several texture rows, from host
 * memory and from a pixel-unpack buffer (the interop's path): every pixel
 * of a picture of one pixel a cell shows its own node.
 *
 *   test-gl-program SOURCE_ROOT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>

#include "fr-gl-program.h"
#include "fr-grid-texture.h"
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

/* Draws an nx × nz grid whose node k has the velocity 1 + k, laid out for
 * textures of at most side texels a side, into a picture of one pixel a
 * cell, with a colour map whose red is its index; returns how many pixels
 * show another node than their own (-1 when GL failed). */
static int
draw_layout (unsigned int program, int nx, int nz, int side, int from_buffer)
{
  const size_t n = (size_t) nx * (size_t) nz;
  const float w = (float) nx, h = (float) nz, x0 = -0.5f, z0 = -0.5f;
  const float quad[8] = { x0, z0, x0 + w, z0, x0, z0 + h, x0 + w, z0 + h };
  const float clip[9] = { 2.0f / w, 0.0f, 0.0f, 0.0f, -2.0f / h, 0.0f,
                          -1.0f - 2.0f * x0 / w, 1.0f + 2.0f * z0 / h, 1.0f };
  float *velocity = malloc (n * sizeof *velocity);
  unsigned char *rgba = malloc (n * 4), lut[256 * 4];
  unsigned int tex[3], fbo, vao, vbo, pbo = 0;
  fr_grid_texture lay;
  int wrong = 0;

  if (velocity == NULL || rgba == NULL)
    {
      free (velocity);
      free (rgba);
      return -1;
    }
  for (size_t k = 0; k < n; k++)
    velocity[k] = (float) (1 + k);
  for (int i = 0; i < 256; i++)
    {
      lut[4 * i] = (unsigned char) i;
      lut[4 * i + 1] = (unsigned char) (255 - i);
      lut[4 * i + 2] = 0;
      lut[4 * i + 3] = 255;
    }
  fr_grid_texture_layout ((size_t) nx, (size_t) nz, side, &lay);

  glGenTextures (3, tex);
  for (int i = 0; i < 3; i++)
    {
      glBindTexture (GL_TEXTURE_2D, tex[i]);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
  /* tex[0]: the velocities, as the canvas uploads them. */
  glBindTexture (GL_TEXTURE_2D, tex[0]);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, lay.width, lay.height, 0, GL_RED, GL_FLOAT, NULL);
  if (from_buffer)
    {
      glGenBuffers (1, &pbo);
      glBindBuffer (GL_PIXEL_UNPACK_BUFFER, pbo);
      glBufferData (GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr) (n * sizeof *velocity), velocity,
                    GL_STATIC_DRAW);
      fr_grid_texture_upload (&lay, 0);
      glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
    }
  else
    fr_grid_texture_upload (&lay, (uintptr_t) velocity);
  /* tex[1]: the colour map; tex[2]: the picture. */
  glBindTexture (GL_TEXTURE_2D, tex[1]);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut);
  glBindTexture (GL_TEXTURE_2D, tex[2]);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, nx, nz, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
  glGenFramebuffers (1, &fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[2], 0);

  glViewport (0, 0, nx, nz);
  glUseProgram (program);
  glUniformMatrix3fv (glGetUniformLocation (program, "u_clip"), 1, GL_FALSE, clip);
  glUniform4f (glGetUniformLocation (program, "u_cells"), x0, z0, w, h);
  glUniform2f (glGetUniformLocation (program, "u_vrange"), 1.0f, (float) n);
  glUniform2i (glGetUniformLocation (program, "u_size"), nx, nz);
  glUniform2i (glGetUniformLocation (program, "u_stride"), lay.stride, lay.stride);
  glUniform1i (glGetUniformLocation (program, "u_has_time"), 0);
  glUniform1f (glGetUniformLocation (program, "u_interval"), 0.0f);
  glUniform1f (glGetUniformLocation (program, "u_front"), -1.0f);
  glUniform1f (glGetUniformLocation (program, "u_bands"), 0.0f);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, tex[0]);
  glUniform1i (glGetUniformLocation (program, "u_velocity"), 0);
  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, tex[0]);   /* unused without T, but bound */
  glUniform1i (glGetUniformLocation (program, "u_time"), 1);
  glActiveTexture (GL_TEXTURE2);
  glBindTexture (GL_TEXTURE_2D, tex[1]);
  glUniform1i (glGetUniformLocation (program, "u_lut"), 2);
  glActiveTexture (GL_TEXTURE0);
  glGenVertexArrays (1, &vao);
  glBindVertexArray (vao);
  glGenBuffers (1, &vbo);
  glBindBuffer (GL_ARRAY_BUFFER, vbo);
  glBufferData (GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof (float), NULL);
  glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, nx, nz, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  if (glGetError () != GL_NO_ERROR)
    wrong = -1;

  /* Row 0 of the picture is its bottom, the grid's last row.  Node k's
   * colour map index is k·255/(n − 1), rounded as the shader does. */
  for (int iz = 0; iz < nz && wrong >= 0; iz++)
    for (int ix = 0; ix < nx; ix++)
      {
        const size_t k = (size_t) iz * (size_t) nx + (size_t) ix;
        const int want = (int) ((double) k * 255.0 / (double) (n - 1) + 0.5);
        const unsigned char *px = rgba + 4 * ((size_t) (nz - 1 - iz) * (size_t) nx + (size_t) ix);

        wrong += abs ((int) px[0] - want) > 0;
      }

  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers (1, &fbo);
  glDeleteBuffers (1, &vbo);
  if (pbo != 0)
    glDeleteBuffers (1, &pbo);
  glDeleteVertexArrays (1, &vao);
  glDeleteTextures (3, tex);
  free (velocity);
  free (rgba);
  return wrong;
}

/* Each pixel shows its own node, whether the grid is its texture or wraps
 * over several texture rows, uploaded from memory or from a buffer. */
static void
check_layouts (const char *api, const char *header, const char *root)
{
  static const char * const attributes[] = { "a_pos", NULL };
  static const struct { int nx, nz, side, from_buffer; const char *what; } cases[] = {
    { 37, 5, 64, 0, "a grid that fits is its texture" },
    { 37, 5, 16, 0, "a line longer than a texture wraps over 12 texture rows" },
    { 37, 5, 16, 1, "wrapped, uploaded from a pixel-unpack buffer as the interop does" },
    { 5, 37, 16, 0, "a grid deeper than a texture wraps too" },
  };
  char *vert = read_source_text (root, "shaders/field.vert.glsl");
  char *frag = read_source_text (root, "shaders/field.frag.glsl");
  char log[2048] = "", detail[128];
  unsigned int program = 0;

  if (vert != NULL && frag != NULL)
    program = fr_gl_program_link (header, vert, frag, attributes, log, sizeof log);
  free (vert);
  free (frag);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      int wrong = program != 0 ? draw_layout (program, cases[i].nx, cases[i].nz, cases[i].side,
                                              cases[i].from_buffer) : -1;

      snprintf (detail, sizeof detail, "%d of %d pixels show another node (-1: GL failed)", wrong,
                cases[i].nx * cases[i].nz);
      check (wrong == 0, cases[i].what, api, detail);
    }
  if (program != 0)
    glDeleteProgram (program);
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
  check_layouts (api, header, root);
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
