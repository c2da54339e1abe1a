//! Printing values the way TLC prints them (`PrintT`, counterexamples).

use std::fmt;

use crate::value::Value;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(true) => write!(f, "TRUE"),
            Value::Bool(false) => write!(f, "FALSE"),
            Value::Int(i) => write!(f, "{}", i),
            Value::Str(s) => write_tla_string(f, s.as_str()),
            Value::Model(m) => write!(f, "{}", m.name().as_str()),
            Value::Set(s) => {
                write!(f, "{{")?;
                for (i, e) in s.elems().iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", e)?;
                }
                write!(f, "}}")
            }
            Value::Seq(s) => {
                write!(f, "<<")?;
                for (i, e) in s.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", e)?;
                }
                write!(f, ">>")
            }
            Value::Fcn(fc) if fc.is_record() => {
                write!(f, "[")?;
                for (i, (d, v)) in fc.domain().iter().zip(fc.values().iter()).enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    if let Value::Str(s) = d {
                        write!(f, "{} |-> {}", s.as_str(), v)?;
                    }
                }
                write!(f, "]")
            }
            Value::Fcn(fc) => {
                write!(f, "(")?;
                for (i, (d, v)) in fc.domain().iter().zip(fc.values().iter()).enumerate() {
                    if i > 0 {
                        write!(f, " @@ ")?;
                    }
                    write!(f, "{} :> {}", d, v)?;
                }
                write!(f, ")")
            }
            // TLC prints intervals as `a..b` and other finite sets enumerated.
            Value::Lazy(l) if l.as_interval().is_none() && l.is_finite() => match l.to_set() {
                Ok(s) => write!(f, "{}", Value::Set(s)),
                Err(_) => write!(f, "{}", l),
            },
            Value::Lazy(l) => write!(f, "{}", l),
        }
    }
}

fn write_tla_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    write!(f, "\"")?;
    for c in s.chars() {
        match c {
            '"' => write!(f, "\\\"")?,
            '\\' => write!(f, "\\\\")?,
            '\n' => write!(f, "\\n")?,
            '\t' => write!(f, "\\t")?,
            c => write!(f, "{}", c)?,
        }
    }
    write!(f, "\"")
}
