/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-vtk.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fr-atomic-file.h"
#include "fr-i18n.h"

/* Streams text and base64 into the atomic file.  The first failed write is
 * remembered and every later one skipped, so the callers stay linear and
 * check once at the end. */
typedef struct vtk_writer {
  FILE *fp;
  int error;               /* errno of the first failed write, 0 while all is well */
  unsigned char carry[3];  /* bytes waiting for a full base64 triple */
  size_t ncarry;
  size_t nout;
  char out[4096];          /* encoded text waiting for fwrite */
} vtk_writer;

static const char b64_alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void
put_bytes (vtk_writer *w, const void *s, size_t n)
{
  if (w->error != 0 || n == 0)
    return;
  errno = 0;
  if (fwrite (s, 1, n, w->fp) != n)
    w->error = errno != 0 ? errno : EIO;
}

static void
put_str (vtk_writer *w, const char *s)
{
  put_bytes (w, s, strlen (s));
}

/* Attribute values are quoted with '"', and names come from users. */
static void
put_escaped (vtk_writer *w, const char *s)
{
  for (; *s != '\0'; s++)
    {
      switch (*s)
        {
        case '&': put_str (w, "&amp;"); break;
        case '<': put_str (w, "&lt;"); break;
        case '>': put_str (w, "&gt;"); break;
        case '"': put_str (w, "&quot;"); break;
        case '\'': put_str (w, "&apos;"); break;
        default: put_bytes (w, s, 1); break;
        }
    }
}

static void
b64_flush (vtk_writer *w)
{
  put_bytes (w, w->out, w->nout);
  w->nout = 0;
}

static void
b64_triple (vtk_writer *w, const unsigned char *t, size_t n)
{
  uint32_t v = (uint32_t) t[0] << 16 | (uint32_t) (n > 1 ? t[1] : 0) << 8 | (n > 2 ? t[2] : 0);

  if (w->nout + 4 > sizeof w->out)
    b64_flush (w);
  w->out[w->nout++] = b64_alphabet[v >> 18 & 63];
  w->out[w->nout++] = b64_alphabet[v >> 12 & 63];
  w->out[w->nout++] = n > 1 ? b64_alphabet[v >> 6 & 63] : '=';
  w->out[w->nout++] = n > 2 ? b64_alphabet[v & 63] : '=';
}

/* One array is one continuous base64 stream (header then values), as VTK
 * itself writes uncompressed inline data. */
static void
b64_put (vtk_writer *w, const void *data, size_t n)
{
  const unsigned char *p = data;

  while (n > 0 && w->error == 0)
    {
      if (w->ncarry == 0 && n >= 3)
        {
          b64_triple (w, p, 3);
          p += 3;
          n -= 3;
          continue;
        }
      w->carry[w->ncarry++] = *p++;
      n--;
      if (w->ncarry == 3)
        {
          b64_triple (w, w->carry, 3);
          w->ncarry = 0;
        }
    }
}

static void
b64_end (vtk_writer *w)
{
  if (w->ncarry > 0)
    b64_triple (w, w->carry, w->ncarry);
  w->ncarry = 0;
  b64_flush (w);
}

/* Opens a DataArray element and starts its stream with the UInt64 byte count. */
static void
begin_array (vtk_writer *w, const char *indent, const char *type, const char *name,
             int ncomp, uint64_t nbytes)
{
  put_str (w, indent);
  put_str (w, "<DataArray type=\"");
  put_str (w, type);
  put_str (w, "\" Name=\"");
  put_escaped (w, name);
  put_str (w, ncomp == 3 ? "\" NumberOfComponents=\"3\" format=\"binary\">"
                         : "\" format=\"binary\">");
  w->ncarry = 0;
  w->nout = 0;
  b64_put (w, &nbytes, sizeof nbytes);
}

static void
end_array (vtk_writer *w)
{
  b64_end (w);
  put_str (w, "</DataArray>\n");
}

