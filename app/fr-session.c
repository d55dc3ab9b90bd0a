/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-session"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
# include <glib-unix.h>
# include <signal.h>
#endif

#include "fr-file-filter.h"
#include "fr-session.h"

/* Unsaved edits reach the autosave file within this many seconds, well
 * inside the 30 s a crash may cost. */
#define AUTOSAVE_DELAY_S 5

struct _FrSession
{
  GObject         parent_instance;

  FrWindow       *window;      /* weak: the window owns us */
  char           *path;        /* the scene file, NULL until saved or opened */
  /* Save As's first name for a document without a file, opened from a
   * bundled scene (NULL otherwise). */
  char           *proposed_name;
  guint           autosave_id;
  /* The scene file as it was last read or written, so that a save finds
   * out when another program wrote it meanwhile. */
  gboolean        has_stamp;
  GStatBuf        stamp;
  /* A recovered autosave is loading: its own file is no edit to track. */
  gboolean        recovering;

  /* What waits for the "Save changes?" question (close, open, quit). */
  FrSessionThen   then;
  gpointer        then_data;
  GDestroyNotify  then_destroy;

  guint           signal_ids[3];   /* SIGTERM, SIGHUP, SIGINT */
};

G_DEFINE_FINAL_TYPE (FrSession, fr_session, G_TYPE_OBJECT)

/* The state folder: $FOLDRAY_STATE_DIR or the user state folder. */
static char *
state_dir (void)
{
  const char *dir = g_getenv ("FOLDRAY_STATE_DIR");

  if (dir != NULL && *dir != '\0')
    return g_strdup (dir);
  return g_build_filename (g_get_user_state_dir (), "foldray", NULL);
}

/* Autosave files.  Each instance writes its own, autosave-ID.json, ID
 * being its pid and a random number drawn once, and holds an exclusive
 * lock (flock) on autosave-ID.lock while it runs.  A file whose lock can be
 * taken was left by an instance that has gone.  The pid alone is no proof
 * of life: pids are reused, and in a sandbox (a PID namespace) every launch
 * may be pid 1, which took a crashed launch's file for its own and deleted
 * it.  The lock file also records the scene file the autosave belongs to
 * (empty for a scene without one), for the recovery. */
static char *autosave_id;
static int   autosave_lock_fd = -1;

static const char *
own_autosave_id (void)
{
  if (autosave_id == NULL)
    autosave_id = g_strdup_printf ("%ld-%08" G_GINT32_MODIFIER "x", (long) getpid (), g_random_int ());
  return autosave_id;
}

/* This running instance's autosave file. */
char *
fr_session_autosave_path (void)
{
  g_autofree char *dir = state_dir ();
  g_autofree char *name = g_strdup_printf ("autosave-%s.json", own_autosave_id ());

  return g_build_filename (dir, name, NULL);
}

/* The lock file beside an autosave file (…/autosave-ID.json). */
static char *
lock_path_of (const char *autosave)
{
  g_autofree char *stem = g_strndup (autosave, strlen (autosave) - strlen (".json"));

  return g_strconcat (stem, ".lock", NULL);
}

/* Takes this instance's lock (once) and records scene_path (NULL: none)
 * in it.  Without a lock (a file system without flock) the autosave is
 * still written, and only the pid tells whether its owner runs. */
static void
hold_autosave_lock (const char *scene_path)
{
  g_autofree char *autosave = fr_session_autosave_path ();
  g_autofree char *lock = lock_path_of (autosave);
  const char *text = scene_path != NULL ? scene_path : "";

  if (autosave_lock_fd < 0)
    {
      int fd = g_open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

      if (fd >= 0 && flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          /* Others then go by the pid (autosave_owner_alive). */
          close (fd);
          g_unlink (lock);
          fd = -1;
        }
      autosave_lock_fd = fd;
    }
  /* Written over, then cut to length: emptied first, a full disk could
   * leave it empty, and the scene file it names unknown to a recovery. */
  if (autosave_lock_fd >= 0 &&
      (pwrite (autosave_lock_fd, text, strlen (text), 0) != (ssize_t) strlen (text) ||
       ftruncate (autosave_lock_fd, (off_t) strlen (text)) != 0))
    g_debug ("autosave lock %s: %s", lock, g_strerror (errno));
}

