/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-canvas"

#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>
#include <glib/gi18n.h>

#include "fr-canvas.h"
#include "fr-fold-tool.h"
#include "fr-lines.h"
#include "fr-plot-layout.h"
#include "fr-result-time.h"
#include "fr-gl-program.h"
#include "fr-grid-texture.h"
#ifdef FR_HAVE_GL_INTEROP
#include "fr-gl-interop.h"
#endif

/* Pixels within which a press grabs a marker, and a press must travel
 * before it becomes a pan instead of a click. */
#define PICK_RADIUS_PX  12.0
#define CLICK_SLOP_PX    5.0

typedef enum
{
  DRAG_NONE,
  DRAG_PENDING,   /* left press on empty space: a click unless it moves */
  DRAG_MARKER,
  DRAG_PAN,
  DRAG_TOOL,      /* Folds mode: a handle of the fold tool */
} DragMode;

/* A result first shown by a frame, and when that frame finished. */
typedef struct
{
  FrResult *result;
  gint64    time;
} DrawnFrame;

/* A request to render the picture at another size (PNG export). */
typedef struct
{
  int width, height;
} RenderRequest;

struct _FrCanvas
{
  GtkGLArea     parent_instance;

  FrScene      *scene;
  FrResult     *result;
  FrView        view;
  gboolean      view_fitted;    /* the view is the fit: a resize fits again */

  /* The plot layout of view, kept until the view or the model's bounds
   * change (the pointer asks for it at every motion). */
  FrPlotLayout  layout;
  FrView        layout_view;
  double        layout_bounds[4];
  gboolean      layout_valid;

  FrColormap    colormap;
  double        interval;
  gboolean      front_enabled;
  double        front_time;
  FrFoldTool   *fold_tool;      /* Folds mode, else NULL */

  /* GL objects: made in realize, freed in unrealize, used only in render. */
  gboolean      gl_ready;
  GLuint        field_program;
  GLuint        lines_program;
  GLuint        field_vao, field_vbo;
  GLuint        lines_vao, lines_vbo;
  GLuint        tex_velocity, tex_time, tex_lut;
  int           time_width, time_height;
  GLint         max_texture;    /* GL_MAX_TEXTURE_SIZE: wider grids go in strided */
  GLint         u_clip, u_cells, u_velocity, u_time, u_lut, u_vrange, u_size, u_stride,
                u_has_time, u_interval, u_front, u_viewport, u_bands, u_bands_end,
                u_line_clip;
  gboolean      velocity_dirty;
  gboolean      time_dirty;
  gboolean      lut_dirty;
  gboolean      time_valid;
  guint         time_uploads;   /* T uploaded to the time texture, since the start */
  FrResult     *uploaded;       /* the result whose T the time texture holds, held so that its T
                                 * stays alive to compare: a result sharing that T (a solve kept,
                                 * a fold contoured again) is not uploaded again; or NULL */
  GArray       *line_vertices;
#ifdef FR_HAVE_GL_INTEROP
  fr_gl_interop *interop;       /* CUDA–GL path for T; NULL until used or after a failure */
  gboolean      interop_off;    /* it failed once in this context: host uploads only */
#endif

  /* Pointer interaction. */
  DragMode      drag_mode;
  guint         drag_button;
  gboolean      drag_shift;
  FrMarkerKind  drag_kind;
  guint         drag_index;
  double        drag_x, drag_y;
  double        pan_cx, pan_cz;
  double        pinch_scale;
  double        pointer_x, pointer_y;
  gboolean      pointer_inside;
  float         range_min, range_max;  /* the velocity range last announced */

  guint64       input_seq;
  guint         drawn_serial;
  gint64        render_start;
  GQueue        drawn;          /* DrawnFrame: results first shown, to announce */
  guint         drawn_idle_id;

  GQueue        render_tasks;   /* GTask, data RenderRequest */
};

G_DEFINE_FINAL_TYPE (FrCanvas, fr_canvas, GTK_TYPE_GL_AREA)

enum {
  FRAME_DRAWN,
  VIEW_CHANGED,
  CURSOR_MOVED,
  RANGE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const float ray_color[4]      = { 1.00f, 0.00f, 1.00f, 1.0f };  /* magenta: absent from every map */
static const float ray_halo[4]       = { 0.00f, 0.00f, 0.00f, 0.55f };
static const float source_color[4]   = { 1.00f, 0.30f, 0.08f, 1.0f };
static const float receiver_color[4] = { 0.20f, 0.85f, 1.00f, 1.0f };
static const float ring_light[4]     = { 1.00f, 1.00f, 1.00f, 1.0f };
static const float ring_dark[4]      = { 0.00f, 0.00f, 0.00f, 0.85f };
static const float select_color[4]   = { 1.00f, 0.92f, 0.20f, 1.0f };
/* The model's outlines (fr-editor.c draws its handles over them). */
static const float interface_halo[4] = { 0.10f, 0.10f, 0.11f, 1.0f };  /* opaque: the segments overlap at joints */
static const float interface_line[4] = { 0.93f, 0.93f, 0.93f, 1.0f };
static const float interface_muted[4] = { 0.62f, 0.62f, 0.66f, 1.0f }; /* Folds mode */
static const float slow_obstacle[4]  = { 1.00f, 0.65f, 0.10f, 1.0f };
static const float wall_obstacle[4]  = { 0.85f, 0.85f, 0.85f, 1.0f };

/* ---------------------------------------------------------------- GL helpers */

/* Links a program from two shader resources (see fr-gl-program.h). */
static GLuint
link_program (const char          *header,
              const char          *vert,
              const char          *frag,
              const char * const  *attributes,
              GError             **error)
{
  g_autoptr(GBytes) vert_text = NULL;
  g_autoptr(GBytes) frag_text = NULL;
  char log[2048] = "";
  GLuint program;

  /* Resource data is always followed by a zero byte: usable as C strings. */
  if ((vert_text = g_resources_lookup_data (vert, 0, error)) == NULL ||
      (frag_text = g_resources_lookup_data (frag, 0, error)) == NULL)
    return 0;
  program = fr_gl_program_link (header, g_bytes_get_data (vert_text, NULL),
                                g_bytes_get_data (frag_text, NULL), attributes,
                                log, sizeof log);
  if (program == 0)
    g_set_error (error, GDK_GL_ERROR,
                 g_str_has_prefix (log, "link") ? GDK_GL_ERROR_LINK_FAILED
                                                : GDK_GL_ERROR_COMPILATION_FAILED,
                 "%s, %s: %s", vert, frag, log);
  return program;
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

/* g's nodes in a texture (fr-grid-texture.h): each its own texel up to
 * the GL's largest texture squared, wrapped at the texture's width (a
 * seismic line of 20 000 traces was at first not drawn at all, GL refusing
 * its texture, then drawn from every other trace). */
static void
texture_layout (const FrCanvas *self,
                const fr_grid  *g,
                fr_grid_texture *lay)
{
  fr_grid_texture_layout (g->nx, g->nz, self->max_texture, lay);
}

/* values (g's nodes) as the texture takes them: values itself, or every
 * stride-th node copied into *copy. */
static const float *
texture_values (const fr_grid         *g,
                const float           *values,
                const fr_grid_texture *lay,
                float                **copy)
{
  const size_t s = (size_t) lay->stride;
  float *c;

  *copy = NULL;
  if (s == 1)
    return values;
  c = g_new (float, lay->count);
  for (size_t j = 0; j < (size_t) lay->nodes[1]; j++)
    for (size_t i = 0; i < (size_t) lay->nodes[0]; i++)
      c[j * (size_t) lay->nodes[0] + i] = values[j * s * g->nx + i * s];
  *copy = c;
  return c;
}

static void
upload_velocity_texture (FrCanvas *self)
{
  const fr_grid *g = fr_scene_get_grid (self->scene);
  GBytes *v = fr_scene_get_velocity (self->scene);
  g_autofree float *copy = NULL;
  fr_grid_texture lay;

  texture_layout (self, g, &lay);
  glBindTexture (GL_TEXTURE_2D, self->tex_velocity);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, lay.width, lay.height, 0, GL_RED, GL_FLOAT, NULL);
  fr_grid_texture_upload (&lay, (uintptr_t) texture_values (g, g_bytes_get_data (v, NULL), &lay,
                                                             &copy));
}

/* With CUDA, T on the device goes through a registered GL buffer into the
 * bound texture (fr-gl-interop.c); FALSE on any failure, after which this
 * context keeps to the host upload. */
static gboolean
upload_time_interop (FrCanvas              *self,
                     const fr_grid_texture *lay,
                     gconstpointer          device_time)
{
#ifdef FR_HAVE_GL_INTEROP
  fr_error err = { 0 };

  if (device_time == NULL || self->interop_off)
    return FALSE;
  if (self->interop == NULL && fr_gl_interop_new (&self->interop, &err) != FR_OK)
    {
      g_debug ("CUDA–GL interop unavailable, uploading T from the host: %s", err.message);
      self->interop_off = TRUE;
      return FALSE;
    }
  if (fr_gl_interop_upload (self->interop, device_time, lay, &err) != FR_OK)
    {
      g_warning ("CUDA–GL interop failed, uploading T from the host from now on: %s",
                 err.message);
      g_clear_pointer (&self->interop, fr_gl_interop_free);
      self->interop_off = TRUE;
      return FALSE;
    }
  return TRUE;
#else
  return FALSE;
#endif
}

/* The one place traveltimes reach GL: the CUDA–GL interop path when T is on
 * the device, else (and as the reference) a host-to-texture copy. */
static void
upload_time_texture (FrCanvas       *self,
                     const fr_grid  *g,
                     const float    *time,
                     gconstpointer   device_time)
{
  g_autofree float *copy = NULL;
  fr_grid_texture lay;

  texture_layout (self, g, &lay);
  glBindTexture (GL_TEXTURE_2D, self->tex_time);
  if (self->time_width != lay.width || self->time_height != lay.height)
    {
      glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, lay.width, lay.height, 0, GL_RED, GL_FLOAT, NULL);
      self->time_width = lay.width;
      self->time_height = lay.height;
    }
  /* The interop path copies the device's T whole; a strided grid takes the
   * host's. */
  if (lay.stride == 1 && upload_time_interop (self, &lay, device_time))
    return;
  fr_grid_texture_upload (&lay, (uintptr_t) texture_values (g, time, &lay, &copy));
}

