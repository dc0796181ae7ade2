/* nb-sim-skill.h — skills executed on a simulated robot
 *
 * The simulated cobot knows where it is (a named place), what its gripper
 * holds and where each object lies; it executes a skill as the skill
 * table's sim steps (motion to the object's or the target's place, gripper
 * close / open / keep, wait) on a deterministic virtual clock.  A gripper
 * step that is physically impossible (closing on a second object, opening
 * on an object not held) fails the skill, as a real gripper's check would;
 * a fault can be injected into any action to rehearse the failure path.
 */
#pragma once

#include "nb-skill.h"

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint action;                  /* the index of the plan action it belongs to */
  NbSkillStepKind kind;
  int arg;                       /* NB_SKILL_TO_* / NB_SKILL_GRIPPER_* */
  char *place;                   /* motion: the place reached; gripper: the object */
  const char *what;              /* wait: what is waited for */
  double t_start_s;
  double duration_s;
  gboolean ok;
} NbSimEvent;

typedef struct _NbSimRobot NbSimRobot;

/* The robot starts at home ("исходное положение") with an empty gripper at t = 0. */
NbSimRobot    *nb_sim_robot_new      (void);
void           nb_sim_robot_free     (NbSimRobot *robot);

/* Executes skill on object [→ target] as plan action `action`; FALSE with
 * *reason (owned by the caller) when it fails.  inject_fault fails its
 * first step. */
gboolean       nb_sim_robot_execute  (NbSimRobot *robot, guint action, const NbSkill *skill,
                                      const char *object, const char *target,
                                      gboolean inject_fault, char **reason);

double         nb_sim_robot_clock_s  (const NbSimRobot *robot);
const char    *nb_sim_robot_place    (const NbSimRobot *robot);
/* The object in the gripper, or NULL. */
const char    *nb_sim_robot_holding  (const NbSimRobot *robot);
/* Every step executed so far, in order (NbSimEvent). */
const GArray  *nb_sim_robot_events   (const NbSimRobot *robot);

const char    *nb_sim_step_name      (NbSkillStepKind kind);
const char    *nb_sim_gripper_name   (int arg);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbSimRobot, nb_sim_robot_free)

G_END_DECLS
