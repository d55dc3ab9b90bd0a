/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-i18n.h"

#include <stddef.h>

static fr_translator translator;

void
fr_set_translator (fr_translator fn)
{
  translator = fn;
}

const char *
fr__ (const char *msgid)
{
  const char *t = translator != NULL ? translator (msgid) : NULL;

  return t != NULL ? t : msgid;
}
