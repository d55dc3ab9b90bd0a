/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scene files: JSON of format "foldray-scene", version 1, holding the
 * model (grid, background reference, layers, obstacles), sources,
 * receivers, solver settings, view and display settings.  GLib and
 * json-glib only, no GTK: foldray-cli reads scenes through this too (and
 * ignores the view, display and units).  Saves are atomic (fr-atomic-file.h),
 * write through a symbolic link to its target and keep the permissions of
 * the file they replace.  A relative background path starts from the
 * folder of the file holding the scene (a link's target's); it is written
 * normalised, relative (with ".." if need be) where the grid and the
 * scene share a folder below the root, else absolute.
 *
 * "display" is optional, and so is each of its members:
 *   {"interval": 0.05,         isochrons every, in T's unit; 0 hides them (0 to 100)
 *    "colormap": "viridis",    "viridis", "cividis" or "magma"
 *    "wavefront": false,       the wavefront shown
 *    "wavefront_time": 0.3}    at this time (0 or more)
 * A member left out takes the value above, as does every member of a
 * scene without "display".
 *
 * "mode" is optional: "rays" (as without it) or "folds", the results the
 * app opens on.  "fold" may hold "characteristics": points in the grid
 * that characteristics are traced from, back to the horizon, and an empty
 * "horizon" is one the user cleared (the app then draws none, rather than
 * starting Folds mode on the bundled anticline).
 *
 * "units" is optional too: {"length": "km"}, the unit of x and z ("m",
 * "km", "ft", or "" for none, as without it).  With a length unit,
 * velocities are in that unit per second and times in seconds.  Only the
 * app shows it; the numbers mean the same whatever it says.
 *
 * A layer: {"velocity": v, "dvdz": g, "dvdx": gx, "dvdx_from": x, "interface":
 * [[x, z], ...]}, its velocity v + g·(z − interface) + gx·(x − dvdx_from)
 * below its interface; "dvdx_from" is optional, 0 without it (as every
 * version before it read "dvdx"), and the app writes the model's first
 * node's x there for a layer it adds, so that "velocity" is the velocity at
 * the model's left, wherever the grid's coordinates start.
 *
 * "shots" is optional: "separate" (each source its own shot: T, the rays
 * and the arrival times of one source at a time) or "together" (every
 * source fires at once, as without it); written only when "separate".
 * foldray-cli reads scenes as shots together, whatever it says.
 *
 * "solver": {"radius": 5, "backend": "auto"}: the shortest-path solver's
 * neighbourhood in nodes, one count for x and z or [x, z] where they differ
 * (written as one number where they agree, as earlier versions read it),
 * and its back end ("auto", "dijkstra", "cpu" or "cuda"). */
#pragma once

#include <glib.h>

#include "fr-model.h"
#include "fr-radius.h"

G_BEGIN_DECLS

#define FR_SCENE_FILE_FORMAT  "foldray-scene"
#define FR_SCENE_FILE_VERSION 1

/* The display settings of a scene that does not give them. */
#define FR_SCENE_DISPLAY_INTERVAL       0.05
#define FR_SCENE_DISPLAY_INTERVAL_MAX   100.0
#define FR_SCENE_DISPLAY_COLORMAP       "viridis"
#define FR_SCENE_DISPLAY_WAVEFRONT_TIME 0.3

#define FR_SCENE_FILE_ERROR (fr_scene_file_error_quark ())

/* The length units a scene may name ("units": {"length": ...}), in the
 * order of the side panel's drop-down. */
typedef enum
{
  FR_LENGTH_UNIT_NONE,    /* "": x and z unlabelled, as without "units" */
  FR_LENGTH_UNIT_M,
  FR_LENGTH_UNIT_KM,
  FR_LENGTH_UNIT_FT,
  FR_N_LENGTH_UNITS
} FrLengthUnit;

