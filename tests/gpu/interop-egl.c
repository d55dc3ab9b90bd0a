/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA–GL interop path of the canvas, headless through EGL.
 *
 * Solves a gradient model (with an obstacle, so that unreached +inf nodes
 * are drawn too) on the CUDA back end with keep_device_time, then draws its
 * T with the canvas's field shaders (read from shaders/ in the source tree,
 * with the canvas's version header) into an FBO twice:
 *   (a) interop: fr_gl_interop_upload, device T -> registered GL buffer ->
 *       texture, never through host memory;
 *   (b) reference: the canvas's host path, glTexSubImage2D from host floats
 *       converted from fr_spr_result.time as fr-job.c does.
 * The two textures must be bitwise equal and the two pictures within one
 * unit per channel.  Then it times the interop frame (map, copy, unmap,
 * texture update, draw, glFinish) and, for comparison, the host frame.
 *
 *   interop-egl [SOURCE_ROOT] [--out DIR] [--size N] [--frames N]
 *
 * SOURCE_ROOT defaults to $FOLDRAY_SOURCE_ROOT.  Exit status 77 (skip)
 * without a usable CUDA device or an EGL display; no GLib, so it runs on
 * the GPU machine. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>

#include <cuda_runtime_api.h>

#include "fr-gl-interop.h"
#include "fr-gl-shader-header.h"
#include "fr-spr.h"

#define EXIT_SKIP 77
#define LUT_SIZE 256

typedef struct {
  const char *root;
  const char *out;
  int size;
  int frames;
} Options;

typedef struct {
  EGLDisplay dpy;
  EGLContext ctx;
  EGLSurface surf;
  char renderer[256];
} Egl;

typedef struct {
  GLuint program, vao, vbo, fbo, color;
  GLuint tex_velocity, tex_time, tex_lut;
  GLint u_clip, u_cells, u_velocity, u_time, u_lut, u_vrange, u_size, u_has_time,
        u_interval, u_front, u_bands;
  int width, height;
} Scene;

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

static char *
read_text (const char *root, const char *rel)
{
  char path[4096];
  FILE *f;
  long len;
  char *text;

  snprintf (path, sizeof path, "%s/%s", root, rel);
  if ((f = fopen (path, "rb")) == NULL)
    return NULL;
  if (fseek (f, 0, SEEK_END) != 0 || (len = ftell (f)) < 0 || fseek (f, 0, SEEK_SET) != 0 ||
      (text = malloc ((size_t) len + 1)) == NULL)
    {
      fclose (f);
      return NULL;
    }
  if (fread (text, 1, (size_t) len, f) != (size_t) len)
    {
      free (text);
      fclose (f);
      return NULL;
    }
  text[len] = '\0';
  fclose (f);
  return text;
}

/* ----------------------------------------------------------------- EGL */

/* A desktop GL 4.5 core context on an EGL device, NVIDIA first; 0 when
 * there is none (then the test skips). */
