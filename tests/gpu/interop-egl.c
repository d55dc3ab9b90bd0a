/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA–GL interop path of the canvas, headless through EGL, for both
 * solvers that keep T on the device.
 *
 * Default (SPR) mode: solves a gradient model (with an obstacle, so that
 * unreached +inf nodes are drawn too) on the CUDA back end with
 * keep_device_time.  Fold mode (--fold): folds a horizon polyline through a
 * layered model on the CUDA fold back end with keep_device_time.  Either way
 * it then draws T with the canvas's field shaders (read from shaders/ in the
 * source tree, with the canvas's version header) into an FBO twice:
 *   (a) interop: fr_gl_interop_upload, device T -> registered GL buffer ->
 *       texture, never through host memory;
 *   (b) reference: the canvas's host path, glTexSubImage2D from host floats
 *       converted from the result's double T as fr-job.c and fr-fold-job.c
 *       do.
 * The two textures must be bitwise equal and the two pictures within one
 * unit per channel.  Then it times frames:
 *   SPR: the interop frame (map, copy, unmap, texture update, draw,
 *        glFinish) and, for comparison, the host frame;
 *   fold: dragging the ψa tip, each frame a fresh CUDA fold solve plus the
 *        interop frame (the interaction the 5 ms target for a 2048² solve is
 *        about).  Timings are reported, never tested.
 *
 *   interop-egl [SOURCE_ROOT] [--fold] [--out DIR] [--size N] [--frames N]
 *
 * SOURCE_ROOT defaults to $FOLDRAY_SOURCE_ROOT; --size defaults to 1024
 * (SPR) or 2048 (fold); --out DIR gets the two pictures as PPM and, in fold
 * mode, the drag frames as CSV.  Exit status 77 (skip) without a usable
 * CUDA device or an EGL display; no GLib, so it runs on the GPU machine. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>

#include <cuda_runtime_api.h>

#include "fr-device.h"
#include "fr-fold.h"
#include "fr-gl-interop.h"
#include "headless-gl.h"
#include "fr-gl-program.h"
#include "fr-spr.h"

#define EXIT_SKIP 77
#define LUT_SIZE 256
#define N_TESTS 6            /* per mode; see run_spr and run_fold */

/* Fold mode: the ψa drag and the interaction target it is measured against. */
#define DRAG_PSI 0.3         /* |ψa|, below the model's least speed 0.6 */
#define DRAG_DEGREES 90.0    /* ψa's angle sweeps 0 .. this, from +x towards +z */
#define TARGET_SIZE 2048
#define TARGET_SOLVE_MS 5.0

typedef struct {
  const char *root;
  const char *out;
  int size;
  int frames;
  int fold;
} Options;

typedef struct {
  GLuint program, vao, vbo, fbo, color;
  GLuint tex_velocity, tex_time, tex_lut;
  GLint u_clip, u_cells, u_velocity, u_time, u_lut, u_vrange, u_size, u_stride, u_has_time,
        u_interval, u_front, u_bands;
  int width, height;
} Scene;

/* How a mode sets the field shader's uniforms, as the canvas does for it:
 * isochrons and a front for SPR, strata bands for folds. */
typedef struct {
  float vmin, vmax;          /* speed at the two ends of the colour map */
  float interval;            /* isochron spacing, <= 0: none */
  float front;               /* front time, < 0: off */
  float bands;               /* fold band thickness in T, <= 0: off */
} Look;

/* The host arrays both modes need, n × n each. */
typedef struct {
  size_t nn;
  float *velocity;           /* speed per node, also the velocity texture */
  float *host_t;             /* the result's T as floats: the host path */
  float *dev_t;              /* device T copied back, for the bitwise check */
  float *tex_a, *tex_b;      /* T textures read back: interop, host */
  unsigned char *pic_a, *pic_b;   /* pictures read back: interop, host */
} Buffers;

typedef struct {
  double median, min, p90, max;
} Stats;

static int tap_n;
static int tap_failed;

