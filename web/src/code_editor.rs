//! The model editor of the task page. When the editor script (`window.sysmoEditor`, CodeMirror 6
//! bundled from `web/editor/`) loaded, the text lives in CodeMirror: TLA+ highlighting, line
//! numbers, bracket matching, search, undo, and the checker's diagnostics underlined at their
//! spans. When it did not, the page falls back to a plain textarea with a line-number gutter.
//!
//! The checker reports byte offsets in the UTF-8 text; CodeMirror counts UTF-16 code units.
//! [`lint_marks`] converts one into the other (plain data, tested natively).

use crate::DiagnosticRow;
use std::cell::RefCell;
use std::rc::Rc;
use tla_syntax::Severity;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// One diagnostic as the editor underlines it: `[from, to)` in UTF-16 code units of the text.
#[derive(Clone, Debug, PartialEq)]
pub struct LintMark {
    pub from: u32,
    pub to: u32,
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    pub hints: Vec<String>,
}

/// The largest char boundary of `text` at or before `byte` (clamped to the text).
fn floor_boundary(text: &str, byte: u32) -> usize {
    let mut b = (byte as usize).min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    b
}

/// The UTF-16 position of a UTF-8 byte offset of `text`.
pub fn utf16_offset(text: &str, byte: u32) -> u32 {
    text[..floor_boundary(text, byte)].encode_utf16().count() as u32
}

/// Byte range a diagnostic marks. An empty span is widened to the character after it (or, at the
/// end of a line, the one before it) so that it shows as an underline; it stays empty only
/// between two line breaks or in an empty text.
fn visible_range(text: &str, start: u32, end: u32) -> (usize, usize) {
    let start = floor_boundary(text, start);
    let end = floor_boundary(text, end).max(start);
    if end > start {
        return (start, end);
    }
    match text[start..].chars().next() {
        Some(c) if c != '\n' && c != '\r' => return (start, start + c.len_utf8()),
        _ => {}
    }
    match text[..start].chars().next_back() {
        Some(c) if c != '\n' && c != '\r' => (start - c.len_utf8(), start),
        _ => (start, start),
    }
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "info",
    }
}

/// The editor's marks for the diagnostics of `text` (those located in other modules, such as a
/// built-in one, have no place in the editor and are left to the list under it).
pub fn lint_marks(text: &str, rows: &[DiagnosticRow]) -> Vec<LintMark> {
    rows.iter()
        .filter_map(|d| {
            let (start, end) = d.span?;
            let (start, end) = visible_range(text, start, end);
            Some(LintMark {
                from: utf16_offset(text, start as u32),
                to: utf16_offset(text, end as u32),
                severity: severity_name(d.severity),
                code: d.code.clone(),
                message: d.message.clone(),
                hints: d.hints.clone(),
            })
        })
        .collect()
}

/// The marks as the editor script takes them (a JSON array).
pub fn marks_json(marks: &[LintMark]) -> String {
    let items: Vec<serde_json::Value> = marks
        .iter()
        .map(|m| {
            serde_json::json!({
                "from": m.from, "to": m.to, "severity": m.severity,
                "code": m.code, "message": m.message, "hints": m.hints,
            })
        })
        .collect();
    serde_json::Value::Array(items).to_string()
}

/// Calls into `window.sysmoEditor`; every one fails softly when the script is absent.
mod script {
    use js_sys::{Function, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    fn api() -> Result<JsValue, JsValue> {
        let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
        let api = Reflect::get(&window, &JsValue::from_str("sysmoEditor"))?;
        if api.is_undefined() || api.is_null() {
            return Err(JsValue::from_str("the editor script is not loaded"));
        }
        Ok(api)
    }

    fn call(name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
        let api = api()?;
        let f: Function = Reflect::get(&api, &JsValue::from_str(name))?.dyn_into()?;
        match args {
            [] => f.call0(&api),
            [a] => f.call1(&api, a),
            [a, b] => f.call2(&api, a, b),
            [a, b, c, ..] => f.call3(&api, a, b, c),
        }
    }

    pub fn available() -> bool {
        api().is_ok()
    }
    pub fn create(parent: &web_sys::Element, text: &str, on_change: &Function) -> Result<JsValue, JsValue> {
        call("create", &[parent.as_ref(), &JsValue::from_str(text), on_change.as_ref()])
    }
    pub fn get_text() -> Option<String> {
        call("getText", &[]).ok()?.as_string()
    }
    pub fn set_text(text: &str) -> Result<JsValue, JsValue> {
        call("setText", &[&JsValue::from_str(text)])
    }
    pub fn set_diagnostics(json: &str, for_text: &str) -> Result<JsValue, JsValue> {
        call("setDiagnostics", &[&JsValue::from_str(json), &JsValue::from_str(for_text)])
    }
    pub fn destroy() {
        let _ = call("destroy", &[]);
    }
}

#[derive(Properties, PartialEq)]
pub struct CodeEditorProps {
    /// The text to show; a change from outside (such as "Reset to template") replaces the
    /// editor's text.
    pub text: AttrValue,
    /// Runs with the new text after every edit.
    pub on_change: Callback<String>,
    /// The text the marks belong to (checking lags behind typing).
    pub checked: AttrValue,
    pub marks: Rc<Vec<LintMark>>,
}

/// Which editor the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Loading,
    CodeMirror,
    TextArea,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Loading => "loading",
            Kind::CodeMirror => "codemirror",
            Kind::TextArea => "textarea",
        }
    }
}