/* The instance has no autosave any more: its file and lock go. */
static void
drop_autosave_lock (void)
{
  g_autofree char *autosave = NULL;
  g_autofree char *lock = NULL;

  if (autosave_lock_fd < 0)
    return;
  autosave = fr_session_autosave_path ();
  lock = lock_path_of (autosave);
  g_unlink (lock);
  close (autosave_lock_fd);
  autosave_lock_fd = -1;
}

/* Whether the instance that wrote the autosave file dir/name still runs:
 * its lock is held.  A file without a lock file is an older version's,
 * autosave-PID.json, owned while that pid runs. */
static gboolean
autosave_owner_alive (const char *dir,
                      const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *lock = lock_path_of (path);
  long pid;
  char *end = NULL;
  int fd;

  if (!g_str_has_prefix (name, "autosave-") || !g_str_has_suffix (name, ".json"))
    return FALSE;
  if (autosave_id != NULL)
    {
      g_autofree char *own = g_strdup_printf ("autosave-%s.json", autosave_id);

      if (g_str_equal (name, own))
        return TRUE;
    }
  /* For writing: over NFS an exclusive flock needs it (helper-72). */
  if ((fd = g_open (lock, O_RDWR | O_CLOEXEC, 0)) >= 0 ||
      (fd = g_open (lock, O_RDONLY | O_CLOEXEC, 0)) >= 0)
    {
      int taken = flock (fd, LOCK_EX | LOCK_NB), e = errno;

      close (fd);
      if (taken == 0)
        return FALSE;
      if (e == EWOULDBLOCK)
        return TRUE;
      /* No locks on this file system: the pid it is. */
    }
  errno = 0;
  pid = strtol (name + strlen ("autosave-"), &end, 10);
  if (errno != 0 || end == NULL || (*end != '-' && !g_str_equal (end, ".json")) || pid <= 0)
    return FALSE;
#ifdef G_OS_UNIX
  return pid != (long) getpid () && (kill ((pid_t) pid, 0) == 0 || errno == EPERM);
#else
  return TRUE;
#endif
}

/* The scene file an orphan autosave belongs to, as its lock file recorded
 * it, or NULL. */
static char *
orphan_scene_path (const char *orphan)
{
  g_autofree char *lock = lock_path_of (orphan);
  char *text = NULL;

  if (!g_file_get_contents (lock, &text, NULL, NULL) || *text == '\0' || !g_path_is_absolute (text))
    {
      g_free (text);
      return NULL;
    }
  return text;
}

/* Removes an orphan autosave and its lock file. */
static void
remove_orphan (const char *orphan)
{
  g_autofree char *lock = lock_path_of (orphan);

  g_unlink (orphan);
  g_unlink (lock);
}

/* The lock of the orphan autosave this instance offers, held while the
 * question is open: other instances starting meanwhile then see it owned
 * and do not offer it too, where one's Discard would delete what the
 * other's Recover was about to open.  -1: none held. */
static int offered_lock_fd = -1;
/* The lock file claim_orphan made for an older version's autosave, which
 * had none: removed again if the autosave stays, so that its owner is
 * still judged by its pid. */
static char *offered_lock_made;

/* Takes an orphan's lock for this instance (creating it for an older
 * version's file, which has none).  FALSE when another instance holds it
 * now; TRUE without a lock where the file system has no flock (recover's
 * rename still keeps two instances from both opening it). */
static gboolean
claim_orphan (const char *orphan)
{
  g_autofree char *lock = lock_path_of (orphan);
  gboolean existed = g_file_test (lock, G_FILE_TEST_EXISTS);
  /* For writing: over NFS an exclusive flock needs it. */
  int fd = g_open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

  if (fd < 0)
    fd = g_open (lock, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return TRUE;
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int e = errno;

      close (fd);
      return e != EWOULDBLOCK;
    }
  offered_lock_fd = fd;
  g_free (offered_lock_made);
  offered_lock_made = existed ? NULL : g_steal_pointer (&lock);
  return TRUE;
}

/* The offered orphan is answered (or put off): its lock is free again. */
static void
release_orphan (void)
{
  if (offered_lock_made != NULL)
    {
      g_autofree char *stem = g_strndup (offered_lock_made, strlen (offered_lock_made) - strlen (".lock"));
      g_autofree char *orphan = g_strconcat (stem, ".json", NULL);

      if (g_file_test (orphan, G_FILE_TEST_EXISTS))
        g_unlink (offered_lock_made);
      g_clear_pointer (&offered_lock_made, g_free);
    }
  if (offered_lock_fd >= 0)
    close (offered_lock_fd);
  offered_lock_fd = -1;
}