static void
tap (int ok, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

static void
tap (int ok, const char *fmt, ...)
{
  va_list ap;

  tap_n++;
  if (!ok)
    tap_failed++;
  printf ("%s %d - ", ok ? "ok" : "not ok", tap_n);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
}

/* Marks the rest of the plan skipped, after a failure they depend on. */
static void
tap_skip_rest (const char *why)
{
  while (tap_n < N_TESTS)
    printf ("ok %d # SKIP %s\n", ++tap_n, why);
  fflush (stdout);
}

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* ----------------------------------------------------------------- GL */

static GLuint
new_texture (GLint filter)
{
  GLuint tex = 0;

  glGenTextures (1, &tex);
  glBindTexture (GL_TEXTURE_2D, tex);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return tex;
}

/* The program, textures and FBO, as the canvas's realize makes them. */
static int
scene_init (Scene *s, const char *root, int n, const float *velocity)
{
  static const char * const attributes[] = { "a_pos", NULL };
  char *vert = read_source_text (root, "shaders/field.vert.glsl");
  char *frag = read_source_text (root, "shaders/field.frag.glsl");
  char log[2048] = "";
  unsigned char lut[LUT_SIZE * 4];

  memset (s, 0, sizeof *s);
  if (vert == NULL || frag == NULL)
    fprintf (stderr, "cannot read the field shaders under %s/shaders\n", root);
  else if ((s->program = fr_gl_program_link (fr_gl_shader_header (0), vert, frag, attributes,
                                             log, sizeof log)) == 0)
    fprintf (stderr, "field shaders: %s\n", log);
  free (vert);
  free (frag);
  if (s->program == 0)
    return 0;
#define U(name) s->name = glGetUniformLocation (s->program, #name)
  U (u_clip); U (u_cells); U (u_velocity); U (u_time); U (u_lut); U (u_vrange); U (u_size); U (u_stride);
  U (u_has_time); U (u_interval); U (u_front); U (u_bands);
#undef U

  glGenVertexArrays (1, &s->vao);
  glBindVertexArray (s->vao);
  glGenBuffers (1, &s->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, s->vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof (float), NULL);
  glBindVertexArray (0);

  s->tex_velocity = new_texture (GL_NEAREST);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, n, n, 0, GL_RED, GL_FLOAT, velocity);
  s->tex_time = new_texture (GL_NEAREST);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, n, n, 0, GL_RED, GL_FLOAT, NULL);
  /* Any colour map does: both paths draw with the same one. */
  for (int i = 0; i < LUT_SIZE; i++)
    {
      float t = (float) i / (LUT_SIZE - 1);
      lut[4 * i + 0] = (unsigned char) (255.0f * t);
      lut[4 * i + 1] = (unsigned char) (255.0f * (0.2f + 0.6f * t * (1.0f - t) * 4.0f * 0.8f));
      lut[4 * i + 2] = (unsigned char) (255.0f * (1.0f - t));
      lut[4 * i + 3] = 255;
    }
  s->tex_lut = new_texture (GL_LINEAR);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, LUT_SIZE, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut);

  s->width = s->height = n;
  s->color = new_texture (GL_NEAREST);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, s->width, s->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                NULL);
  glGenFramebuffers (1, &s->fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, s->fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s->color, 0);
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    return 0;
  return glGetError () == GL_NO_ERROR;
}

/* One frame of the field, as the canvas's draw_picture draws it: the model
 * box fills the viewport, z down. */
static void
scene_draw (const Scene *s, const fr_grid *g, const Look *look)
{
  const float x0 = (float) (g->x0 - 0.5 * g->dx), z0 = (float) (g->z0 - 0.5 * g->dz);
  const float w = (float) (g->nx * g->dx), h = (float) (g->nz * g->dz);
  const float quad[8] = { x0, z0, x0 + w, z0, x0, z0 + h, x0 + w, z0 + h };
  const float clip[9] = {   /* column-major: model -> clip */
    2.0f / w, 0.0f, 0.0f,
    0.0f, -2.0f / h, 0.0f,
    -1.0f - 2.0f * x0 / w, 1.0f + 2.0f * z0 / h, 1.0f,
  };

  glBindFramebuffer (GL_FRAMEBUFFER, s->fbo);
  glViewport (0, 0, s->width, s->height);
  glClearColor (0.17f, 0.17f, 0.19f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT);
  glUseProgram (s->program);
  glUniformMatrix3fv (s->u_clip, 1, GL_FALSE, clip);
  glUniform4f (s->u_cells, x0, z0, w, h);
  glUniform2f (s->u_vrange, look->vmin, look->vmax);
  glUniform2i (s->u_size, (GLint) g->nx, (GLint) g->nz);
  glUniform2i (s->u_stride, 1, 1);   /* its grids fit a texture whole */
  glUniform1i (s->u_has_time, 1);
  glUniform1f (s->u_interval, look->interval);
  glUniform1f (s->u_front, look->front);
  glUniform1f (s->u_bands, look->bands);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, s->tex_velocity);
  glUniform1i (s->u_velocity, 0);
  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, s->tex_time);
  glUniform1i (s->u_time, 1);
  glActiveTexture (GL_TEXTURE2);
  glBindTexture (GL_TEXTURE_2D, s->tex_lut);
  glUniform1i (s->u_lut, 2);
  glBindVertexArray (s->vao);
  glBindBuffer (GL_ARRAY_BUFFER, s->vbo);
  glBufferData (GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
  glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
  glActiveTexture (GL_TEXTURE0);
  /* The uploads below bind tex_time on unit 0, as the canvas does. */
}

