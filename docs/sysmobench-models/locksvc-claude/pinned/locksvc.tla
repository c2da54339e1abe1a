---------------------------- MODULE locksvc ----------------------------
(***************************************************************************)
(* The task's pinned names over SysMoBench's claude locksvc model, for     *)
(* checking tasks/locksvc/locksvcInvariants.tla outside the grader (check-pinned.sh)*)
(* The model is instanced as module locksvc_model (the model's text with   *)
(* only its MODULE line renamed).  Labels: the model's one server label    *)
(* serverLoop, where it waits for a message, reads as serverReceive; its   *)
(* client labels waitingForGrant, criticalSection, done read as the task's *)
(* criticalSection, unlock, Done.  Mailboxes are read as bags.  The model  *)
(* has no msg.  Pinned actions: the model's server step reads as           *)
(* serverReceive, serverLoop and serverRespond have no counterpart.        *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Bags
CONSTANT NumClients
VARIABLES mnetwork, mqueue, mhasLock, mpc
M == INSTANCE locksvc_model WITH network <- mnetwork, queue <- mqueue, hasLock <- mhasLock, pc <- mpc
Label(n) ==
    CASE mpc[n] = "serverLoop" -> "serverReceive"
      [] mpc[n] = "acquireLock" -> "acquireLock"
      [] mpc[n] = "waitingForGrant" -> "criticalSection"
      [] mpc[n] = "criticalSection" -> "unlock"
      [] mpc[n] = "done" -> "Done"
pc == [n \in 0..NumClients |-> Label(n)]
AsBag(s) == [x \in {s[i] : i \in 1..Len(s)} |-> Cardinality({i \in 1..Len(s) : s[i] = x})]
network == [n \in 0..NumClients |-> AsBag(mnetwork[n])]
hasLock == [n \in 0..NumClients |-> IF n = 0 THEN FALSE ELSE mhasLock[n]]
q == mqueue
msg == [from |-> 0, type |-> 0]
serverLoop(self) == FALSE
serverReceive(self) == M!ProcessLockMsg(self) \/ M!ProcessUnlockMsg(self)
serverRespond(self) == FALSE
acquireLock(self) == M!RequestLock(self)
criticalSection(self) == M!ReceiveGrant(self)
unlock(self) == M!ReleaseLock(self)
Init == M!Init
Next == M!Next
Spec == M!Spec
=============================================================================
