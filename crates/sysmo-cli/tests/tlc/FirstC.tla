---- MODULE FirstC ----
Step == 2
====