static void
upload_lut_texture (FrCanvas *self)
{
  guint8 rgba[FR_COLORMAP_LUT_SIZE * 4];

  fr_colormap_fill_lut (self->colormap, rgba);
  glBindTexture (GL_TEXTURE_2D, self->tex_lut);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, FR_COLORMAP_LUT_SIZE, 1, 0,
                GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

/* Whether the current result belongs to the scene's current model. */
static gboolean
result_matches_scene (FrCanvas *self)
{
  return self->result != NULL && self->result->ok && self->result->time != NULL &&
         self->scene != NULL &&
         fr_scene_job_is_current (self->scene, self->result->job);
}

/* ------------------------------------------------------------- tessellation */

static void
push_rays (FrCanvas     *self,
           const FrView *view,
           double        k,
           double        width,
           const float   color[4])
{
  GArray *a = self->line_vertices;

  for (guint r = 0; r < self->result->rays->len; r++)
    {
      GArray *ray = g_ptr_array_index (self->result->rays, r);

      fr_lines_push_polyline (a, view, (const double *) ray->data, ray->len / 2, width * k, color);
    }
}

/* The drawn model's interfaces and obstacle outlines, over the field and
 * under the rays and markers, so that a head wave along an interface and
 * a receiver on it show whole. */
static void
push_model_outlines (FrCanvas     *self,
                     const FrView *view,
                     double        k)
{
  const FrModel *m = fr_scene_get_model (self->scene);
  g_autoptr(GArray) xz = NULL;
  double x0, z0, x1, z1;

  if (m == NULL || (m->layers->len == 0 && m->obstacles->len == 0))
    return;
  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  xz = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < m->obstacles->len; i++)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, i);

      g_array_set_size (xz, 0);
      g_array_append_vals (xz, o->vertices->data, 2 * o->vertices->len);
      if (o->vertices->len > 0)
        g_array_append_vals (xz, o->vertices->data, 2);   /* closed */
      fr_lines_push_polyline (self->line_vertices, view, (const double *) xz->data, xz->len / 2,
                              1.5 * k, o->velocity > 0 ? slow_obstacle : wall_obstacle);
    }
  /* In Folds mode the folded horizons are the result and the interfaces
   * only the setting: one thin grey line, unlike the horizons' white on
   * a halo. */
  for (guint pass = self->fold_tool != NULL ? 1 : 0; pass < 2; pass++)
    for (guint i = 0; i < m->layers->len; i++)
      {
        g_array_set_size (xz, 0);
        fr_layer_outline (g_ptr_array_index (m->layers, i), x0, x1, xz);
        fr_lines_push_polyline (self->line_vertices, view, (const double *) xz->data, xz->len / 2,
                                (pass == 0 ? 3.5 : self->fold_tool != NULL ? 1.0 : 1.5) * k,
                                pass == 0 ? interface_halo
                                          : self->fold_tool != NULL ? interface_muted : interface_line);
      }
}

/* Each marker kind: its shape and the radii of its selection halo (in a
 * dark rim 1.5 px wide), dark ring, light ring and fill (logical pixels),
 * drawn in that order. */
typedef struct {
  FrMarkerKind kind;
  FrLineShape shape;
  double radius[4];
  const float *fill;
} MarkerStyle;

static void
push_markers (FrCanvas     *self,
              const FrView *view,
              double        k)
{
  const MarkerStyle styles[] = {
    { FR_MARKER_RECEIVER, FR_LINE_DIAMOND, { 15.0, 11.0, 10.0, 7.5 }, receiver_color },
    { FR_MARKER_SOURCE, FR_LINE_DISC, { 12.5, 9.5, 8.5, 6.5 }, source_color },
  };
  GArray *a = self->line_vertices;
  FrMarkerKind sel_kind;
  guint sel_index = 0;

  sel_kind = fr_scene_get_selection (self->scene, &sel_index);
  for (guint s = 0; s < G_N_ELEMENTS (styles); s++)
    {
      const MarkerStyle *st = &styles[s];
      guint n;
      const FrPoint *pts = fr_scene_get_markers (self->scene, st->kind, &n);

      for (guint i = 0; i < n; i++)
        {
          double x, y;

          fr_view_model_to_widget (view, pts[i].x, pts[i].z, &x, &y);
          if (sel_kind == st->kind && sel_index == i)
            {
              /* The yellow halo in a thin dark rim: over viridis's yellow
               * (the fast end of the map) the halo alone did not show. */
              fr_lines_push_shape (a, st->shape, x, y, (st->radius[0] + 1.5) * k, ring_dark);
              fr_lines_push_shape (a, st->shape, x, y, st->radius[0] * k, select_color);
            }
          fr_lines_push_shape (a, st->shape, x, y, st->radius[1] * k, ring_dark);
          /* A source that does not fire in the shot shown (each source
           * its own shot): a ring of its colour round a dark centre. */
          if (st->kind == FR_MARKER_SOURCE && !fr_scene_source_fires (self->scene, i))
            {
              fr_lines_push_shape (a, st->shape, x, y, st->radius[2] * k, st->fill);
              fr_lines_push_shape (a, st->shape, x, y, st->radius[3] * k * 0.6, ring_dark);
              continue;
            }
          fr_lines_push_shape (a, st->shape, x, y, st->radius[2] * k, ring_light);
          fr_lines_push_shape (a, st->shape, x, y, st->radius[3] * k, st->fill);
        }
    }
}

/* A rectangle in framebuffer pixels: columns [x0, x1), rows [y0, y1)
 * counted from the top, as the widget counts them. */
typedef struct
{
  double x0, y0, x1, y1;
} PixelBox;

/* r (widget pixels) in framebuffer pixels, s of them to a widget pixel,
 * on whole pixels: the same rounding for the plot and the frame keeps
 * the frame exactly one pixel outside the model. */
static PixelBox
pixel_box (const FrRect *r,
           double        s)
{
  return (PixelBox) { round (r->x * s), round (r->y * s),
                      round ((r->x + r->width) * s), round ((r->y + r->height) * s) };
}

