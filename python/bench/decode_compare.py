"""Measurement (prototype): the kwargs of a call built three ways in one process --
the module's own reader (to_python), the core's Value tree converted, the core's
reader driving a builder (value::build). Run from python/ with the prototype built."""
import json, statistics, sys
sys.path.insert(0, "bench")
from toolgate import _native
from inputs import TOOLS
for t in TOOLS:
    schema = json.loads(t["schema"])
    for kind in ("valid", "valid_with_unit"):
        if kind not in t: continue
        text = t[kind]
        r = _native._decode_compare(schema, text, 20000, 25)
        a = statistics.median(x[0] for x in r); b = statistics.median(x[1] for x in r); c = statistics.median(x[2] for x in r)
        rb = statistics.median(x[1] / x[0] for x in r); rc = statistics.median(x[2] / x[0] for x in r)
        print(f"| {t['tool']} {kind} | {len(text.encode())} | {a:.0f} | {b:.0f} | {rb:.2f}x | {c:.0f} | {rc:.2f}x |")
