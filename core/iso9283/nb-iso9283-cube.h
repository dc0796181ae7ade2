/* nb-iso9283-cube.h — the test cube and test poses of ISO 9283 clause 6, from the arm model
 *
 * 6.2: the cube has its edges parallel to the base frame and lies in the
 * part of the working space of greatest use, with the largest volume there;
 * the operator chooses where (its centre) and navbench finds the largest
 * edge the arm reaches at every corner and test pose, with the tool
 * orientation held, inside the soft joint ranges.  Corners: C1 (−,−,−),
 * C2 (+,−,−), C3 (+,+,−), C4 (−,+,−) below and C5..C8 above C1..C4, so that
 * the four measurement planes of 6.3 are C1-C2-C7-C8, C2-C3-C8-C5,
 * C3-C4-C5-C6 and C4-C1-C6-C7.  6.3: P1 is the cube's centre; P2..P5 lie on
 * the plane's two diagonals at 10 % of the diagonal's length from the
 * corners (P2 by its first corner, P3 by its second, P4 by its third, P5 by
 * its fourth), so P2 → P4 is the diagonal of the path tests.
 * Positions in mm in base_link, the orientation as a, b, c (°) about x, y, z.
 */
#pragma once

#include <glib.h>

#include "nb-arm.h"
#include "nb-sequence.h"

G_BEGIN_DECLS

#define NB_ISO9283_POSES 5

typedef struct {
  double centre_mm[3];
  double edge_mm;
  guint plane;                  /* 1..4, as listed above */
  double abc_deg[3];            /* the tool orientation at every pose */
  double corner_mm[8][3];       /* C1..C8 */
  double p_mm[NB_ISO9283_POSES][3];  /* P1..P5 */
} NbIso9283Cube;

/* The fraction of the diagonal from each corner to its pose (6.3). */
#define NB_ISO9283_DIAGONAL_FRACTION 0.10

/* Pure geometry: the corners and poses of a cube. */
gboolean nb_iso9283_cube_init (const double centre_mm[3], double edge_mm, guint plane,
                               const double abc_deg[3], NbIso9283Cube *cube, GError **error);

/* The pose of a point of the cube (mm) with the cube's orientation, as the
 * 4×4 (metres) nb_arm_ik takes. */
void     nb_iso9283_cube_target (const NbIso9283Cube *cube, const double p_mm[3], double T[16]);

/* The joints of P1..P5: IK from seed (P1, then each pose from P1's joints),
 * each checked against the soft ranges (nb_arm_check_joints) and by forward
 * kinematics; an error names the pose. */
gboolean nb_iso9283_cube_joints (const NbArmModel *model, const NbIso9283Cube *cube,
                                 const double seed[NB_ARM_JOINTS],
                                 double q[NB_ISO9283_POSES][NB_ARM_JOINTS], GError **error);

/* The largest cube about centre_mm (edge up to max_edge_mm, to 1 mm) whose
 * eight corners and five poses the arm reaches; an error when not even a
 * 10 mm cube fits there. */
gboolean nb_iso9283_cube_fit (const NbArmModel *model, const double centre_mm[3], guint plane,
                              const double abc_deg[3], double max_edge_mm,
                              const double seed[NB_ARM_JOINTS], NbIso9283Cube *cube,
                              double q[NB_ISO9283_POSES][NB_ARM_JOINTS], GError **error);

/* The index (0-based into P1..P5) of the k-th pose of the pose test's
 * cycle P1 → P5 → P4 → P3 → P2 (7.2.3 / 10.1). */
guint    nb_iso9283_cycle_pose (guint k);

/* The pose test as a motion sequence of joint points: home P1, waypoints
 * P5, P4, P3, P2, cycles iterations; every point checked against the soft
 * ranges before anything moves. */
NbSequence *nb_iso9283_pose_sequence (const NbArmModel *model,
                                      const double q[NB_ISO9283_POSES][NB_ARM_JOINTS],
                                      guint cycles, GError **error);

G_END_DECLS
