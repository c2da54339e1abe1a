//! The operator table: canonical spellings, alternative spellings (ASCII and Unicode),
//! fixity, precedence ranges and associativity, as in "Specifying Systems", table 6.