/* The recovered orphan's lock, claimed and naming the scene file, becomes
 * this instance's as it is (autosave is this instance's autosave file),
 * rather than a new one written on a disk that may be full: emptied, the
 * scene file would be unknown to a later recovery. */
static void
adopt_orphan_lock (const char *orphan_lock,
                   const char *autosave)
{
  g_autofree char *own_lock = lock_path_of (autosave);

  if (autosave_lock_fd >= 0 || g_rename (orphan_lock, own_lock) != 0)
    {
      g_unlink (orphan_lock);
      return;
    }
  autosave_lock_fd = offered_lock_fd;   /* -1 without flock: taken at the autosave */
  offered_lock_fd = -1;
  g_clear_pointer (&offered_lock_made, g_free);
}

typedef struct {
  char   *path;
  gint64  mtime;
} Orphan;

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  const Orphan *x = a, *y = b;

  return x->mtime < y->mtime ? 1 : x->mtime > y->mtime ? -1 : 0;
}

/* The newest autosave file whose instance has gone (crashed or killed)
 * and that no other instance is offering, claimed (claim_orphan); or
 * NULL. */
static char *
find_orphan_autosave (void)
{
  g_autofree char *dir = state_dir ();
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Orphan));
  char *chosen = NULL;
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st;

      if (!g_str_has_prefix (name, "autosave") || !g_str_has_suffix (name, ".json") ||
          autosave_owner_alive (dir, name))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      g_array_append_val (found, ((Orphan) { g_steal_pointer (&path), (gint64) st.st_mtime }));
    }
  g_array_sort (found, newest_first);
  for (guint i = 0; i < found->len; i++)
    {
      Orphan *o = &g_array_index (found, Orphan, i);

      if (chosen == NULL && claim_orphan (o->path))
        chosen = g_steal_pointer (&o->path);
      g_free (o->path);
    }
  return chosen;
}

static FrSceneDoc *
make_doc (FrSession *self)
{
  FrScene *scene = fr_window_get_scene (self->window);
  FrSidePanel *panel = fr_window_get_side_panel (self->window);
  FrCanvas *canvas = fr_window_get_canvas (self->window);
  const FrView *view = fr_canvas_get_view (canvas);
  FrSceneDoc *doc;

  if (fr_scene_get_model (scene) == NULL)
    return NULL;
  doc = fr_scene_to_doc (scene);
  fr_side_panel_save_solver (panel, doc);
  /* Only a view the user chose (zoomed or panned): a fitted one is not
   * kept, so that the scene opens fitted to whatever window it opens in. */
  doc->has_view = view->scale > 0 && !fr_canvas_get_view_fitted (canvas);
  doc->view_cx = view->cx;
  doc->view_cz = view->cz;
  doc->view_scale = view->scale;
  fr_side_panel_save_display (panel, doc);
  fr_fold_state_to_doc (fr_window_get_fold_state (self->window), doc);
  /* Like the view, the mode is kept but switching it is no edit. */
  doc->has_mode = TRUE;
  doc->folds_mode = fr_window_get_fold_mode (self->window);
  return doc;
}

static void
update_title (FrSession *self)
{
  FrScene *scene = fr_window_get_scene (self->window);
  const char *title = fr_scene_get_title (scene);
  /* The name as GTK can show it: a Latin-1 name's bytes are not UTF-8. */
  g_autofree char *base = self->path != NULL ? g_filename_display_basename (self->path) : NULL;
  g_autofree char *text = NULL;

  /* Translators: a modified scene's window title, "• three-layer.json — Foldray". */
  text = g_strdup_printf (fr_scene_get_modified (scene) ? _("• %s — Foldray") : "%s — Foldray",
                          base != NULL ? base : title != NULL ? title : _("Untitled"));
  gtk_window_set_title (GTK_WINDOW (self->window), text);
}

static void
remove_autosave (void)
{
  g_autofree char *path = fr_session_autosave_path ();

  g_unlink (path);
  drop_autosave_lock ();
}