static int
egl_open (Egl *e, char *why, size_t why_len)
{
  PFNEGLQUERYDEVICESEXTPROC query_devices =
    (PFNEGLQUERYDEVICESEXTPROC) eglGetProcAddress ("eglQueryDevicesEXT");
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
    (PFNEGLGETPLATFORMDISPLAYEXTPROC) eglGetProcAddress ("eglGetPlatformDisplayEXT");
  EGLDeviceEXT devices[16];
  EGLint ndev = 0;
  static const EGLint config_attrs[] = {
    EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
  };
  static const EGLint context_attrs[] = {
    EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
  };
  static const EGLint pbuffer_attrs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };

  memset (e, 0, sizeof *e);
  if (query_devices == NULL || get_display == NULL)
    {
      snprintf (why, why_len, "no EGL_EXT_device_enumeration / EGL_EXT_platform_device");
      return 0;
    }
  if (!query_devices (16, devices, &ndev) || ndev <= 0)
    {
      snprintf (why, why_len, "eglQueryDevicesEXT found no device (0x%x)", eglGetError ());
      return 0;
    }
  snprintf (why, why_len, "no EGL device gave a GL 4.5 core context");

  /* Two rounds: NVIDIA's vendor string first, then anything. */
  for (int round = 0; round < 2; round++)
    for (EGLint i = 0; i < ndev; i++)
      {
        EGLDisplay dpy = get_display (EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        EGLint major, minor, nconf = 0;
        EGLConfig config;
        const char *vendor;

        if (dpy == EGL_NO_DISPLAY || !eglInitialize (dpy, &major, &minor))
          continue;
        vendor = eglQueryString (dpy, EGL_VENDOR);
        if (round == 0 && (vendor == NULL || strstr (vendor, "NVIDIA") == NULL))
          {
            eglTerminate (dpy);
            continue;
          }
        if (!eglBindAPI (EGL_OPENGL_API) ||
            !eglChooseConfig (dpy, config_attrs, &config, 1, &nconf) || nconf < 1)
          {
            eglTerminate (dpy);
            continue;
          }
        e->ctx = eglCreateContext (dpy, config, EGL_NO_CONTEXT, context_attrs);
        if (e->ctx == EGL_NO_CONTEXT)
          {
            eglTerminate (dpy);
            continue;
          }
        e->surf = eglCreatePbufferSurface (dpy, config, pbuffer_attrs);
        if (!eglMakeCurrent (dpy, e->surf, e->surf, e->ctx))
          {
            eglDestroyContext (dpy, e->ctx);
            if (e->surf != EGL_NO_SURFACE)
              eglDestroySurface (dpy, e->surf);
            eglTerminate (dpy);
            continue;
          }
        e->dpy = dpy;
        snprintf (e->renderer, sizeof e->renderer, "%s, %s, EGL %d.%d device %d of %d",
                  (const char *) glGetString (GL_RENDERER),
                  (const char *) glGetString (GL_VERSION), major, minor, (int) i, (int) ndev);
        return 1;
      }
  return 0;
}