static void
scene_read (const Scene *s, unsigned char *rgba)
{
  glBindFramebuffer (GL_FRAMEBUFFER, s->fbo);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, s->width, s->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

static void
time_texture_read (const Scene *s, float *out)
{
  glBindTexture (GL_TEXTURE_2D, s->tex_time);
  glPixelStorei (GL_PACK_ALIGNMENT, 4);
  glGetTexImage (GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, out);
}

/* Zeros the T texture, so that a path that failed to write shows. */
static void
time_texture_zero (const Scene *s, int n, float *scratch)
{
  memset (scratch, 0, (size_t) n * (size_t) n * sizeof (float));
  glBindTexture (GL_TEXTURE_2D, s->tex_time);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, n, n, GL_RED, GL_FLOAT, scratch);
}

/* The canvas's host path. */
static void
upload_host (const Scene *s, int n, const float *time)
{
  glBindTexture (GL_TEXTURE_2D, s->tex_time);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, n, n, GL_RED, GL_FLOAT, time);
}

/* The interop path; err (may be NULL: then printed) gets why it failed. */
static int
upload_interop (const Scene *s, fr_gl_interop *it, int n, const void *device_time,
                fr_error *err)
{
  fr_error local = { 0 };

  fr_grid_texture lay;

  /* The canvas's layout: an n × n grid that fits is the texture itself. */
  fr_grid_texture_layout ((size_t) n, (size_t) n, 0, &lay);
  glBindTexture (GL_TEXTURE_2D, s->tex_time);
  if (fr_gl_interop_upload (it, device_time, &lay, err != NULL ? err : &local) != FR_OK)
    {
      if (err == NULL)
        fprintf (stderr, "%s\n", local.message);
      return 0;
    }
  return 1;
}

static void
write_ppm (const char *dir, const char *name, const unsigned char *rgba, int w, int h)
{
  char path[4096];
  FILE *f;

  snprintf (path, sizeof path, "%s/%s", dir, name);
  if ((f = fopen (path, "wb")) == NULL)
    return;
  fprintf (f, "P6\n%d %d\n255\n", w, h);
  for (int y = h - 1; y >= 0; y--)   /* GL rows run bottom-up */
    for (int x = 0; x < w; x++)
      fwrite (rgba + 4 * ((size_t) y * w + x), 1, 3, f);
  fclose (f);
}

/* Median, least, 90th percentile and greatest of t[0..n); sorts t. */
static Stats
stats (double *t, int n)
{
  Stats st;

  qsort (t, (size_t) n, sizeof *t, cmp_double);
  st.median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  st.min = t[0];
  st.p90 = t[(int) (0.9 * (n - 1))];
  st.max = t[n - 1];
  return st;
}

/* ----------------------------------------------------- shared by the modes */

static int
buffers_new (Buffers *b, int n)
{
  memset (b, 0, sizeof *b);
  b->nn = (size_t) n * (size_t) n;
  b->velocity = malloc (b->nn * sizeof *b->velocity);
  b->host_t = malloc (b->nn * sizeof *b->host_t);
  b->dev_t = malloc (b->nn * sizeof *b->dev_t);
  b->tex_a = malloc (b->nn * sizeof *b->tex_a);
  b->tex_b = malloc (b->nn * sizeof *b->tex_b);
  b->pic_a = malloc (b->nn * 4);
  b->pic_b = malloc (b->nn * 4);
  return b->velocity && b->host_t && b->dev_t && b->tex_a && b->tex_b && b->pic_a && b->pic_b;
}

static void
buffers_free (Buffers *b)
{
  free (b->velocity);
  free (b->host_t);
  free (b->dev_t);
  free (b->tex_a);
  free (b->tex_b);
  free (b->pic_a);
  free (b->pic_b);
}

/* T as the canvas gets it from a job: floats converted from the result's
 * doubles, as fr-job.c and fr-fold-job.c do.  Gives the largest finite T. */
static float
host_time_from (const double *time, float *out, size_t nn)
{
  float tmax = 0.0f;

  for (size_t i = 0; i < nn; i++)
    {
      out[i] = (float) time[i];
      if (isfinite (out[i]) && out[i] > tmax)
        tmax = out[i];
    }
  return tmax;
}

