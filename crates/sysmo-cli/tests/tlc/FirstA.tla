---- MODULE FirstA ----
Limit == 2
====
