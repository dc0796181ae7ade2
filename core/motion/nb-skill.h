/* nb-skill.h — the table of robot skills (seeds/000), loaded from data
 *
 * The table is data (data/skills.json): each skill's name, its Russian and
 * English descriptions, what its `target` may be (forbidden, required, or one
 * fixed value), a fixed `object` where the seed gives one (return_home:
 * робот), the gripper rules of the logical lint and the simulated robot
 * actions that execute it.  Code never names a skill; adding one is a data
 * change.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  NB_SKILL_TARGET_FORBIDDEN,   /* no `target` field (seed: "—") */
  NB_SKILL_TARGET_REQUIRED,    /* a non-empty place name */
  NB_SKILL_TARGET_FIXED,       /* exactly target_value */
} NbSkillTarget;

typedef enum {
  NB_SKILL_GRIP_ANY,           /* no rule */
  NB_SKILL_GRIP_EMPTY,         /* nothing may be held */
  NB_SKILL_GRIP_HELD,          /* the action's object must be held */
} NbSkillGripRequire;

typedef enum {
  NB_SKILL_GRIP_KEEP,          /* the gripper state is unchanged */
  NB_SKILL_GRIP_GRASP,         /* the action's object is held afterwards */
  NB_SKILL_GRIP_RELEASE,       /* the gripper is empty afterwards */
} NbSkillGripEffect;

typedef enum {
  NB_SKILL_STEP_MOTION,        /* move to a place: arg NB_SKILL_TO_* */
  NB_SKILL_STEP_GRIPPER,       /* arg NB_SKILL_GRIPPER_* */
  NB_SKILL_STEP_WAIT,          /* wait for duration_s; what names it */
} NbSkillStepKind;

enum { NB_SKILL_TO_OBJECT, NB_SKILL_TO_TARGET };
enum { NB_SKILL_GRIPPER_CLOSE, NB_SKILL_GRIPPER_OPEN, NB_SKILL_GRIPPER_KEEP };

/* One simulated robot action of a skill. */
typedef struct {
  NbSkillStepKind kind;
  int arg;                     /* NB_SKILL_TO_* or NB_SKILL_GRIPPER_* */
  const char *what;            /* wait: what is waited for; else NULL */
  double duration_s;           /* on the virtual clock, ≥ 0 */
} NbSkillStep;

typedef struct {
  const char *name;
  const char *description_ru;
  const char *description_en;
  NbSkillTarget target;
  const char *target_value;    /* FIXED only */
  const char *target_ru;       /* REQUIRED: what the target is (seed column 3) */
  const char *target_en;
  const char *object_value;    /* the only accepted object, or NULL */
  NbSkillGripRequire grip_requires;
  NbSkillGripEffect grip_effect;
  const NbSkillStep *steps;
  guint n_steps;
} NbSkill;

typedef struct _NbSkillTable NbSkillTable;

/* name is used in messages ("skills.json: skills[3].target: …"). */
NbSkillTable  *nb_skill_table_load_data (const char *name, const char *data, gssize len,
                                         GError **error);
NbSkillTable  *nb_skill_table_load_file (const char *path, GError **error);
void           nb_skill_table_free      (NbSkillTable *table);

guint          nb_skill_table_size      (const NbSkillTable *table);
const NbSkill *nb_skill_table_get       (const NbSkillTable *table, guint i);
/* NULL when there is no such skill. */
const NbSkill *nb_skill_table_lookup    (const NbSkillTable *table, const char *name);

const char    *nb_skill_target_name     (NbSkillTarget target);

/* The three terminal outcomes of a plan (seeds/000): never skills. */
gboolean       nb_skill_is_terminal     (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbSkillTable, nb_skill_table_free)

G_END_DECLS