/* TAP: the device T, copied back, equals the host floats bitwise. */
static void
check_device_time (const void *device_time, Buffers *b, float tmax)
{
  cudaError_t e = cudaMemcpy (b->dev_t, device_time, b->nn * sizeof (float),
                              cudaMemcpyDeviceToHost);
  size_t unreached = 0;

  for (size_t i = 0; i < b->nn; i++)
    unreached += !isfinite (b->host_t[i]);
  tap (e == cudaSuccess && memcmp (b->dev_t, b->host_t, b->nn * sizeof (float)) == 0,
       "device T equals the host T bitwise (%zu unreached nodes, T max %.4g)", unreached,
       (double) tmax);
}

/* The canvas's GL objects and the interop context on the current context;
 * 0 after a "Bail out!" when either fails. */
static int
gl_setup (Scene *sc, fr_gl_interop **it, const char *root, int n, const float *velocity)
{
  fr_error err = { 0 };

  if (!scene_init (sc, root, n, velocity))
    {
      printf ("Bail out! GL set-up failed (shaders from %s)\n", root);
      return 0;
    }
  if (fr_gl_interop_new (it, &err) != FR_OK)
    {
      printf ("Bail out! %s\n", err.message);
      return 0;
    }
  return 1;
}

/* TAP, three points: draws device T through interop (a) and the host
 * floats through the host upload (b), each into a zeroed T texture; the two
 * T textures must be bitwise equal (and equal to the host floats), the two
 * pictures within one unit per channel.  With out, writes the pictures as
 * <prefix>interop.ppm and <prefix>host.ppm. */
static void
compare_paths (const Scene *sc, fr_gl_interop *it, const fr_grid *g, const Look *look,
               const void *device_time, Buffers *b, const char *out, const char *prefix)
{
  const int n = sc->width;
  const size_t nn = b->nn;
  int maxdiff = 0;
  size_t differ = 0, ink = 0;

  time_texture_zero (sc, n, b->tex_a);
  int ok_a = upload_interop (sc, it, n, device_time, NULL);
  scene_draw (sc, g, look);
  glFinish ();
  scene_read (sc, b->pic_a);
  time_texture_read (sc, b->tex_a);
  tap (ok_a && glGetError () == GL_NO_ERROR, "interop upload and draw");

  time_texture_zero (sc, n, b->tex_b);
  upload_host (sc, n, b->host_t);
  scene_draw (sc, g, look);
  glFinish ();
  scene_read (sc, b->pic_b);
  time_texture_read (sc, b->tex_b);

  tap (memcmp (b->tex_a, b->tex_b, nn * sizeof (float)) == 0 &&
       memcmp (b->tex_b, b->host_t, nn * sizeof (float)) == 0,
       "interop T texture equals the host-upload T texture bitwise");

  for (size_t i = 0; i < nn * 4; i++)
    {
      int d = abs ((int) b->pic_a[i] - (int) b->pic_b[i]);
      if (d > maxdiff)
        maxdiff = d;
      differ += d != 0;
    }
  /* A picture that shows the field at all: not one flat colour. */
  for (size_t i = 1; i < nn; i++)
    ink += memcmp (b->pic_b + 4 * i, b->pic_b, 3) != 0;
  tap (maxdiff <= 1 && ink > nn / 10,
       "pictures %dx%d match: max channel difference %d, %zu channel values differ "
       "(%zu of %zu pixels unlike the first)", sc->width, sc->height, maxdiff, differ, ink, nn);

  if (out != NULL)
    {
      char name[256];

      snprintf (name, sizeof name, "%sinterop.ppm", prefix);
      write_ppm (out, name, b->pic_a, sc->width, sc->height);
      snprintf (name, sizeof name, "%shost.ppm", prefix);
      write_ppm (out, name, b->pic_b, sc->width, sc->height);
    }
}

/* ----------------------------------------------------------------- SPR */

/* A vertical gradient 0.5 -> 4 km/s, spacing 10 m, source at the top
 * centre, and an obstacle that leaves nodes unreached (+inf).  Six TAP
 * points; then times the interop frame against the host frame.  Nonzero
 * after a "Bail out!". */