/* Clears box, cut to clip, to the current clear colour: a solid rectangle
 * on whole pixels, which is all the frame needs.  fb_height turns rows
 * from the top into GL's rows from the bottom. */
static void
clear_box (PixelBox        box,
           const PixelBox *clip,
           double          fb_height)
{
  box.x0 = MAX (box.x0, clip->x0);
  box.y0 = MAX (box.y0, clip->y0);
  box.x1 = MIN (box.x1, clip->x1);
  box.y1 = MIN (box.y1, clip->y1);
  if (box.x1 <= box.x0 || box.y1 <= box.y0)
    return;
  glScissor ((GLint) box.x0, (GLint) (fb_height - box.y1),
             (GLsizei) (box.x1 - box.x0), (GLsizei) (box.y1 - box.y0));
  glClear (GL_COLOR_BUFFER_BIT);
}

/* The model's cells in widget pixels as x0, y0, x1, y1, for the lines
 * shader's clip of the model's own lines.  Cut to a little beyond the
 * view first: a deep zoom puts its corners where a float no longer
 * holds a pixel. */
static void
model_clip (FrCanvas     *self,
            const FrView *view,
            float         clip[4])
{
  const double far = 1e4;
  FrRect m;

  fr_plot_layout_model_rect (view, self->scene, &m);
  clip[0] = (float) CLAMP (m.x, -far, view->width + far);
  clip[1] = (float) CLAMP (m.y, -far, view->height + far);
  clip[2] = (float) CLAMP (m.x + m.width, -far, view->width + far);
  clip[3] = (float) CLAMP (m.y + m.height, -far, view->height + far);
}

/* The model's frame: a line of about k widget pixels just outside the
 * model's cells, drawn before the rays and markers so that those on the
 * model's edge (sources at z = 0) stay on top of it. */
static void
draw_frame (FrCanvas       *self,
            const FrView   *view,
            double          k,
            double          s,
            const PixelBox *plot,
            double          fb_height)
{
  double px0, py0, px1, py1, t;
  FrRect r;
  PixelBox m;

  fr_plot_layout_model_rect (view, self->scene, &r);
  px0 = r.x, py0 = r.y, px1 = r.x + r.width, py1 = r.y + r.height;
  /* Cut to a little beyond the plot first: a deep zoom puts the model's
   * corners far outside the range of GLint. */
  px0 = CLAMP (px0, -2.0 * k - 1.0, view->width + 2.0 * k + 1.0);
  px1 = CLAMP (px1, -2.0 * k - 1.0, view->width + 2.0 * k + 1.0);
  py0 = CLAMP (py0, -2.0 * k - 1.0, view->height + 2.0 * k + 1.0);
  py1 = CLAMP (py1, -2.0 * k - 1.0, view->height + 2.0 * k + 1.0);
  /* The quad covers the pixels whose centres it contains: round. */
  m = (PixelBox) { round (px0 * s), round (py0 * s), round (px1 * s), round (py1 * s) };
  t = MAX (1.0, round (k * s));

  /* White at 60% over the background, as the frame always was. */
  glClearColor (0.668f, 0.668f, 0.676f, 1.0f);
  clear_box ((PixelBox) { m.x0 - t, m.y0 - t, m.x1 + t, m.y0 }, plot, fb_height);
  clear_box ((PixelBox) { m.x0 - t, m.y1, m.x1 + t, m.y1 + t }, plot, fb_height);
  clear_box ((PixelBox) { m.x0 - t, m.y0, m.x0, m.y1 }, plot, fb_height);
  clear_box ((PixelBox) { m.x1, m.y0, m.x1 + t, m.y1 }, plot, fb_height);
}

/* Draws everything into the bound framebuffer of fb_scale pixels to a
 * logical pixel.  view is in logical pixels; k scales line widths and
 * marker sizes (k > 1 for a larger export), and the plot layout's
 * gutters.  The field stays inside the layout's plot rectangle: the
 * gutters show the background, and the axes (fr-axes-draw.c) go there. */
static void
draw_picture (FrCanvas     *self,
              const FrView *view,
              double        k,
              double        fb_scale)
{
  FrPlotLayout layout;
  PixelBox plot;
  double fb_height = round (view->height * fb_scale);
  gboolean has_time;
  guint runs[3];   /* where each run of line_vertices ends */

  glDisable (GL_SCISSOR_TEST);
  glClearColor (0.17f, 0.17f, 0.19f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT);

  if (self->scene == NULL || !fr_scene_has_model (self->scene))
    return;

  has_time = self->time_valid && result_matches_scene (self);

  if (view == &self->view && k == 1.0)
    fr_canvas_get_plot_layout (self, &layout);
  else
    fr_plot_layout_for_view (&layout, view, self->scene, k);
  plot = pixel_box (&layout.plot, fb_scale);
  glEnable (GL_SCISSOR_TEST);
  draw_frame (self, view, k, fb_scale, &plot, fb_height);
  glScissor ((GLint) plot.x0, (GLint) (fb_height - plot.y1),
             (GLsizei) (plot.x1 - plot.x0), (GLsizei) (plot.y1 - plot.y0));

  /* The field: one quad over the cells. */
  {
    const fr_grid *g = fr_scene_get_grid (self->scene);
    double x0, z0, x1, z1;
    float clip[9], quad[8];
    float vmin, vmax;

    fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
    fr_scene_get_velocity_range (self->scene, &vmin, &vmax);
    /* Relative to the box's corner, so single-precision vertices keep
     * their accuracy far from the origin. */
    fr_view_clip_matrix (view, x0, z0, clip);
    quad[0] = 0.0f;              quad[1] = 0.0f;
    quad[2] = (float) (x1 - x0); quad[3] = 0.0f;
    quad[4] = 0.0f;              quad[5] = (float) (z1 - z0);
    quad[6] = (float) (x1 - x0); quad[7] = (float) (z1 - z0);

    glUseProgram (self->field_program);
    glUniformMatrix3fv (self->u_clip, 1, GL_FALSE, clip);
    glUniform4f (self->u_cells, 0.0f, 0.0f, (float) (x1 - x0), (float) (z1 - z0));
    glUniform2f (self->u_vrange, vmin, vmax);
    {
      fr_grid_texture lay;

      texture_layout (self, g, &lay);
      glUniform2i (self->u_size, (GLint) g->nx, (GLint) g->nz);
      glUniform2i (self->u_stride, lay.stride, lay.stride);
    }
    glUniform1i (self->u_has_time, has_time);
    glUniform1f (self->u_interval, (float) self->interval);
    glUniform1f (self->u_front, self->front_enabled ? (float) self->front_time : -1.0f);
    glUniform1f (self->u_bands, 0.0f);
    if (self->fold_tool != NULL)
      {
        FrFoldState *fs = fr_fold_tool_get_state (self->fold_tool);
        double delta = 0.0;
        int count = 0;

        /* Folds mode: the folded horizons are line geometry, not isochrons;
         * the bands lie between the horizons drawn, not past the last. */
        fr_fold_state_get_levels (fs, &delta, &count);
        glUniform1f (self->u_interval, 0.0f);
        glUniform1f (self->u_front, -1.0f);
        glUniform1f (self->u_bands, fr_fold_state_get_bands (fs) ? (float) delta : 0.0f);
        glUniform1f (self->u_bands_end, (float) (count * delta));
      }

    glActiveTexture (GL_TEXTURE0);
    glBindTexture (GL_TEXTURE_2D, self->tex_velocity);
    glUniform1i (self->u_velocity, 0);
    glActiveTexture (GL_TEXTURE1);
    glBindTexture (GL_TEXTURE_2D, self->tex_time);
    glUniform1i (self->u_time, 1);
    glActiveTexture (GL_TEXTURE2);
    glBindTexture (GL_TEXTURE_2D, self->tex_lut);
    glUniform1i (self->u_lut, 2);

    glBindVertexArray (self->field_vao);
    glBindBuffer (GL_ARRAY_BUFFER, self->field_vbo);
    glBufferData (GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
    glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
    glActiveTexture (GL_TEXTURE0);
  }

  /* The lines, in three runs under the plot's scissor, each with its own
   * clip: the model's own lines (obstacle outlines, interfaces, the folded
   * and starting horizons) cut at the model's edge grown by each line's
   * half width, so that one lying on the edge shows whole; Folds mode's
   * handles, which on the screen stay in the plot, where a node off the
   * model can still be grabbed, and in an export go with their line; the
   * rays and markers in the plot, so that those on the model's edge show
   * whole over its frame, but for Folds mode's characteristics, which may
   * start on a horizon beyond the model and are cut as it is. */
  g_array_set_size (self->line_vertices, 0);
  push_model_outlines (self, view, k);
  if (self->fold_tool != NULL)
    fr_fold_tool_push_lines (self->fold_tool, view, k, has_time ? self->result : NULL,
                             self->line_vertices);
  runs[0] = self->line_vertices->len;
  if (self->fold_tool != NULL)
    fr_fold_tool_push_handles (self->fold_tool, view, k, self->line_vertices);
  runs[1] = self->line_vertices->len;
  if (has_time)
    {
      push_rays (self, view, k, 5.5, ray_halo);
      push_rays (self, view, k, 3.0, ray_color);
    }
  if (self->fold_tool == NULL)
    push_markers (self, view, k);
  runs[2] = self->line_vertices->len;

  if (self->line_vertices->len > 0)
    {
      static const float everywhere[4] = { -1e9f, -1e9f, 1e9f, 1e9f };
      float model[4];
      const float *clip[3] = { model, view == &self->view ? everywhere : model,
                               self->fold_tool != NULL ? model : everywhere };

      model_clip (self, view, model);
      glEnable (GL_BLEND);
      glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
      glUseProgram (self->lines_program);
      glUniform2f (self->u_viewport, (float) view->width, (float) view->height);
      glBindVertexArray (self->lines_vao);
      glBindBuffer (GL_ARRAY_BUFFER, self->lines_vbo);
      glBufferData (GL_ARRAY_BUFFER, sizeof (FrLineVertex) * self->line_vertices->len,
                    self->line_vertices->data, GL_STREAM_DRAW);
      glScissor ((GLint) plot.x0, (GLint) (fb_height - plot.y1),
                 (GLsizei) (plot.x1 - plot.x0), (GLsizei) (plot.y1 - plot.y0));
      for (guint r = 0, first = 0; r < G_N_ELEMENTS (runs); first = runs[r++])
        {
          if (runs[r] == first)
            continue;
          glUniform4fv (self->u_line_clip, 1, clip[r]);
          glDrawArrays (GL_TRIANGLES, (GLint) first, (GLsizei) (runs[r] - first));
        }
      glDisable (GL_BLEND);
    }

  glDisable (GL_SCISSOR_TEST);
  glBindVertexArray (0);
  glUseProgram (0);
}

static void
set_pixel_byte_order (guint8 *dst,
                      const guint8 *rgba)
{
  /* cairo ARGB32 is native-endian premultiplied; the picture is opaque. */
  guint32 px = (255u << 24) | ((guint32) rgba[0] << 16) | ((guint32) rgba[1] << 8) | rgba[2];

  memcpy (dst, &px, 4);
}

static gboolean
return_render_task (gpointer data)
{
  GTask *task = data;
  cairo_surface_t *surface = g_object_get_data (G_OBJECT (task), "surface");

  if (surface != NULL)
    g_task_return_pointer (task, cairo_surface_reference (surface),
                           (GDestroyNotify) cairo_surface_destroy);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                             "%s", (const char *) g_object_get_data (G_OBJECT (task), "error"));
  return G_SOURCE_REMOVE;
}

