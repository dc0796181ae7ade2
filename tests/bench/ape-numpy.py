#!/usr/bin/python3
"""The peer of `navbench-cli compute ape` in bench-ape-peer: what a lab
writes in numpy for the translation APE of two TUM files (evo's nearest
stamp within t_max_diff, no alignment).  Prints JSON: pairs, rmse, max.

  ape-numpy.py REF.tum EST.tum [T_MAX_DIFF]
"""
import json
import sys

import numpy as np


def main():
    t_max = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
    ref = np.loadtxt(sys.argv[1], comments="#")
    est = np.loadtxt(sys.argv[2], comments="#")
    i = np.clip(np.searchsorted(ref[:, 0], est[:, 0]), 1, len(ref) - 1)
    before = est[:, 0] - ref[i - 1, 0] <= ref[i, 0] - est[:, 0]
    j = np.where(before, i - 1, i)
    ok = np.abs(ref[j, 0] - est[:, 0]) <= t_max
    e = np.linalg.norm(est[ok, 1:4] - ref[j[ok], 1:4], axis=1)
    print(json.dumps({"pairs": int(ok.sum()), "rmse": float(np.sqrt(np.mean(e * e))),
                      "max": float(e.max())}))


main()
