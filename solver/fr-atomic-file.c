/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-atomic-file.h"
#include "fr-i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The process umask, read without umask(2): setting and restoring it would
 * race with other threads creating files.  Linux reports it in
 * /proc/self/status; elsewhere assume the common 022. */
static mode_t
current_umask (void)
{
  mode_t mask = 022;
  char line[128];
  FILE *f = fopen ("/proc/self/status", "re");

  if (f == NULL)
    return mask;
  while (fgets (line, sizeof line, f) != NULL)
    {
      if (strncmp (line, "Umask:", 6) == 0)
        {
          char *end;
          unsigned long v = strtoul (line + 6, &end, 8);
          if (end != line + 6 && v <= 0777)
            mask = (mode_t) v;
          break;
        }
    }
  fclose (f);
  return mask;
}

static void
free_names (fr_atomic_file *af)
{
  free (af->path);
  free (af->tmp_path);
  free (af->name);
  af->path = NULL;
  af->tmp_path = NULL;
  af->name = NULL;
}

/* The file that a write to `path` replaces: path itself, or, when path
 * is a symbolic link, the file it names (renaming over the link would cut
 * it from its target).  Anything but a plain file or nothing is refused:
 * renaming over a device, a FIFO or a socket would destroy it (as root,
 * /dev/null itself); that is the caller's input (FR_E_INPUT), while a
 * folder in the way stays a failure to write (FR_E_IO), as before. */
static fr_status
resolve_target (const char *path, char **target, fr_error *err)
{
  struct stat st;
  char *t;

  if (lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    {
      t = realpath (path, NULL);
      if (t == NULL)
        return fr_error_set (err, errno == ENOMEM ? FR_E_NOMEM : FR_E_IO,
                             fr__ ("%s: a symbolic link whose target cannot be reached: %s"), path,
                             strerror (errno));
    }
  else if ((t = strdup (path)) == NULL)
    return fr_error_set (err, FR_E_NOMEM, fr__ ("%s: out of memory"), path);
  if (stat (t, &st) == 0 && !S_ISREG (st.st_mode))
    {
      free (t);
      if (S_ISDIR (st.st_mode))
        return fr_error_set (err, FR_E_IO, "%s: %s", path, strerror (EISDIR));
      return fr_error_set (err, FR_E_INPUT, fr__ ("%s: not a plain file (%s); only files are written"),
                           path, S_ISFIFO (st.st_mode) ? fr__ ("a pipe")
                           : S_ISSOCK (st.st_mode) ? fr__ ("a socket") : fr__ ("a device"));
    }
  /* A file the user may not write is not replaced behind their back: the
   * folder's write permission would let the rename through (a scene
   * chmod 444 was rewritten, still 444), and a read-only file is
   * usually read-only on purpose. */
  if (access (t, F_OK) == 0 && access (t, W_OK) != 0 && errno == EACCES)
    {
      free (t);
      return fr_error_set (err, FR_E_IO, fr__ ("%s: the file is read-only: write it under another "
                                              "name, or make it writable first"), path);
    }
  *target = t;
  return FR_OK;
}

/* The new file's owner and mode: a file replaced keeps its permission bits
 * (a private 0600 file stays private) and, where this process may, its
 * owner and group (root saving a user's file leaves it theirs); where the
 * group cannot be kept, the group the file gets has none of the old
 * group's rights.  A new file gets new_mode.  Returns fchmod's result. */
static int
keep_owner_and_mode (int fd, const char *target, mode_t new_mode)
{
  struct stat old, now;
  mode_t mode;

  if (stat (target, &old) != 0)
    return fchmod (fd, new_mode);
  mode = old.st_mode & 0777;
  /* Owner first: a change of owner may clear mode bits. */
  if (fstat (fd, &now) == 0 && (now.st_uid != old.st_uid || now.st_gid != old.st_gid)
      && fchown (fd, old.st_uid, old.st_gid) != 0
      && fchown (fd, (uid_t) -1, old.st_gid) != 0 && now.st_gid != old.st_gid)
    mode &= ~(mode_t) 0070;
  return fchmod (fd, mode);
}

static fr_status
open_with_mode (fr_atomic_file *af, const char *path, mode_t new_mode, fr_error *err)
{
  const char *slash, *base;
  size_t dir_len, base_len;
  fr_status st;
  int fd, e;

  if (af == NULL)
    return fr_error_set (err, FR_E_IO, "no atomic file to open");
  memset (af, 0, sizeof *af);
  if (path == NULL || path[0] == '\0')
    return fr_error_set (err, FR_E_IO, "no output file name");
  if ((st = resolve_target (path, &af->path, err)) != FR_OK)
    return st;
  if ((af->name = strdup (path)) == NULL)
    {
      free_names (af);
      return fr_error_set (err, FR_E_NOMEM, fr__ ("%s: out of memory"), path);
    }

  slash = strrchr (af->path, '/');
  base = slash != NULL ? slash + 1 : af->path;
  if (base[0] == '\0' || strcmp (base, ".") == 0 || strcmp (base, "..") == 0)
    {
      free_names (af);
      return fr_error_set (err, FR_E_IO, fr__ ("%s: not a file name"), path);
    }
  dir_len = (size_t) (base - af->path);   /* includes the slash, 0 for "name" */

  /* "DIR/" + "." + BASE + ".XXXXXX", BASE shortened so that the name
   * stays within NAME_MAX: any name the target may have works. */
  base_len = strlen (base);
  if (base_len > NAME_MAX - 8)
    base_len = NAME_MAX - 8;
  af->tmp_path = malloc (dir_len + 1 + base_len + 7 + 1);
  if (af->tmp_path == NULL)
    {
      free_names (af);
      return fr_error_set (err, FR_E_NOMEM, fr__ ("%s: out of memory"), path);
    }
  memcpy (af->tmp_path, af->path, dir_len);
  af->tmp_path[dir_len] = '.';
  memcpy (af->tmp_path + dir_len + 1, base, base_len);
  memcpy (af->tmp_path + dir_len + 1 + base_len, ".XXXXXX", 8);

  fd = mkstemp (af->tmp_path);
  if (fd < 0)
    {
      e = errno;
      free_names (af);
      return fr_error_set (err, FR_E_IO, fr__ ("%s: cannot create a temporary file beside it: %s"),
                           path, strerror (e));
    }
  (void) fcntl (fd, F_SETFD, FD_CLOEXEC);
  if (keep_owner_and_mode (fd, af->path, new_mode) != 0
      || (af->fp = fdopen (fd, "wb")) == NULL)
    {
      e = errno;
      close (fd);
      unlink (af->tmp_path);
      free_names (af);
      return fr_error_set (err, FR_E_IO, fr__ ("%s: cannot open a temporary file: %s"),
                           path, strerror (e));
    }
  return FR_OK;
}

/* A new file looks like any other: 0666 less the umask. */
fr_status
fr_atomic_open (fr_atomic_file *af, const char *path, fr_error *err)
{
  return open_with_mode (af, path, 0666 & ~current_umask (), err);
}

/* A new file is the owner's alone, 0600 (the mode mkstemp gives it). */
fr_status
fr_atomic_open_private (fr_atomic_file *af, const char *path, fr_error *err)
{
  return open_with_mode (af, path, 0600, err);
}

/* Makes the rename itself durable; a failure here loses nothing that the
 * caller could act on, so it is not reported. */
static void
sync_parent_dir (const char *path)
{
  const char *slash = strrchr (path, '/');
  char *dir;
  int fd;

  if (slash == NULL)
    dir = strdup (".");
  else if (slash == path)
    dir = strdup ("/");
  else
    dir = strndup (path, (size_t) (slash - path));
  if (dir == NULL)
    return;
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      (void) fsync (fd);
      close (fd);
    }
  free (dir);
}