static void
egl_close (Egl *e)
{
  if (e->dpy == NULL)
    return;
  eglMakeCurrent (e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (e->surf != EGL_NO_SURFACE)
    eglDestroySurface (e->dpy, e->surf);
  eglDestroyContext (e->dpy, e->ctx);
  eglTerminate (e->dpy);
}

/* ----------------------------------------------------------------- GL */

static GLuint
compile (GLenum type, const char *root, const char *rel)
{
  const char *header = fr_gl_shader_header (0);
  char *text = read_text (root, rel);
  const char *sources[2];
  GLuint shader;
  GLint ok = 0;

  if (text == NULL)
    {
      fprintf (stderr, "cannot read %s/%s\n", root, rel);
      return 0;
    }
  sources[0] = header;
  sources[1] = text;
  shader = glCreateShader (type);
  glShaderSource (shader, 2, sources, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  free (text);
  if (!ok)
    {
      char log[4096];

      glGetShaderInfoLog (shader, sizeof log, NULL, log);
      fprintf (stderr, "%s: %s\n", rel, log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

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
  GLuint vs, fs;
  GLint ok = 0;
  unsigned char lut[LUT_SIZE * 4];

  memset (s, 0, sizeof *s);
  if ((vs = compile (GL_VERTEX_SHADER, root, "shaders/field.vert.glsl")) == 0 ||
      (fs = compile (GL_FRAGMENT_SHADER, root, "shaders/field.frag.glsl")) == 0)
    return 0;
  s->program = glCreateProgram ();
  glAttachShader (s->program, vs);
  glAttachShader (s->program, fs);
  glBindAttribLocation (s->program, 0, "a_pos");
  glLinkProgram (s->program);
  glGetProgramiv (s->program, GL_LINK_STATUS, &ok);
  glDeleteShader (vs);
  glDeleteShader (fs);
  if (!ok)
    return 0;
#define U(name) s->name = glGetUniformLocation (s->program, #name)
  U (u_clip); U (u_cells); U (u_velocity); U (u_time); U (u_lut); U (u_vrange); U (u_size);
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
scene_draw (const Scene *s, const fr_grid *g, float tmax)
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
  glUniform2f (s->u_vrange, 0.5f, 4.0f);
  glUniform2i (s->u_size, (GLint) g->nx, (GLint) g->nz);
  glUniform1i (s->u_has_time, 1);
  glUniform1f (s->u_interval, tmax / 24.0f);
  glUniform1f (s->u_front, 0.6f * tmax);
  glUniform1f (s->u_bands, 0.0f);
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

static int
upload_interop (const Scene *s, fr_gl_interop *it, int n, const void *device_time)
{
  fr_error err = { 0 };

  glBindTexture (GL_TEXTURE_2D, s->tex_time);
  if (fr_gl_interop_upload (it, device_time, (size_t) n, (size_t) n, &err) != FR_OK)
    {
      fprintf (stderr, "%s\n", err.message);
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

static void
stats (double *t, int n, double *median, double *lo, double *p90)
{
  qsort (t, (size_t) n, sizeof *t, cmp_double);
  *median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  *lo = t[0];
  *p90 = t[(int) (0.9 * (n - 1))];
}

/* ----------------------------------------------------------------- main */

int
main (int argc, char **argv)
{
  Options o = { getenv ("FOLDRAY_SOURCE_ROOT"), NULL, 1024, 100 };
  Egl egl;
  Scene sc;
  char why[256];
  fr_spr_params params;
  fr_spr_result res = { 0 };
  fr_error err = { 0 };
  fr_gl_interop *it = NULL;
  float *velocity, *host_t, *dev_t, *tex_a, *tex_b;
  unsigned char *pic_a, *pic_b;
  double *times;
  float tmax = 0.0f;
  size_t nn;
  int n;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--out") == 0 && i + 1 < argc)
        o.out = argv[++i];
      else if (strcmp (argv[i], "--size") == 0 && i + 1 < argc)
        o.size = atoi (argv[++i]);
      else if (strcmp (argv[i], "--frames") == 0 && i + 1 < argc)
        o.frames = atoi (argv[++i]);
      else if (argv[i][0] != '-')
        o.root = argv[i];
      else
        {
          fprintf (stderr, "usage: %s [SOURCE_ROOT] [--out DIR] [--size N] [--frames N]\n",
                   argv[0]);
          return 2;
        }
    }
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
  if (!egl_open (&egl, why, sizeof why))
    {
      printf ("1..0 # SKIP no EGL display: %s\n", why);
      return EXIT_SKIP;
    }
  printf ("1..6\n# GL: %s\n", egl.renderer);

  /* The model: vertical gradient 0.5 -> 4 km/s, spacing 10 m, source at the
   * top centre, and an obstacle that leaves nodes unreached (+inf). */
  n = o.size;
  nn = (size_t) n * (size_t) n;
  velocity = malloc (nn * sizeof *velocity);
  host_t = malloc (nn * sizeof *host_t);
  dev_t = malloc (nn * sizeof *dev_t);
  tex_a = malloc (nn * sizeof *tex_a);
  tex_b = malloc (nn * sizeof *tex_b);
  pic_a = malloc (nn * 4);
  pic_b = malloc (nn * 4);
  times = malloc ((size_t) o.frames * sizeof *times);
  if (!velocity || !host_t || !dev_t || !tex_a || !tex_b || !pic_a || !pic_b || !times)
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
        velocity[(size_t) iz * n + ix] =
          in_box || in_ring ? 0.0f : 0.5f + 3.5f * (float) iz / (float) (n - 1);
      }
  const double src[2] = { (double) (n / 2) * 0.01, 0.0 };

  fr_spr_params_init (&params);
  params.backend = FR_SPR_CUDA;
  params.keep_device_time = true;
  if (fr_spr_solve (&g, velocity, src, 1, &params, &res, &err) != FR_OK)
    {
      printf ("Bail out! CUDA solve failed: %s\n", err.message);
      return 1;
    }
  for (size_t i = 0; i < nn; i++)
    {
      host_t[i] = (float) res.time[i];   /* as fr-job.c hands T to the canvas */
      if (isfinite (host_t[i]) && host_t[i] > tmax)
        tmax = host_t[i];
    }
  tap (res.device_time != NULL, "cuda solve %dx%d kept T on the device (%.1f ms, %ld passes)",
       n, n, res.solve_ms, res.iterations);
  if (res.device_time == NULL)
    return 1;
  {
    cudaError_t e = cudaMemcpy (dev_t, res.device_time, nn * sizeof (float),
                                cudaMemcpyDeviceToHost);
    size_t unreached = 0;

    for (size_t i = 0; i < nn; i++)
      unreached += !isfinite (host_t[i]);
    tap (e == cudaSuccess && memcmp (dev_t, host_t, nn * sizeof (float)) == 0,
         "device T equals the host T bitwise (%zu unreached nodes, T max %.4g)", unreached,
         (double) tmax);
  }

  if (!scene_init (&sc, o.root, n, velocity))
    {
      printf ("Bail out! GL set-up failed (shaders from %s)\n", o.root);
      return 1;
    }
  if (fr_gl_interop_new (&it, &err) != FR_OK)
    {
      printf ("Bail out! %s\n", err.message);
      return 1;
    }

  /* (a) interop, (b) host upload; each starts from a zeroed texture. */
  time_texture_zero (&sc, n, tex_a);
  int ok_a = upload_interop (&sc, it, n, res.device_time);
  scene_draw (&sc, &g, tmax);
  glFinish ();
  scene_read (&sc, pic_a);
  time_texture_read (&sc, tex_a);
  tap (ok_a && glGetError () == GL_NO_ERROR, "interop upload and draw");

  time_texture_zero (&sc, n, tex_b);
  upload_host (&sc, n, host_t);
  scene_draw (&sc, &g, tmax);
  glFinish ();
  scene_read (&sc, pic_b);
  time_texture_read (&sc, tex_b);

  tap (memcmp (tex_a, tex_b, nn * sizeof (float)) == 0 &&
       memcmp (tex_b, host_t, nn * sizeof (float)) == 0,
       "interop T texture equals the host-upload T texture bitwise");
  {
    int maxdiff = 0;
    size_t differ = 0, ink = 0;

    for (size_t i = 0; i < nn * 4; i++)
      {
        int d = abs ((int) pic_a[i] - (int) pic_b[i]);
        if (d > maxdiff)
          maxdiff = d;
        differ += d != 0;
      }
    /* A picture that shows the field at all: not one flat colour. */
    for (size_t i = 1; i < nn; i++)
      ink += memcmp (pic_b + 4 * i, pic_b, 3) != 0;
    tap (maxdiff <= 1 && ink > nn / 10,
         "pictures %dx%d match: max channel difference %d, %zu channel values differ "
         "(%zu of %zu pixels unlike the first)", sc.width, sc.height, maxdiff, differ, ink, nn);
  }
  if (o.out != NULL)
    {
      write_ppm (o.out, "interop.ppm", pic_a, sc.width, sc.height);
      write_ppm (o.out, "host.ppm", pic_b, sc.width, sc.height);
    }

  /* Timing: the interop frame, then the host frame for comparison. */
  {
    double med, lo, p90, hmed, hlo, hp90, umed, ulo, up90;
    int ok = 1;

    for (int w = 0; w < 5; w++)   /* warm-up */
      {
        ok &= upload_interop (&sc, it, n, res.device_time);
        scene_draw (&sc, &g, tmax);
        glFinish ();
      }
    for (int f = 0; f < o.frames; f++)
      {
        double t0 = now_ms ();
        ok &= upload_interop (&sc, it, n, res.device_time);
        scene_draw (&sc, &g, tmax);
        glFinish ();
        times[f] = now_ms () - t0;
      }
    stats (times, o.frames, &med, &lo, &p90);
    /* The upload alone (map, copy, unmap, texture update), to the finish. */
    for (int f = 0; f < o.frames; f++)
      {
        double t0 = now_ms ();
        ok &= upload_interop (&sc, it, n, res.device_time);
        glFinish ();
        times[f] = now_ms () - t0;
      }
    stats (times, o.frames, &umed, &ulo, &up90);
    for (int f = 0; f < o.frames; f++)
      {
        double t0 = now_ms ();
        upload_host (&sc, n, host_t);
        scene_draw (&sc, &g, tmax);
        glFinish ();
        times[f] = now_ms () - t0;
      }
    stats (times, o.frames, &hmed, &hlo, &hp90);
    tap (ok && glGetError () == GL_NO_ERROR,
         "timed %d frames %dx%d: interop frame median %.3f ms (min %.3f, p90 %.3f)",
         o.frames, n, n, med, lo, p90);
    printf ("# interop frame (map + copy + unmap + tex update from PBO + draw + glFinish): "
            "median %.3f ms, min %.3f, p90 %.3f\n", med, lo, p90);
    printf ("# interop upload only (map + copy + unmap + tex update + glFinish): "
            "median %.3f ms, min %.3f, p90 %.3f\n", umed, ulo, up90);
    printf ("# host frame (glTexSubImage2D from host memory + draw + glFinish): "
            "median %.3f ms, min %.3f, p90 %.3f\n", hmed, hlo, hp90);
  }

  fr_gl_interop_free (it);
  fr_spr_result_clear (&res);
  egl_close (&egl);
  free (velocity);
  free (host_t);
  free (dev_t);
  free (tex_a);
  free (tex_b);
  free (pic_a);
  free (pic_b);
  free (times);
  return tap_failed == 0 ? 0 : 1;
}
