---- MODULE MachineIo ----
\* The I/O operators of Json, CSV and IOUtils, with the files and programs of the process
\* that runs the check (`sysmo check`), as TLC's Java overrides run them. The folder to write
\* in comes from the environment; each ASSUME states what the operator gives back.
EXTENDS IOUtils, Json, CSV, Sequences, Naturals
Dir == IOEnv.SYSMO_TEST_DIR
Val == [a |-> 1, b |-> <<"x", TRUE>>, c |-> {1, 2}]

\* JSON: a set is written as an array, read back as a tuple; missing folders are made.
ASSUME JsonSerialize(Dir \o "/sub/v.json", Val)
ASSUME JsonDeserialize(Dir \o "/sub/v.json") = [a |-> 1, b |-> <<"x", TRUE>>, c |-> <<1, 2>>]
ASSUME ndJsonSerialize(Dir \o "/v.ndjson", <<1, "two", [k |-> <<>>]>>)
ASSUME ndJsonDeserialize(Dir \o "/v.ndjson") = <<1, "two", [k |-> <<>>]>>

\* CSV: a file that does not exist has no records; values are written as TLC prints them.
ASSUME CSVRecords(Dir \o "/t.csv") = 0
ASSUME CSVRead(<<"n", "s">>, "#", Dir \o "/t.csv") = <<>>
ASSUME CSVWrite("%1$s#%2$s", <<1, "a">>, Dir \o "/t.csv")
ASSUME CSVWrite("%s#%s", <<2, {3}>>, Dir \o "/t.csv")
ASSUME CSVRecords(Dir \o "/t.csv") = 2
ASSUME CSVRead(<<"n", "s">>, "#", Dir \o "/t.csv") = <<[n |-> "1", s |-> "\"a\""], [n |-> "2", s |-> "{3}"]>>
ASSUME CSVWriteRecord([n |-> 5, s |-> "e"], ";", TRUE, Dir \o "/r.csv")
ASSUME CSVRead(<<"x", "y">>, ";", Dir \o "/r.csv") = <<[x |-> "n", y |-> "s"], [x |-> "5", y |-> "\"e\""]>>

\* Programs: exit code, standard output and error; the environment added; templates.
ASSUME IOExec(<<"echo", "hello">>) = [exitValue |-> 0, stdout |-> "hello\n", stderr |-> ""]
ASSUME IOEnvExec([GREETING |-> "hi"], <<"sh", "-c", "echo $GREETING; echo oops >&2; exit 3">>)
         = [exitValue |-> 3, stdout |-> "hi\n", stderr |-> "oops\n"]
ASSUME IOExecTemplate(<<"echo", "%s-%s">>, <<"a", "b">>).stdout = "a-b\n"

VARIABLE x
Init == x = 0
Next == x' = (x + 1) % 3
====
