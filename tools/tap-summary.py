#!/usr/bin/python3
"""Counts the subtests of a meson test run: every TAP 'ok' / 'not ok' line of
every test, and a test that died before reporting a failure counts as one
failure.  Prints the plain line CI reads: 'N passed, N failed'."""
import json
import re
import sys

passed = failed = 0
ok_re = re.compile(r'^(not ok|ok)\b(.*)$')
with open(sys.argv[1], encoding='utf-8') as log:
    for line in log:
        test = json.loads(line)
        out = test.get('stdout') or ''
        t_pass = t_fail = 0
        for l in out.splitlines():
            m = ok_re.match(l)
            if not m:
                continue
            skipped = re.search(r'#\s*(SKIP|TODO)', m.group(2), re.I)
            if m.group(1) == 'ok':
                t_pass += 0 if skipped else 1
            elif not skipped:
                t_fail += 1
        result = test.get('result', '')
        if t_pass + t_fail == 0:
            # Not a TAP test (a script or a benchmark): it counts once.
            if result in ('OK', 'EXPECTEDFAIL'):
                t_pass = 1
            elif result != 'SKIP':
                t_fail = 1
        elif result not in ('OK', 'EXPECTEDFAIL', 'SKIP') and t_fail == 0:
            t_fail = 1  # crashed or timed out after its last report
        passed += t_pass
        failed += t_fail
print(f'{passed} passed, {failed} failed')