static gboolean
autosave_cb (gpointer data)
{
  FrSession *self = data;
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = fr_session_autosave_path ();
  g_autofree char *dir = g_path_get_dirname (path);

  self->autosave_id = 0;
  if (!fr_scene_get_modified (fr_window_get_scene (self->window)) || (doc = make_doc (self)) == NULL)
    return G_SOURCE_REMOVE;
  g_mkdir_with_parents (dir, 0700);
  hold_autosave_lock (self->path);
  if (!fr_scene_doc_save_private (doc, path, &error))
    g_warning ("autosave: %s", error->message);
  else
    g_debug ("autosaved to %s", path);
  fr_window_set_autosave_failure (self->window, error);
  return G_SOURCE_REMOVE;
}

/* A scene edit: the title shows it, and an autosave follows soon. */
void
fr_session_scene_edited (FrSession *self)
{
  g_return_if_fail (FR_IS_SESSION (self));

  if (self->recovering)
    return;
  update_title (self);
  if (!fr_scene_get_modified (fr_window_get_scene (self->window)))
    {
      /* Undone back to the saved scene: nothing to recover. */
      g_clear_handle_id (&self->autosave_id, g_source_remove);
      remove_autosave ();
      fr_window_set_autosave_failure (self->window, NULL);
    }
  else if (self->autosave_id == 0)
    self->autosave_id = g_timeout_add_seconds (AUTOSAVE_DELAY_S, autosave_cb, self);
}

static void
add_recent (const char *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);

  if (uri != NULL)
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

/* Notes the scene file as it is now (after reading or writing it). */
static void
take_stamp (FrSession *self)
{
  self->has_stamp = self->path != NULL && g_stat (self->path, &self->stamp) == 0;
}

/* Whether another program wrote the scene file since take_stamp: its
 * time, size or file changed (a file gone is no conflict: Save makes it). */
static gboolean
changed_on_disk (FrSession *self)
{
  GStatBuf now;

  if (!self->has_stamp || self->path == NULL || g_stat (self->path, &now) != 0)
    return FALSE;
  return now.st_mtim.tv_sec != self->stamp.st_mtim.tv_sec ||
         now.st_mtim.tv_nsec != self->stamp.st_mtim.tv_nsec ||
         now.st_size != self->stamp.st_size || now.st_ino != self->stamp.st_ino ||
         now.st_dev != self->stamp.st_dev;
}

/* The window now shows a document as it was read or written: path is its
 * file (NULL for one that has none yet, such as an example), nothing is
 * modified and no autosave is pending. */
void
fr_session_reset (FrSession  *self,
                  const char *path)
{
  /* path may be self->path itself: canonicalise before freeing. */
  char *canonical = path != NULL ? g_canonicalize_filename (path, NULL) : NULL;

  g_return_if_fail (FR_IS_SESSION (self));

  g_free (self->path);
  self->path = canonical;
  g_clear_pointer (&self->proposed_name, g_free);
  take_stamp (self);
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  fr_window_set_clean (self->window, TRUE);
  remove_autosave ();
  fr_window_set_autosave_failure (self->window, NULL);
  update_title (self);
}

/* Shows the scene file at path in the window: its model, settings, folds,
 * mode and view.  On any failure (malformed, newer version, missing grid)
 * the current scene stays as it was.  The session's own state (its file,
 * the autosave) is the caller's. */
