//! The module and .cfg of an LLM's answer ([`parse_answer`]): from fenced code blocks, or a bare
//! module in the text; an answer with no module, two different modules or a module cut off
//! before its closing line is unusable, with the plain reason to give back.

/// The module (and .cfg) found in an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The module's name, as its header says.
    pub name: String,
    /// From `---- MODULE` to its closing `====` line, with a final newline.
    pub tla: String,
    pub cfg: Option<String>,
    /// The mapping (`mapping.json`, docs/mapping.md) from the traces' step names to the
    /// model's actions: a block labelled `json` (or `mapping.json`), or any block holding a JSON
    /// object with `actions`; the last one.
    pub mapping: Option<String>,
    /// Set when the module is not named as the task pins it: the plain statement to give back.
    pub wrong_name: Option<String>,
}

/// A fenced code block: its info string (lower-cased) and body; `closed` is false when the
/// text ends inside it.
struct Block {
    lang: String,
    body: String,
    closed: bool,
}

fn fenced_blocks(text: &str) -> (Vec<Block>, String) {
    let mut blocks = vec![];
    let mut outside = String::new();
    let mut cur: Option<(String, char, usize, String)> = None; // (lang, fence char and length, body)
    for line in text.lines() {
        let t = line.trim_start();
        let fence = |c: char| t.chars().take_while(|&x| x == c).count();
        let (ch, ticks) = if t.starts_with('~') { ('~', fence('~')) } else { ('`', fence('`')) };
        match &mut cur {
            None if ticks >= 3 => cur = Some((t[ticks..].trim().to_lowercase(), ch, ticks, String::new())),
            None => {
                outside.push_str(line);
                outside.push('\n');
            }
            Some((lang, c, n, body)) => {
                if ch == *c && ticks >= *n && t[ticks..].trim().is_empty() {
                    blocks.push(Block { lang: std::mem::take(lang), body: std::mem::take(body), closed: true });
                    cur = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    if let Some((lang, _, _, body)) = cur {
        blocks.push(Block { lang, body, closed: false });
    }
    (blocks, outside)
}

fn is_module_header(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("----") && t.trim_start_matches('-').trim_start().starts_with("MODULE")
}

fn is_module_end(line: &str) -> bool {
    line.trim_start().starts_with("====")
}

/// The modules in a text: each from its header to its closing line; `Err(name)` for one that
/// has no closing line.
fn modules_in(text: &str) -> Vec<Result<String, String>> {
    let mut out = vec![];
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match &mut cur {
            None if is_module_header(line) => cur = Some(format!("{line}\n")),
            None => {}
            Some(m) => {
                m.push_str(line);
                m.push('\n');
                if is_module_end(line) {
                    out.push(Ok(std::mem::take(m)));
                    cur = None;
                }
            }
        }
    }
    if let Some(m) = cur {
        out.push(Err(sysmo_grade::module_name(&m).unwrap_or_else(|| "?".into())));
    }
    out
}

const CFG_WORDS: &[&str] = &[
    "SPECIFICATION", "INIT", "NEXT", "CONSTANT", "CONSTANTS", "INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES",
    "SYMMETRY", "VIEW", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT", "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION",
];

fn looks_like_cfg(body: &str) -> bool {
    let first = body.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("\\*") && !l.starts_with("(*"));
    first.and_then(|l| l.split_whitespace().next()).is_some_and(|w| CFG_WORDS.contains(&w))
}

fn is_tla_lang(lang: &str) -> bool {
    matches!(lang, "tla" | "tlaplus" | "tla+" | "tla-plus") || lang.ends_with(".tla")
}

fn is_json_lang(lang: &str) -> bool {
    lang == "json" || lang.ends_with(".json")
}

fn looks_like_mapping(body: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(body).is_ok_and(|v| v.get("actions").is_some_and(serde_json::Value::is_object))
}

fn is_cfg_lang(lang: &str) -> bool {
    matches!(lang, "cfg" | "tlc" | "tla-cfg") || lang.ends_with(".cfg")
}

/// How the answer should look, for a turn after an unusable one; `mapping` when the answer
/// must hold a mapping too (the no-hints prompt).
pub fn format_reminder(module: &str, mapping: bool) -> String {
    let m = if mapping { ", and `mapping.json` in one ```json code block (the traces' step names to your actions)" } else { "" };
    format!(
        "Answer with the complete module `{module}.tla` in one ```tla code block, from \
         `---- MODULE {module} ----` to its closing `====` line, and its configuration \
         `{module}.cfg` in one ```cfg code block (SPECIFICATION Spec and the CONSTANT lines){m}."
    )
}

/// The module, .cfg and mapping of an answer. The module is taken from fenced blocks labelled `tla` or
/// `tlaplus`, or any fenced block holding a `---- MODULE` header, else from the bare text; the
/// .cfg from a block labelled `cfg` or one that starts with a .cfg keyword (SPECIFICATION,
/// INIT, CONSTANT, ...), the last one when there are several. `pinned` is the module name the
/// task expects. Errors are the plain reason the answer is unusable.
pub fn parse_answer(text: &str, pinned: &str) -> Result<Answer, String> {
    let (blocks, outside) = fenced_blocks(text);
    let mut found: Vec<Result<String, String>> = vec![];
    let mut cfg = None;
    let mut mapping = None;
    for b in &blocks {
        let mods = modules_in(&b.body);
        if is_tla_lang(&b.lang) || !mods.is_empty() {
            if mods.is_empty() && !b.closed {
                // A tla block cut off before its header.
                found.push(Err("?".into()));
            }
            found.extend(mods);
        } else if is_cfg_lang(&b.lang) || looks_like_cfg(&b.body) {
            cfg = Some(b.body.clone());
        } else if is_json_lang(&b.lang) || looks_like_mapping(&b.body) {
            mapping = Some(b.body.clone());
        }
    }
    if found.is_empty() {
        // A bare module in the text (outside any code block).
        found = modules_in(&outside);
    }
    if found.is_empty() {
        return Err(format!("The answer holds no TLA+ module (no `---- MODULE {pinned} ----` header was found)."));
    }
    if let Some(Err(name)) = found.iter().find(|m| m.is_err()) {
        return Err(format!(
            "The module `{name}` has no closing `====` line: the answer looks truncated. Give the whole module; keep it short if it is long."
        ));
    }
    let mut mods: Vec<String> = vec![];
    for m in found.into_iter().flatten() {
        if !mods.iter().any(|x| x.trim() == m.trim()) {
            mods.push(m);
        }
    }
    if mods.len() > 1 {
        let names: Vec<String> = mods.iter().map(|m| format!("`{}`", sysmo_grade::module_name(m).unwrap_or_else(|| "?".into()))).collect();
        return Err(format!(
            "The answer holds {} different modules ({}); give exactly one module, `{pinned}`, in full.",
            mods.len(),
            names.join(", ")
        ));
    }
    let tla = mods.pop().unwrap_or_default();
    let name = sysmo_grade::module_name(&tla).unwrap_or_default();
    let wrong_name = (name != pinned).then(|| {
        format!("The module is named `{name}`, but the task expects `{pinned}`: its header must be `---- MODULE {pinned} ----`.")
    });
    let cfg = cfg.filter(|c| !c.trim().is_empty());
    let mapping = mapping.filter(|m| !m.trim().is_empty());
    Ok(Answer { name, tla, cfg, mapping, wrong_name })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFERENCE: &str = include_str!("../../../tasks/spin/reference/spin.tla");
    const REFERENCE_CFG: &str = include_str!("../../../tasks/spin/reference/spin.cfg");
    const SMALL: &str = "---- MODULE spin ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n";

    #[test]
    fn parses_fenced_tla_and_cfg() {
        let text = format!("Here it is.\n\n```tla\n{REFERENCE}```\n\nand\n\n```cfg\n{REFERENCE_CFG}```\n");
        let a = parse_answer(&text, "spin").unwrap();
        assert_eq!(a.name, "spin");
        assert_eq!(a.tla.trim(), REFERENCE.trim());
        assert_eq!(a.cfg.as_deref(), Some(REFERENCE_CFG));
        assert_eq!(a.wrong_name, None);
        // tlaplus, an unlabelled block holding a module, a cfg recognised by its first keyword.
        let text = format!("```tlaplus\n{SMALL}```\n```\nSPECIFICATION Spec\nCONSTANT Threads = {{0, 1}}\n```\n");
        let a = parse_answer(&text, "spin").unwrap();
        assert_eq!((a.tla.as_str(), a.cfg.as_deref()), (SMALL, Some("SPECIFICATION Spec\nCONSTANT Threads = {0, 1}\n")));
        let a = parse_answer(&format!("~~~tla\n{SMALL}~~~\n"), "spin").unwrap();
        assert_eq!(a.tla, SMALL);
        let a = parse_answer(&format!("spin.tla:\n```\n{SMALL}```\n"), "spin").unwrap();
        assert_eq!((a.tla.as_str(), a.cfg), (SMALL, None));
        // Text after the closing line is not the module's.
        let a = parse_answer(&format!("```tla\n{SMALL}\\* trailing\n```"), "spin").unwrap();
        assert_eq!(a.tla, SMALL);
    }

    #[test]
    fn takes_the_mapping_from_a_json_block() {
        let m = "{\"version\": 1, \"actions\": {\"TryLock\": \"Attempt\"}}\n";
        let a = parse_answer(&format!("```tla\n{SMALL}```\n```json\n{m}```\n"), "spin").unwrap();
        assert_eq!(a.mapping.as_deref(), Some(m));
        let a = parse_answer(&format!("```tla\n{SMALL}```\nmapping.json:\n```\n{m}```\n"), "spin").unwrap();
        assert_eq!(a.mapping.as_deref(), Some(m), "an unlabelled block holding a mapping");
        assert_eq!(parse_answer(&format!("```tla\n{SMALL}```\n"), "spin").unwrap().mapping, None);
    }

    #[test]
    fn parses_a_bare_module() {
        let a = parse_answer(&format!("Sure:\n\n{SMALL}\nThat is all.\n"), "spin").unwrap();
        assert_eq!((a.name.as_str(), a.tla.as_str()), ("spin", SMALL));
    }

    #[test]
    fn two_different_modules_are_an_error() {
        let other = SMALL.replace("MODULE spin", "MODULE helper");
        let e = parse_answer(&format!("```tla\n{SMALL}```\n```tla\n{other}```\n"), "spin").unwrap_err();
        assert!(e.contains("2 different modules") && e.contains("`spin`") && e.contains("`helper`"), "{e}");
        // The same module twice is one module.
        assert!(parse_answer(&format!("```tla\n{SMALL}```\nAgain:\n```tla\n{SMALL}```\n"), "spin").is_ok());
    }

    #[test]
    fn a_truncated_module_is_an_error() {
        let cut = &SMALL[..SMALL.find("====").unwrap()];
        for text in [format!("```tla\n{cut}"), format!("```tla\n{cut}```\n"), format!("Here:\n{cut}")] {
            let e = parse_answer(&text, "spin").unwrap_err();
            assert!(e.contains("no closing `====`") && e.contains("truncated"), "{text}: {e}");
        }
    }

    #[test]
    fn no_module_is_an_error() {
        for text in ["I cannot help with that.", "```python\nprint(1)\n```\n", "```cfg\nSPECIFICATION Spec\n```\n"] {
            let e = parse_answer(text, "spin").unwrap_err();
            assert!(e.contains("no TLA+ module"), "{text}: {e}");
        }
    }

    #[test]
    fn a_wrong_module_name_is_said_plainly() {
        let a = parse_answer(&format!("```tla\n{}```", SMALL.replace("MODULE spin", "MODULE SpinLock")), "spin").unwrap();
        assert_eq!(a.name, "SpinLock");
        let w = a.wrong_name.unwrap();
        assert!(w.contains("`SpinLock`") && w.contains("---- MODULE spin ----"), "{w}");
    }
}