#[function_component(CodeEditor)]
pub fn code_editor(props: &CodeEditorProps) -> Html {
    let host = use_node_ref();
    let kind = use_state(|| Kind::Loading);
    // The latest callback, read by the one closure CodeMirror holds.
    let on_change = use_mut_ref(|| props.on_change.clone());
    *on_change.borrow_mut() = props.on_change.clone();
    let listener = use_mut_ref(|| None::<Closure<dyn FnMut(String)>>);
    // The last text the editor reported: when `text` comes back as that, it is the echo of an
    // edit (perhaps already followed by the next keystroke), not a replacement from outside.
    let reported = use_mut_ref(|| None::<String>);
    {
        let (host, kind, on_change, listener, text, reported) =
            (host.clone(), kind.clone(), on_change.clone(), listener.clone(), props.text.clone(), reported.clone());
        use_effect_with((), move |_| {
            let cb = Closure::<dyn FnMut(String)>::new(move |t: String| {
                *reported.borrow_mut() = Some(t.clone());
                on_change.borrow().emit(t)
            });
            let created = match host.cast::<web_sys::Element>() {
                Some(el) if script::available() => script::create(&el, &text, cb.as_ref().unchecked_ref()).is_ok(),
                _ => false,
            };
            *listener.borrow_mut() = Some(cb);
            kind.set(if created { Kind::CodeMirror } else { Kind::TextArea });
            let listener: Rc<RefCell<Option<Closure<dyn FnMut(String)>>>> = listener;
            move || {
                if created {
                    script::destroy();
                }
                listener.borrow_mut().take();
            }
        });
    }
    {
        // A text set from outside the editor replaces the editor's text.
        let (text, reported) = (props.text.clone(), reported.clone());
        use_effect_with((text, *kind), move |(text, kind)| {
            let echo = reported.borrow().as_deref() == Some(text.as_str());
            if *kind == Kind::CodeMirror && !echo && script::get_text().as_deref() != Some(text.as_str()) {
                let _ = script::set_text(text);
            }
        });
    }
    {
        let deps = (props.checked.clone(), props.marks.clone(), *kind);
        use_effect_with(deps, |(checked, marks, kind)| {
            if *kind == Kind::CodeMirror {
                let _ = script::set_diagnostics(&marks_json(marks), checked);
            }
        });
    }

    let fallback = if *kind == Kind::TextArea {
        let oninput = {
            let on_change = props.on_change.clone();
            Callback::from(move |e: InputEvent| {
                let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
                on_change.emit(area.value());
            })
        };
        let text = props.text.as_str();
        let line_count = text.lines().count().max(1) + usize::from(text.ends_with('\n'));
        html! {
            <div class="editor-box">
                <pre class="gutter" aria-hidden="true">{ (1..=line_count).map(|i| i.to_string()).collect::<Vec<_>>().join("\n") }</pre>
                <textarea id="editor-text" spellcheck="false" wrap="off" rows={line_count.to_string()}
                    value={props.text.clone()} {oninput} />
            </div>
        }
    } else {
        html! {}
    };
    html! {
        <div id="editor" data-kind={kind.name()}>
            <div class="cm-host" ref={host}></div>
            { fallback }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(start: u32, end: u32) -> DiagnosticRow {
        DiagnosticRow {
            code: "E0000".into(),
            severity: Severity::Error,
            line: 1,
            column: 1,
            message: "m".into(),
            span: Some((start, end)),
            hints: vec!["h".into()],
        }
    }

    #[test]
    fn utf16_offsets_count_code_units_not_bytes() {
        // "∧" is 3 bytes and 1 UTF-16 unit; "𝔸" is 4 bytes and 2 units (a surrogate pair).
        let text = "a ∧ b 𝔸 c";
        assert_eq!(utf16_offset(text, 0), 0);
        assert_eq!(utf16_offset(text, text.find('b').unwrap() as u32), 4);
        assert_eq!(utf16_offset(text, text.find('c').unwrap() as u32), 9);
        assert_eq!(utf16_offset(text, text.len() as u32 + 10), text.encode_utf16().count() as u32);
        // Inside a character: the character's start.
        assert_eq!(utf16_offset(text, 3), 2);
    }

    #[test]
    fn marks_cover_the_span_in_utf16() {
        let text = "\\* ∧∧\nx == 𝔸 + \"é\"\n";
        let s = text.find('+').unwrap() as u32;
        let marks = lint_marks(text, &[row(s, s + 1)]);
        assert_eq!(marks.len(), 1);
        let m = &marks[0];
        let expect_from = text[..s as usize].encode_utf16().count() as u32;
        assert_eq!((m.from, m.to), (expect_from, expect_from + 1));
        // The same position as JavaScript's String.prototype.indexOf would give.
        let units: Vec<u16> = text.encode_utf16().collect();
        assert_eq!(units[m.from as usize], u16::from(b'+'));
        assert_eq!((m.severity, m.code.as_str(), m.hints.len()), ("error", "E0000", 1));
    }

    #[test]
    fn empty_spans_widen_to_a_visible_character() {
        let text = "ab\ncd\n\n";
        // Before `c`: covers `c`.
        assert_eq!(lint_marks(text, &[row(3, 3)])[0].from, 3);
        assert_eq!(lint_marks(text, &[row(3, 3)])[0].to, 4);
        // At the end of `ab`: covers `b`.
        let m = &lint_marks(text, &[row(2, 2)])[0];
        assert_eq!((m.from, m.to), (1, 2));
        // On the empty line: stays a point.
        let m = &lint_marks(text, &[row(6, 6)])[0];
        assert_eq!((m.from, m.to), (6, 6));
        // Past the end: clamped.
        let m = &lint_marks(text, &[row(40, 50)])[0];
        assert_eq!((m.from, m.to), (7, 7));
    }

    #[test]
    fn diagnostics_of_other_modules_are_not_marked() {
        let mut r = row(0, 1);
        r.span = None;
        assert!(lint_marks("abc", &[r]).is_empty());
    }

    #[test]
    fn marks_of_a_checked_module_point_at_the_error() {
        // A definition sign where an equality belongs, after a multi-byte character.
        let text = "---- MODULE M ----\nVARIABLE x\n\\* état ∧\nInit == x = 0\nNext == x' == x + 1\n====\n";
        let view = crate::analyze_text(text);
        assert!(!view.clean);
        let marks = lint_marks(text, &view.diagnostics);
        assert!(!marks.is_empty(), "{:?}", view.diagnostics);
        let units: Vec<u16> = text.encode_utf16().collect();
        let marked = String::from_utf16(&units[marks[0].from as usize..marks[0].to as usize]).unwrap();
        let line = String::from_utf16(&units[..marks[0].from as usize]).unwrap().matches('\n').count() + 1;
        assert_eq!(line, view.diagnostics[0].line as usize, "{marked:?} {:?}", view.diagnostics[0]);
        assert!(!marked.trim().is_empty(), "{marked:?}");
        let json: serde_json::Value = serde_json::from_str(&marks_json(&marks)).unwrap();
        assert_eq!(json[0]["from"], marks[0].from);
        assert_eq!(json[0]["code"], view.diagnostics[0].code.as_str());
    }

    #[test]
    fn a_property_answer_is_checked_inside_the_invariants_module() {
        let t = sysmo_tasks::task("counter").unwrap();
        let (invariants, model) = (t.invariants_tla().unwrap(), t.file("reference/counter.tla").unwrap());
        let check = |defs: &str| crate::analyze_definitions(defs, invariants, "counter", model);
        // Definitions over the pinned names: clean here, though not a module on their own.
        let good = "NoLoss ==\n    \\A t \\in Threads : pc[t] = \"done\" => counter >= 1\n";
        assert!(check(good).clean, "{:?}", check(good).diagnostics);
        assert!(!crate::analyze_text(good).clean);
        // An unknown name is marked where it is, at its line in the answer.
        let text = "Fine == counter >= 0\nBad == countr + 1 > 0\n";
        let view = check(text);
        assert!(!view.clean);
        let marks = lint_marks(text, &view.diagnostics);
        assert_eq!(marks.len(), 1, "{:?}", view.diagnostics);
        assert_eq!(&text[marks[0].from as usize..marks[0].to as usize], "countr");
        assert_eq!((view.diagnostics[0].line, view.diagnostics[0].column), (2, 8));
        // An expression cut short is marked at the answer's end, not lost at the module's.
        let text = "Cut == counter +";
        let view = check(text);
        assert!(!view.clean);
        let marks = lint_marks(text, &view.diagnostics);
        assert!(!marks.is_empty() && marks.iter().all(|m| m.to as usize <= text.len()), "{:?}", view.diagnostics);
    }
}
