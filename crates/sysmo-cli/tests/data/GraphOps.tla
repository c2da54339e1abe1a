---- MODULE GraphOps ----
\* The graph operators TLC computes in Java (UndirectedGraphs, Graphs), against their modules'
\* definitions with paths bounded by the number of nodes, which is exact for simple paths and
\* for connectivity.
EXTENDS Naturals, FiniteSets, Sequences
U == INSTANCE UndirectedGraphs
D == INSTANCE Graphs
VARIABLE x

Bounded(G, Step(_, _)) ==
    UNION {{p \in [1..n -> G.node] : \A i \in 1..(n-1) : Step(p[i], p[i+1])} : n \in 1..Cardinality(G.node)}
Simple(G, Step(_, _)) == {p \in Bounded(G, Step) : \A i, j \in 1..Len(p) : p[i] = p[j] => i = j}
Connected(m, n, G, Step(_, _)) == \E p \in Bounded(G, Step) : p[1] = m /\ p[Len(p)] = n
Components(G, Step(_, _)) ==
    {{n \in G.node : Connected(m, n, G, Step)} : m \in G.node}

UG1 == [node |-> {1, 2, 3, 4, 5}, edge |-> {{1, 2}, {2, 3}, {4}, {5, 6}}]
UG2 == [node |-> {"a", "b", "c"}, edge |-> {{"a", "b"}, {"b", "c"}, {"c", "a"}}]
UG3 == [node |-> {}, edge |-> {}]
DG1 == [node |-> {1, 2, 3, 4}, edge |-> {<<1, 2>>, <<2, 3>>, <<3, 1>>, <<3, 4>>}]
DG2 == [node |-> {1, 2, 3}, edge |-> {<<1, 2>>, <<2, 3>>, <<3, 1>>}]

ASSUME \A G \in {UG1, UG2, UG3} :
    LET S(a, b) == {a, b} \in G.edge IN
    /\ U!SimplePath(G) = Simple(G, S)
    /\ U!ConnectedComponents(G) = Components(G, S)
    /\ \A m, n \in G.node : U!AreConnectedIn(m, n, G) = (m \in G.node /\ n \in G.node /\ Connected(m, n, G, S))
    /\ U!IsStronglyConnected(G) = (Components(G, S) = {G.node})

ASSUME \A G \in {DG1, DG2} :
    LET S(a, b) == <<a, b>> \in G.edge IN
    /\ D!SimplePath(G) = Simple(G, S)
    /\ \A m, n \in G.node : D!AreConnectedIn(m, n, G) = (m \in G.node /\ n \in G.node /\ Connected(m, n, G, S))
    /\ D!IsStronglyConnected(G) = \A m, n \in G.node : Connected(m, n, G, S)

ASSUME Cardinality(U!SimplePath(UG1)) = 11 /\ ~U!IsStronglyConnected(UG1) /\ U!IsStronglyConnected(UG2)
ASSUME ~U!AreConnectedIn(1, 7, UG1) /\ ~D!AreConnectedIn(7, 1, DG1) /\ ~U!IsStronglyConnected(UG3) /\ D!IsStronglyConnected([node |-> {}, edge |-> {}])
ASSUME D!IsStronglyConnected(DG2) /\ ~D!IsStronglyConnected(DG1) /\ D!AreConnectedIn(1, 4, DG1) /\ ~D!AreConnectedIn(4, 1, DG1)

Init == x = 0
Next == UNCHANGED x
====
