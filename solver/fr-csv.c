/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-csv.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fr-atomic-file.h"
#include "fr-i18n.h"
#include "fr-utf8-private.h"

/* A receivers file larger than this is not a receivers file. */
#define CSV_MAX_FILE ((size_t) 1 << 30)

void
fr_points_clear (fr_points *p)
{
  if (p == NULL)
    return;
  free (p->xyz);
  memset (p, 0, sizeof *p);
}

/* strtod and printf follow LC_NUMERIC, which a GUI sets from the user's
 * locale (decimal comma): switch this thread's numbers to "C" while we
 * convert.  Its other categories stay as they were: the messages made
 * meanwhile are translated by LC_MESSAGES (a base of 0, the C locale in
 * every category, made them English in the app). */
typedef struct c_numeric {
  locale_t c, old;
} c_numeric;

static bool
c_numeric_enter (c_numeric *s)
{
  locale_t base = duplocale (uselocale ((locale_t) 0));

  if (base == (locale_t) 0)
    return false;
  s->c = newlocale (LC_NUMERIC_MASK, "C", base);
  if (s->c == (locale_t) 0)
    {
      freelocale (base);
      return false;
    }
  s->old = uselocale (s->c);
  return true;
}

static void
c_numeric_leave (c_numeric *s)
{
  uselocale (s->old);
  freelocale (s->c);
}

static bool
is_blank (char ch)
{
  return ch == ' ' || ch == '\t';
}

/* Trims spaces and tabs from [*b, *e). */
static void
trim (const char **b, const char **e)
{
  while (*b < *e && is_blank (**b))
    (*b)++;
  while (*e > *b && is_blank ((*e)[-1]))
    (*e)--;
}

/* Parses one field as a finite decimal number.  Only digits, sign, point
 * and exponent are allowed, so "0x10", "inf" and "nan" are refused. */
static bool
parse_number (const char *b, const char *e, double *out)
{
  char buf[64];
  size_t n = (size_t) (e - b);
  char *end;

  if (n == 0 || n >= sizeof buf)
    return false;
  for (size_t i = 0; i < n; i++)
    if (strchr ("0123456789+-.eE", b[i]) == NULL || b[i] == '\0')
      return false;
  memcpy (buf, b, n);
  buf[n] = '\0';
  errno = 0;
  *out = strtod (buf, &end);
  return end == buf + n && isfinite (*out);
}

/* Matches a header field name, case-insensitively. */
static bool
field_is (const char *b, const char *e, char name)
{
  return e - b == 1 && (*b == name || *b == name - 'a' + 'A');
}

/* Splits [b, e) at commas into at most max trimmed fields; returns the
 * count, or max + 1 when there are more. */
static int
split_fields (const char *b, const char *e, const char *fields[][2], int max)
{
  int n = 0;

  for (const char *p = b;;)
    {
      const char *q = p;
      while (q < e && *q != ',')
        q++;
      if (n == max)
        return max + 1;
      fields[n][0] = p;
      fields[n][1] = q;
      trim (&fields[n][0], &fields[n][1]);
      n++;
      if (q == e)
        return n;
      p = q + 1;
    }
}

/* The header's dimension (2 or 3), or 0 when it is not `x,z` / `x,y,z`
 * (preceded by `receiver,` for a rays file). */
static int
parse_header (const char *b, const char *e, bool rays)
{
  const char *f[4][2];
  int lead = rays ? 1 : 0;
  int n = split_fields (b, e, f, 4);

  if (rays && (n < 1 || f[0][1] - f[0][0] != 8 || strncasecmp (f[0][0], "receiver", 8) != 0))
    return 0;
  if (n == lead + 2 && field_is (f[lead][0], f[lead][1], 'x') && field_is (f[lead + 1][0], f[lead + 1][1], 'z'))
    return 2;
  if (n == lead + 3 && field_is (f[lead][0], f[lead][1], 'x') && field_is (f[lead + 1][0], f[lead + 1][1], 'y')
      && field_is (f[lead + 2][0], f[lead + 2][1], 'z'))
    return 3;
  return 0;
}

