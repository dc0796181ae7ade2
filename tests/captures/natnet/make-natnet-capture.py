#!/usr/bin/env python3
"""Writes the NatNet test captures, from the NatNet packet description
(frame of mocap data, message id 7; NatNet SDK PacketClient and the 4.1
data-type notes).  Run from this directory; the captures are committed, and
test-natnet.c checks the decoded values against the same formulas:

  frame k = 0..5, timestamp 100 + k/120 s (Motive at 120 Hz)
  body 1: position (0.1 k, 0.2, 0.3) m, rotation k·10° about z, error
          0.0001·(k+1) m, tracking valid
  body 7: position (-1, -2, 0.5), identity, tracking valid except frame 3
  plus a marker set, legacy markers, a skeleton with one bone, labeled
  markers and an empty force-plate and device list, so the parser must
  walk (3.x) or skip by size (4.1) every section.
"""
import math
import struct


def body(bid, pos, quat, err, valid):
    return struct.pack("<i3f4ffh", bid, *pos, *quat, err, 1 if valid else 0)


def frame(k, major, minor):
    sizes = (major, minor) >= (4, 1)
    out = bytearray(struct.pack("<i", 1000 + k))

    def section(count, body_bytes):
        out.extend(struct.pack("<i", count))
        if sizes:
            out.extend(struct.pack("<i", len(body_bytes)))
        out.extend(body_bytes)

    ms = b"robot\0" + struct.pack("<i", 3) + struct.pack("<9f", *[0.01 * i for i in range(9)])
    section(1, ms)
    section(2, struct.pack("<6f", 1, 2, 3, 4, 5, 6))
    a = math.radians(10 * k)
    bodies = body(1, (0.1 * k, 0.2, 0.3), (0, 0, math.sin(a / 2), math.cos(a / 2)),
                  0.0001 * (k + 1), True)
    bodies += body(7, (-1, -2, 0.5), (0, 0, 0, 1), 0.0002, k != 3)
    section(2, bodies)
    skel = struct.pack("<ii", 42, 1) + body(43, (9, 9, 9), (0, 0, 0, 1), 0.0, True)
    section(1, skel)
    if sizes:
        section(0, b"")          # assets
    lm = b"".join(struct.pack("<i4fhf", 100 + i, 0.5, 0.6, 0.7, 0.014, 0, 0.0001)
                  for i in range(2))
    section(2, lm)
    section(0, b"")              # force plates
    section(0, b"")              # devices
    out.extend(struct.pack("<II", 0, 0))                    # timecode
    out.extend(struct.pack("<d", 100 + k / 120))            # timestamp
    out.extend(struct.pack("<QQQ", 1, 2, 3))                # high-res stamps
    if sizes:
        out.extend(struct.pack("<ii", 0, 0))                # precision timestamp
    out.extend(struct.pack("<h", 0))                        # params
    out.extend(struct.pack("<i", 0))                        # end of data
    return struct.pack("<HH", 7, len(out)) + bytes(out)


for major, minor in ((3, 1), (4, 1)):
    name = f"natnet-v{major}.{minor}.cap"
    with open(name, "wb") as f:
        f.write(f"# Name: two rigid bodies, six frames at 120 Hz\n"
                f"# Device: OptiTrack Motive (synthetic, from the protocol description)\n"
                f"# NatNet: {major}.{minor}\n"
                f"# Written by make-natnet-capture.py\n".encode())
        # A model-definition message first: not a frame, ignored.
        f.write(struct.pack("<HH", 5, 4) + struct.pack("<i", 0))
        for k in range(6):
            f.write(frame(k, major, minor))
