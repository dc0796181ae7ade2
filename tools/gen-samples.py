#!/usr/bin/python3
"""Writes data/samples/: realistic measurements of a simulated campaign for the
README's first command and the documentation.  Seeded: the files are
reproducible.  Robot: w = 730 mm, so LU = 1000 mm and routes are 5 LU = 5 m.

    /usr/bin/python3 tools/gen-samples.py data/samples
"""
import math
import os
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else 'data/samples'
os.makedirs(out, exist_ok=True)
rnd = random.Random(18646)
LU = 1000.0


def header(f, name, what):
    f.write(f'# Name: {name}\n# Source: navbench simulator (tools/gen-samples.py, seed 18646)\n'
            f'# {what}\n')


# What a run of clauses 7 and 9 measures beside the time (docs/campaign.md):
# the smallest clearance, the start at P0 (5.4 a, 7.3 a) and the attained
# pose at PG (7.3 c, 9.3 c), in the course's frame (P0 at the origin, +x to
# PG).  Drawn from their own generator so the columns above keep their values.
rnd_course = random.Random(18647)
COURSE_COLUMNS = ('clearance_mm,start_x_mm,start_y_mm,start_theta_deg,'
                  'attained_x_mm,attained_y_mm,attained_theta_deg')


def course(pg_mm, clearance_mm):
    """The measured columns of one trial: started at P0 within a few mm; at
    PG (pg_mm; None: it did not reach it) with the robot's clause 5 offset
    (2.7 mm along, -2.1 mm across, +0.16°) and spread; clearance None: no
    obstacle on the course."""
    start = (rnd_course.gauss(0, 3), rnd_course.gauss(0, 3), rnd_course.gauss(0, 0.3))
    cells = ['' if clearance_mm is None else f'{clearance_mm:.0f}',
             f'{start[0]:.1f}', f'{start[1]:.1f}', f'{start[2]:.2f}']
    if pg_mm is None:
        cells += ['', '', '']
    else:
        cells += [f'{pg_mm + 2.7 + rnd_course.gauss(0, 0.8):.1f}',
                  f'{-2.1 + rnd_course.gauss(0, 0.8):.1f}',
                  f'{0.16 + rnd_course.gauss(0, 0.15):.2f}']
    return ','.join(cells)


def pose_file(name, command, bias, sigma_mm, sigma_deg, n=30):
    with open(os.path.join(out, name), 'w') as f:
        header(f, name, f'Command pose {command[0]:g},{command[1]:g},{command[2]:g} (mm, mm, deg)')
        f.write('trial,x_mm,y_mm,theta_deg\n')
        for j in range(1, n + 1):
            x = command[0] + bias[0] + rnd.gauss(0, sigma_mm)
            y = command[1] + bias[1] + rnd.gauss(0, sigma_mm)
            t = command[2] + bias[2] + rnd.gauss(0, sigma_deg)
            t = (t + 180.0) % 360.0 - 180.0
            f.write(f'{j},{x:.3f},{y:.3f},{t:.3f}\n')


pose_file('pose-straight-noload.csv', (5 * LU, 0, 0), (3.1, -1.8, 0.12), 1.2, 0.25)
pose_file('pose-straight-load.csv', (5 * LU, 0, 0), (4.6, -2.9, 0.21), 1.7, 0.31)
# The rectangle ends on P0 itself, heading +x: a heading near 0 and ±180 elsewhere.
pose_file('pose-rectangular-noload.csv', (0, 0, 0), (-6.2, 4.4, -0.35), 2.4, 0.42)

# Clause 8: 30 straight trials at 1 m/s sampled at 100 Hz, with a slow lateral
# wander and tracker noise; the robot starts at P0 (8.3 a) and stops at P1 with
# its clause 5 offset (8.3 b: 2.7 mm along, -2.1 mm across, spread 0.8 mm).
# The stop's draws come from rnd_course: the files after this one keep theirs.
with open(os.path.join(out, 'path-straight-noload.csv'), 'w') as f:
    header(f, 'path-straight-noload.csv', 'Path P0 (0,0) -> P1 (5000,0), 30 trials at 100 Hz')
    f.write('trial,t_s,x_mm,y_mm\n')
    for trial in range(1, 31):
        amp = rnd.uniform(4.0, 14.0) * rnd.choice((-1, 1))
        phase = rnd.uniform(0, math.pi)
        drift = rnd.gauss(0, 2.0)
        stop = (5000.0 + 2.7 + rnd_course.gauss(0, 0.8), -2.1 + 0.4 * drift)
        stopped = False
        for k in range(0, 521):
            t = k * 0.01
            s = min(1000.0 * t, stop[0])
            u = min(s, 5000.0) / 5000.0
            y = amp * math.sin(math.pi * u) * (0.75 + 0.25 * math.cos(phase + 2 * math.pi * u))
            y += stop[1] * s / stop[0] + rnd.gauss(0, 0.3)
            x = s + rnd.gauss(0, 0.3)
            if not stopped:
                f.write(f'{trial},{t:.2f},{x:.3f},{y:.3f}\n')
            stopped = s >= stop[0]

