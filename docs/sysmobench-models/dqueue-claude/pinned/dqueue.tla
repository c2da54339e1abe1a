---------------------------- MODULE dqueue ----------------------------
(***************************************************************************)
(* The task's pinned names over SysMoBench's claude dqueue model, for      *)
(* checking tasks/dqueue/dqueueInvariants.tla outside the grader (check-pinned.sh).*)
(* The model is instanced as module dqueue_model (the model's text with    *)
(* only its MODULE line renamed) with its variables renamed.  The model    *)
(* has no stream, no processor and no BUFFER_SIZE: stream and processor    *)
(* are constant 0 here, so StreamCycles and ProcessorGetsWhatWasSent hold  *)
(* vacuously and are not counted; BUFFER_SIZE is the task's 3.             *)
(***************************************************************************)
EXTENDS Naturals, Sequences
CONSTANTS NUM_CONSUMERS, PRODUCER, DATA
VARIABLES mpc, mnet, mrequester, mproc
M == INSTANCE dqueue_model WITH pc <- mpc, net <- mnet, requester <- mrequester, proc <- mproc
BUFFER_SIZE == 3
pc == mpc
network == mnet
requester == mrequester
processor == 0
stream == 0
Init == M!Init
Next == M!Next
Spec == M!Spec
=============================================================================