/* Renders the picture at width × height into an offscreen framebuffer
 * and hands the pixels to the task.  Called inside render only. */
static void
render_offscreen (FrCanvas *self,
                  GTask    *task)
{
  RenderRequest *req = g_task_get_task_data (task);
  GLint max_size = 0;
  GLuint fbo = 0, rb = 0;
  g_autofree guint8 *pixels = NULL;
  cairo_surface_t *surface;
  FrView view;
  guint8 *dst;
  int stride;

  glGetIntegerv (GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (req->width > max_size || req->height > max_size)
    {
      g_object_set_data_full (G_OBJECT (task), "error",
                              g_strdup_printf (_("The picture may be at most %d pixels wide and high"),
                                               max_size),
                              g_free);
      g_idle_add_full (G_PRIORITY_DEFAULT, return_render_task, g_object_ref (task), g_object_unref);
      return;
    }

  glGenFramebuffers (1, &fbo);
  glGenRenderbuffers (1, &rb);
  glBindRenderbuffer (GL_RENDERBUFFER, rb);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, req->width, req->height);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);

  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE)
    {
      view = fr_view_scaled (&self->view, req->width, req->height);
      glViewport (0, 0, req->width, req->height);
      draw_picture (self, &view, req->width / self->view.width, 1.0);
      pixels = g_malloc ((gsize) req->width * req->height * 4);
      glPixelStorei (GL_PACK_ALIGNMENT, 1);
      glReadPixels (0, 0, req->width, req->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    }

  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glDeleteRenderbuffers (1, &rb);
  glDeleteFramebuffers (1, &fbo);
  /* Give the GL area its own framebuffer back. */
  gtk_gl_area_attach_buffers (GTK_GL_AREA (self));

  if (pixels == NULL)
    {
      g_object_set_data_full (G_OBJECT (task), "error",
                              g_strdup (_("Could not create an offscreen framebuffer")), g_free);
      g_idle_add_full (G_PRIORITY_DEFAULT, return_render_task, g_object_ref (task), g_object_unref);
      return;
    }

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, req->width, req->height);
  dst = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  cairo_surface_flush (surface);
  /* GL rows run bottom-up. */
  for (int y = 0; y < req->height; y++)
    {
      const guint8 *src = pixels + (gsize) (req->height - 1 - y) * req->width * 4;

      for (int x = 0; x < req->width; x++)
        set_pixel_byte_order (dst + (gsize) y * stride + 4 * x, src + 4 * x);
    }
  cairo_surface_mark_dirty (surface);
  g_object_set_data_full (G_OBJECT (task), "surface", surface,
                          (GDestroyNotify) cairo_surface_destroy);
  g_idle_add_full (G_PRIORITY_DEFAULT, return_render_task, g_object_ref (task), g_object_unref);
}

static void
drawn_frame_free (gpointer data)
{
  DrawnFrame *df = data;

  fr_result_unref (df->result);
  g_free (df);
}

/* Announces drawn frames outside render, so handlers may queue renders
 * (a queue_render inside render is lost) or start exports. */
static gboolean
announce_frames_cb (gpointer data)
{
  FrCanvas *self = data;
  DrawnFrame *df;

  self->drawn_idle_id = 0;
  while ((df = g_queue_pop_head (&self->drawn)) != NULL)
    {
      g_signal_emit (self, signals[FRAME_DRAWN], 0, df->result, df->time);
      drawn_frame_free (df);
    }
  return G_SOURCE_REMOVE;
}

/* --------------------------------------------------------------- view state */

/* Shows the whole model, clear of the gutters that hold the axes and
 * colour bar, and keeps showing it whole through resizes until the user
 * zooms or pans. */
static void
fit_view (FrCanvas *self)
{
  self->view_fitted = TRUE;
  if (self->scene != NULL)
    fr_plot_layout_fit_view (&self->view, self->scene, 1.0);
}

/* Whether the widget point (px, py) lies on the plot: the gutters around
 * it hold axes and the colour bar, not the model, so they show no model
 * point to read or to click on. */
static gboolean
in_plot (FrCanvas *self,
         double    px,
         double    py)
{
  FrPlotLayout layout;

  fr_canvas_get_plot_layout (self, &layout);
  return fr_rect_contains (&layout.plot, px, py);
}

/* Whether (px, py) lies on the model or within PICK_RADIUS_PX of it: a
 * click just beyond an edge (a receiver on the surface) lands on the edge;
 * one on the empty space around the model (where a drag pans) is no click
 * on the model. */
static gboolean
near_model (FrCanvas *self,
            double    px,
            double    py)
{
  double x, z, x0, z0, x1, z1, slack;

  if (self->scene == NULL || !fr_scene_has_model (self->scene))
    return FALSE;
  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  fr_view_widget_to_model (&self->view, px, py, &x, &z);
  slack = PICK_RADIUS_PX / self->view.scale;
  return x >= x0 - slack && x <= x1 + slack && z >= z0 - slack && z <= z1 + slack;
}

