/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-undo"

#include "config.h"

#include "fr-undo.h"

/* Most commands kept; the oldest drop off first. */
#define FR_UNDO_MAX_DEPTH 500

typedef struct
{
  guint64         id;       /* unique within its stack, from 1 */
  char           *label;
  gpointer        data;
  GDestroyNotify  data_free;
} Command;

struct _FrUndo
{
  GObject     parent_instance;

  FrUndoFunc  undo;
  FrUndoFunc  redo;
  gpointer    user_data;

  GQueue      done;     /* head = most recent */
  GQueue      undone;   /* head = next to redo */
  guint64     last_id;
  guint64     clean;    /* the position marked clean, or NO_POSITION */
};

/* A position is the id of the most recent command done, 0 for none. */
#define NO_POSITION G_MAXUINT64

G_DEFINE_FINAL_TYPE (FrUndo, fr_undo, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
command_free (gpointer data)
{
  Command *cmd = data;

  if (cmd->data_free != NULL)
    cmd->data_free (cmd->data);
  g_free (cmd->label);
  g_free (cmd);
}

static void
notify_state (FrUndo *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
}

static void
fr_undo_finalize (GObject *object)
{
  FrUndo *self = (FrUndo *)object;

  g_queue_clear_full (&self->done, command_free);
  g_queue_clear_full (&self->undone, command_free);

  G_OBJECT_CLASS (fr_undo_parent_class)->finalize (object);
}

static void
fr_undo_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  FrUndo *self = FR_UNDO (object);

  switch (prop_id)
    {
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, fr_undo_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, fr_undo_can_redo (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fr_undo_class_init (FrUndoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = fr_undo_finalize;
  object_class->get_property = fr_undo_get_property;

  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fr_undo_init (FrUndo *self)
{
  g_queue_init (&self->done);
  g_queue_init (&self->undone);
  self->clean = 0;
}

/* A stack whose commands are replayed through undo and redo, each called
 * with a command's data and user_data. */
FrUndo *
fr_undo_new (FrUndoFunc undo,
             FrUndoFunc redo,
             gpointer   user_data)
{
  FrUndo *self;

  g_return_val_if_fail (undo != NULL, NULL);
  g_return_val_if_fail (redo != NULL, NULL);

  self = g_object_new (FR_TYPE_UNDO, NULL);
  self->undo = undo;
  self->redo = redo;
  self->user_data = user_data;
  return self;
}

/* Records a command that has already been done; drops the redo branch. */
void
fr_undo_push (FrUndo         *self,
              const char     *label,
              gpointer        data,
              GDestroyNotify  data_free)
{
  Command *cmd;

  g_return_if_fail (FR_IS_UNDO (self));

  g_queue_clear_full (&self->undone, command_free);

  cmd = g_new0 (Command, 1);
  cmd->id = ++self->last_id;
  cmd->label = g_strdup (label);
  cmd->data = data;
  cmd->data_free = data_free;
  g_queue_push_head (&self->done, cmd);

  while (self->done.length > FR_UNDO_MAX_DEPTH)
    {
      Command *oldest = g_queue_pop_tail (&self->done);

      /* Undoing everything now stops after the oldest command: that
       * state is the clean one where the oldest's was, and the state
       * before it is out of reach. */
      if (self->clean == oldest->id)
        self->clean = 0;
      else if (self->clean == 0)
        self->clean = NO_POSITION;
      command_free (oldest);
    }

  notify_state (self);
}

/* Undoes the most recent command; FALSE when there is none. */
gboolean
fr_undo_undo (FrUndo *self)
{
  Command *cmd;

  g_return_val_if_fail (FR_IS_UNDO (self), FALSE);

  if ((cmd = g_queue_pop_head (&self->done)) == NULL)
    return FALSE;
  self->undo (cmd->data, self->user_data);
  g_queue_push_head (&self->undone, cmd);
  notify_state (self);
  return TRUE;
}

/* Redoes the most recently undone command; FALSE when there is none. */
gboolean
fr_undo_redo (FrUndo *self)
{
  Command *cmd;

  g_return_val_if_fail (FR_IS_UNDO (self), FALSE);

  if ((cmd = g_queue_pop_head (&self->undone)) == NULL)
    return FALSE;
  self->redo (cmd->data, self->user_data);
  g_queue_push_head (&self->done, cmd);
  notify_state (self);
  return TRUE;
}

gboolean
fr_undo_can_undo (FrUndo *self)
{
  g_return_val_if_fail (FR_IS_UNDO (self), FALSE);
  return self->done.length > 0;
}

gboolean
fr_undo_can_redo (FrUndo *self)
{
  g_return_val_if_fail (FR_IS_UNDO (self), FALSE);
  return self->undone.length > 0;
}

/* The label of the command that undo would undo, or NULL. */
const char *
fr_undo_peek_label (FrUndo *self)
{
  Command *cmd;

  g_return_val_if_fail (FR_IS_UNDO (self), NULL);

  cmd = g_queue_peek_head (&self->done);
  return cmd != NULL ? cmd->label : NULL;
}

/* Forgets every command (a new model was loaded). */
void
fr_undo_clear (FrUndo *self)
{
  g_return_if_fail (FR_IS_UNDO (self));

  g_queue_clear_full (&self->done, command_free);
  g_queue_clear_full (&self->undone, command_free);
  self->clean = NO_POSITION;
  notify_state (self);
}

static guint64
position (FrUndo *self)
{
  Command *cmd = g_queue_peek_head (&self->done);

  return cmd != NULL ? cmd->id : 0;
}

/* Marks where the stack stands now as clean (the document was saved or
 * loaded here), so that undo and redo can tell when they return to it. */
void
fr_undo_mark_clean (FrUndo *self)
{
  g_return_if_fail (FR_IS_UNDO (self));
  self->clean = position (self);
}

/* Whether the stack stands where it was marked clean: TRUE only when
 * every command since was undone again (or undone ones redone). */
gboolean
fr_undo_is_clean (FrUndo *self)
{
  g_return_val_if_fail (FR_IS_UNDO (self), FALSE);
  return self->clean != NO_POSITION && position (self) == self->clean;
}

/* How many commands undo can take back. */
guint
fr_undo_get_depth (FrUndo *self)
{
  g_return_val_if_fail (FR_IS_UNDO (self), 0);
  return self->done.length;
}