# Clause 6: the six obstacles of table 2, 8 directions x {max, min} range.
obstacles = [('wooden wall', 0.995, 0.004, 0.0), ('glass wall', 1.02, 0.015, 0.35),
             ('wooden table', 0.99, 0.006, 0.0), ('metal table', 1.01, 0.008, 0.06),
             ('large cylinder', 1.0, 0.003, 0.0), ('small cylinder', 0.985, 0.01, 0.12)]
with open(os.path.join(out, 'detection.csv'), 'w') as f:
    header(f, 'detection.csv', 'Declared range: min 300 mm, max 4000 mm')
    f.write('obstacle,angle_deg,range,true_mm,measured_mm,detected\n')
    for name, scale, noise, miss in obstacles:
        for k in range(8):
            for rng, true in (('max', 4000.0), ('min', 300.0)):
                missed = rnd.random() < miss * (2.0 if rng == 'max' else 0.5)
                if missed:
                    f.write(f'{name},{45 * k},{rng},{true:.0f},,0\n')
                else:
                    m = true * scale * (1 + rnd.gauss(0, noise))
                    f.write(f'{name},{45 * k},{rng},{true:.0f},{m:.1f},1\n')

# Clause 7: ten configurations; a baseline run without obstacle for each.
configs = ['1 wooden wall', '1 table', '1 large cylinder lying', '1 small cylinder standing',
           '2 large cylinder 0.5 m', '2 small cylinder floor', '3 large cylinder 0.5 m',
           '3 small cylinder floor', '4 large cylinder 0.5 m', '4 small cylinder floor']
with open(os.path.join(out, 'avoidance.csv'), 'w') as f:
    header(f, 'avoidance.csv', 'P0 to PG 9 LU = 9000 mm at 1 m/s; obstacles at 1.6 m/s')
    f.write(f'config,kind,trial,time_s,success,{COURSE_COLUMNS}\n')
    for c in configs:
        for trial in range(1, 4):
            f.write(f'{c},baseline,{trial},{9.0 + rnd.gauss(0.35, 0.08):.2f},1,'
                    f'{course(9 * LU, None)}\n')
        hard = c.startswith('4 small')
        for trial in range(1, 4):
            ok = not (hard and trial == 2)
            t = 9.0 + rnd.uniform(1.5, 4.0) + (1.5 if c.startswith('4') else 0)
            if ok:
                f.write(f'{c},obstacle,{trial},{t:.2f},1,{course(9 * LU, rnd_course.uniform(150, 400))}\n')
            else:
                # The contact that failed it (7.3 b): no gap, and it never reached PG.
                f.write(f'{c},obstacle,{trial},,0,{course(None, 0.0)}\n')

# Clause 9: passage 4 LU long; start 2 LU before, goal 2 LU after: 8 m.
with open(os.path.join(out, 'passage.csv'), 'w') as f:
    header(f, 'passage.csv', 'Passage width 900 mm declared by the manufacturer')
    f.write(f'config,trial,time_s,success,{COURSE_COLUMNS}\n')
    for c, fail in (('no load', ()), ('rated load', (2,))):
        for trial in range(1, 8 if fail else 6):
            if trial in fail:
                # Stopped before the passage, judging it too narrow: no contact.
                f.write(f'{c},{trial},,0,{course(None, 35.0)}\n')
            else:
                # 730 mm in the 900 mm passage: at most 85 mm to each wall.
                f.write(f'{c},{trial},{11.2 + rnd.gauss(0.4 if fail else 0, 0.15):.2f},1,'
                        f'{course(8 * LU, rnd_course.uniform(40, 80))}\n')

# Clause 10: 7 LU x 7 LU arena with P0 at its centre.
half = 3.5 * LU
truth = [(-half, -half), (half, -half), (half, half), (-half, half)]
with open(os.path.join(out, 'mapping-truth.csv'), 'w') as f:
    header(f, 'mapping-truth.csv', 'Arena corners A1..A4, 7 LU x 7 LU about P0')
    f.write('corner,x_mm,y_mm\n')
    for i, (x, y) in enumerate(truth, 1):
        f.write(f'{i},{x:.0f},{y:.0f}\n')
with open(os.path.join(out, 'mapping-map.csv'), 'w') as f:
    header(f, 'mapping-map.csv', "Corners A'1..A'4 read from three maps (resolution 50 mm)")
    f.write('trial,corner,x_mm,y_mm\n')
    for trial in range(1, 4):
        rot = math.radians(rnd.gauss(0, 0.15))
        sx, sy = rnd.gauss(0, 12), rnd.gauss(0, 12)
        for i, (x, y) in enumerate(truth, 1):
            mx = math.cos(rot) * x - math.sin(rot) * y + sx + rnd.gauss(0, 8)
            my = math.sin(rot) * x + math.cos(rot) * y + sy + rnd.gauss(0, 8)
            f.write(f'{trial},{i},{mx:.1f},{my:.1f}\n')
