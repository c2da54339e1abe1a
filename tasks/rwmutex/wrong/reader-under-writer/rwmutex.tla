------------------------------- MODULE rwmutex -------------------------------
\* The reference model with one wrong step: a reader's fetch_add may let it
\* in while a writer holds the lock (the writer test is dropped in one branch).
EXTENDS Naturals, Sequences, FiniteSets

CONSTANT Threads

VARIABLES writer, upreader, being_upgraded, readers, waiters, pc

\* Not observed: the thread whose blocking attempt holds the wait queue's
\* lock from its failed attempt to its back-out ({} when none does).  A
\* blocking call tests the word with the queue locked, so no other blocking
\* attempt and no wake-up can come in between; read_undo and upread_undo do
\* not show whether the attempt was a blocking one or a try_ one, this does.
VARIABLE qlock

vars == <<writer, upreader, being_upgraded, readers, waiters, pc, qlock>>

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
    /\ qlock = {}

\* The whole word is zero.
Free == ~writer /\ ~upreader /\ ~being_upgraded /\ readers = 0

Goto(t, l) == pc' = [pc EXCEPT ![t] = l]

\* A failed blocking attempt: join the back of the queue and sleep.
Sleep(t) ==
    /\ waiters' = Append(waiters, t)
    /\ Goto(t, "waiting")

\* ---- readers ----------------------------------------------------------

\* The optimistic fetch_add: in if no writer and no upgrade, else back out.
ReadAttempt(t) ==
    /\ readers' = readers + 1
    /\ \/ Goto(t, IF ~writer /\ ~being_upgraded THEN "read" ELSE "read_undo")
       \/ ~being_upgraded /\ Goto(t, "read")
    /\ UNCHANGED <<writer, upreader, being_upgraded, waiters>>

\* read(): the attempt is made with the queue locked; a failure keeps it
\* locked until the back-out.
Read(t) ==
    /\ pc[t] \in {"idle", "woken"}
    /\ qlock = {}
    /\ ReadAttempt(t)
    /\ qlock' = IF ~writer /\ ~being_upgraded THEN {} ELSE {t}

\* try_read() also comes from a thread that already holds a read guard
\* (pc "read"): read guards nest, the pc shows one.  Such a nested attempt
\* is modelled only when it succeeds (no upgrade announced): a failed one
\* would back out to "idle" still holding the outer guard, and its back-out
\* could not be told from a blocking read's, which sleeps; leaving it out
\* keeps a reader from going to sleep with its guard in the model.
TryRead(t) ==
    /\ \/ pc[t] = "idle" /\ ReadAttempt(t)
       \/ pc[t] = "read" /\ ~being_upgraded /\ ReadAttempt(t)
    /\ UNCHANGED qlock

\* The fetch_sub backing out; read() then sleeps (and lets the queue go),
\* try_read() returns.
ReadUndo(t) ==
    /\ pc[t] = "read_undo"
    /\ readers' = readers - 1
    /\ IF t \in qlock
         THEN Sleep(t) /\ qlock' = {}
         ELSE Goto(t, "idle") /\ UNCHANGED <<waiters, qlock>>
    /\ UNCHANGED <<writer, upreader, being_upgraded>>

\* Read guards that no pc shows: held by a thread whose pc moved on while
\* it kept a guard (a reader's failed try_write sends its pc to "idle"; of
\* two nested read guards, dropping the inner one does too).
UnseenReadGuards ==
    readers - Cardinality({u \in Threads : pc[u] \in {"read", "read_undo"}})

\* Dropping a read guard; the last one out of an otherwise free word wakes
\* one waiter.  The guard is the one the pc shows, or an unseen one held by
\* an idle thread (which idle thread holds it is not observed).
ReadUnlock(t) ==
    /\ \/ pc[t] = "read"
       \/ pc[t] = "idle" /\ UnseenReadGuards > 0
    /\ readers' = readers - 1
    /\ Goto(t, IF readers = 1 /\ ~writer /\ ~upreader /\ ~being_upgraded
               THEN "wake_one" ELSE "idle")
    /\ UNCHANGED <<writer, upreader, being_upgraded, waiters, qlock>>

\* ---- writers ----------------------------------------------------------

\* The compare-exchange of 0 for the writer bit.
Write(t) ==
    /\ pc[t] \in {"idle", "woken"}
    /\ qlock = {}
    /\ IF Free
         THEN /\ writer' = TRUE
              /\ Goto(t, "write")
              /\ UNCHANGED waiters
         ELSE /\ Sleep(t)
              /\ UNCHANGED writer
    /\ UNCHANGED <<upreader, being_upgraded, readers, qlock>>

