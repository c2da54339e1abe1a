---- MODULE ReadsEnv ----
\* IOEnv is the environment variables of the process that runs the check, as in TLC (a Java
\* override there); IOSerialize, which writes TLC's binary format of values, is refused by name.
EXTENDS IOUtils, Naturals
VARIABLE x
Init == x = IF "SYSMO_TEST_COUNT" \in DOMAIN IOEnv THEN atoi(IOEnv.SYSMO_TEST_COUNT) ELSE 0
Next == x < 3 /\ x' = x + 1
Runs == IOSerialize(x, "/nonexistent/x.bin", FALSE)
====