/* Announces the model point under the pointer again: what the readout
 * shows there (T, v) changes with the result, the model and the view, not
 * only when the pointer moves. */
static void
emit_cursor (FrCanvas *self)
{
  double mx, mz;

  if (!self->pointer_inside)
    return;
  fr_view_widget_to_model (&self->view, self->pointer_x, self->pointer_y, &mx, &mz);
  g_signal_emit (self, signals[CURSOR_MOVED], 0, mx, mz,
                 in_plot (self, self->pointer_x, self->pointer_y));
}

/* The colour bar must show the range the field is coloured by, which
 * follows every edit of the velocities. */
static void
check_range (FrCanvas *self)
{
  float vmin = 0.0f, vmax = 0.0f;

  if (self->scene != NULL && fr_scene_has_model (self->scene))
    fr_scene_get_velocity_range (self->scene, &vmin, &vmax);
  if (vmin == self->range_min && vmax == self->range_max)
    return;
  self->range_min = vmin;
  self->range_max = vmax;
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
}

static void
view_changed (FrCanvas *self)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
  emit_cursor (self);
}

/* The user moved the view: resizes keep it from now on. */
static void
view_moved (FrCanvas *self)
{
  self->view_fitted = FALSE;
  view_changed (self);
}

static void
scene_changed_cb (FrCanvas *self,
                  guint     what,
                  FrScene  *scene)
{
  if (what & FR_SCENE_CHANGED_MODEL)
    {
      self->velocity_dirty = TRUE;
      g_clear_pointer (&self->result, fr_result_unref);
      g_clear_pointer (&self->uploaded, fr_result_unref);
      self->time_valid = FALSE;
      /* A new model is shown whole, now or at the first size. */
      self->view_fitted = TRUE;
      if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
        fit_view (self);
      g_signal_emit (self, signals[VIEW_CHANGED], 0);
    }
  /* A drawn model edited: new values on the same grid; the last result
   * stays until the next one replaces it. */
  if (what & FR_SCENE_CHANGED_VELOCITY)
    self->velocity_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_VELOCITY))
    {
      check_range (self);
      emit_cursor (self);
    }
}

/* ----------------------------------------------------------- GtkGLArea vfuncs */

static void
fr_canvas_realize (GtkWidget *widget)
{
  FrCanvas *self = FR_CANVAS (widget);
  static const char * const field_attrs[] = { "a_pos", NULL };
  static const char * const lines_attrs[] = { "a_pos", "a_shape", "a_color", "a_reach", NULL };
  GdkGLContext *context;
  g_autoptr(GError) error = NULL;
  const char *header;

  GTK_WIDGET_CLASS (fr_canvas_parent_class)->realize (widget);

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    return;

  context = gtk_gl_area_get_context (GTK_GL_AREA (self));
  header = fr_gl_shader_header (gdk_gl_context_get_use_es (context));

  self->field_program = link_program (header, "/org/foldray/Foldray/shaders/field.vert.glsl",
                                      "/org/foldray/Foldray/shaders/field.frag.glsl",
                                      field_attrs, &error);
  if (self->field_program != 0)
    self->lines_program = link_program (header, "/org/foldray/Foldray/shaders/lines.vert.glsl",
                                        "/org/foldray/Foldray/shaders/lines.frag.glsl",
                                        lines_attrs, &error);
  if (error != NULL)
    {
      gtk_gl_area_set_error (GTK_GL_AREA (self), error);
      return;
    }

  self->u_clip = glGetUniformLocation (self->field_program, "u_clip");
  self->u_cells = glGetUniformLocation (self->field_program, "u_cells");
  self->u_velocity = glGetUniformLocation (self->field_program, "u_velocity");
  self->u_time = glGetUniformLocation (self->field_program, "u_time");
  self->u_lut = glGetUniformLocation (self->field_program, "u_lut");
  self->u_vrange = glGetUniformLocation (self->field_program, "u_vrange");
  self->u_size = glGetUniformLocation (self->field_program, "u_size");
  self->u_stride = glGetUniformLocation (self->field_program, "u_stride");
  self->u_has_time = glGetUniformLocation (self->field_program, "u_has_time");
  self->u_interval = glGetUniformLocation (self->field_program, "u_interval");
  self->u_front = glGetUniformLocation (self->field_program, "u_front");
  self->u_viewport = glGetUniformLocation (self->lines_program, "u_viewport");
  self->u_line_clip = glGetUniformLocation (self->lines_program, "u_clip");
  self->u_bands = glGetUniformLocation (self->field_program, "u_bands");
  self->u_bands_end = glGetUniformLocation (self->field_program, "u_bands_end");

  glGenVertexArrays (1, &self->field_vao);
  glBindVertexArray (self->field_vao);
  glGenBuffers (1, &self->field_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->field_vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof (float), NULL);

  glGenVertexArrays (1, &self->lines_vao);
  glBindVertexArray (self->lines_vao);
  glGenBuffers (1, &self->lines_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->lines_vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 2, GL_FLOAT, GL_FALSE, sizeof (FrLineVertex),
                         (void *) G_STRUCT_OFFSET (FrLineVertex, pos));
  glEnableVertexAttribArray (1);
  glVertexAttribPointer (1, 4, GL_FLOAT, GL_FALSE, sizeof (FrLineVertex),
                         (void *) G_STRUCT_OFFSET (FrLineVertex, shape));
  glEnableVertexAttribArray (2);
  glVertexAttribPointer (2, 4, GL_FLOAT, GL_FALSE, sizeof (FrLineVertex),
                         (void *) G_STRUCT_OFFSET (FrLineVertex, color));
  glEnableVertexAttribArray (3);
  glVertexAttribPointer (3, 1, GL_FLOAT, GL_FALSE, sizeof (FrLineVertex),
                         (void *) G_STRUCT_OFFSET (FrLineVertex, reach));
  glBindVertexArray (0);

  /* Velocity is one value per cell: nearest.  T is interpolated by hand in
   * the shader.  The colour map may be filtered. */
  self->tex_velocity = new_texture (GL_NEAREST);
  self->tex_time = new_texture (GL_NEAREST);
  self->tex_lut = new_texture (GL_LINEAR);
  self->time_width = self->time_height = 0;
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &self->max_texture);

  self->velocity_dirty = TRUE;
  self->time_dirty = TRUE;
  self->lut_dirty = TRUE;
  self->gl_ready = TRUE;
}

static void
fr_canvas_unrealize (GtkWidget *widget)
{
  FrCanvas *self = FR_CANVAS (widget);

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) == NULL)
    {
      if (self->field_program != 0)
        glDeleteProgram (self->field_program);
      if (self->lines_program != 0)
        glDeleteProgram (self->lines_program);
      if (self->field_vbo != 0)
        glDeleteBuffers (1, &self->field_vbo);
      if (self->lines_vbo != 0)
        glDeleteBuffers (1, &self->lines_vbo);
      if (self->field_vao != 0)
        glDeleteVertexArrays (1, &self->field_vao);
      if (self->lines_vao != 0)
        glDeleteVertexArrays (1, &self->lines_vao);
      if (self->tex_velocity != 0)
        glDeleteTextures (1, &self->tex_velocity);
      if (self->tex_time != 0)
        glDeleteTextures (1, &self->tex_time);
      if (self->tex_lut != 0)
        glDeleteTextures (1, &self->tex_lut);
#ifdef FR_HAVE_GL_INTEROP
      g_clear_pointer (&self->interop, fr_gl_interop_free);
#endif
    }
#ifdef FR_HAVE_GL_INTEROP
  /* Without a usable context there is nothing to release it with. */
  self->interop = NULL;
  self->interop_off = FALSE;
#endif
  self->field_program = self->lines_program = 0;
  self->field_vbo = self->lines_vbo = self->field_vao = self->lines_vao = 0;
  self->tex_velocity = self->tex_time = self->tex_lut = 0;
  self->time_width = self->time_height = 0;
  self->time_valid = FALSE;
  g_clear_pointer (&self->uploaded, fr_result_unref);
  self->gl_ready = FALSE;

  GTK_WIDGET_CLASS (fr_canvas_parent_class)->unrealize (widget);
}

