---------------------------- MODULE locksvc ----------------------------
(***************************************************************************)
(* The task's pinned names over SysMoBench's gpt5 locksvc model, for       *)
(* checking tasks/locksvc/locksvcInvariants.tla outside the grader (check-pinned.sh)*)
(* The model is instanced as module locksvc_model (the model's text with   *)
(* only its MODULE line renamed).  The server has no label: it reads as    *)
(* serverReceive (waiting for a message); clientPhase idle,                *)
(* waitingForGrant, critical, releasing reads as acquireLock,              *)
(* criticalSection, unlock, Done.  Mailbox[n] (a count for every message)  *)
(* reads as the bag of the messages with a positive count.  The model has  *)
(* no msg.  Pinned actions: ServerStep reads as serverReceive, serverLoop  *)
(* and serverRespond have no counterpart; ClientUnlockProcessed is none of *)
(* the pinned actions.                                                     *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Bags
CONSTANT NumClients
VARIABLES mq, mhasLock, mclientPhase, mMailbox
M == INSTANCE locksvc_model WITH q <- mq, hasLock <- mhasLock, clientPhase <- mclientPhase, Mailbox <- mMailbox
Label(n) ==
    IF n = 0 THEN "serverReceive"
    ELSE CASE mclientPhase[n] = "idle" -> "acquireLock"
           [] mclientPhase[n] = "waitingForGrant" -> "criticalSection"
           [] mclientPhase[n] = "critical" -> "unlock"
           [] mclientPhase[n] = "releasing" -> "Done"
pc == [n \in 0..NumClients |-> Label(n)]
network == [n \in 0..NumClients |-> [x \in {y \in DOMAIN mMailbox[n] : mMailbox[n][y] > 0} |-> mMailbox[n][x]]]
hasLock == [n \in 0..NumClients |-> IF n = 0 THEN FALSE ELSE mhasLock[n]]
q == mq
msg == [from |-> 0, type |-> 0]
serverLoop(self) == FALSE
serverReceive(self) == M!ServerStep
serverRespond(self) == FALSE
acquireLock(self) == M!ClientSendLock(self)
criticalSection(self) == M!ClientRecvGrant(self)
unlock(self) == M!ClientSendUnlock(self)
Init == M!Init
Next == M!Next
Spec == M!Spec
=============================================================================