static int
run_spr (const Options *o, Buffers *b)
{
  const int n = o->size;
  const size_t nn = b->nn;
  Scene sc;
  fr_gl_interop *it = NULL;
  fr_spr_params params;
  fr_spr_result res = { 0 };
  fr_error err = { 0 };
  double *times;
  float tmax;

  if ((times = malloc ((size_t) o->frames * sizeof *times)) == NULL)
    {
      printf ("Bail out! out of memory\n");
      return 1;
    }
  fr_grid g = fr_grid_2d ((size_t) n, (size_t) n, 0.01, 0.01, 0.0, 0.0);
  for (int iz = 0; iz < n; iz++)
    for (int ix = 0; ix < n; ix++)
      {
        int in_box = ix >= n / 8 && ix < n / 3 && iz >= n / 3 && iz < n / 2;
        int in_ring = ix >= 3 * n / 5 && ix < 4 * n / 5 && iz >= 3 * n / 5 && iz < 4 * n / 5 &&
                      !(ix >= 3 * n / 5 + 4 && ix < 4 * n / 5 - 4 &&
                        iz >= 3 * n / 5 + 4 && iz < 4 * n / 5 - 4);
        b->velocity[(size_t) iz * n + ix] =
          in_box || in_ring ? 0.0f : 0.5f + 3.5f * (float) iz / (float) (n - 1);
      }
  const double src[2] = { (double) (n / 2) * 0.01, 0.0 };

  fr_spr_params_init (&params);
  params.backend = FR_SPR_CUDA;
  params.keep_device_time = true;
  if (fr_spr_solve (&g, b->velocity, src, 1, &params, &res, &err) != FR_OK)
    {
      printf ("Bail out! CUDA solve failed: %s\n", err.message);
      free (times);
      return 1;
    }
  tmax = host_time_from (res.time, b->host_t, nn);
  tap (res.device_time != NULL, "cuda solve %dx%d kept T on the device (%.1f ms, %ld passes)",
       n, n, res.solve_ms, res.iterations);
  if (res.device_time == NULL)
    {
      tap_skip_rest ("no device T");
      fr_spr_result_clear (&res);
      free (times);
      return 0;
    }
  check_device_time (res.device_time, b, tmax);

  if (!gl_setup (&sc, &it, o->root, n, b->velocity))
    {
      fr_spr_result_clear (&res);
      free (times);
      return 1;
    }
  const Look look = { 0.5f, 4.0f, tmax / 24.0f, 0.6f * tmax, 0.0f };
  compare_paths (&sc, it, &g, &look, res.device_time, b, o->out, "");

  /* Timing: the interop frame, then the host frame for comparison. */
  {
    Stats frame, upload, host;
    int ok = 1;

    for (int w = 0; w < 5; w++)   /* warm-up */
      {
        ok &= upload_interop (&sc, it, n, res.device_time, NULL);
        scene_draw (&sc, &g, &look);
        glFinish ();
      }
    for (int f = 0; f < o->frames; f++)
      {
        double t0 = now_ms ();
        ok &= upload_interop (&sc, it, n, res.device_time, NULL);
        scene_draw (&sc, &g, &look);
        glFinish ();
        times[f] = now_ms () - t0;
      }
    frame = stats (times, o->frames);
    /* The upload alone (map, copy, unmap, texture update), to the finish. */
    for (int f = 0; f < o->frames; f++)
      {
        double t0 = now_ms ();
        ok &= upload_interop (&sc, it, n, res.device_time, NULL);
        glFinish ();
        times[f] = now_ms () - t0;
      }
    upload = stats (times, o->frames);
    for (int f = 0; f < o->frames; f++)
      {
        double t0 = now_ms ();
        upload_host (&sc, n, b->host_t);
        scene_draw (&sc, &g, &look);
        glFinish ();
        times[f] = now_ms () - t0;
      }
    host = stats (times, o->frames);
    tap (ok && glGetError () == GL_NO_ERROR,
         "timed %d frames %dx%d: interop frame median %.3f ms (min %.3f, p90 %.3f)",
         o->frames, n, n, frame.median, frame.min, frame.p90);
    printf ("# interop frame (map + copy + unmap + tex update from PBO + draw + glFinish): "
            "median %.3f ms, min %.3f, p90 %.3f\n", frame.median, frame.min, frame.p90);
    printf ("# interop upload only (map + copy + unmap + tex update + glFinish): "
            "median %.3f ms, min %.3f, p90 %.3f\n", upload.median, upload.min, upload.p90);
    printf ("# host frame (glTexSubImage2D from host memory + draw + glFinish): "
            "median %.3f ms, min %.3f, p90 %.3f\n", host.median, host.min, host.p90);
  }

  fr_gl_interop_free (it);
  fr_spr_result_clear (&res);
  free (times);
  return 0;
}

/* ---------------------------------------------------------------- fold */

#define FOLD_EXTENT 10.0     /* km, both ways, whatever the node count */
#define HORIZON_POINTS 129

/* A competent / incompetent / competent sequence, 1.0 / 0.6 / 1.4 km/s,
 * with both interfaces dipping towards +x (z down). */