typedef enum
{
  FR_SCENE_FILE_ERROR_MALFORMED,      /* not JSON, or members of the wrong type */
  FR_SCENE_FILE_ERROR_NOT_A_SCENE,    /* JSON, but no "format": "foldray-scene" */
  FR_SCENE_FILE_ERROR_NEWER_VERSION,  /* written by a newer Foldray */
  FR_SCENE_FILE_ERROR_MISSING_GRID,   /* the background grid file is gone */
  FR_SCENE_FILE_ERROR_INVALID,        /* well-formed, but values out of range */
  FR_SCENE_FILE_ERROR_IO,             /* reading or writing failed */
} FrSceneFileError;

typedef struct
{
  char     *title;
  FrModel  *model;
  GArray   *sources;        /* FrVertex */
  GArray   *receivers;      /* FrVertex */
  gboolean  separate_shots; /* "shots": "separate" */
  FrRadius  radius;         /* "radius": R, or [RX, RZ] where they differ */
  char     *backend;        /* "auto", "dijkstra", "cpu", "cuda" */
  gboolean  has_fold;
  double    psi_a[2];
  char     *fold_method;    /* "las" or "solas" */
  /* Optional members of "fold" (version 1 files may lack them; each is
   * written only when set, so a file reads and writes back the same). */
  char     *fold_backend;   /* "auto", "cpu", "cuda"; NULL: not given */
  gboolean  has_fold_speed;
  gboolean  fold_speed_from_grid;   /* "speed": "grid" */
  double    fold_speed;             /* "speed": a number, F constant; with "grid",
                                     * "speed_constant" (0 when left out) */
  gboolean  has_fold_levels;
  double    fold_delta;             /* "delta": folded horizons every Δ of T */
  int       fold_count;             /* "count": how many */
  gboolean  has_fold_bands;
  gboolean  fold_bands;
  GArray   *fold_horizon;   /* FrVertex, the starting horizon; NULL: not given,
                             * empty: the user cleared it */
  GArray   *fold_characteristics;   /* FrVertex, points characteristics are traced
                                     * from (in the grid); NULL: none */
  gboolean  has_view;
  double    view_cx, view_cz, view_scale;
  /* "display": the side panel's display settings.  Without it (or without
   * a member) the defaults above; written only when has_display. */
  gboolean  has_display;
  double    display_interval;         /* isochrons every; 0: none */
  char     *display_colormap;         /* "viridis", "cividis", "magma" */
  gboolean  display_wavefront;
  double    display_wavefront_time;
  /* "mode": "rays" or "folds", the results the app shows; written only
   * when has_mode (without it, Rays). */
  gboolean  has_mode;
  gboolean  folds_mode;
  /* "units": written only when has_units. */
  gboolean      has_units;
  FrLengthUnit  length_unit;
} FrSceneDoc;

/* The largest scene file read; scenes are text of kilobytes. */
#define FR_SCENE_FILE_MAX_BYTES (64 << 20)

GQuark      fr_scene_file_error_quark (void);

const char *fr_length_unit_get_id     (FrLengthUnit       unit);
gboolean    fr_length_unit_from_id    (const char        *id,
                                       FrLengthUnit      *unit);

FrSceneDoc *fr_scene_doc_new          (FrModel           *model);
void        fr_scene_doc_free         (FrSceneDoc        *doc);
FrSceneDoc *fr_scene_doc_parse        (const char        *text,
                                       gssize             length,
                                       const char        *name,
                                       const char        *base_dir,
                                       GError           **error);
FrSceneDoc *fr_scene_doc_load         (const char        *path,
                                       GError           **error);
char       *fr_scene_doc_to_json      (const FrSceneDoc  *doc,
                                       const char        *base_dir);
gboolean    fr_scene_doc_save         (const FrSceneDoc  *doc,
                                       const char        *path,
                                       GError           **error);
gboolean    fr_scene_doc_save_private (const FrSceneDoc  *doc,
                                       const char        *path,
                                       GError           **error);
char       *fr_scene_file_sidecar_path (const char       *npy_path);
gboolean    fr_scene_file_is_scene_name (const char      *path);
gboolean    fr_scene_file_read_grid   (const char        *path,
                                       const char        *format,
                                       fr_grid           *grid,
                                       gboolean          *has_spacing,
                                       GBytes           **values,
                                       GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrSceneDoc, fr_scene_doc_free)

char       *fr_format_shortest        (char               *buf,
                                       double              v);

G_END_DECLS