/* Most bytes of a field quoted in a message. */
#define QUOTE_MAX 40

/* The field [b, e) as a message quotes it, in buf, and its length: at most
 * QUOTE_MAX bytes cut at a character's end, and a byte that is not UTF-8
 * (a Latin-1 file's) as '?'.  Cut at a byte, "…é" gave half a character,
 * and the app's dialog could not show the message. */
static int
quote_len (char buf[QUOTE_MAX + 1], const char *b, const char *e)
{
  const unsigned char *p = (const unsigned char *) b, *end = (const unsigned char *) e;
  size_t n = 0;

  while (p < end)
    {
      size_t len = fr_utf8_char (p, end);

      if (n + (len == 0 ? 1 : len) > QUOTE_MAX)
        break;
      if (len == 0)
        {
          buf[n++] = '?';
          p++;
          continue;
        }
      memcpy (buf + n, p, len);
      n += len;
      p += len;
    }
  buf[n] = '\0';
  return (int) n;
}

/* A receiver index: plain decimal digits. */
static bool
parse_index (const char *b, const char *e, size_t *out)
{
  size_t v = 0;

  if (b == e || e - b > 18)
    return false;
  for (const char *p = b; p < e; p++)
    {
      if (*p < '0' || *p > '9')
        return false;
      v = v * 10 + (size_t) (*p - '0');
    }
  *out = v;
  return true;
}

static bool
line_is_blank (const char *b, const char *e)
{
  trim (&b, &e);
  return b == e;
}

