"""A bounded buffer shared by one producer and two consumers: a monitor (one lock, one
condition variable, notify_all after every change), as a textbook writes it.

The producer (thread 0) puts items 1..ITEMS; each consumer (threads 1 and 2) gets one item.
A thread that cannot go on waits on the condition; every put and every get wakes all waiters.

Each thread is written as a generator: the code between two `yield`s is what a thread does
while it holds the lock, so it runs atomically, and each `yield` names the step just taken.
A seeded scheduler picks which thread that is not waiting runs its next step, and every step
is logged as a trace line (the course's trace format: a header, the initial state, then one
line per step with the state after it). With the same seed, the same trace.

    python3 buffer.py OUT_DIR            # writes OUT_DIR/random-<seed>.ndjson, seeds 1..10
    python3 buffer.py OUT_DIR --bug      # the bug (`if` where the consumer needs `while`): the
                                         # first three seeds whose run shows it

THE BUG. With `--bug` a consumer checks the buffer once (`if`) instead of in a loop
(`while`). Woken by a put, it goes on to take an item without looking again, but the other
consumer, also woken, may have taken that item first: it takes from an empty buffer. In
Python, `list.pop(0)` then raises IndexError; this program records that step as a get of
item -1 so that the trace shows it.
"""

import json
import random
import sys

ITEMS = 2
CAP = 1
CONSUMERS = (1, 2)


class Monitor:
    """The condition variable's waiting threads, and those woken and not yet running."""

    def __init__(self):
        self.waiting = set()
        self.woken = set()

    def wait(self, t):
        self.waiting.add(t)

    def notify_all(self):
        self.woken |= self.waiting
        self.waiting = set()


class BoundedBuffer:
    def __init__(self, cap, bug):
        self.items = []
        self.cap = cap
        self.bug = bug
        self.next = 1  # the next item the producer puts
        self.monitor = Monitor()

    def producer(self, t, count):
        for item in range(1, count + 1):
            while len(self.items) == self.cap:
                self.monitor.wait(t)
                yield "WaitFull", False
            self.items.append(item)
            self.next = item + 1
            self.monitor.notify_all()
            yield "Put", item == count

    def consumer(self, t, got):
        if self.bug:
            if not self.items:
                self.monitor.wait(t)
                yield "WaitEmpty", False
        else:
            while not self.items:
                self.monitor.wait(t)
                yield "WaitEmpty", False
        try:
            got[t] = self.items.pop(0)
        except IndexError:
            got[t] = -1
        self.monitor.notify_all()
        yield "Get", True


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def line(obj):
    return json.dumps(obj, separators=(",", ":"), sort_keys=False)


def run(seed, bug, source):
    rng = random.Random(seed)
    buf = BoundedBuffer(CAP, bug)
    got = {t: 0 for t in CONSUMERS}
    threads = {0: buf.producer(0, ITEMS)}
    for t in CONSUMERS:
        threads[t] = buf.consumer(t, got)
    done = set()

    def pc(t):
        if t in done:
            return "done"
        if t in buf.monitor.waiting:
            return "waiting"
        if t in buf.monitor.woken:
            return "woken"
        return "run"

    def state():
        return {
            "buf": list(buf.items),
            "got": {str(t): got[t] for t in sorted(got)},
            "next": buf.next,
            "pc": {str(t): pc(t) for t in sorted(threads)},
        }

    header = {
        "kind": "header",
        "task": "buffer",
        "version": 1,
        "constants": {"Consumers": list(CONSUMERS), "Items": ITEMS, "Cap": CAP},
        "seed": seed,
        "scheduler": "random",
        "source": "code/buffer.py@" + fnv1a64(source),
    }
    if bug:
        header["bug"] = "if-not-while"
    out = [line(header), line({"kind": "init", "state": state()})]
    seq = 0
    while True:
        runnable = sorted(t for t in threads if t not in done and t not in buf.monitor.waiting)
        if not runnable:
            break
        t = rng.choice(runnable)
        buf.monitor.woken.discard(t)
        action, finished = next(threads[t])
        if finished:
            done.add(t)
        seq += 1
        out.append(line({"kind": "step", "seq": seq, "action": action, "actor": t, "args": {"t": t}, "state": state()}))
    return "\n".join(out) + "\n"


def main():
    out_dir = sys.argv[1]
    bug = "--bug" in sys.argv[2:]
    with open(__file__, encoding="utf-8") as f:
        source = f.read()
    if bug:
        # The first three seeds whose run takes from an empty buffer.
        seeds = [s for s in range(1, 100) if '":-1' in run(s, True, source)][:3]
    else:
        seeds = range(1, 11)
    for seed in seeds:
        with open("%s/random-%03d.ndjson" % (out_dir, seed), "w", encoding="utf-8") as f:
            f.write(run(seed, bug, source))


if __name__ == "__main__":
    main()
