//! "Did you mean …?" for unknown names: case differences first, then small edit distances.

/// Levenshtein distance over chars (names are short).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The best candidate for a misspelled `name`, if one is close enough.
pub fn did_you_mean<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let lower = name.to_lowercase();
    let max = match name.chars().count() {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name || c.is_empty() {
            continue;
        }
        let d = if c.to_lowercase() == lower { 0 } else { edit_distance(name, c) };
        if d <= max && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Operators from other languages that LLM-written models use, with the TLA+ spelling.
pub fn foreign_operator(name: &str) -> Option<&'static str> {
    Some(match name {
        "&&" | "&" => "/\\",
        "||" | "|" => "\\/",
        "!=" => "/= (or #)",
        "!" => "~",
        ":=" => "=",
        "true" => "TRUE",
        "false" => "FALSE",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("Len", "len"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
    }

    #[test]
    fn suggestions() {
        let names = ["vars", "Next", "Init", "Len"];
        assert_eq!(did_you_mean("Vars", names.iter().copied()), Some("vars".into()));
        assert_eq!(did_you_mean("len", names.iter().copied()), Some("Len".into()));
        assert_eq!(did_you_mean("Nxt", names.iter().copied()), Some("Next".into()));
        assert_eq!(did_you_mean("Totally", names.iter().copied()), None);
    }
}
