------------------------------- MODULE rwmutex -------------------------------
(* Reader-writer mutex with upgradeable readers; one atomic word of four fields. *)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANT Threads

VARIABLES writer, upreader, being_upgraded, readers, waiters, pc

vars == <<writer, upreader, being_upgraded, readers, waiters, pc>>

Labels == {"idle", "read", "write", "upread", "waiting", "woken", "read_undo",
           "upread_undo", "upgrading", "upgraded", "downgrading", "downgraded",
           "downgrade_wake", "wake_one", "wake_all"}

TypeOK ==
    /\ writer \in BOOLEAN
    /\ upreader \in BOOLEAN
    /\ being_upgraded \in BOOLEAN
    /\ readers \in Nat
    /\ waiters \in Seq(Threads)
    /\ pc \in [Threads -> Labels]

Init ==
    /\ writer = FALSE
    /\ upreader = FALSE
    /\ being_upgraded = FALSE
    /\ readers = 0
    /\ waiters = <<>>
    /\ pc = [t \in Threads |-> "idle"]

Free == ~writer /\ ~upreader /\ ~being_upgraded /\ readers = 0

Goto(t, l) == pc' = [pc EXCEPT ![t] = l]

Sleep(t) ==
    /\ waiters' = Append(waiters, t)
    /\ Goto(t, "waiting")

ReadAttempt(t) ==
    /\ readers' = readers + 1
    /\ Goto(t, IF ~writer /\ ~being_upgraded THEN "read" ELSE "read_undo")
    /\ UNCHANGED <<writer, upreader, being_upgraded, waiters>>

Read(t) == pc[t] \in {"idle", "woken"} /\ ReadAttempt(t)

TryRead(t) == pc[t] = "idle" /\ ReadAttempt(t)

ReadUndo(t) ==
    /\ pc[t] = "read_undo"
    /\ readers' = readers - 1
    /\ \/ Sleep(t)
       \/ Goto(t, "idle") /\ UNCHANGED waiters
    /\ UNCHANGED <<writer, upreader, being_upgraded>>

UnseenReadGuards ==
    readers - Cardinality({u \in Threads : pc[u] \in {"read", "read_undo"}})

ReadUnlock(t) ==
    /\ \/ pc[t] = "read"
       \/ pc[t] = "idle" /\ UnseenReadGuards > 0
    /\ readers' = readers - 1
    /\ Goto(t, IF readers = 1 /\ ~writer /\ ~upreader /\ ~being_upgraded
               THEN "wake_one" ELSE "idle")
    /\ UNCHANGED <<writer, upreader, being_upgraded, waiters>>

Write(t) ==
    /\ pc[t] \in {"idle", "woken"}
    /\ IF Free
         THEN /\ writer' = TRUE
              /\ Goto(t, "write")
              /\ UNCHANGED waiters
         ELSE /\ Sleep(t)
              /\ UNCHANGED writer
    /\ UNCHANGED <<upreader, being_upgraded, readers>>

TryWrite(t) ==
    /\ pc[t] \in {"idle", "read"}
    /\ IF Free
         THEN /\ writer' = TRUE
              /\ Goto(t, "write")
         ELSE /\ Goto(t, "idle")
              /\ UNCHANGED writer
    /\ UNCHANGED <<upreader, being_upgraded, readers, waiters>>

WriteUnlock(t) ==
    /\ pc[t] = "write"
    /\ writer' = FALSE
    /\ Goto(t, "wake_all")
    /\ UNCHANGED <<upreader, being_upgraded, readers, waiters>>

UpReadAttempt(t, failed) ==
    /\ upreader' = TRUE
    /\ IF ~writer /\ ~upreader
         THEN Goto(t, "upread") /\ UNCHANGED waiters
         ELSE IF writer /\ ~upreader
                THEN Goto(t, "upread_undo") /\ UNCHANGED waiters
                ELSE failed
    /\ UNCHANGED <<writer, being_upgraded, readers>>

UpRead(t) == pc[t] \in {"idle", "woken"} /\ UpReadAttempt(t, Sleep(t))

TryUpRead(t) == pc[t] = "idle" /\ UpReadAttempt(t, Goto(t, "idle") /\ UNCHANGED waiters)

UpReadUndo(t) ==
    /\ pc[t] = "upread_undo"
    /\ upreader' = FALSE
    /\ \/ Sleep(t)
       \/ Goto(t, "idle") /\ UNCHANGED waiters
    /\ UNCHANGED <<writer, being_upgraded, readers>>

UpReadUnlock(t) ==
    /\ pc[t] = "upread"
    /\ upreader' = FALSE
    /\ Goto(t, IF readers = 0 /\ ~writer /\ ~being_upgraded THEN "wake_all" ELSE "idle")
    /\ UNCHANGED <<writer, being_upgraded, readers, waiters>>