static bool
host_is_little_endian (void)
{
  const uint16_t one = 1;
  unsigned char first;

  memcpy (&first, &one, 1);
  return first == 1;
}

static void
put_file_start (vtk_writer *w, const char *type)
{
  put_str (w, "<?xml version=\"1.0\"?>\n<VTKFile type=\"");
  put_str (w, type);
  /* The data are the host's bytes; the reader swaps if it must. */
  put_str (w, host_is_little_endian ()
              ? "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
              : "\" version=\"1.0\" byte_order=\"BigEndian\" header_type=\"UInt64\">\n");
}

/* Commits the file, or removes it when a write failed along the way. */
static fr_status
finish (vtk_writer *w, fr_atomic_file *af, fr_error *err)
{
  if (w->error != 0)
    {
      fr_status st = fr_error_set (err, FR_E_IO, fr__ ("%s: cannot write: %s"), af->name,
                                   strerror (w->error));
      fr_atomic_abort (af);
      return st;
    }
  return fr_atomic_commit (af, err);
}

/* Names end up in XML attributes: control characters would not survive
 * attribute normalisation, so they are refused rather than mangled. */
static bool
name_ok (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return false;
  for (const unsigned char *p = (const unsigned char *) name; *p != '\0'; p++)
    if (*p < 0x20 || *p == 0x7f)
      return false;
  return true;
}

/* Formats n doubles separated by spaces with a '.' decimal point: the GTK
 * application runs under the user's locale, where printf may write "0,5". */
static fr_status
format_doubles (char *buf, size_t size, const double *v, int n, fr_error *err)
{
  locale_t c_locale = newlocale (LC_NUMERIC_MASK, "C", (locale_t) 0);
  locale_t old;
  size_t len = 0;

  if (c_locale == (locale_t) 0)
    return fr_error_set (err, FR_E_NOMEM, "cannot create the C locale");
  old = uselocale (c_locale);
  buf[0] = '\0';
  for (int i = 0; i < n && len < size; i++)
    {
      int k = snprintf (buf + len, size - len, i == 0 ? "%.17g" : " %.17g", v[i]);
      len += k > 0 ? (size_t) k : 0;
    }
  uselocale (old);
  freelocale (c_locale);
  return FR_OK;
}

static fr_status
check_fields (const char *path, const fr_vtk_field *fields, int nfields, fr_error *err)
{
  if (nfields < 1 || fields == NULL)
    return fr_error_set (err, FR_E_INPUT, "%s: no field to write", path);
  for (int i = 0; i < nfields; i++)
    {
      const fr_vtk_field *f = &fields[i];

      if (!name_ok (f->name))
        return fr_error_set (err, FR_E_INPUT,
                             "%s: field %d needs a non-empty name without control characters",
                             path, i);
      if (f->dtype != FR_F32 && f->dtype != FR_F64)
        return fr_error_set (err, FR_E_INPUT, "%s: field \"%s\" has an unknown type",
                             path, f->name);
      if (f->data == NULL)
        return fr_error_set (err, FR_E_INPUT, "%s: field \"%s\" has no data", path, f->name);
      for (int j = 0; j < i; j++)
        if (strcmp (fields[j].name, f->name) == 0)
          return fr_error_set (err, FR_E_INPUT, "%s: two fields are named \"%s\"",
                               path, f->name);
    }
  return FR_OK;
}

