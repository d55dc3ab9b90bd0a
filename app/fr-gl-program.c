/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shader programs (see fr-gl-program.h). */
#include <stdio.h>

#ifdef FR_GL_EPOXY
#include <epoxy/gl.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif

#include "fr-gl-program.h"

/* Writes "stage: message" into log; the message is cut to fit. */
static void
set_log (char *log, size_t log_size, const char *stage, GLuint object, int is_program)
{
  int n;

  if (log == NULL || log_size == 0)
    return;
  n = snprintf (log, log_size, "%s: ", stage);
  if (n < 0 || (size_t) n >= log_size)
    return;
  if (is_program)
    glGetProgramInfoLog (object, (GLsizei) (log_size - (size_t) n), NULL, log + n);
  else
    glGetShaderInfoLog (object, (GLsizei) (log_size - (size_t) n), NULL, log + n);
}

static GLuint
compile (GLenum type, const char *header, const char *text, char *log, size_t log_size)
{
  const char *sources[2] = { header, text };
  GLuint shader = glCreateShader (type);
  GLint ok = 0;

  glShaderSource (shader, 2, sources, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      set_log (log, log_size, type == GL_VERTEX_SHADER ? "vertex shader" : "fragment shader",
               shader, 0);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

unsigned int
fr_gl_program_link (const char         *header,
                    const char         *vert,
                    const char         *frag,
                    const char * const *attributes,
                    char               *log,
                    size_t              log_size)
{
  GLuint vs, fs, program;
  GLint ok = 0;

  if ((vs = compile (GL_VERTEX_SHADER, header, vert, log, log_size)) == 0)
    return 0;
  if ((fs = compile (GL_FRAGMENT_SHADER, header, frag, log, log_size)) == 0)
    {
      glDeleteShader (vs);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, vs);
  glAttachShader (program, fs);
  for (GLuint i = 0; attributes[i] != NULL; i++)
    glBindAttribLocation (program, i, attributes[i]);
  glLinkProgram (program);
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  glDetachShader (program, vs);
  glDetachShader (program, fs);
  glDeleteShader (vs);
  glDeleteShader (fs);
  if (!ok)
    {
      set_log (log, log_size, "link", program, 1);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}