static fr_status
parse_points (const char *name, const char *text, size_t len, bool rays,
              fr_points *out, size_t **receivers, fr_error *err)
{
  const char *p = text, *end = text + len;
  const char *expected_header = rays ? fr__ ("receiver,x,z or receiver,x,y,z") : fr__ ("x,z or x,y,z");
  size_t lineno = 0, cap = 0;
  size_t blank_since = 0;   /* first line of a run of blank lines, 0 when none */
  int ndim = 0, lead = rays ? 1 : 0;

  /* A spreadsheet may start the file with a UTF-8 byte-order mark. */
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;

  while (p < end)
    {
      const char *b = p, *e = memchr (p, '\n', (size_t) (end - p));
      if (e == NULL)
        e = end;
      p = e < end ? e + 1 : end;
      lineno++;
      if (e > b && e[-1] == '\r')
        e--;
      if ((size_t) (e - b) > FR_CSV_MAX_LINE)
        return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line %zu: longer than %d characters"),
                             name, lineno, FR_CSV_MAX_LINE);
      if (memchr (b, '\0', (size_t) (e - b)) != NULL || memchr (b, '\r', (size_t) (e - b)) != NULL)
        return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line %zu: holds a stray control character"),
                             name, lineno);

      if (lineno == 1)
        {
          ndim = parse_header (b, e, rays);
          if (ndim == 0)
            return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line 1: expected the header %s"),
                                 name, expected_header);
          continue;
        }
      if (line_is_blank (b, e))
        {
          if (blank_since == 0)
            blank_since = lineno;
          continue;
        }
      /* Receivers are numbered by their line, so a gap would shift them. */
      if (blank_since != 0)
        return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line %zu: blank line between points"),
                             name, blank_since);
      if (out->count == FR_CSV_MAX_POINTS)
        return fr_error_set (err, FR_E_INPUT, fr__ ("%s: more than %zu points"), name,
                             (size_t) FR_CSV_MAX_POINTS);

      const char *f[4][2];
      int want = lead + ndim;
      int n = split_fields (b, e, f, want);
      double v[3];
      size_t receiver = 0;
      char quoted[QUOTE_MAX + 1];

      /* Whole sentences, for the app's translations (es and nb make
       * their plurals as English does, at n != 1). */
      if (n > want)
        return fr_error_set (err, FR_E_INPUT,
                             rays ? fr__ ("%s: line %zu: expected %d fields, found more than %d fields")
                                  : fr__ ("%s: line %zu: expected %d numbers, found more than %d fields"),
                             name, lineno, want, want);
      if (n != want)
        return fr_error_set (err, FR_E_INPUT,
                             n == 1 ? (rays ? fr__ ("%s: line %zu: expected %d fields, found %d field")
                                            : fr__ ("%s: line %zu: expected %d numbers, found %d field"))
                                    : (rays ? fr__ ("%s: line %zu: expected %d fields, found %d fields")
                                            : fr__ ("%s: line %zu: expected %d numbers, found %d fields")),
                             name, lineno, want, n);
      if (rays && !parse_index (f[0][0], f[0][1], &receiver))
        return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line %zu: '%.*s' is not a receiver number"),
                             name, lineno, quote_len (quoted, f[0][0], f[0][1]), quoted);
      for (int k = 0; k < ndim; k++)
        {
          const char *fb = f[lead + k][0], *fe = f[lead + k][1];
          if (fb == fe)
            return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line %zu: expected %d numbers, found an empty field"),
                                 name, lineno, ndim);
          if (!parse_number (fb, fe, &v[k]))
            return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line %zu: expected %d numbers, '%.*s' is not a finite number"),
                                 name, lineno, ndim, quote_len (quoted, fb, fe), quoted);
        }

      if (out->count == cap)
        {
          size_t ncap = cap == 0 ? 64 : cap * 2;
          double *nxyz = realloc (out->xyz, ncap * (size_t) ndim * sizeof *nxyz);
          if (nxyz == NULL)
            return fr_error_set (err, FR_E_NOMEM, "%s: out of memory", name);
          out->xyz = nxyz;
          if (rays)
            {
              size_t *nrec = realloc (*receivers, ncap * sizeof *nrec);
              if (nrec == NULL)
                return fr_error_set (err, FR_E_NOMEM, "%s: out of memory", name);
              *receivers = nrec;
            }
          cap = ncap;
        }
      memcpy (out->xyz + out->count * (size_t) ndim, v, (size_t) ndim * sizeof *v);
      if (rays)
        (*receivers)[out->count] = receiver;
      out->count++;
    }

  if (ndim == 0)
    return fr_error_set (err, FR_E_INPUT, fr__ ("%s: line 1: expected the header %s"), name,
                         expected_header);
  out->ndim = ndim;
  return FR_OK;
}

static fr_status
parse_text (const char *name, const char *text, size_t len, bool rays,
            fr_points *out, size_t **receivers, fr_error *err)
{
  c_numeric loc;
  fr_status st;

  memset (out, 0, sizeof *out);
  if (receivers != NULL)
    *receivers = NULL;
  if (text == NULL && len > 0)
    return fr_error_set (err, FR_E_INPUT, "%s: no text", name);
  if (!c_numeric_enter (&loc))
    return fr_error_set (err, FR_E_NOMEM, "%s: cannot set up the C locale", name);
  st = parse_points (name, text != NULL ? text : "", len, rays, out, receivers, err);
  c_numeric_leave (&loc);
  if (st != FR_OK)
    {
      fr_points_clear (out);
      if (receivers != NULL)
        {
          free (*receivers);
          *receivers = NULL;
        }
    }
  return st;
}

fr_status
fr_csv_parse_points (const char *name, const char *text, size_t len,
                     fr_points *out, fr_error *err)
{
  return parse_text (name, text, len, false, out, NULL, err);
}