static void
fold_model (const fr_grid *g, float *speed)
{
  for (size_t iz = 0; iz < g->nz; iz++)
    for (size_t ix = 0; ix < g->nx; ix++)
      {
        double x = g->x0 + (double) ix * g->dx, z = g->z0 + (double) iz * g->dz;
        double top = 0.28 * FOLD_EXTENT + 0.12 * x, base = 0.60 * FOLD_EXTENT + 0.12 * x;

        speed[iz * g->nx + ix] = z < top ? 1.0f : z < base ? 0.6f : 1.4f;
      }
}

/* The horizon that folds: an anticline then a syncline across the whole
 * model, at mid depth inside the incompetent layer. */
static void
fold_horizon (double *xz)
{
  for (int k = 0; k < HORIZON_POINTS; k++)
    {
      double x = FOLD_EXTENT * k / (HORIZON_POINTS - 1);

      xz[2 * k] = x;
      xz[2 * k + 1] = FOLD_EXTENT * (0.5 - 0.1 * sin (2.0 * M_PI * x / FOLD_EXTENT));
    }
}

/* One CUDA fold solve with keep_device_time and ψa at `degrees` along the
 * drag's arc.  1 when the CUDA back end ran and left T on the device; else
 * 0 with why: the library's message, or its notice when it fell back. */
static int
fold_solve_cuda (const fr_grid *g, const fr_fold_start *start, const float *speed,
                 double degrees, fr_fold_result *res, char *why, size_t why_len)
{
  fr_fold_params p;
  fr_error err = { 0 };
  fr_status st;

  fr_fold_params_init (&p);
  p.speed = speed;
  p.psi_a[0] = DRAG_PSI * cos (degrees * M_PI / 180.0);
  p.psi_a[2] = DRAG_PSI * sin (degrees * M_PI / 180.0);
  p.backend = FR_FOLD_CUDA;
  p.keep_device_time = true;
  if ((st = fr_fold_solve (g, start, &p, res, &err)) != FR_OK)
    {
      snprintf (why, why_len, "%s: %s", fr_status_name (st),
                err.message[0] != '\0' ? err.message : "no message");
      return 0;
    }
  if (res->backend != FR_FOLD_CUDA)
    {
      snprintf (why, why_len, "ran on the %s back end, not CUDA: %s",
                fr_fold_backend_name (res->backend),
                res->notice[0] != '\0' ? res->notice : "no notice");
      return 0;
    }
  if (res->device_time == NULL)
    {
      snprintf (why, why_len, "ran on CUDA but kept no T on the device");
      return 0;
    }
  return 1;
}

/* What each drag frame records: the CSV's columns and the table's rows. */
enum { COL_SOLVE, COL_CALL, COL_DRAW, COL_FRAME, COL_ITER, COL_SCHED, COL_TRIPS, N_COLS };

static const struct {
  const char *csv;
  const char *label;
  int count;                 /* a count, not milliseconds */
} drag_columns[N_COLS] = {
  [COL_SOLVE] = { "solve_ms", "solve ms (res.solve_ms)", 0 },
  [COL_CALL] = { "solve_call_ms", "solve call ms (wall)", 0 },
  [COL_DRAW] = { "draw_ms", "upload + draw + glFinish ms", 0 },
  [COL_FRAME] = { "frame_ms", "frame ms (solve to glFinish)", 0 },
  [COL_ITER] = { "iterations", "iterations", 1 },
  [COL_SCHED] = { "schedules", "schedules", 1 },
  [COL_TRIPS] = { "host_round_trips", "host round trips", 1 },
};

typedef struct {
  double degrees;
  double v[N_COLS];
} DragFrame;

/* Drags the ψa tip along its arc: each frame a CUDA fold solve with
 * keep_device_time, the interop upload, the draw and glFinish, timed from
 * before the solve to after glFinish.  Gives the frames done (all of them
 * unless one failed: then why says which and how). */
static int
drag (const fr_grid *g, const fr_fold_start *start, const float *speed, const Scene *sc,
      fr_gl_interop *it, const Look *look, DragFrame *frames, int nframes,
      char *why, size_t why_len)
{
  const int n = (int) g->nx;

  for (int f = 0; f < nframes; f++)
    {
      DragFrame *fr = &frames[f];
      fr_fold_result res = { 0 };
      fr_error err = { 0 };
      char solve_why[768];
      double t0, t1, t2;
      int solved, ok;

      fr->degrees = nframes > 1 ? DRAG_DEGREES * f / (nframes - 1) : 0.0;
      t0 = now_ms ();
      solved = fold_solve_cuda (g, start, speed, fr->degrees, &res, solve_why, sizeof solve_why);
      t1 = now_ms ();
      if ((ok = solved && upload_interop (sc, it, n, res.device_time, &err)))
        {
          scene_draw (sc, g, look);
          glFinish ();
        }
      t2 = now_ms ();
      if (!ok)
        {
          snprintf (why, why_len, "frame %d (psi_a at %.1f deg): %s", f, fr->degrees,
                    solved ? err.message : solve_why);
          fr_fold_result_clear (&res);
          return f;
        }
      fr->v[COL_SOLVE] = res.solve_ms;
      fr->v[COL_CALL] = t1 - t0;
      fr->v[COL_DRAW] = t2 - t1;
      fr->v[COL_FRAME] = t2 - t0;
      fr->v[COL_ITER] = (double) res.iterations;
      fr->v[COL_SCHED] = (double) res.schedules;
      fr->v[COL_TRIPS] = (double) res.host_round_trips;
      fr_fold_result_clear (&res);   /* frees the device T too */
    }
  return nframes;
}