fr_status
fr_vtk_write_image (const char *path, const fr_grid *g,
                    const fr_vtk_field *fields, int nfields, fr_error *err)
{
  fr_atomic_file af;
  vtk_writer w = { 0 };
  char extent[128], origin[128], spacing[128];
  double o[3], s[3];
  size_t count;
  fr_status st;

  if (path == NULL)
    return fr_error_set (err, FR_E_INPUT, "no file name for the VTK image");
  if (g == NULL)
    return fr_error_set (err, FR_E_INPUT, "%s: no grid", path);
  if ((st = fr_grid_check (g, err)) != FR_OK)
    {
      fr_error_prefix (err, "%s: ", path);
      return st;
    }
  if ((st = check_fields (path, fields, nfields, err)) != FR_OK)
    return st;

  /* 2D is the y = 0 slab (see fr-vtk.h); dy and y0 of a 2D grid mean nothing. */
  o[0] = g->x0;
  o[1] = g->ndim == 3 ? g->y0 : 0.0;
  o[2] = g->z0;
  s[0] = g->dx;
  s[1] = g->ndim == 3 ? g->dy : 1.0;
  s[2] = g->dz;
  if ((st = format_doubles (origin, sizeof origin, o, 3, err)) != FR_OK
      || (st = format_doubles (spacing, sizeof spacing, s, 3, err)) != FR_OK)
    return st;
  snprintf (extent, sizeof extent, "0 %zu 0 %zu 0 %zu", g->nx - 1, g->ny - 1, g->nz - 1);
  count = fr_grid_count (g);

  if ((st = fr_atomic_open (&af, path, err)) != FR_OK)
    return st;
  w.fp = af.fp;

  put_file_start (&w, "ImageData");
  put_str (&w, "  <ImageData WholeExtent=\"");
  put_str (&w, extent);
  put_str (&w, "\" Origin=\"");
  put_str (&w, origin);
  put_str (&w, "\" Spacing=\"");
  put_str (&w, spacing);
  put_str (&w, "\">\n    <Piece Extent=\"");
  put_str (&w, extent);
  put_str (&w, "\">\n      <PointData Scalars=\"");
  put_escaped (&w, fields[0].name);
  put_str (&w, "\">\n");
  for (int i = 0; i < nfields && w.error == 0; i++)
    {
      bool f32 = fields[i].dtype == FR_F32;
      size_t nbytes = count * (f32 ? sizeof (float) : sizeof (double));

      begin_array (&w, "        ", f32 ? "Float32" : "Float64", fields[i].name, 1, nbytes);
      b64_put (&w, fields[i].data, nbytes);
      end_array (&w);
    }
  put_str (&w, "      </PointData>\n    </Piece>\n  </ImageData>\n</VTKFile>\n");
  return finish (&w, &af, err);
}

fr_status
fr_vtk_write_polylines (const char *path, int ndim,
                        const double *const *pts, const size_t *npts, size_t nlines,
                        const char *id_name, fr_error *err)
{
  return fr_vtk_write_polylines_data (path, ndim, pts, npts, nlines, id_name, NULL, 0, err);
}