\* try_write(): one compare-exchange; a failure returns to idle.  It also
\* comes from a thread that holds a read guard (and then fails, the word
\* counting that reader): the pc goes to "idle", the guard stays held.
TryWrite(t) ==
    /\ pc[t] \in {"idle", "read"}
    /\ IF Free
         THEN /\ writer' = TRUE
              /\ Goto(t, "write")
         ELSE /\ Goto(t, "idle")
              /\ UNCHANGED writer
    /\ UNCHANGED <<upreader, being_upgraded, readers, waiters, qlock>>

\* Dropping the write guard: clear the writer bit, then wake all.
WriteUnlock(t) ==
    /\ pc[t] = "write"
    /\ writer' = FALSE
    /\ Goto(t, "wake_all")
    /\ UNCHANGED <<upreader, being_upgraded, readers, waiters, qlock>>

\* ---- upgradeable readers ----------------------------------------------

\* The fetch_or of the upgradeable bit (the bit is set whatever the
\* outcome): in if neither a writer nor an upgradeable reader was there;
\* back out if only a writer was; fail at once if an upgradeable reader
\* was (the bit was already set).
UpReadAttempt(t, failed) ==
    /\ upreader' = TRUE
    /\ IF ~writer /\ ~upreader
         THEN Goto(t, "upread") /\ UNCHANGED waiters
         ELSE IF writer /\ ~upreader
                THEN Goto(t, "upread_undo") /\ UNCHANGED waiters
                ELSE failed
    /\ UNCHANGED <<writer, being_upgraded, readers>>

\* upread(): the attempt is made with the queue locked; a back-out keeps it
\* locked until it is done.
UpRead(t) ==
    /\ pc[t] \in {"idle", "woken"}
    /\ qlock = {}
    /\ UpReadAttempt(t, Sleep(t))
    /\ qlock' = IF writer /\ ~upreader THEN {t} ELSE {}

TryUpRead(t) ==
    /\ pc[t] = "idle"
    /\ UpReadAttempt(t, Goto(t, "idle") /\ UNCHANGED waiters)
    /\ UNCHANGED qlock

\* The fetch_sub of the upgradeable bit; upread() then sleeps (and lets the
\* queue go), try_upread() returns.
UpReadUndo(t) ==
    /\ pc[t] = "upread_undo"
    /\ upreader' = FALSE
    /\ IF t \in qlock
         THEN Sleep(t) /\ qlock' = {}
         ELSE Goto(t, "idle") /\ UNCHANGED <<waiters, qlock>>
    /\ UNCHANGED <<writer, being_upgraded, readers>>

\* Dropping the upgradeable guard; leaving a free word wakes all.
UpReadUnlock(t) ==
    /\ pc[t] = "upread"
    /\ upreader' = FALSE
    /\ Goto(t, IF readers = 0 /\ ~writer /\ ~being_upgraded THEN "wake_all" ELSE "idle")
    /\ UNCHANGED <<writer, being_upgraded, readers, waiters, qlock>>

\* ---- upgrade and downgrade ----------------------------------------------

\* upgrade(): announce it (new readers back out from now on).
UpgradeBegin(t) ==
    /\ pc[t] = "upread"
    /\ being_upgraded' = TRUE
    /\ Goto(t, "upgrading")
    /\ UNCHANGED <<writer, upreader, readers, waiters, qlock>>

\* The compare-exchange of upgradeable|being_upgraded (nothing else) for
\* writer|upgradeable; on failure `fail_to` is where the thread goes.
UpgradeAttempt(t, fail_to) ==
    /\ IF upreader /\ being_upgraded /\ ~writer /\ readers = 0
         THEN /\ writer' = TRUE
              /\ being_upgraded' = FALSE
              /\ Goto(t, "upgraded")
         ELSE /\ Goto(t, fail_to)
              /\ UNCHANGED <<writer, being_upgraded>>
    /\ UNCHANGED <<upreader, readers, waiters, qlock>>

\* One attempt inside upgrade(): it spins until the readers are gone.
Upgrade(t) == pc[t] = "upgrading" /\ UpgradeAttempt(t, "upgrading")

\* try_upgrade(): one attempt from a plain upgradeable guard.  Without an
\* announced upgrade the word never matches, so it always fails; it is
\* written as the code does it.
TryUpgrade(t) == pc[t] = "upread" /\ UpgradeAttempt(t, "upread")

\* Dropping the upgradeable guard inside the upgrade: clear its bit; the
\* writer bit is set, so nobody is woken.
UpgradeRelease(t) ==
    /\ pc[t] = "upgraded"
    /\ upreader' = FALSE
    /\ Goto(t, "write")
    /\ UNCHANGED <<writer, being_upgraded, readers, waiters, qlock>>