static void
drag_report (const DragFrame *frames, int nframes, int n, double *scratch)
{
  Stats col[N_COLS];

  for (int c = 0; c < N_COLS; c++)
    {
      for (int f = 0; f < nframes; f++)
        scratch[f] = frames[f].v[c];
      col[c] = stats (scratch, nframes);
    }
  printf ("# drag %dx%d, %d frames, |psi_a| %.2f turning 0..%.0f deg:\n", n, n, nframes,
          DRAG_PSI, DRAG_DEGREES);
  printf ("#   %-30s %10s %10s %10s\n", "per frame", "median", "p90", "max");
  for (int c = 0; c < N_COLS; c++)
    printf (drag_columns[c].count ? "#   %-30s %10.1f %10.1f %10.1f\n"
                                  : "#   %-30s %10.3f %10.3f %10.3f\n",
            drag_columns[c].label, col[c].median, col[c].p90, col[c].max);
  if (n == TARGET_SIZE)
    printf ("# target: a %dx%d fold solve within %.0f ms: median %.3f ms, p90 %.3f ms (%s; "
            "reported, not tested)\n", TARGET_SIZE, TARGET_SIZE, TARGET_SOLVE_MS,
            col[COL_SOLVE].median, col[COL_SOLVE].p90,
            col[COL_SOLVE].median <= TARGET_SOLVE_MS ? "median within" : "median over");
  else
    printf ("# target: a %dx%d fold solve within %.0f ms (this run is %dx%d: use --size %d to "
            "compare)\n", TARGET_SIZE, TARGET_SIZE, TARGET_SOLVE_MS, n, n, TARGET_SIZE);
}

static void
drag_write_csv (const char *dir, const DragFrame *frames, int nframes)
{
  char path[4096];
  FILE *f;

  snprintf (path, sizeof path, "%s/fold-drag.csv", dir);
  if ((f = fopen (path, "w")) == NULL)
    {
      printf ("# cannot write %s\n", path);
      return;
    }
  fprintf (f, "frame,degrees,psi_x,psi_z");
  for (int c = 0; c < N_COLS; c++)
    fprintf (f, ",%s", drag_columns[c].csv);
  fprintf (f, "\n");
  for (int k = 0; k < nframes; k++)
    {
      double rad = frames[k].degrees * M_PI / 180.0;

      fprintf (f, "%d,%.3f,%.6f,%.6f", k, frames[k].degrees, DRAG_PSI * cos (rad),
               DRAG_PSI * sin (rad));
      for (int c = 0; c < N_COLS; c++)
        fprintf (f, drag_columns[c].count ? ",%.0f" : ",%.4f", frames[k].v[c]);
      fprintf (f, "\n");
    }
  if (fclose (f) != 0)
    printf ("# cannot write %s\n", path);
  else
    printf ("# wrote %s\n", path);
}

/* A horizon folded through the layered model on the CUDA fold back end.
 * Six TAP points: the solve ran on CUDA and kept T on the device; the
 * device T, the two T textures and the two pictures agree; then the drag,
 * whose frames must all succeed (its timings are only reported).  Nonzero
 * after a "Bail out!". */