static gboolean
fr_canvas_render (GtkGLArea    *area,
                  GdkGLContext *context)
{
  FrCanvas *self = FR_CANVAS (area);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  gboolean new_result = FALSE;
  GTask *task;


  if (gtk_gl_area_get_error (area) != NULL || !self->gl_ready)
    return FALSE;

  if (self->scene != NULL && fr_scene_has_model (self->scene))
    {
      if (self->velocity_dirty)
        {
          upload_velocity_texture (self);
          self->velocity_dirty = FALSE;
        }
      if (self->time_dirty)
        {
          if (result_matches_scene (self))
            {
              if (!self->time_valid || self->uploaded == NULL ||
                  self->uploaded->time != self->result->time)
                {
                  upload_time_texture (self, &self->result->job->grid, self->result->time,
                                       self->result->device_time);
                  self->time_uploads++;
                }
              g_clear_pointer (&self->uploaded, fr_result_unref);
              self->uploaded = fr_result_ref (self->result);
              self->time_valid = TRUE;
            }
          self->time_dirty = FALSE;
        }
    }
  if (self->lut_dirty)
    {
      upload_lut_texture (self);
      self->lut_dirty = FALSE;
    }

  self->render_start = g_get_monotonic_time ();
  glViewport (0, 0, width * scale, height * scale);
  draw_picture (self, &self->view, 1.0, scale);

  if (self->result != NULL && self->result->serial != self->drawn_serial)
    {
      /* First frame showing this result: wait for the pixels, then stamp
       * the time (input-to-frame latency is measured against this). */
      glFinish ();
      self->drawn_serial = self->result->serial;
      new_result = TRUE;
    }

  while ((task = g_queue_pop_head (&self->render_tasks)) != NULL)
    {
      render_offscreen (self, task);
      g_object_unref (task);
    }

  if (new_result)
    {
      DrawnFrame *df = g_new0 (DrawnFrame, 1);

      df->result = fr_result_ref (self->result);
      df->time = g_get_monotonic_time ();
      g_debug ("frame for job %u: render %.1f ms", df->result->serial,
               (df->time - self->render_start) / 1000.0);
      g_queue_push_tail (&self->drawn, df);
      if (self->drawn_idle_id == 0)
        self->drawn_idle_id = g_idle_add_full (G_PRIORITY_HIGH, announce_frames_cb, self, NULL);
    }

  return TRUE;
}

static void
fr_canvas_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  FrCanvas *self = FR_CANVAS (widget);

  GTK_WIDGET_CLASS (fr_canvas_parent_class)->size_allocate (widget, width, height, baseline);

  if (width != (int) self->view.width || height != (int) self->view.height)
    {
      /* Keeps the model point at the centre and the scale, unless the
       * view is still the fit: then it fits the new size. */
      fr_view_set_size (&self->view, width, height);
      if (self->view_fitted)
        fit_view (self);
      g_signal_emit (self, signals[VIEW_CHANGED], 0);
    }
}

/* ----------------------------------------------------------------- GObject */

static void
fr_canvas_dispose (GObject *object)
{
  FrCanvas *self = (FrCanvas *)object;
  GTask *task;

  while ((task = g_queue_pop_head (&self->render_tasks)) != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                               _("The canvas was closed"));
      g_object_unref (task);
    }
  g_clear_handle_id (&self->drawn_idle_id, g_source_remove);
  g_queue_clear_full (&self->drawn, drawn_frame_free);
  g_clear_object (&self->scene);
  g_clear_object (&self->fold_tool);
  g_clear_pointer (&self->result, fr_result_unref);
  g_clear_pointer (&self->uploaded, fr_result_unref);
  g_clear_pointer (&self->line_vertices, g_array_unref);

  G_OBJECT_CLASS (fr_canvas_parent_class)->dispose (object);
}

static void
fr_canvas_class_init (FrCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkGLAreaClass *area_class = GTK_GL_AREA_CLASS (klass);

  object_class->dispose = fr_canvas_dispose;

  widget_class->realize = fr_canvas_realize;
  widget_class->unrealize = fr_canvas_unrealize;
  widget_class->size_allocate = fr_canvas_size_allocate;

  area_class->render = fr_canvas_render;

  /**
   * FrCanvas::frame-drawn:
   * @result: the result the frame first showed
   * @time: g_get_monotonic_time when that frame had finished drawing
   *
   * Emitted soon after the first frame showing a new result has finished
   * drawing (after glFinish), for latency measurements.
   */
  signals[FRAME_DRAWN] =
    g_signal_new ("frame-drawn", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  FR_TYPE_RESULT | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_INT64);

  signals[VIEW_CHANGED] =
    g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * FrCanvas::cursor-moved:
   * @x: model x under the pointer
   * @z: model z under the pointer
   * @inside: FALSE when the pointer left the canvas
   */
  signals[CURSOR_MOVED] =
    g_signal_new ("cursor-moved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_BOOLEAN);

  /**
   * FrCanvas::range-changed:
   *
   * The velocity range the field is coloured by changed (the colour bar's
   * labels must follow).
   */
  signals[RANGE_CHANGED] =
    g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "frcanvas");
}

/* ---------------------------------------------------------------- callbacks */

/* Moves the view by steps of a tenth of the plot (the keys): +steps_x
 * shows what lies right of it, +steps_z what lies below. */
static void
pan_steps (FrCanvas *self,
           int       steps_x,
           int       steps_z)
{
  FrPlotLayout layout;

  fr_canvas_get_plot_layout (self, &layout);
  self->view.cx += 0.1 * steps_x * layout.plot.width / self->view.scale;
  self->view.cz += 0.1 * steps_z * layout.plot.height / self->view.scale;
  view_moved (self);
}

/* With the canvas focused (it is at start, and after a click on it), the
 * arrow keys pan it a step a press.  (Ctrl+arrows stay GtkWindow's: they
 * move the focus.)  Escape during a drag puts back what is dragged: in
 * Rays mode the window's Escape (win.edit-model('off')) does, first; in
 * Folds mode, where that action is off, it comes here. */