\* downgrade(): the compare-exchange of writer (nothing else) for
\* upgradeable; it fails, and is retried, while a reader or an upgradeable
\* reader is backing out.
Downgrade(t) ==
    /\ pc[t] \in {"write", "downgrading"}
    /\ IF writer /\ ~upreader /\ ~being_upgraded /\ readers = 0
         THEN /\ writer' = FALSE
              /\ upreader' = TRUE
              /\ Goto(t, "downgraded")
         ELSE /\ Goto(t, "downgrading")
              /\ UNCHANGED <<writer, upreader>>
    /\ UNCHANGED <<being_upgraded, readers, waiters, qlock>>

\* What dropping the old write guard does: clear the writer bit (already
\* clear), then wake all.
DowngradeRelease(t) ==
    /\ pc[t] = "downgraded"
    /\ writer' = FALSE
    /\ Goto(t, "downgrade_wake")
    /\ UNCHANGED <<upreader, being_upgraded, readers, waiters, qlock>>

\* ---- wake-ups ------------------------------------------------------------

\* The first waiter, if any, leaves the queue and will try again.
WakeOne(t) ==
    /\ pc[t] = "wake_one"
    /\ qlock = {}
    /\ IF waiters = <<>>
         THEN Goto(t, "idle") /\ UNCHANGED waiters
         ELSE /\ waiters' = Tail(waiters)
              /\ pc' = [pc EXCEPT ![t] = "idle", ![Head(waiters)] = "woken"]
    /\ UNCHANGED <<writer, upreader, being_upgraded, readers, qlock>>

\* Every waiter leaves the queue; the waker returns (after a release) or
\* goes on holding the upgradeable guard (after a downgrade).
WakeAll(t) ==
    /\ pc[t] \in {"wake_all", "downgrade_wake"}
    /\ qlock = {}
    /\ waiters' = <<>>
    /\ pc' = [u \in Threads |->
                IF u = t THEN (IF pc[t] = "wake_all" THEN "idle" ELSE "upread")
                ELSE IF \E i \in DOMAIN waiters : waiters[i] = u THEN "woken"
                ELSE pc[u]]
    /\ UNCHANGED <<writer, upreader, being_upgraded, readers, qlock>>

Next ==
    \E t \in Threads :
        \/ Read(t) \/ TryRead(t) \/ ReadUndo(t)
        \/ Write(t) \/ TryWrite(t)
        \/ UpRead(t) \/ TryUpRead(t) \/ UpReadUndo(t)
        \/ ReadUnlock(t) \/ WriteUnlock(t) \/ UpReadUnlock(t)
        \/ WakeOne(t) \/ WakeAll(t)
        \/ UpgradeBegin(t) \/ Upgrade(t) \/ TryUpgrade(t) \/ UpgradeRelease(t)
        \/ Downgrade(t) \/ DowngradeRelease(t)

\* Fairness.  Every step that a thread cannot be stopped from taking is
\* eventually taken (weak fairness on each back-out, release, wake-up, and
\* on a woken thread's new attempt).
\* Holders release: a reader, writer or upgradeable reader that keeps being
\* able to let go eventually does (strong fairness, because upgrade and
\* downgrade can take a holder through other states in between).  A
\* spinning upgrade or downgrade succeeds if its moment keeps coming back
\* (strong fairness on the successful attempt: the readers backing out
\* cannot keep the word busy for ever).  Idle threads owe nothing.
Fairness ==
    \A t \in Threads :
        /\ WF_vars(ReadUndo(t))
        /\ WF_vars(UpReadUndo(t))
        /\ WF_vars(ReadUnlock(t))
        /\ SF_vars(WakeOne(t))
        /\ SF_vars(WakeAll(t))
        /\ SF_vars(pc[t] = "woken" /\ (Read(t) \/ Write(t) \/ UpRead(t)))
        /\ WF_vars(UpgradeRelease(t))
        /\ WF_vars(DowngradeRelease(t))
        /\ SF_vars(WriteUnlock(t))
        /\ SF_vars(UpReadUnlock(t))
        /\ SF_vars(Upgrade(t) /\ pc'[t] = "upgraded")
        /\ SF_vars(Downgrade(t) /\ pc'[t] = "downgraded")

Spec == Init /\ [][Next]_vars /\ Fairness

\* For exhaustive checking only (a CONSTRAINT in the .cfg): read guards nest,
\* so the reader count has no bound in the model (the code's bound,
\* MAX_READER, is left out); exploration stops at one nested guard per
\* thread on top of one guard each.
ReaderBound == readers <= 2 * Cardinality(Threads)
=============================================================================
