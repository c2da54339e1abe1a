---- MODULE 035_else_if_missing_else ----
\* mistake: IF ... ELSE IF chain without a final ELSE; error at line 7
EXTENDS Naturals
VARIABLE temp
Init == temp = 20
Adjust == temp' = IF temp > 25 THEN temp - 1
                  ELSE IF temp < 15 THEN temp + 1
Next == Adjust
====