static gboolean
load_scene (FrSession   *self,
            const char  *path,
            GError     **error)
{
  g_autoptr(FrSceneDoc) doc = NULL;
  FrCanvas *canvas;

  if ((doc = fr_scene_doc_load (path, error)) == NULL)
    return FALSE;
  canvas = fr_window_get_canvas (self->window);
  /* The old result goes only once the scene is replaced: a refused file
   * leaves the picture as it was. */
  if (!fr_scene_load_doc (fr_window_get_scene (self->window), doc, error))
    {
      /* As the reader's own refusals do, name the file. */
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  fr_canvas_set_result (canvas, NULL);
  /* A back end this build lacks falls back to Automatic, with a notice
   * under the drop-down. */
  fr_side_panel_load_solver (fr_window_get_side_panel (self->window), doc);
  /* Without "display" the defaults: nothing of the previous document's
   * look carries over into this one (and into its next save). */
  fr_side_panel_load_display (fr_window_get_side_panel (self->window), doc);
  /* Also without a "fold" member: nothing of the previous document's
   * folds (horizon, ψa, undo history) carries over. */
  fr_fold_state_load_doc (fr_window_get_fold_state (self->window), doc);
  /* Rays unless the scene was saved in Folds mode. */
  fr_window_set_fold_mode (self->window, doc->has_mode && doc->folds_mode);
  /* The view the scene was saved with; without one it stays fitted. */
  if (doc->has_view)
    fr_canvas_set_view (canvas, doc->view_cx, doc->view_cz, doc->view_scale);
  return TRUE;
}

/* Shows the scene file at path as the window's document: its own file
 * (Save writes back to it, a recent file), or, not own, a new document
 * made from it, whose Save asks where, proposing its name. */
static gboolean
open_document (FrSession   *self,
               const char  *path,
               gboolean     own,
               GError     **error)
{
  g_return_val_if_fail (FR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!load_scene (self, path, error))
    return FALSE;
  fr_session_reset (self, own ? path : NULL);
  if (own)
    add_recent (self->path);
  else
    self->proposed_name = g_path_get_basename (path);
  return TRUE;
}

/* Opens a scene file.  On any failure (malformed, newer version, missing
 * grid) the current scene stays as it was. */
gboolean
fr_session_open (FrSession   *self,
                 const char  *path,
                 GError     **error)
{
  return open_document (self, path, TRUE, error);
}

/* Opens a bundled example scene as a new document (an installed example
 * is not the user's to overwrite, and in a checkout it is the
 * project's). */
gboolean
fr_session_open_copy (FrSession   *self,
                      const char  *path,
                      GError     **error)
{
  return open_document (self, path, FALSE, error);
}

static void
then_clear (FrSession *self)
{
  GDestroyNotify destroy = self->then_destroy;
  gpointer data = self->then_data;

  self->then = NULL;
  self->then_data = NULL;
  self->then_destroy = NULL;
  if (destroy != NULL)
    destroy (data);
}

/* Runs what waited for the question, once. */
static void
then_run (FrSession *self)
{
  FrSessionThen then = self->then;
  GDestroyNotify destroy = self->then_destroy;
  gpointer data = self->then_data;
  FrWindow *window = self->window;

  self->then = NULL;
  self->then_data = NULL;
  self->then_destroy = NULL;
  /* then may destroy the window, and us with it. */
  if (then != NULL && window != NULL)
    then (window, data);
  if (destroy != NULL)
    destroy (data);
}

/* Saves the scene to path atomically; it becomes the scene's file. */
gboolean
fr_session_save_to (FrSession   *self,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(FrSceneDoc) doc = NULL;

  g_return_val_if_fail (FR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if ((doc = make_doc (self)) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no scene to save"));
      return FALSE;
    }
  if (!fr_scene_doc_save (doc, path, error))
    return FALSE;
  fr_session_reset (self, path);
  add_recent (self->path);
  return TRUE;
}

static void
save_as_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     FrSession       *self)
{
  /* Alive until the answer has run (it may close the window); read by
   * nobody, hence the attribute. */
  G_GNUC_UNUSED g_autoptr(FrSession) hold = g_object_ref (self);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                     _("Only local files can be written"));
      /* Scenes are opened by their .json ending: a name without it gets
       * it, unless that would replace a file the chooser did not ask about. */
      else if (!fr_scene_file_is_scene_name (path))
        {
          char *with = g_strconcat (path, ".json", NULL);

          if (g_file_test (with, G_FILE_TEST_EXISTS))
            error = g_error_new (G_IO_ERROR, G_IO_ERROR_EXISTS,
                                 _("Scene files end in .json, and %s already exists; type its "
                                   "name with .json to replace it, or choose another"), with);
          g_free (path);
          path = with;
        }
      if (error != NULL || !fr_session_save_to (self, path, &error))
        {
          fr_window_show_error (self->window, _("Could not save the scene"), error);
          then_clear (self);
        }
      else
        then_run (self);
    }
  else
    then_clear (self);
  g_object_unref (chooser);
}

/* Where Save As starts: the scene's own file; for a bundled example scene
 * its name, and for one opened from a grid (a bundled example among them)
 * NAME.json after the grid, in the chooser's usual folder; else
 * scene.json. */