/* Reads the whole file (it may be a pipe, so no size up front). */
static fr_status
slurp (const char *path, char **text, size_t *len, fr_error *err)
{
  FILE *fp = fopen (path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0;

  *text = NULL;
  *len = 0;
  if (fp == NULL)
    {
      int e = errno;
      /* A file that is not there is a bad argument, not a failing disk. */
      fr_status code = (e == ENOENT || e == ENOTDIR || e == EISDIR) ? FR_E_INPUT : FR_E_IO;
      return fr_error_set (err, code, fr__ ("%s: cannot open: %s"), path, strerror (e));
    }
  for (;;)
    {
      if (cap - n < 65536)
        {
          if (cap >= CSV_MAX_FILE)
            {
              free (buf);
              fclose (fp);
              return fr_error_set (err, FR_E_INPUT, fr__ ("%s: larger than %zu MiB"), path,
                                   CSV_MAX_FILE >> 20);
            }
          size_t ncap = cap == 0 ? 65536 : cap * 2;
          char *nbuf = realloc (buf, ncap);
          if (nbuf == NULL)
            {
              free (buf);
              fclose (fp);
              return fr_error_set (err, FR_E_NOMEM, "%s: out of memory", path);
            }
          buf = nbuf;
          cap = ncap;
        }
      size_t got = fread (buf + n, 1, cap - n, fp);
      n += got;
      if (got == 0)
        break;
    }
  if (ferror (fp))
    {
      int e = errno;
      free (buf);
      fclose (fp);
      /* Reading a folder fails here with EISDIR on Linux. */
      return fr_error_set (err, e == EISDIR ? FR_E_INPUT : FR_E_IO, fr__ ("%s: cannot read: %s"),
                           path, strerror (e));
    }
  fclose (fp);
  *text = buf;
  *len = n;
  return FR_OK;
}

fr_status
fr_csv_read_points (const char *path, fr_points *out, fr_error *err)
{
  char *text;
  size_t len;
  fr_status st;

  memset (out, 0, sizeof *out);
  st = slurp (path, &text, &len, err);
  if (st != FR_OK)
    return st;
  st = parse_text (path, text, len, false, out, NULL, err);
  free (text);
  return st;
}

fr_status
fr_csv_read_rays (const char *path, fr_points *out, size_t **receivers, fr_error *err)
{
  char *text;
  size_t len;
  fr_status st;

  memset (out, 0, sizeof *out);
  *receivers = NULL;
  st = slurp (path, &text, &len, err);
  if (st != FR_OK)
    return st;
  st = parse_text (path, text, len, true, out, receivers, err);
  free (text);
  return st;
}

/* 15 significant digits: every decimal a user typed survives, and a
 * computed node position such as 140 × 0.01 prints as 1.4, not as
 * 1.4000000000000001 (the last bit is noise of the multiplication). */
static void
format_double (char *buf, size_t size, double v)
{
  snprintf (buf, size, "%.15g", v);
}

/* Formats a point's ndim coordinates into num; false where one is not
 * finite, which no reader would take back. */
static bool
format_point (const double *pt, int ndim, char num[3][32])
{
  for (int c = 0; c < ndim; c++)
    {
      if (!isfinite (pt[c]))
        return false;
      format_double (num[c], sizeof num[c], pt[c]);
    }
  return true;
}

fr_status
fr_csv_write_rays_to (FILE *fp, int ndim, const fr_csv_ray *rays, size_t nrays, fr_error *err)
{
  c_numeric loc;
  fr_status st = FR_OK;

  if (ndim != 2 && ndim != 3)
    return fr_error_set (err, FR_E_INPUT, "rays must have 2 or 3 coordinates, not %d", ndim);
  if (!c_numeric_enter (&loc))
    return fr_error_set (err, FR_E_NOMEM, "cannot set up the C locale");

  fputs (ndim == 2 ? "receiver,x,z\n" : "receiver,x,y,z\n", fp);
  for (size_t r = 0; r < nrays && st == FR_OK; r++)
    for (size_t k = 0; k < rays[r].npoints; k++)
      {
        char num[3][32];

        if (!format_point (rays[r].points + k * (size_t) ndim, ndim, num))
          {
            st = fr_error_set (err, FR_E_INPUT, "ray %zu: point %zu is not finite",
                               rays[r].receiver, k);
            break;
          }
        if (ndim == 2)
          fprintf (fp, "%zu,%s,%s\n", rays[r].receiver, num[0], num[1]);
        else
          fprintf (fp, "%zu,%s,%s,%s\n", rays[r].receiver, num[0], num[1], num[2]);
      }
  c_numeric_leave (&loc);
  /* Write errors stay in the stream's error flag for the commit to see. */
  return st;
}

fr_status
fr_csv_write_points_to (FILE *fp, const fr_points *p, fr_error *err)
{
  c_numeric loc;
  fr_status st = FR_OK;

  if (p->ndim != 2 && p->ndim != 3)
    return fr_error_set (err, FR_E_INPUT, "points must have 2 or 3 coordinates, not %d", p->ndim);
  if (!c_numeric_enter (&loc))
    return fr_error_set (err, FR_E_NOMEM, "cannot set up the C locale");

  fputs (p->ndim == 2 ? "x,z\n" : "x,y,z\n", fp);
  for (size_t k = 0; k < p->count; k++)
    {
      char num[3][32];

      if (!format_point (p->xyz + k * (size_t) p->ndim, p->ndim, num))
        {
          st = fr_error_set (err, FR_E_INPUT, "point %zu is not finite", k + 1);
          break;
        }
      if (p->ndim == 2)
        fprintf (fp, "%s,%s\n", num[0], num[1]);
      else
        fprintf (fp, "%s,%s,%s\n", num[0], num[1], num[2]);
    }
  c_numeric_leave (&loc);
  return st;
}

/* The fewest significant digits that read back to t in its precision:
 * 0.1 in double prints as 0.1, not 0.10000000000000001. */
static void
format_time (char *buf, size_t size, double t, bool single_precision)
{
  if (!isfinite (t))
    {
      snprintf (buf, size, "inf");
      return;
    }
  if (single_precision)
    {
      const float f = (float) t;

      for (int digits = 6; digits <= 9; digits++)
        {
          snprintf (buf, size, "%.*g", digits, (double) f);
          if ((float) strtod (buf, NULL) == f)
            return;
        }
    }
  else
    for (int digits = 15; digits <= 17; digits++)
      {
        snprintf (buf, size, "%.*g", digits, t);
        if (strtod (buf, NULL) == t)
          return;
      }
}

/* The lines of one shot's times at the receivers of rc: each begins with
 * lead (the shot's columns, "" for none), then the receiver's number, its
 * coordinates and its time t[k].  A refusal names the receiver after
 * whose ("source 3, ", or ""). */
static fr_status
write_time_rows (FILE *fp, const char *lead, const char *whose, const fr_points *rc,
                 const double *t, bool single_precision, fr_error *err)
{
  for (size_t k = 0; k < rc->count; k++)
    {
      char num[3][32], time[32];

      /* NaN or -inf is no time at all: a caller's bug, not "unreached"
       * (a fold's boundary values may be negative). */
      if (!format_point (rc->xyz + k * (size_t) rc->ndim, rc->ndim, num)
          || isnan (t[k]) || t[k] == -INFINITY)
        return fr_error_set (err, FR_E_INPUT, "%sreceiver %zu: its point or time is not valid",
                             whose, k);
      format_time (time, sizeof time, t[k], single_precision);
      if (rc->ndim == 2)
        fprintf (fp, "%s%zu,%s,%s,%s\n", lead, k, num[0], num[1], time);
      else
        fprintf (fp, "%s%zu,%s,%s,%s,%s\n", lead, k, num[0], num[1], num[2], time);
    }
  return FR_OK;
}

fr_status
fr_csv_write_times_to (FILE *fp, const fr_points *rc, const double *t, bool single_precision,
                       fr_error *err)
{
  c_numeric loc;
  fr_status st;

  if (rc->ndim != 2 && rc->ndim != 3)
    return fr_error_set (err, FR_E_INPUT, "points must have 2 or 3 coordinates, not %d",
                         rc->ndim);
  if (!c_numeric_enter (&loc))
    return fr_error_set (err, FR_E_NOMEM, "cannot set up the C locale");

  fputs (rc->ndim == 2 ? "receiver,x,z,t\n" : "receiver,x,y,z,t\n", fp);
  st = write_time_rows (fp, "", "", rc, t, single_precision, err);
  c_numeric_leave (&loc);
  return st;
}

fr_status
fr_csv_write_shot_times_to (FILE *fp, const fr_points *sources, const fr_points *rc,
                            const double *t, bool single_precision, fr_error *err)
{
  c_numeric loc;
  fr_status st = FR_OK;

  if ((rc->ndim != 2 && rc->ndim != 3) || sources->ndim != rc->ndim)
    return fr_error_set (err, FR_E_INPUT,
                         "sources and receivers must both have 2 or 3 coordinates, not %d and %d",
                         sources->ndim, rc->ndim);
  if (!c_numeric_enter (&loc))
    return fr_error_set (err, FR_E_NOMEM, "cannot set up the C locale");

  fputs (rc->ndim == 2 ? "source,source_x,source_z,receiver,x,z,t\n"
                       : "source,source_x,source_y,source_z,receiver,x,y,z,t\n", fp);
  for (size_t s = 0; s < sources->count && st == FR_OK; s++)
    {
      char snum[3][32], lead[128], whose[48];

      if (!format_point (sources->xyz + s * (size_t) sources->ndim, sources->ndim, snum))
        {
          st = fr_error_set (err, FR_E_INPUT, "source %zu: its point is not valid", s);
          break;
        }
      if (rc->ndim == 2)
        snprintf (lead, sizeof lead, "%zu,%s,%s,", s, snum[0], snum[1]);
      else
        snprintf (lead, sizeof lead, "%zu,%s,%s,%s,", s, snum[0], snum[1], snum[2]);
      snprintf (whose, sizeof whose, "source %zu, ", s);
      st = write_time_rows (fp, lead, whose, rc, t + s * rc->count, single_precision, err);
    }
  c_numeric_leave (&loc);
  return st;
}

/* Ends an atomic file its writer left with status st: committed when st
 * is FR_OK, else given up. */
static fr_status
commit_unless_failed (fr_atomic_file *af, fr_status st, fr_error *err)
{
  if (st != FR_OK)
    {
      fr_atomic_abort (af);
      return st;
    }
  return fr_atomic_commit (af, err);
}

fr_status
fr_csv_write_rays (const char *path, int ndim, const fr_csv_ray *rays, size_t nrays,
                   fr_error *err)
{
  fr_atomic_file af;
  fr_status st = fr_atomic_open (&af, path, err);

  if (st != FR_OK)
    return st;
  return commit_unless_failed (&af, fr_csv_write_rays_to (af.fp, ndim, rays, nrays, err), err);
}

fr_status
fr_csv_write_points (const char *path, const fr_points *p, fr_error *err)
{
  fr_atomic_file af;
  fr_status st = fr_atomic_open (&af, path, err);

  if (st != FR_OK)
    return st;
  return commit_unless_failed (&af, fr_csv_write_points_to (af.fp, p, err), err);
}

fr_status
fr_csv_write_times (const char *path, const fr_points *rc, const double *t, bool single_precision,
                    fr_error *err)
{
  fr_atomic_file af;
  fr_status st = fr_atomic_open (&af, path, err);

  if (st != FR_OK)
    return st;
  return commit_unless_failed (&af, fr_csv_write_times_to (af.fp, rc, t, single_precision, err),
                               err);
}

fr_status
fr_csv_write_shot_times (const char *path, const fr_points *sources, const fr_points *rc,
                         const double *t, bool single_precision, fr_error *err)
{
  fr_atomic_file af;
  fr_status st = fr_atomic_open (&af, path, err);

  if (st != FR_OK)
    return st;
  return commit_unless_failed (&af, fr_csv_write_shot_times_to (af.fp, sources, rc, t,
                                                                single_precision, err), err);
}