fr_status
fr_atomic_prepare (fr_atomic_file *af, fr_error *err)
{
  enum { DONE, WRITE, FLUSH, CLOSE } step = DONE;
  FILE *fp;
  int e = 0;

  if (af == NULL || af->fp == NULL || af->tmp_path == NULL || af->path == NULL
      || af->name == NULL)
    {
      fr_atomic_abort (af);
      return fr_error_set (err, FR_E_IO, "no open atomic file to commit");
    }
  fp = af->fp;
  af->fp = NULL;

  /* ferror catches an fwrite that failed earlier, whose errno is long gone. */
  if (fflush (fp) != 0)
    e = errno, step = WRITE;
  else if (ferror (fp))
    e = EIO, step = WRITE;
  else if (fsync (fileno (fp)) != 0)
    e = errno, step = FLUSH;
  if (fclose (fp) != 0 && step == DONE)
    e = errno, step = CLOSE;
  if (step == DONE)
    return FR_OK;   /* prepared: fp closed, the temporary file kept */
  /* Whole messages, each one translatable (fr-i18n.h). */
  if (step == WRITE)
    fr_error_set (err, FR_E_IO, fr__ ("%s: cannot write: %s"), af->name, strerror (e));
  else if (step == FLUSH)
    fr_error_set (err, FR_E_IO, fr__ ("%s: cannot flush to disk: %s"), af->name, strerror (e));
  else
    fr_error_set (err, FR_E_IO, fr__ ("%s: cannot close: %s"), af->name, strerror (e));
  fr_atomic_abort (af);
  return FR_E_IO;
}

fr_status
fr_atomic_commit (fr_atomic_file *af, fr_error *err)
{
  fr_status st;

  if (af != NULL && af->fp != NULL && (st = fr_atomic_prepare (af, err)) != FR_OK)
    return st;
  if (af == NULL || af->fp != NULL || af->tmp_path == NULL || af->path == NULL
      || af->name == NULL)
    {
      fr_atomic_abort (af);
      return fr_error_set (err, FR_E_IO, "no open atomic file to commit");
    }
  if (rename (af->tmp_path, af->path) != 0)
    {
      int e = errno;

      fr_error_set (err, FR_E_IO, fr__ ("%s: cannot replace: %s"), af->name, strerror (e));
      fr_atomic_abort (af);
      return FR_E_IO;
    }
  sync_parent_dir (af->path);
  free_names (af);
  return FR_OK;
}

void
fr_atomic_abort (fr_atomic_file *af)
{
  if (af == NULL)
    return;
  if (af->fp != NULL)
    fclose (af->fp);
  af->fp = NULL;
  if (af->tmp_path != NULL)
    unlink (af->tmp_path);
  free_names (af);
}