static void
propose_file (FrSession      *self,
              GtkFileChooser *chooser)
{
  const FrModel *model = fr_scene_get_model (fr_window_get_scene (self->window));
  g_autofree char *name = NULL;

  if (self->path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (self->path);
      g_autoptr(GFile) folder = g_file_get_parent (file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (chooser, folder, NULL);
      name = g_path_get_basename (self->path);
    }
  else if (self->proposed_name != NULL)
    name = g_strdup (self->proposed_name);
  else if (model != NULL && model->background != NULL && model->background->path != NULL)
    {
      g_autofree char *base = g_path_get_basename (model->background->path);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      name = g_strconcat (base, ".json", NULL);
    }
  gtk_file_chooser_set_current_name (chooser, name != NULL ? name : "scene.json");
}

void
fr_session_save_as (FrSession *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = fr_file_filter_new (_("Foldray scenes (.json)"), "json", NULL);

  g_return_if_fail (FR_IS_SESSION (self));

  chooser = gtk_file_chooser_native_new (_("Save Scene"), GTK_WINDOW (self->window),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  propose_file (self, GTK_FILE_CHOOSER (chooser));
  g_signal_connect_object (chooser, "response", G_CALLBACK (save_as_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Writes the scene's own file, then runs what waited for it. */
static void
save_own_file (FrSession *self)
{
  g_autoptr(GError) error = NULL;

  if (!fr_session_save_to (self, self->path, &error))
    {
      fr_window_show_error (self->window, _("Could not save the scene"), error);
      then_clear (self);
    }
  else
    then_run (self);
}

static void ask_changed_on_disk (FrSession *self);

/* Saves to the scene's file, or asks where; asks first when another
 * program wrote the file since it was opened or saved (its changes were
 * overwritten without a word). */
void
fr_session_save (FrSession *self)
{
  g_return_if_fail (FR_IS_SESSION (self));

  if (self->path == NULL)
    fr_session_save_as (self);
  else if (changed_on_disk (self))
    ask_changed_on_disk (self);
  else
    save_own_file (self);
}

const char *
fr_session_get_path (FrSession *self)
{
  g_return_val_if_fail (FR_IS_SESSION (self), NULL);
  return self->path;
}

enum { RESPONSE_DISCARD = 1, RESPONSE_SAVE = 2, RESPONSE_REPLACE = 3, RESPONSE_SAVE_AS = 4 };

typedef struct
{
  FrSession *session;
  int        response;
} ConfirmAnswer;

static void
confirm_answer_free (gpointer data)
{
  ConfirmAnswer *answer = data;

  g_object_unref (answer->session);
  g_free (answer);
}

static gboolean
confirm_answered (gpointer data)
{
  ConfirmAnswer *answer = data;
  FrSession *self = answer->session;

  if (answer->response == RESPONSE_DISCARD)
    then_run (self);
  else if (answer->response == RESPONSE_SAVE)
    fr_session_save (self);
  else if (answer->response == RESPONSE_REPLACE && self->path != NULL)
    save_own_file (self);
  else if (answer->response == RESPONSE_SAVE_AS)
    fr_session_save_as (self);
  else
    then_clear (self);
  return G_SOURCE_REMOVE;
}

/* The answer is acted on once the dialog is gone: what waited may close
 * the window, and the dialog, transient for it, must not outlive it while
 * its own "response" is still being emitted. */
static void
confirm_response_cb (GtkDialog *dialog,
                     int        response,
                     FrSession *self)
{
  ConfirmAnswer *answer = g_new0 (ConfirmAnswer, 1);

  answer->session = g_object_ref (self);
  answer->response = response;
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, confirm_answered, answer, confirm_answer_free);
}

/* The scene file changed on disk since it was read or written: replace
 * it, save elsewhere, or cancel (what waited for the save waits on). */
static void
ask_changed_on_disk (FrSession *self)
{
  g_autofree char *base = g_path_get_basename (self->path);
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self->window),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE,
                                   _("“%s” changed on disk since it was opened or saved"), base);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("Another program wrote it meanwhile. Replacing it "
                                              "loses what that program wrote; Save As keeps both."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("Save _As…"), RESPONSE_SAVE_AS, _("_Replace"), RESPONSE_REPLACE, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Runs then (window, data) once the unsaved edits are dealt with: at once
 * when there are none, else after the user saved them or chose to discard
 * them; never when the user cancels or the save fails.  why picks the
 * question's words. */
void
fr_session_confirm (FrSession        *self,
                    FrSessionConfirm  why,
                    FrSessionThen     then,
                    gpointer          data,
                    GDestroyNotify    destroy)
{
  FrScene *scene;
  GtkWidget *dialog;
  const char *title;
  g_autofree char *base = NULL;

  g_return_if_fail (FR_IS_SESSION (self));
  g_return_if_fail (then != NULL);

  /* A newer question replaces one still open. */
  then_clear (self);
  self->then = then;
  self->then_data = data;
  self->then_destroy = destroy;

  scene = fr_window_get_scene (self->window);
  if (!fr_scene_get_modified (scene))
    {
      then_run (self);
      return;
    }
  base = self->path != NULL ? g_path_get_basename (self->path) : NULL;
  title = base != NULL ? base : fr_scene_get_title (scene);
  if (title == NULL)
    title = _("Untitled");
  dialog = gtk_message_dialog_new (GTK_WINDOW (self->window),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   why == FR_SESSION_CONFIRM_OPEN
                                   ? _("Save changes to “%s” before opening another scene?")
                                   : _("Save changes to “%s” before closing?"),
                                   title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("Your changes will be lost if you don’t save them."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          why == FR_SESSION_CONFIRM_OPEN ? _("_Discard Changes")
                                                         : _("Close _without Saving"),
                          RESPONSE_DISCARD, _("_Save"), RESPONSE_SAVE, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), RESPONSE_SAVE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Closing: the edits were saved or are discarded, so the window goes and
 * takes no autosave with it. */
static void
close_then (FrWindow *window,
            gpointer  data)
{
  fr_scene_set_modified (fr_window_get_scene (window), FALSE);
  remove_autosave ();
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
close_request_cb (FrSession *self,
                  GtkWindow *window)
{
  if (!fr_scene_get_modified (fr_window_get_scene (self->window)))
    {
      remove_autosave ();
      return FALSE;
    }
  fr_session_confirm (self, FR_SESSION_CONFIRM_CLOSE, close_then, NULL, NULL);
  return TRUE;
}

/* Takes over an autosave file a gone instance left: renamed to ours
 * first, so two instances starting together cannot both recover it. */
static void
recover (FrSession  *self,
         const char *orphan)
{
  g_autofree char *path = fr_session_autosave_path ();
  g_autofree char *scene_path = orphan_scene_path (orphan);
  g_autofree char *orphan_lock = lock_path_of (orphan);
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  if (g_rename (orphan, path) != 0)
    {
      int e = errno;

      /* Another instance took it, or discarded it (on a file system
       * without locks both could offer it). */
      g_set_error (&error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", orphan, g_strerror (e));
      fr_window_show_error (self->window, _("Could not recover the unsaved scene"), error);
      return;
    }
  self->recovering = TRUE;
  loaded = load_scene (self, path, &error);
  self->recovering = FALSE;
  if (!loaded)
    {
      fr_window_show_error (self->window, _("Could not recover the unsaved scene"), error);
      /* Keep it for another try: back under a name no instance owns. */
      g_rename (path, orphan);
      return;
    }
  adopt_orphan_lock (orphan_lock, path);
  /* Recovered edits are unsaved: the scene's own file (Save writes it),
   * still modified.  The autosave file stays as it is until the next
   * autosave replaces it, at once: opening it as a scene (and the load's
   * own changes, unmodified) removed it first, and a disk that then
   * refused the new one (still full) left the edits in memory alone.  Nor
   * is it a recent file. */
  g_free (self->path);
  self->path = g_steal_pointer (&scene_path);
  /* What the file held when the edits began is unknown: Save writes it. */
  self->has_stamp = FALSE;
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  fr_window_set_clean (self->window, FALSE);
  fr_window_set_autosave_failure (self->window, NULL);
  update_title (self);
  autosave_cb (self);
}

static void
recovery_response_cb (GtkDialog *dialog,
                      int        response,
                      FrSession *self)
{
  const char *orphan = g_object_get_data (G_OBJECT (dialog), "orphan");

  /* Only Discard discards: Escape or closing the dialog is "not now", and
   * the next start asks again. */
  if (response == GTK_RESPONSE_ACCEPT)
    recover (self, orphan);
  else if (response == GTK_RESPONSE_REJECT)
    remove_orphan (orphan);
  release_orphan ();
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Offers the unsaved scene an instance that is no longer running left
 * behind; instances still running keep theirs. */
void
fr_session_check_recovery (FrSession *self)
{
  g_autofree char *orphan = NULL;
  g_autofree char *scene_path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *stamp = NULL;
  g_autoptr(GDateTime) when = NULL;
  const char *answer = g_getenv ("FOLDRAY_RECOVER");
  GtkWidget *dialog;
  GStatBuf st;

  g_return_if_fail (FR_IS_SESSION (self));

  if ((orphan = find_orphan_autosave ()) == NULL)
    return;
  if (answer != NULL && (g_str_equal (answer, "yes") || g_str_equal (answer, "no")))
    {
      if (g_str_equal (answer, "yes"))
        recover (self, orphan);
      else
        remove_orphan (orphan);
      release_orphan ();
      return;
    }
  scene_path = orphan_scene_path (orphan);
  base = scene_path != NULL ? g_path_get_basename (scene_path) : NULL;
  if (g_stat (orphan, &st) == 0 && (when = g_date_time_new_from_unix_local (st.st_mtime)) != NULL)
    /* Translators: the time of an autosave, as in “at 14:05 on 25 Nov”;
     * see g_date_time_format for the codes (%-e: the day unpadded; %e
     * padded 7 Dec to two places, "on  7 Dec"). */
    stamp = g_date_time_format (when, _("%H:%M on %-e %b"));
  dialog = gtk_message_dialog_new (GTK_WINDOW (self->window),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   base != NULL ? _("Recover the unsaved changes to “%s”?")
                                                : _("Recover the unsaved scene?"), base);
  if (stamp != NULL)
    /* Translators: %s is the time of the autosave (“14:05 on 25 Nov”). */
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                              _("Foldray stopped before they were saved. Their "
                                                "state autosaved at %s can be opened now, or "
                                                "discarded; Escape asks again next time."), g_strstrip (stamp));
  else
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                              _("Foldray stopped before a scene was saved. Its last "
                                                "autosaved state can be opened now."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Discard"), GTK_RESPONSE_REJECT,
                          _("_Recover"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_object_set_data_full (G_OBJECT (dialog), "orphan", g_steal_pointer (&orphan), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (recovery_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

#ifdef G_OS_UNIX
/* SIGTERM (a logout, kill), SIGHUP (a closed terminal), SIGINT (Ctrl+C):
 * edits younger than the autosave delay go to the autosave file before
 * the app quits, so the next start offers them; they were lost. */
static gboolean
quit_on_signal_cb (gpointer data)
{
  FrSession *self = data;

  if (self->autosave_id != 0)
    {
      g_clear_handle_id (&self->autosave_id, g_source_remove);
      autosave_cb (self);
    }
  if (g_application_get_default () != NULL)
    g_application_quit (g_application_get_default ());
  return G_SOURCE_CONTINUE;
}
#endif

static void
fr_session_dispose (GObject *object)
{
  FrSession *self = (FrSession *)object;

  for (guint i = 0; i < G_N_ELEMENTS (self->signal_ids); i++)
    g_clear_handle_id (&self->signal_ids[i], g_source_remove);

  /* Unsaved edits still pending go to the autosave file now. */
  if (self->autosave_id != 0)
    {
      g_clear_handle_id (&self->autosave_id, g_source_remove);
      if (self->window != NULL)
        autosave_cb (self);
    }
  then_clear (self);
  if (self->window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
  self->window = NULL;
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->proposed_name, g_free);

  G_OBJECT_CLASS (fr_session_parent_class)->dispose (object);
}

static void
fr_session_class_init (FrSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = fr_session_dispose;
}

static void
fr_session_init (FrSession *self)
{
}

FrSession *
fr_session_new (FrWindow *window)
{
  FrSession *self;

  g_return_val_if_fail (FR_IS_WINDOW (window), NULL);

  self = g_object_new (FR_TYPE_SESSION, NULL);
  self->window = window;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &self->window);
  g_signal_connect_object (window, "close-request", G_CALLBACK (close_request_cb), self,
                           G_CONNECT_SWAPPED);
#ifdef G_OS_UNIX
  self->signal_ids[0] = g_unix_signal_add (SIGTERM, quit_on_signal_cb, self);
  self->signal_ids[1] = g_unix_signal_add (SIGHUP, quit_on_signal_cb, self);
  self->signal_ids[2] = g_unix_signal_add (SIGINT, quit_on_signal_cb, self);
#endif
  return self;
}