static int
run_fold (const Options *o, Buffers *b)
{
  const int n = o->size;
  const double h = FOLD_EXTENT / (n - 1);
  const fr_grid g = fr_grid_2d ((size_t) n, (size_t) n, h, h, 0.0, 0.0);
  double horizon[2 * HORIZON_POINTS];
  const fr_fold_start start = { .horizon = horizon, .nhorizon = HORIZON_POINTS };
  fr_fold_result res = { 0 };
  fr_gl_interop *it = NULL;
  Scene sc;
  DragFrame *frames;
  double *scratch;
  void *device_time;
  char why[1024];
  float tmax;
  int done;

  frames = calloc ((size_t) o->frames, sizeof *frames);
  scratch = malloc ((size_t) o->frames * sizeof *scratch);
  if (frames == NULL || scratch == NULL)
    {
      printf ("Bail out! out of memory\n");
      return 1;
    }
  fold_model (&g, b->velocity);
  fold_horizon (horizon);

  /* The drag's first frame (ψa along +x), for correctness. */
  if (!fold_solve_cuda (&g, &start, b->velocity, 0.0, &res, why, sizeof why))
    {
      tap (0, "cuda fold solve %dx%d with keep_device_time: %s", n, n, why);
      tap_skip_rest ("no CUDA fold solve");
      fr_fold_result_clear (&res);
      free (frames);
      free (scratch);
      return 0;
    }
  tap (1, "cuda fold solve %dx%d ran on CUDA and kept T on the device (%.1f ms, %ld passes, "
       "%ld host round trips)", n, n, res.solve_ms, res.iterations, res.host_round_trips);
  tmax = host_time_from (res.time, b->host_t, b->nn);   /* as fr-fold-job.c does */
  device_time = fr_fold_result_take_device_time (&res);
  fr_fold_result_clear (&res);
  check_device_time (device_time, b, tmax);

  if (!gl_setup (&sc, &it, o->root, n, b->velocity))
    {
      fr_device_free (device_time);
      free (frames);
      free (scratch);
      return 1;
    }
  /* As the canvas draws folds: strata bands, no isochrons, no front. */
  const Look look = { 0.6f, 1.4f, 0.0f, -1.0f, tmax / 12.0f };
  compare_paths (&sc, it, &g, &look, device_time, b, o->out, "fold-");
  fr_device_free (device_time);

  done = drag (&g, &start, b->velocity, &sc, it, &look, frames, o->frames, why, sizeof why);
  if (done == o->frames)
    tap (glGetError () == GL_NO_ERROR,
         "drag: %d frames %dx%d, each a CUDA fold solve + interop upload + draw + glFinish",
         o->frames, n, n);
  else
    tap (0, "drag: %d of %d frames done: %s", done, o->frames, why);
  if (done > 0)
    {
      drag_report (frames, done, n, scratch);
      if (o->out != NULL)
        drag_write_csv (o->out, frames, done);
    }

  fr_gl_interop_free (it);
  free (frames);
  free (scratch);
  return 0;
}

/* ----------------------------------------------------------------- main */

int
main (int argc, char **argv)
{
  Options o = { getenv ("FOLDRAY_SOURCE_ROOT"), NULL, 0, 100, 0 };
  Egl egl;
  Buffers b;
  char why[256];
  int rc;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--out") == 0 && i + 1 < argc)
        o.out = argv[++i];
      else if (strcmp (argv[i], "--size") == 0 && i + 1 < argc)
        o.size = atoi (argv[++i]);
      else if (strcmp (argv[i], "--frames") == 0 && i + 1 < argc)
        o.frames = atoi (argv[++i]);
      else if (strcmp (argv[i], "--fold") == 0)
        o.fold = 1;
      else if (argv[i][0] != '-')
        o.root = argv[i];
      else
        {
          fprintf (stderr, "usage: %s [SOURCE_ROOT] [--fold] [--out DIR] [--size N] "
                   "[--frames N]\n", argv[0]);
          return 2;
        }
    }
  if (o.size == 0)
    o.size = o.fold ? TARGET_SIZE : 1024;
  if (o.root == NULL || o.size < 16 || o.size > 8192 || o.frames < 1)
    {
      fprintf (stderr, "%s: need a source root (argument or FOLDRAY_SOURCE_ROOT), "
               "16 <= size <= 8192, frames >= 1\n", argv[0]);
      return 2;
    }

  if (!fr_cuda_usable ())
    {
      printf ("1..0 # SKIP no usable CUDA device\n");
      return EXIT_SKIP;
    }
  if (!egl_open (&egl, EGL_CTX_GL_CORE, 4, 5, 1, why, sizeof why))
    {
      printf ("1..0 # SKIP no EGL display: %s\n", why);
      return EXIT_SKIP;
    }
  printf ("1..%d\n# GL: %s\n# mode: %s, %dx%d\n", N_TESTS, egl.renderer,
          o.fold ? "fold (horizon through layers, psi_a drag)" : "spr (gradient, point source)",
          o.size, o.size);

  if (!buffers_new (&b, o.size))
    {
      printf ("Bail out! out of memory\n");
      return 1;
    }
  rc = o.fold ? run_fold (&o, &b) : run_spr (&o, &b);
  buffers_free (&b);
  egl_close (&egl);
  return rc == 0 && tap_failed == 0 ? 0 : 1;
}
