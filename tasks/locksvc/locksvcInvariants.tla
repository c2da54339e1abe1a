--------------------------- MODULE locksvcInvariants ---------------------------
(***************************************************************************)
(* The locksvc task's properties, over the pinned names of module          *)
(* `locksvc`: variables pc, network, hasLock, q, msg; constant NumClients;  *)
(* the server is 0, the clients 1..NumClients; the pinned actions           *)
(* serverLoop, serverReceive, serverRespond, acquireLock, criticalSection   *)
(* and unlock, each with parameter self.                                    *)
(*                                                                         *)
(* This module EXTENDS `locksvc`, so it is checked against whichever       *)
(* module of that name sits beside it (the reference model or a user's     *)
(* model with the same pinned names).  Add the lines of invariants.cfg to  *)
(* the model's .cfg: state predicates as INVARIANT, temporal properties as *)
(* PROPERTY (liveness under the model's own fairness).  Each name is       *)
(* checked on its own.                                                     *)
(*                                                                         *)
(* The task's six templates are all here.  Two of them are not properties  *)
(* as the template writes them (ServerIsIdle is an action, SpecNoDeadlock  *)
(* a specification); each is given the property its sentence states.  The  *)
(* template of NoPriorityInversion compares labels only, which the bag     *)
(* mailboxes do not order (see below); it is stated over the server's      *)
(* queue, the order in which the service promises the lock.                *)
(***************************************************************************)
EXTENDS locksvc

\* The server's id and the clients' (named apart from the model's own).
LSServer == 0
LSClients == 1..NumClients
LSNodes == {LSServer} \cup LSClients
\* The pinned variables, for the action properties' subscripts.
LSVars == <<pc, network, hasLock, q, msg>>

\* Whether client c's id is in the server's queue.
InQueue(c) == \E k \in 1..Len(q) : q[k] = c

\* [safety] LockSafety: at most one client holds the lock at any time.
LockSafety ==
    \A i, j \in LSClients : (i # j /\ hasLock[i]) => ~hasLock[j]

\* [safety] NoPriorityInversion: a later client cannot hold the lock while
\* an earlier waiter still waits for it.  "Earlier" is the order in which
\* the server queued their requests: once j waits at criticalSection with
\* its request in the queue and i's request is not there yet, i never holds
\* the lock (stands at unlock) while j still waits.  The template's formula
\* takes "earlier" from the labels alone (i at acquireLock while j waits at
\* criticalSection); with bag mailboxes the server may take i's request
\* out of its bag before j's, so that formula fails on the service itself
\* (NoPriorityInversionByLabels, kept for reference, not checked).
NoPriorityInversion ==
    \A i, j \in LSClients :
        i # j =>
            [](/\ pc[j] = "criticalSection"
               /\ InQueue(j)
               /\ ~InQueue(i)
               /\ pc[i] # "Done"
               => [](pc[j] = "criticalSection" => pc[i] # "unlock"))

\* The template's formula as it is written, over labels only.
NoPriorityInversionByLabels ==
    \A i, j \in LSNodes :
        i # j =>
            [](/\ pc[i] = "acquireLock"
               /\ pc[j] = "criticalSection"
               => ~<>(/\ pc[i] = "unlock"
                      /\ pc[j] = "criticalSection"))

\* [liveness] ProgressOK(i): a node that tries to acquire the lock
\* eventually enters its critical section, and then eventually unlocks.
ProgressOK(i) ==
    pc[i] = "acquireLock" ~> (pc[i] = "criticalSection" ~> pc[i] = "unlock")

\* [liveness] SystemLiveness: every node satisfies ProgressOK.
SystemLiveness == \A i \in LSNodes : ProgressOK(i)

\* The template's ServerIsIdle is an action: the server waits at
\* serverReceive and nothing changes.
ServerIsIdle ==
    \E self \in {LSServer} : pc[self] = "serverReceive" /\ UNCHANGED LSVars

\* [liveness] The sentence of ServerIsIdle as a property: the server may
\* idle, and once every client has unlocked it does so for ever, waiting
\* at serverReceive on an empty mailbox.
ServerEventuallyIdle ==
    <>[](/\ pc[LSServer] = "serverReceive"
         /\ network[LSServer] = EmptyBag
         /\ \A c \in LSClients : pc[c] = "Done")

\* Some pinned step of some process is enabled.
SomeStepEnabled ==
    \/ \E self \in {LSServer} :
          ENABLED (serverLoop(self) \/ serverReceive(self) \/ serverRespond(self))
    \/ \E self \in LSClients :
          ENABLED (acquireLock(self) \/ criticalSection(self) \/ unlock(self))

\* [safety] The sentence of SpecNoDeadlock (a specification in the
\* template: the steps, the server's idling and weak fairness keep the
\* service from deadlocking): while some client has not finished, some step
\* can be taken; the service only stops, idle, once every client is Done.
SpecNoDeadlock ==
    (\E c \in LSClients : pc[c] # "Done") => SomeStepEnabled

================================================================================