static gboolean
key_pressed_cb (FrCanvas              *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  if ((state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      pan_steps (self, -1, 0);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      pan_steps (self, 1, 0);
      return TRUE;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      pan_steps (self, 0, -1);
      return TRUE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      pan_steps (self, 0, 1);
      return TRUE;
    case GDK_KEY_Escape:
      return fr_canvas_cancel_drag (self);
    default:
      return FALSE;
    }
}

static void
drag_begin_cb (FrCanvas       *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state;

  self->drag_button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->drag_shift = (state & GDK_SHIFT_MASK) != 0;
  self->drag_x = x;
  self->drag_y = y;
  gtk_widget_grab_focus (GTK_WIDGET (self));

  /* A press in a gutter is not on the model: it picks nothing and keeps
   * the selection (fr_canvas_begin_drag_at refuses it); a drag from
   * there still pans. */
  if (self->drag_button == GDK_BUTTON_PRIMARY && !self->drag_shift &&
      fr_canvas_begin_drag_at (self, x, y))
    return;

  if (self->drag_mode == DRAG_TOOL)
    return;
  if (self->drag_button == GDK_BUTTON_PRIMARY)
    self->drag_mode = DRAG_PENDING;
  else
    {
      self->drag_mode = DRAG_PAN;
      self->pan_cx = self->view.cx;
      self->pan_cz = self->view.cz;
    }
}

static void
drag_update_cb (FrCanvas       *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  switch (self->drag_mode)
    {
    case DRAG_MARKER:
    case DRAG_TOOL:
      fr_canvas_drag_to (self, self->drag_x + dx, self->drag_y + dy);
      break;

    case DRAG_PENDING:
      if (hypot (dx, dy) < CLICK_SLOP_PX)
        break;
      self->drag_mode = DRAG_PAN;
      self->pan_cx = self->view.cx;
      self->pan_cz = self->view.cz;
      G_GNUC_FALLTHROUGH;

    case DRAG_PAN:
      self->view.cx = self->pan_cx - dx / self->view.scale;
      self->view.cz = self->pan_cz - dy / self->view.scale;
      view_moved (self);
      break;

    case DRAG_NONE:
    default:
      break;
    }
}

static void
drag_end_cb (FrCanvas       *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  switch (self->drag_mode)
    {
    case DRAG_MARKER:
    case DRAG_TOOL:
      fr_canvas_drag_to (self, self->drag_x + dx, self->drag_y + dy);
      fr_canvas_end_drag (self);
      break;

    case DRAG_PENDING:
      if (!in_plot (self, self->drag_x, self->drag_y) ||
          !near_model (self, self->drag_x, self->drag_y))
        break;
      if (self->fold_tool != NULL)
        {
          self->input_seq++;
          fr_fold_tool_click (self->fold_tool, &self->view, self->drag_x, self->drag_y,
                              self->drag_shift);
        }
      else if (self->scene != NULL && fr_scene_has_model (self->scene))
        {
          double x, z;

          fr_view_widget_to_model (&self->view, self->drag_x, self->drag_y, &x, &z);
          self->input_seq++;
          fr_scene_add_marker (self->scene,
                               self->drag_shift ? FR_MARKER_RECEIVER : FR_MARKER_SOURCE,
                               x, z);
        }
      break;

    case DRAG_PAN:
    case DRAG_NONE:
    default:
      break;
    }
  self->drag_mode = DRAG_NONE;
}

static void
motion_cb (FrCanvas                 *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  double mx, mz;

  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
  fr_view_widget_to_model (&self->view, x, y, &mx, &mz);
  g_signal_emit (self, signals[CURSOR_MOVED], 0, mx, mz, in_plot (self, x, y));
}

static void
leave_cb (FrCanvas                 *self,
          GtkEventControllerMotion *controller)
{
  self->pointer_inside = FALSE;
  g_signal_emit (self, signals[CURSOR_MOVED], 0, 0.0, 0.0, FALSE);
}

static gboolean
scroll_cb (FrCanvas                 *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  if (dy == 0.0)
    return FALSE;
  fr_view_zoom_at (&self->view, self->pointer_x, self->pointer_y, pow (1.15, -dy));
  view_moved (self);
  return TRUE;
}

static void
zoom_begin_cb (FrCanvas       *self,
               GdkEventSequence *sequence,
               GtkGesture     *gesture)
{
  self->pinch_scale = 1.0;
}

static void
zoom_scale_changed_cb (FrCanvas       *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  double cx, cy;

  if (!(scale > 0.0) || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  fr_view_zoom_at (&self->view, cx, cy, scale / self->pinch_scale);
  self->pinch_scale = scale;
  view_moved (self);
}

static void
fr_canvas_init (FrCanvas *self)
{
  GtkGesture *drag;
  GtkGesture *zoom;
  GtkEventController *motion;
  GtkEventController *scroll;
  GtkEventController *keys;

  fr_view_init (&self->view);
  self->view_fitted = TRUE;
  self->colormap = FR_COLORMAP_VIRIDIS;
  self->interval = 0.05;
  self->line_vertices = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  g_queue_init (&self->render_tasks);
  g_queue_init (&self->drawn);

  /* GLES needs the version asked for explicitly; desktop GL still gets a
   * 3.2+ core context. */
  gtk_gl_area_set_required_version (GTK_GL_AREA (self), 3, 0);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 150);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect_swapped (zoom, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (zoom));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  keys = gtk_event_controller_key_new ();
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

/* --------------------------------------------------------------- public API */

GtkWidget *
fr_canvas_new (void)
{
  return g_object_new (FR_TYPE_CANVAS, NULL);
}

/* Shows scene (the canvas keeps a reference and follows its changes). */
void
fr_canvas_set_scene (FrCanvas *self,
                     FrScene  *scene)
{
  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (scene == NULL || FR_IS_SCENE (scene));

  if (self->scene == scene)
    return;
  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_func (self->scene, scene_changed_cb, self);
  g_set_object (&self->scene, scene);
  if (scene != NULL)
    g_signal_connect_object (scene, "changed", G_CALLBACK (scene_changed_cb), self,
                             G_CONNECT_SWAPPED);
  scene_changed_cb (self, FR_SCENE_CHANGED_MODEL, scene);
}

FrScene *
fr_canvas_get_scene (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), NULL);
  return self->scene;
}

/* Draws result from the next frame on; the texture upload happens in
 * render. */
void
fr_canvas_set_result (FrCanvas *self,
                      FrResult *result)
{
  g_return_if_fail (FR_IS_CANVAS (self));

  if (result != NULL)
    fr_result_ref (result);
  g_clear_pointer (&self->result, fr_result_unref);
  self->result = result;
  self->time_dirty = TRUE;
  if (result == NULL)
    {
      self->time_valid = FALSE;
      g_clear_pointer (&self->uploaded, fr_result_unref);
    }
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  emit_cursor (self);
}

FrResult *
fr_canvas_get_result (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), NULL);
  return self->result;
}

void
fr_canvas_set_colormap (FrCanvas   *self,
                        FrColormap  colormap)
{
  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (colormap < FR_N_COLORMAPS);

  if (self->colormap == colormap)
    return;
  self->colormap = colormap;
  self->lut_dirty = TRUE;
  view_changed (self);
}

FrColormap
fr_canvas_get_colormap (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), FR_COLORMAP_VIRIDIS);
  return self->colormap;
}

/* The time between isochrons; 0 hides them. */
void
fr_canvas_set_interval (FrCanvas *self,
                        double    interval)
{
  g_return_if_fail (FR_IS_CANVAS (self));

  self->interval = MAX (interval, 0.0);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* Shades everything the wave has not reached by time. */
void
fr_canvas_set_front (FrCanvas *self,
                     gboolean  enabled,
                     double    time)
{
  g_return_if_fail (FR_IS_CANVAS (self));

  self->front_enabled = enabled;
  self->front_time = MAX (time, 0.0);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

const FrView *
fr_canvas_get_view (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), NULL);
  return &self->view;
}

/* The plot layout of the picture on screen (fr_plot_layout_for_view for
 * the canvas's view and scene): where the field, and whatever is drawn
 * over it, goes. */
void
fr_canvas_get_plot_layout (FrCanvas     *self,
                           FrPlotLayout *layout)
{
  double b[4] = { 0.0, 0.0, 0.0, 0.0 };
  const FrView *v = &self->view, *c = &self->layout_view;

  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (layout != NULL);

  if (self->scene != NULL && fr_scene_has_model (self->scene))
    fr_scene_get_bounds (self->scene, &b[0], &b[1], &b[2], &b[3]);
  if (!self->layout_valid || v->width != c->width || v->height != c->height ||
      v->scale != c->scale || v->cx != c->cx || v->cz != c->cz ||
      memcmp (b, self->layout_bounds, sizeof b) != 0)
    {
      fr_plot_layout_for_view (&self->layout, v, self->scene, 1.0);
      self->layout_view = *v;
      memcpy (self->layout_bounds, b, sizeof b);
      self->layout_valid = TRUE;
    }
  *layout = self->layout;
}

/* Whether the view is still the fit (no zoom or pan since): a scene saved
 * then keeps no view of its own, and opens fitted to the window it opens
 * in. */
gboolean
fr_canvas_get_view_fitted (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), FALSE);
  return self->view_fitted;
}

/* Shows the model point (cx, cz) at the centre at scale pixels per model
 * unit: a saved view coming back.  Resizes then keep it, as after a zoom. */
void
fr_canvas_set_view (FrCanvas *self,
                    double    cx,
                    double    cz,
                    double    scale)
{
  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (isfinite (cx) && isfinite (cz) && isfinite (scale) && scale > 0.0);

  self->view.cx = cx;
  self->view.cz = cz;
  self->view.scale = CLAMP (scale, FR_VIEW_MIN_SCALE, FR_VIEW_MAX_SCALE);
  view_moved (self);
}

/* Shows the whole model, and keeps it whole through resizes until the
 * user zooms or pans. */
void
fr_canvas_zoom_fit (FrCanvas *self)
{
  g_return_if_fail (FR_IS_CANVAS (self));

  fit_view (self);
  view_changed (self);
}

/* Zooms about the middle of the part of the model the plot shows (the
 * keys; the wheel zooms about the pointer). */
