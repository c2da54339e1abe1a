---- MODULE SvgOut ----
\* SVG's SVGElemToString, which TLC computes in Java (CommunityModules' SVG override): the
\* element's name and attributes (`_` in a name written `-`), its inner text with << and >>
\* escaped, then its children (a sequence, or a function's values) in order.
EXTENDS SVG, Integers, TLC
ASSUME SVGElemToString(SVGElem("g", [stroke_width |-> "2"], <<SVGElem("text", [x |-> "1"], <<>>, "<<a>>")>>, ""))
       = "<g stroke-width='2'><text x='1'>&lt;&lt;a&gt;&gt;</text></g>"
ASSUME SVGElemToString(SVGElem("svg", <<>>, [i \in 1..2 |-> SVGElem("b", <<>>, <<>>, ToString(i))], ""))
       = "<svg><b>1</b><b>2</b></svg>"
ASSUME SVGElemToString(Circle(5, 6, 7, [fill |-> "red"])) \in STRING
\* NodeOfRingNetwork(cx, cy, r, n, m), also Java in TLC: node n of m on the circle, each
\* coordinate truncated toward zero (cos(3*pi/2) is -1.8e-16 in IEEE doubles, so x is 9, not 10).
ASSUME NodeOfRingNetwork(10, 10, 5, 0, 4) = [x |-> 15, y |-> 10]
ASSUME NodeOfRingNetwork(10, 10, 5, 1, 4) = [x |-> 10, y |-> 15]
ASSUME NodeOfRingNetwork(10, 10, 5, 2, 4) = [x |-> 5, y |-> 10]
ASSUME NodeOfRingNetwork(10, 10, 5, 3, 4) = [x |-> 9, y |-> 5]
ASSUME NodeOfRingNetwork(100, 50, 40, 2, 7) = [x |-> 91, y |-> 88]
ASSUME NodeOfRingNetwork(0, 0, 10, 1, 3) = [x |-> -4, y |-> 8]
VARIABLE x
Init == x = 0
Next == UNCHANGED x
====
