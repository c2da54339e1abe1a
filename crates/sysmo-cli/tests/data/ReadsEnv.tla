---- MODULE ReadsEnv ----
\* IOEnv reads the environment in TLC (a Java override): an error here, never the module's
\* placeholder definition.
EXTENDS IOUtils
VARIABLE x
Init == x = IOEnv
Next == UNCHANGED x
====
