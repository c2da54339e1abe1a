MODULE 018_missing_header_dashes
\* mistake: module header without ---- dashes; error at line 1
EXTENDS Naturals
VARIABLE tokens
Init == tokens = 3
Take == tokens > 0 /\ tokens' = tokens - 1
Next == Take
====
