---- MODULE FirstB ----
Limit == 5
====
