/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Headless GL for the tests (see headless-gl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>

#include "headless-gl.h"

int
egl_open (Egl *e, EglApi api, int major, int minor, int nvidia_first,
          char *why, size_t why_len)
{
  PFNEGLQUERYDEVICESEXTPROC query_devices =
    (PFNEGLQUERYDEVICESEXTPROC) eglGetProcAddress ("eglQueryDevicesEXT");
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
    (PFNEGLGETPLATFORMDISPLAYEXTPROC) eglGetProcAddress ("eglGetPlatformDisplayEXT");
  const int es = api == EGL_CTX_GLES;
  EGLDeviceEXT devices[16];
  EGLint ndev = 0;
  const EGLint config_attrs[] = {
    EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
    EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
  };
  const EGLint context_attrs[] = {
    EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
    es ? EGL_NONE : EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
    EGL_NONE,
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
  snprintf (why, why_len, "no EGL device gave an %s %d.%d context",
            es ? "OpenGL ES" : "OpenGL core", major, minor);

  /* With nvidia_first, two rounds: NVIDIA's vendor string first, then anything. */
  for (int round = nvidia_first ? 0 : 1; round < 2; round++)
    for (EGLint i = 0; i < ndev; i++)
      {
        EGLDisplay dpy = get_display (EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        EGLint got_major, got_minor, nconf = 0;
        EGLConfig config;
        const char *vendor;

        if (dpy == EGL_NO_DISPLAY || !eglInitialize (dpy, &got_major, &got_minor))
          continue;
        vendor = eglQueryString (dpy, EGL_VENDOR);
        if (round == 0 && (vendor == NULL || strstr (vendor, "NVIDIA") == NULL))
          {
            eglTerminate (dpy);
            continue;
          }
        if (!eglBindAPI (es ? EGL_OPENGL_ES_API : EGL_OPENGL_API) ||
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
                  (const char *) glGetString (GL_VERSION), got_major, got_minor, (int) i,
                  (int) ndev);
        return 1;
      }
  return 0;
}

void
egl_close (Egl *e)
{
  if (e->dpy == NULL)
    return;
  eglMakeCurrent (e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (e->surf != EGL_NO_SURFACE)
    eglDestroySurface (e->dpy, e->surf);
  eglDestroyContext (e->dpy, e->ctx);
  eglTerminate (e->dpy);
  e->dpy = NULL;
}

char *
read_source_text (const char *root, const char *rel)
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
