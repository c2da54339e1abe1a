---- MODULE M ----
(*Ҁ