#!/usr/bin/env python3
"""Replays every window of a task's traces on its own and says, per trace action, how many pass
and why the others fail: `mismatch` (no successor of the mapped action agrees with the state
after the step), `not_enabled` (the action cannot be taken in the state before it) or
`no_model_state` (no reachable state of the model agrees with the state before the step).

The grader reports windows per *model* action and explains only the first failing window of
each trace; this splits them per *trace* action and by kind. Each window is replayed as a
two-line trace (the state before the step as its init line, then the step) with `sysmo replay`.

usage (from the repository root):
  python3 docs/sysmobench-models/classify-windows.py docs/sysmobench-models/locksvc-claude locksvc.tla traces/locksvc
"""
import collections, glob, json, os, subprocess, sys, tempfile

folder, model, traces = sys.argv[1:4]
sysmo = os.environ.get("SYSMO", os.path.abspath("target/debug/sysmo"))
cfg = os.path.join(folder, model[:-4] + ".cfg")
mapping = os.path.join(folder, "mapping.json")
counts = collections.defaultdict(collections.Counter)
with tempfile.TemporaryDirectory() as tmp:
    window = os.path.join(tmp, "window.ndjson")
    for f in sorted(glob.glob(os.path.join(traces, "*.ndjson"))):
        lines = open(f).read().splitlines()
        body = [json.loads(l) for l in lines[1:]]
        for pre, step in zip(body, body[1:]):
            step = dict(step, seq=1)
            with open(window, "w") as w:
                w.write(lines[0] + "\n" + json.dumps({"kind": "init", "state": pre["state"]}) + "\n" + json.dumps(step) + "\n")
            out = subprocess.run([sysmo, "replay", os.path.join(folder, model), "--config", cfg, "--mapping", mapping,
                                  "--trace", window, "--json"], capture_output=True, text=True)
            r = json.loads(out.stdout)
            if "traces" not in r:
                counts[step["action"]]["input_error"] += 1
                continue
            ff = r["traces"][0]["first_failure"]
            counts[step["action"]]["pass" if ff is None else ff["kind"]] += 1
kinds = ["pass", "mismatch", "not_enabled", "no_model_state", "eval_error", "budget", "input_error"]
print("trace action".ljust(16), "windows".rjust(7), *[k.rjust(14) for k in kinds])
for a, c in counts.items():
    print(a.ljust(16), str(sum(c.values())).rjust(7), *[str(c[k]).rjust(14) for k in kinds])
