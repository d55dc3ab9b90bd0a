/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA–GL interop for the traveltime texture (see fr-gl-interop.h).
 *
 * Layout: the buffer holds the grid's floats, row-major with x fastest,
 * exactly as the solver's device T, so one linear copy fills it; the
 * texture takes them row after row of its own width (fr-grid-texture.h).  The registration
 * is WriteDiscard: CUDA never reads the old contents. */
#include <stdint.h>
#include <stdlib.h>

/* GL through epoxy in the application, through the system headers (libGL
 * or libOpenGL exports) in the EGL test. */
#ifdef FR_GL_EPOXY
#include <epoxy/gl.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif

#include <cuda_runtime_api.h>
#include <cuda_gl_interop.h>

#include "fr-gl-interop.h"

struct fr_gl_interop {
  GLuint pbo;
  size_t bytes;                          /* the buffer's size, 0 before the first upload */
  struct cudaGraphicsResource *resource; /* the registered pbo, or NULL */
  cudaStream_t stream;                   /* non-blocking: never waits on the solver's work */
};

static fr_status
cuda_failed (fr_error *err, cudaError_t e, const char *what)
{
  cudaGetLastError ();
  return fr_error_set (err, FR_E_DEVICE, "CUDA–GL interop: %s: %s", what,
                       cudaGetErrorString (e));
}

static fr_status
gl_failed (fr_error *err, GLenum e, const char *what)
{
  return fr_error_set (err, FR_E_DEVICE, "CUDA–GL interop: %s: GL error 0x%04x", what,
                       (unsigned) e);
}

/* Drops errors left by earlier GL calls, so that a check after ours reports
 * ours; bounded, as a lost context may report errors forever. */
static void
gl_clear_errors (void)
{
  for (int i = 0; i < 16 && glGetError () != GL_NO_ERROR; i++)
    ;
}

fr_status
fr_gl_interop_new (fr_gl_interop **out, fr_error *err)
{
  fr_gl_interop *it;
  unsigned int ngl = 0;
  int dev = -1;
  cudaError_t e;

  if (out == NULL)
    return fr_error_set (err, FR_E_INPUT, "CUDA–GL interop: no place for the result");
  *out = NULL;

  /* The CUDA device that runs the current GL context, if any. */
  e = cudaGLGetDevices (&ngl, &dev, 1, cudaGLDeviceListAll);
  if (e != cudaSuccess)
    return cuda_failed (err, e, "cudaGLGetDevices");
  if (ngl == 0 || dev < 0)
    return fr_error_set (err, FR_E_DEVICE, "CUDA–GL interop: the GL context is on no CUDA device");
  if ((e = cudaSetDevice (dev)) != cudaSuccess)
    return cuda_failed (err, e, "cudaSetDevice");

  it = calloc (1, sizeof *it);
  if (it == NULL)
    return fr_error_set (err, FR_E_NOMEM, "CUDA–GL interop: out of memory");
  if ((e = cudaStreamCreateWithFlags (&it->stream, cudaStreamNonBlocking)) != cudaSuccess)
    {
      free (it);
      return cuda_failed (err, e, "cudaStreamCreateWithFlags");
    }
  gl_clear_errors ();
  glGenBuffers (1, &it->pbo);
  if (it->pbo == 0)
    {
      GLenum ge = glGetError ();

      fr_gl_interop_free (it);
      return gl_failed (err, ge, "glGenBuffers");
    }
  *out = it;
  return FR_OK;
}

/* (Re)sizes the buffer and its registration for `bytes`. */
static fr_status
ensure_buffer (fr_gl_interop *it, size_t bytes, fr_error *err)
{
  GLenum ge;
  cudaError_t e;

  if (it->bytes == bytes && it->resource != NULL)
    return FR_OK;
  if (it->resource != NULL)
    {
      cudaGraphicsUnregisterResource (it->resource);
      cudaGetLastError ();
      it->resource = NULL;
    }
  it->bytes = 0;

  gl_clear_errors ();
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, it->pbo);
  glBufferData (GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr) bytes, NULL, GL_STREAM_DRAW);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
  if ((ge = glGetError ()) != GL_NO_ERROR)
    return gl_failed (err, ge, "glBufferData");

  e = cudaGraphicsGLRegisterBuffer (&it->resource, it->pbo, cudaGraphicsRegisterFlagsWriteDiscard);
  if (e != cudaSuccess)
    {
      it->resource = NULL;
      return cuda_failed (err, e, "cudaGraphicsGLRegisterBuffer");
    }
  it->bytes = bytes;
  return FR_OK;
}

fr_status
fr_gl_interop_upload (fr_gl_interop *it, const void *device_time, const fr_grid_texture *lay,
                      fr_error *err)
{
  void *mapped = NULL;
  size_t mapped_size = 0;
  size_t bytes;
  fr_status st;
  cudaError_t e;
  GLenum ge;

  if (it == NULL || device_time == NULL || lay == NULL || lay->stride != 1 || lay->count == 0 ||
      lay->count > SIZE_MAX / sizeof (float))
    return fr_error_set (err, FR_E_INPUT, "CUDA–GL interop: bad arguments");
  bytes = lay->count * sizeof (float);
  if ((st = ensure_buffer (it, bytes, err)) != FR_OK)
    return st;

  /* Map, copy device to device, unmap: the unmap orders the copy before
   * any GL work issued after it. */
  if ((e = cudaGraphicsMapResources (1, &it->resource, it->stream)) != cudaSuccess)
    return cuda_failed (err, e, "cudaGraphicsMapResources");
  e = cudaGraphicsResourceGetMappedPointer (&mapped, &mapped_size, it->resource);
  if (e == cudaSuccess && mapped_size < bytes)
    e = cudaErrorInvalidValue;
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (mapped, device_time, bytes, cudaMemcpyDeviceToDevice, it->stream);
  if (e != cudaSuccess)
    {
      cudaGraphicsUnmapResources (1, &it->resource, it->stream);
      return cuda_failed (err, e, "copying T into the GL buffer");
    }
  if ((e = cudaGraphicsUnmapResources (1, &it->resource, it->stream)) != cudaSuccess)
    return cuda_failed (err, e, "cudaGraphicsUnmapResources");

  /* Buffer to texture on the GPU, from offset 0 of the bound unpack
   * buffer. */
  gl_clear_errors ();
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, it->pbo);
  fr_grid_texture_upload (lay, 0);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
  if ((ge = glGetError ()) != GL_NO_ERROR)
    return gl_failed (err, ge, "glTexSubImage2D from the buffer");
  return FR_OK;
}

void
fr_gl_interop_free (fr_gl_interop *it)
{
  if (it == NULL)
    return;
  if (it->resource != NULL)
    cudaGraphicsUnregisterResource (it->resource);
  if (it->pbo != 0)
    glDeleteBuffers (1, &it->pbo);
  if (it->stream != NULL)
    cudaStreamDestroy (it->stream);
  cudaGetLastError ();
  free (it);
}
