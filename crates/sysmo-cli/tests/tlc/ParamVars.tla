---- MODULE ParamVars ----
EXTENDS Naturals, Sequences
CONSTANT Procs
VARIABLES lock, owner, log, turn

Acquire(t, l) == l = 0 /\ l' = t
Release(t, l) == l = t /\ l' = 0
Record(s, p, m) == m' = [m EXCEPT ![p] = Append(@, s)]
Keep(v) == UNCHANGED v
Both(a, b) == Keep(a) /\ Keep(b)
Reset(x, y) == x' = y
Start(q) == q = [p \in Procs |-> << >>]

Init == lock = 0 /\ owner = 0 /\ Start(log) /\ turn = 1
Take(p) == Acquire(p, lock) /\ owner' = p /\ Record("take", p, log) /\ Keep(turn)
Give(p) == Release(p, lock) /\ Reset(owner, 0) /\ Record("give", p, log) /\ Keep(turn)
Spin == turn < 3 /\ turn' = turn + 1 /\ Both(lock, owner) /\ Keep(log)
Next == (\E p \in Procs : Take(p) \/ Give(p)) \/ Spin
Limit == \A p \in Procs : Len(log[p]) <= 2
====
