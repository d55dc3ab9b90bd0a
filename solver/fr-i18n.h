/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Translation of the messages an application's user meets: a source
 * inside an obstacle, a horizon on no open node, a CUDA back end that fell
 * back to the CPU.  They are written fr__ ("..."), which xgettext extracts
 * (po/meson.build); an application that translates installs its
 * catalogue's lookup with fr_set_translator, and fr__ then gives the
 * translation, or the English where there is none.  The command-line
 * tools install none: their messages stay as CONTRACT.md has them. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* msgid's translation, or msgid itself; never NULL. */
typedef const char *(*fr_translator) (const char *msgid);

/* Installs fn (NULL: none).  Call it once, before the first solve: the
 * solvers read it from their threads without a lock. */
void fr_set_translator (fr_translator fn);

/* msgid, translated when a translator is installed.  format_arg: the
 * compiler checks a printf format given through it against its arguments. */
const char *fr__ (const char *msgid) __attribute__ ((format_arg (1)));

#ifdef __cplusplus
}
#endif