void
fr_canvas_zoom_by (FrCanvas *self,
                   double    factor)
{
  FrPlotLayout layout;
  double px, py, x0, z0, x1, z1, ax, ay, bx, by;

  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (factor > 0.0);

  /* About the middle of what the plot shows of the model: the widget's
   * middle lies below a fitted model (it hangs from the top), so keyboard
   * zooms pushed the model out of the plot, and nothing pans it back. */
  fr_canvas_get_plot_layout (self, &layout);
  px = layout.plot.x + 0.5 * layout.plot.width;
  py = layout.plot.y + 0.5 * layout.plot.height;
  if (self->scene != NULL && fr_scene_has_model (self->scene))
    {
      fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
      fr_view_model_to_widget (&self->view, x0, z0, &ax, &ay);
      fr_view_model_to_widget (&self->view, x1, z1, &bx, &by);
      ax = MAX (ax, layout.plot.x);
      ay = MAX (ay, layout.plot.y);
      bx = MIN (bx, layout.plot.x + layout.plot.width);
      by = MIN (by, layout.plot.y + layout.plot.height);
      if (ax < bx && ay < by)
        {
          px = 0.5 * (ax + bx);
          py = 0.5 * (ay + by);
        }
    }
  fr_view_zoom_at (&self->view, px, py, factor);
  view_moved (self);
}

/* The traveltime at (x, z) of the result shown (fr_result_time_at).
 * FALSE outside the grid, where unreached, or without a result. */
gboolean
fr_canvas_time_at (FrCanvas *self,
                   double    x,
                   double    z,
                   double   *t)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), FALSE);
  g_return_val_if_fail (t != NULL, FALSE);

  return result_matches_scene (self) && fr_result_time_at (self->result, x, z, t);
}

/* Starts dragging the marker under (px, py) widget pixels, selecting it.
 * FALSE when there is none (a press on the model's empty space clears the
 * selection; one in a gutter leaves it).  The pointer gesture and the
 * interaction benchmark both come through here. */
gboolean
fr_canvas_begin_drag_at (FrCanvas *self,
                         double    px,
                         double    py)
{
  FrMarkerKind kind;
  guint index;
  double x, z;

  g_return_val_if_fail (FR_IS_CANVAS (self), FALSE);

  /* The gutters hide what lies under them: nothing there to grab, and a
   * press there is no click on empty model space either. */
  if (self->scene == NULL || !in_plot (self, px, py))
    return FALSE;
  if (self->fold_tool != NULL)
    {
      if (!fr_fold_tool_press (self->fold_tool, &self->view, px, py))
        return FALSE;
      self->drag_mode = DRAG_TOOL;
      self->drag_x = px;
      self->drag_y = py;
      return TRUE;
    }
  fr_view_widget_to_model (&self->view, px, py, &x, &z);
  if (!fr_scene_pick (self->scene, x, z, PICK_RADIUS_PX / self->view.scale, &kind, &index))
    {
      fr_scene_select (self->scene, FR_MARKER_NONE, 0);
      return FALSE;
    }
  fr_scene_select (self->scene, kind, index);
  fr_scene_begin_edit (self->scene);
  self->drag_mode = DRAG_MARKER;
  self->drag_kind = kind;
  self->drag_index = index;
  self->drag_x = px;
  self->drag_y = py;
  return TRUE;
}

/* Moves the dragged marker to (px, py); the scene's "changed" starts the
 * solve.  Each call is one input event for latency accounting. */
void
fr_canvas_drag_to (FrCanvas *self,
                   double    px,
                   double    py)
{
  double x, z;

  g_return_if_fail (FR_IS_CANVAS (self));

  if (self->drag_mode == DRAG_TOOL)
    {
      self->input_seq++;
      fr_fold_tool_drag (self->fold_tool, &self->view, px, py);
      gtk_gl_area_queue_render (GTK_GL_AREA (self));
      return;
    }
  if (self->drag_mode != DRAG_MARKER || self->scene == NULL)
    return;
  fr_view_widget_to_model (&self->view, px, py, &x, &z);
  self->input_seq++;
  fr_scene_move_marker (self->scene, self->drag_kind, self->drag_index, x, z);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* Ends a marker drag, recording one undo step for the whole move. */
void
fr_canvas_end_drag (FrCanvas *self)
{
  g_return_if_fail (FR_IS_CANVAS (self));

  if (self->drag_mode == DRAG_TOOL)
    {
      self->drag_mode = DRAG_NONE;
      fr_fold_tool_release (self->fold_tool);
      return;
    }
  if (self->drag_mode != DRAG_MARKER)
    return;
  self->drag_mode = DRAG_NONE;
  fr_scene_end_edit (self->scene, self->drag_kind == FR_MARKER_SOURCE
                                    ? _("Move Source") : _("Move Receiver"));
}

/* Escape during a marker drag: the drag's edit is cancelled
 * (fr_scene_cancel_edit, as the model editor's drags are), so the marker
 * goes back to where the drag found it, still selected, and the rest of
 * the drag moves nothing; no undo step.  In Folds mode the same for the
 * fold tool's handle (fr_fold_tool_cancel).  FALSE when nothing was being
 * dragged. */
gboolean
fr_canvas_cancel_drag (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), FALSE);

  if (self->drag_mode == DRAG_TOOL)
    {
      if (!fr_fold_tool_cancel (self->fold_tool))
        return FALSE;
      self->drag_mode = DRAG_NONE;
      self->input_seq++;
      gtk_gl_area_queue_render (GTK_GL_AREA (self));
      return TRUE;
    }
  if (self->drag_mode != DRAG_MARKER || self->scene == NULL
      || !fr_scene_cancel_edit (self->scene))
    return FALSE;
  self->drag_mode = DRAG_NONE;
  self->input_seq++;
  fr_scene_select (self->scene, self->drag_kind, self->drag_index);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  return TRUE;
}

gboolean
fr_canvas_is_dragging (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), FALSE);
  return self->drag_mode == DRAG_MARKER || self->drag_mode == DRAG_TOOL;
}

/* Folds mode: the pointer goes to tool, which also draws the horizons and
 * the ψa arrow; NULL returns to Rays mode (markers). */
void
fr_canvas_set_fold_tool (FrCanvas   *self,
                         FrFoldTool *tool)
{
  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (tool == NULL || FR_IS_FOLD_TOOL (tool));

  if (self->fold_tool == tool)
    return;
  if (self->drag_mode == DRAG_TOOL || self->drag_mode == DRAG_MARKER)
    fr_canvas_end_drag (self);
  if (self->fold_tool != NULL)
    g_signal_handlers_disconnect_by_data (fr_fold_tool_get_state (self->fold_tool), self);
  g_set_object (&self->fold_tool, tool);
  if (tool != NULL)
    g_signal_connect_object (fr_fold_tool_get_state (tool), "changed",
                             G_CALLBACK (gtk_gl_area_queue_render), self, G_CONNECT_SWAPPED);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

FrFoldTool *
fr_canvas_get_fold_tool (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), NULL);
  return self->fold_tool;
}

/* How many times T went to the time texture: a result that shares the T
 * shown (a solve kept, a fold contoured again) adds none. */
guint
fr_canvas_get_time_uploads (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), 0);
  return self->time_uploads;
}

/* A counter of the input events that changed the scene; jobs carry it so
 * a drawn frame can be traced back to the events it answers. */
guint64
fr_canvas_get_input_seq (FrCanvas *self)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), 0);
  return self->input_seq;
}

/* Renders the picture (without overlays) at width × height pixels in the
 * next frame, into a cairo image surface. */
void
fr_canvas_render_async (FrCanvas            *self,
                        int                  width,
                        int                  height,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  RenderRequest *req;

  g_return_if_fail (FR_IS_CANVAS (self));
  g_return_if_fail (width > 0 && height > 0);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fr_canvas_render_async);
  if (!gtk_widget_get_realized (GTK_WIDGET (self)) || !self->gl_ready)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "%s",
                               _("The canvas has no OpenGL context"));
      return;
    }
  req = g_new0 (RenderRequest, 1);
  req->width = width;
  req->height = height;
  g_task_set_task_data (task, req, g_free);
  g_queue_push_tail (&self->render_tasks, g_steal_pointer (&task));
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

cairo_surface_t *
fr_canvas_render_finish (FrCanvas      *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (FR_IS_CANVAS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
