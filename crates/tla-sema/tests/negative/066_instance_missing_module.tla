---- MODULE 066_instance_missing_module ----
\* mistake: INSTANCE of a module that does not exist; error at line 5
EXTENDS Naturals
VARIABLE data
Q == INSTANCE BoundedQueue WITH q <- data
Init == data = << >>
Next == UNCHANGED data
====
