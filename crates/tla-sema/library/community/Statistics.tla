------------------------- MODULE Statistics -------------------------
EXTENDS Naturals

(***************************************************************************)
(* Performs a Chi-square goodness of fit test evaluating the null          *)
(* hypothesis that the observed counts conform to the frequency            *)
(* distribution described by the expected counts, with significance level  *)
(* alpha.                                                                  *)
(* From:                                                                   *)
(* https://commons.apache.org/proper/commons-math/javadocs/api-3.6.1/      *)
(* org/apache/commons/math3/stat/inference/ChiSquareTest.html              *)
(***************************************************************************)
ChiSquare(expected, actual, alpha) ==
    \* TODO: specify the ChiSquare test
    TRUE

=========================================================================
 