fr_status
fr_vtk_write_polylines_data (const char *path, int ndim,
                             const double *const *pts, const size_t *npts, size_t nlines,
                             const char *id_name, const fr_vtk_line_field *fields, int nfields,
                             fr_error *err)
{
  fr_atomic_file af;
  vtk_writer w = { 0 };
  size_t total = 0, ncells = 0;
  char counts[160];
  fr_status st;
  int64_t k;

  if (path == NULL)
    return fr_error_set (err, FR_E_INPUT, "no file name for the VTK polylines");
  if (ndim != 2 && ndim != 3)
    return fr_error_set (err, FR_E_INPUT, "%s: points must have 2 or 3 coordinates, not %d",
                         path, ndim);
  if (id_name == NULL)
    id_name = "id";
  if (!name_ok (id_name))
    return fr_error_set (err, FR_E_INPUT,
                         "%s: the id array needs a non-empty name without control characters",
                         path);
  if (nfields < 0 || (nfields > 0 && fields == NULL))
    return fr_error_set (err, FR_E_INPUT, "%s: no line fields", path);
  for (int f = 0; f < nfields; f++)
    {
      if (!name_ok (fields[f].name) || strcmp (fields[f].name, id_name) == 0)
        return fr_error_set (err, FR_E_INPUT, "%s: line field %d needs a non-empty name without "
                             "control characters, other than the id's", path, f);
      for (int e = 0; e < f; e++)
        if (strcmp (fields[e].name, fields[f].name) == 0)
          return fr_error_set (err, FR_E_INPUT, "%s: two line fields are named \"%s\"", path,
                               fields[f].name);
      if (nlines > 0 && fields[f].values == NULL)
        return fr_error_set (err, FR_E_INPUT, "%s: line field \"%s\" has no values", path,
                             fields[f].name);
    }
  if (nlines > 0 && (pts == NULL || npts == NULL))
    return fr_error_set (err, FR_E_INPUT, "%s: no points", path);
  /* Ids are Int32, and 3 doubles a point must still be countable in bytes. */
  if (nlines > INT32_MAX)
    return fr_error_set (err, FR_E_INPUT, "%s: too many lines (%zu)", path, nlines);
  for (size_t i = 0; i < nlines; i++)
    {
      if (npts[i] == 0)
        continue;
      if (pts[i] == NULL)
        return fr_error_set (err, FR_E_INPUT, "%s: line %zu has no points", path, i);
      if (npts[i] > (SIZE_MAX / (3 * sizeof (double))) - total)
        return fr_error_set (err, FR_E_INPUT, "%s: too many points", path);
      for (size_t j = 0; j < npts[i] * (size_t) ndim; j++)
        if (!isfinite (pts[i][j]))
          return fr_error_set (err, FR_E_INPUT, "%s: line %zu, point %zu is not finite",
                               path, i, j / (size_t) ndim);
      total += npts[i];
      ncells++;
    }

  snprintf (counts, sizeof counts,
            "NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"%zu\" "
            "NumberOfStrips=\"0\" NumberOfPolys=\"0\"", total, ncells);

  if ((st = fr_atomic_open (&af, path, err)) != FR_OK)
    return st;
  w.fp = af.fp;

  put_file_start (&w, "PolyData");
  put_str (&w, "  <PolyData>\n    <Piece ");
  put_str (&w, counts);
  put_str (&w, ">\n      <Points>\n");
  begin_array (&w, "        ", "Float64", "Points", 3, total * 3 * sizeof (double));
  for (size_t i = 0; i < nlines; i++)
    for (size_t j = 0; j < npts[i]; j++)
      {
        const double *q = pts[i] + j * (size_t) ndim;
        double p[3] = { q[0], ndim == 3 ? q[1] : 0.0, q[ndim - 1] };
        b64_put (&w, p, sizeof p);
      }
  end_array (&w);
  put_str (&w, "      </Points>\n      <Lines>\n");

  /* Each line's points are consecutive, so connectivity is 0 .. total-1
   * and offsets (VTK XML: the end of each cell, no leading 0) are the
   * running sums. */
  begin_array (&w, "        ", "Int64", "connectivity", 1, total * sizeof (int64_t));
  for (k = 0; (size_t) k < total && w.error == 0; k++)
    b64_put (&w, &k, sizeof k);
  end_array (&w);
  begin_array (&w, "        ", "Int64", "offsets", 1, ncells * sizeof (int64_t));
  k = 0;
  for (size_t i = 0; i < nlines; i++)
    if (npts[i] > 0)
      {
        k += (int64_t) npts[i];
        b64_put (&w, &k, sizeof k);
      }
  end_array (&w);
  put_str (&w, "      </Lines>\n      <CellData Scalars=\"");
  put_escaped (&w, id_name);
  put_str (&w, "\">\n");
  begin_array (&w, "        ", "Int32", id_name, 1, ncells * sizeof (int32_t));
  for (size_t i = 0; i < nlines; i++)
    if (npts[i] > 0)
      {
        int32_t id = (int32_t) i;
        b64_put (&w, &id, sizeof id);
      }
  end_array (&w);
  for (int f = 0; f < nfields; f++)
    {
      begin_array (&w, "        ", "Float64", fields[f].name, 1, ncells * sizeof (double));
      for (size_t i = 0; i < nlines; i++)
        if (npts[i] > 0)
          b64_put (&w, &fields[f].values[i], sizeof (double));
      end_array (&w);
    }
  put_str (&w, "      </CellData>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
  return finish (&w, &af, err);
}