UpgradeBegin(t) ==
    /\ pc[t] = "upread"
    /\ being_upgraded' = TRUE
    /\ Goto(t, "upgrading")
    /\ UNCHANGED <<writer, upreader, readers, waiters>>

UpgradeAttempt(t, fail_to) ==
    /\ IF upreader /\ being_upgraded /\ ~writer /\ readers = 0
         THEN /\ writer' = TRUE
              /\ being_upgraded' = FALSE
              /\ Goto(t, "upgraded")
         ELSE /\ Goto(t, fail_to)
              /\ UNCHANGED <<writer, being_upgraded>>
    /\ UNCHANGED <<upreader, readers, waiters>>

Upgrade(t) == pc[t] = "upgrading" /\ UpgradeAttempt(t, "upgrading")

TryUpgrade(t) == pc[t] = "upread" /\ UpgradeAttempt(t, "upread")

UpgradeRelease(t) ==
    /\ pc[t] = "upgraded"
    /\ upreader' = FALSE
    /\ Goto(t, "write")
    /\ UNCHANGED <<writer, being_upgraded, readers, waiters>>

Downgrade(t) ==
    /\ pc[t] \in {"write", "downgrading"}
    /\ IF writer /\ ~upreader /\ ~being_upgraded /\ readers = 0
         THEN /\ writer' = FALSE
              /\ upreader' = TRUE
              /\ Goto(t, "downgraded")
         ELSE /\ Goto(t, "downgrading")
              /\ UNCHANGED <<writer, upreader>>
    /\ UNCHANGED <<being_upgraded, readers, waiters>>

DowngradeRelease(t) ==
    /\ pc[t] = "downgraded"
    /\ writer' = FALSE
    /\ Goto(t, "downgrade_wake")
    /\ UNCHANGED <<upreader, being_upgraded, readers, waiters>>

WakeOne(t) ==
    /\ pc[t] = "wake_one"
    /\ IF waiters = <<>>
         THEN Goto(t, "idle") /\ UNCHANGED waiters
         ELSE /\ waiters' = Tail(waiters)
              /\ pc' = [pc EXCEPT ![t] = "idle", ![Head(waiters)] = "woken"]
    /\ UNCHANGED <<writer, upreader, being_upgraded, readers>>

WakeAll(t) ==
    /\ pc[t] \in {"wake_all", "downgrade_wake"}
    /\ waiters' = <<>>
    /\ pc' = [u \in Threads |->
                IF u = t THEN (IF pc[t] = "wake_all" THEN "idle" ELSE "upread")
                ELSE IF \E i \in DOMAIN waiters : waiters[i] = u THEN "woken"
                ELSE pc[u]]
    /\ UNCHANGED <<writer, upreader, being_upgraded, readers>>

Next ==
    \/ \E t \in Threads : Read(t)
    \/ \E t \in Threads : TryRead(t)
    \/ \E t \in Threads : ReadUndo(t)
    \/ \E t \in Threads : Write(t)
    \/ \E t \in Threads : TryWrite(t)
    \/ \E t \in Threads : UpRead(t)
    \/ \E t \in Threads : TryUpRead(t)
    \/ \E t \in Threads : UpReadUndo(t)
    \/ \E t \in Threads : ReadUnlock(t)
    \/ \E t \in Threads : WriteUnlock(t)
    \/ \E t \in Threads : UpReadUnlock(t)
    \/ \E t \in Threads : WakeOne(t)
    \/ \E t \in Threads : WakeAll(t)
    \/ \E t \in Threads : UpgradeBegin(t)
    \/ \E t \in Threads : Upgrade(t)
    \/ \E t \in Threads : TryUpgrade(t)
    \/ \E t \in Threads : UpgradeRelease(t)
    \/ \E t \in Threads : Downgrade(t)
    \/ \E t \in Threads : DowngradeRelease(t)

Fairness ==
    \A t \in Threads :
        /\ WF_vars(ReadUndo(t))
        /\ WF_vars(UpReadUndo(t))
        /\ WF_vars(ReadUnlock(t))
        /\ WF_vars(WakeOne(t))
        /\ WF_vars(WakeAll(t))
        /\ WF_vars(pc[t] = "woken" /\ (Read(t) \/ Write(t) \/ UpRead(t)))
        /\ WF_vars(UpgradeRelease(t))
        /\ WF_vars(DowngradeRelease(t))
        /\ SF_vars(WriteUnlock(t))
        /\ SF_vars(UpReadUnlock(t))
        /\ SF_vars(Upgrade(t) /\ pc'[t] = "upgraded")
        /\ SF_vars(Downgrade(t) /\ pc'[t] = "downgraded")

Spec == Init /\ [][Next]_vars /\ Fairness

ReaderBound == readers <= 2 * Cardinality(Threads)
=============================================================================
