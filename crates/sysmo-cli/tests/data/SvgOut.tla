---- MODULE SvgOut ----
\* SVG's SVGElemToString, which TLC computes in Java (CommunityModules' SVG override): the
\* element's name and attributes (`_` in a name written `-`), its inner text with << and >>
\* escaped, then its children (a sequence, or a function's values) in order.
EXTENDS SVG, Naturals, TLC
ASSUME SVGElemToString(SVGElem("g", [stroke_width |-> "2"], <<SVGElem("text", [x |-> "1"], <<>>, "<<a>>")>>, ""))
       = "<g stroke-width='2'><text x='1'>&lt;&lt;a&gt;&gt;</text></g>"
ASSUME SVGElemToString(SVGElem("svg", <<>>, [i \in 1..2 |-> SVGElem("b", <<>>, <<>>, ToString(i))], ""))
       = "<svg><b>1</b><b>2</b></svg>"
ASSUME SVGElemToString(Circle(5, 6, 7, [fill |-> "red"])) \in STRING
VARIABLE x
Init == x = 0
Next == UNCHANGED x
====
