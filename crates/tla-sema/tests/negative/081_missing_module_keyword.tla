---- 081_missing_module_keyword ----
\* mistake: header line without the MODULE keyword; error at line 1
EXTENDS Naturals
VARIABLE ctr
Init == ctr = 0
Next == ctr' = ctr + 1
====
