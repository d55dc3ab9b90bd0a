/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading back the SVG that cairo writes for a figure: the page's size and
 * every <path> outside <defs> (where the glyphs of the text live), with
 * its style, "d" and transform, in the file's order. */
#pragma once

#include <glib.h>

typedef struct
{
  guint  n_svg;           /* <svg> elements: 1 in a figure */
  double width, height;   /* the root's, in points */
} TestSvgPage;

/* One path: its "style" and "d" ("" where absent), its "transform" or
 * NULL. */
typedef void (*TestSvgPathFunc) (const char *style,
                                 const char *d,
                                 const char *transform,
                                 gpointer    data);

typedef struct
{
  TestSvgPage     *page;
  TestSvgPathFunc  func;
  gpointer         data;
  int              depth_defs;
} TestSvgReader;

static inline void
test_svg_start (GMarkupParseContext *ctx, const char *name, const char **attr_names,
                const char **attr_values, gpointer data, GError **error)
{
  TestSvgReader *r = data;
  const char *style = "", *d = "", *transform = NULL;

  if (g_str_equal (name, "defs"))
    r->depth_defs++;
  if (g_str_equal (name, "svg"))
    r->page->n_svg++;
  for (guint i = 0; attr_names[i] != NULL; i++)
    {
      if (g_str_equal (name, "svg") && g_str_equal (attr_names[i], "width"))
        r->page->width = g_ascii_strtod (attr_values[i], NULL);
      if (g_str_equal (name, "svg") && g_str_equal (attr_names[i], "height"))
        r->page->height = g_ascii_strtod (attr_values[i], NULL);
      if (g_str_equal (attr_names[i], "style"))
        style = attr_values[i];
      if (g_str_equal (attr_names[i], "d"))
        d = attr_values[i];
      if (g_str_equal (attr_names[i], "transform"))
        transform = attr_values[i];
    }
  if (g_str_equal (name, "path") && r->depth_defs == 0)
    r->func (style, d, transform, r->data);
}

static inline void
test_svg_end (GMarkupParseContext *ctx, const char *name, gpointer data, GError **error)
{
  TestSvgReader *r = data;

  if (g_str_equal (name, "defs"))
    r->depth_defs--;
}

/* Parses the SVG file path as XML: its page into page, each path to func. */
static inline void
test_svg_read (const char *path, TestSvgPage *page, TestSvgPathFunc func, gpointer data)
{
  static const GMarkupParser parser = { test_svg_start, test_svg_end, NULL, NULL, NULL };
  TestSvgReader reader = { page, func, data, 0 };
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GMarkupParseContext *ctx;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  *page = (TestSvgPage) { 0 };
  ctx = g_markup_parse_context_new (&parser, 0, &reader, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, text, len, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_markup_parse_context_free (ctx);
}
