//! The "LLM" tab's component: the form, the loop (a `fetch` per round, read as it streams, and a
//! grade in the panel's own worker per usable answer), Cancel, and the rounds.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use sysmo_agent::{request_body, Api, Conversation, StreamDecoder};
use sysmo_grade::Report;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

use super::{best_round, diff_counts, Control, DiffLine, PendingGrade, Phase, RoundView, Settings, MAX_ROUNDS};
use crate::app::{forget as store_remove, load as store_get, save as store_set, scorecard, start_worker, WorkerSlot};
use crate::grading::{GradeRequest, WorkerMessage};

#[derive(Properties, PartialEq)]
pub struct LlmProps {
    pub task: String,
    /// The module name the task pins.
    pub module: String,
    /// The task's prompt, or why there is none.
    pub prompt: Result<String, String>,
    /// The prompt without the action list.
    pub prompt_no_hints: Result<String, String>,
}

/// What the loop needs, cloned into it.
#[derive(Clone)]
struct Loop {
    task: String,
    settings: Settings,
    key: String,
    control: Rc<Control>,
    conversation: Rc<RefCell<Conversation>>,
    phase: UseStateHandle<Phase>,
    views: UseStateHandle<Vec<RoundView>>,
    grader: Grader,
}

/// The panel's grading worker, started on first use.
#[derive(Clone)]
struct Grader {
    slot: Rc<RefCell<Option<WorkerSlot>>>,
    pending: PendingGrade,
    run: Rc<RefCell<u64>>,
}

impl Grader {
    fn on_message(pending: PendingGrade) -> Callback<WorkerMessage> {
        Callback::from(move |m: WorkerMessage| {
            let result = match m {
                WorkerMessage::Report { run, report } => Some((run, Ok(report))),
                WorkerMessage::Failed { run, message } => Some((run, Err(message))),
                _ => None,
            };
            if let Some((run, result)) = result {
                let waiting = pending.borrow().as_ref().is_some_and(|(r, _)| *r == run || run == 0);
                if waiting && let Some((_, tx)) = pending.borrow_mut().take() {
                    let _ = tx.send(result);
                }
            }
        })
    }

    async fn grade(&self, task: &str, answer: &sysmo_agent::Answer) -> Result<Box<Report>, String> {
        if self.slot.borrow().is_none() {
            *self.slot.borrow_mut() = Some(start_worker(Grader::on_message(self.pending.clone()))?);
        }
        *self.run.borrow_mut() += 1;
        let run = *self.run.borrow();
        let (tx, rx) = futures_channel::oneshot::channel();
        *self.pending.borrow_mut() = Some((run, tx));
        let req = GradeRequest { run, task: task.to_string(), model: answer.tla.clone(), cfg: answer.cfg.clone(), mapping: answer.mapping.clone(), bug_model: false, pack: GradeRequest::pack_of(task), exercise: None };
        if let Some(s) = self.slot.borrow().as_ref() {
            s.send(req.to_json())?;
        }
        rx.await.map_err(|_| "the grade was cancelled".to_string())?
    }

    /// Stops a grade where it is: the worker is ended (a new one starts on the next grade).
    fn stop(&self) {
        if let Some(s) = self.slot.borrow_mut().take() {
            s.worker.terminate();
        }
        self.pending.borrow_mut().take();
    }
}

/// What the browser said of a failed promise.
fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_else(|| format!("{e:?}"))
}

/// Why a `fetch` gave no response at all.
fn unreachable(url: &str, e: &JsValue) -> String {
    format!(
        "No answer from {url}: the endpoint cannot be reached from this page, or it does not allow requests from \
         other sites (CORS: its responses must carry Access-Control-Allow-Origin). The browser says: {}",
        js_message(e)
    )
}

/// The answer to one request, read as it streams; `progress` sees the characters so far.
async fn fetch_answer(api: Api, url: &str, body: &str, key: &str, signal: &web_sys::AbortSignal, progress: &dyn Fn(usize)) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let headers = web_sys::Headers::new().map_err(|e| format!("{e:?}"))?;
    let _ = headers.set("content-type", "application/json");
    for (name, value) in api.headers(Some(key)) {
        let _ = headers.set(name, &value);
    }
    if api == Api::Anthropic {
        // Anthropic's API answers a browser's request only when it says it comes from one.
        let _ = headers.set("anthropic-dangerous-direct-browser-access", "true");
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(body));
    init.set_headers(&headers);
    init.set_signal(Some(signal));
    let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(|e| format!("the request to {url} cannot be made: {e:?}"))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|e| unreachable(url, &e))?
        .unchecked_into();
    let status = response.status();
    let whole = |r: &web_sys::Response| r.text().map(JsFuture::from);
    if !(200..300).contains(&status) {
        let text = match whole(&response) {
            Ok(f) => f.await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
            Err(_) => String::new(),
        };
        return sysmo_agent::response_text(api, status, &text);
    }
    let mut decoder = StreamDecoder::new(api);
    match response.body() {
        Some(stream) => {
            let reader: web_sys::ReadableStreamDefaultReader = JsValue::from(stream.get_reader()).unchecked_into();
            loop {
                let chunk = JsFuture::from(reader.read()).await.map_err(|e| format!("the answer from {url} broke off: {}", js_message(&e)))?;
                if Reflect::get(&chunk, &JsValue::from_str("done")).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
                    break;
                }
                let value = Reflect::get(&chunk, &JsValue::from_str("value")).map_err(|e| format!("{e:?}"))?;
                decoder.push(&Uint8Array::new(&value).to_vec());
                progress(decoder.text().chars().count());
            }
        }
        None => {
            let f = whole(&response).map_err(|e| format!("{e:?}"))?;
            let text = f.await.ok().and_then(|t| t.as_string()).unwrap_or_default();
            decoder.push(text.as_bytes());
        }
    }
    decoder.finish()
}

/// The conversation, round after round, until it ends or is cancelled.
async fn play(l: Loop) {
    let Settings { api, endpoint, model, .. } = l.settings.clone();
    loop {
        if l.control.cancelled.get() {
            // Cancel has said so; a later run may own the panel by now.
            l.conversation.borrow_mut().stop();
            return;
        }
        let Some(n) = l.conversation.borrow().next_round() else {
            l.phase.set(Phase::Done);
            return;
        };
        l.phase.set(Phase::Asking { round: n, chars: 0 });
        let (url, body) = request_body(api, &endpoint, &model, None, l.conversation.borrow().messages(), true);
        let abort = web_sys::AbortController::new().ok();
        *l.control.abort.borrow_mut() = abort.clone();
        let reply = match &abort {
            Some(a) => {
                let phase = l.phase.clone();
                fetch_answer(api, &url, &body.to_string(), &l.key, &a.signal(), &move |chars| phase.set(Phase::Asking { round: n, chars })).await
            }
            None => Err("this browser cannot make a cancellable request".into()),
        };
        if l.control.cancelled.get() {
            continue;
        }
        let answer = l.conversation.borrow_mut().answer(reply);
        if let Some(a) = answer {
            l.phase.set(Phase::Grading { round: n });
            match l.grader.grade(&l.task, &a).await {
                Ok(report) => l.conversation.borrow_mut().graded(a, *report),
                Err(_) if l.control.cancelled.get() => continue,
                Err(e) => {
                    l.conversation.borrow_mut().stop();
                    l.phase.set(Phase::Failed(format!("grading failed: {e}")));
                    return;
                }
            }
        }
        l.views.set(RoundView::all(l.conversation.borrow().rounds()));
    }
}

#[function_component(LlmPanel)]
pub fn llm_panel(props: &LlmProps) -> Html {
    let loaded = use_memo((), |_| Settings::load(&store_get));
    let settings = use_state(|| loaded.0.clone());
    // The key lives in this state only, unless the user asks to remember it.
    let key = use_state(|| loaded.1.clone());
    let phase = use_state(|| Phase::Idle);
    let views = use_state(Vec::<RoundView>::new);
    let control = use_mut_ref(|| Rc::new(Control::default()));
    let grader = use_memo((), |_| Grader { slot: Rc::new(RefCell::new(None)), pending: Rc::new(RefCell::new(None)), run: Rc::new(RefCell::new(0)) });
    let link = use_state(|| None::<Result<String, String>>);
    let problem = use_state(|| None::<String>);

    let edit = |f: fn(&mut Settings, String)| {
        let settings = settings.clone();
        Callback::from(move |e: InputEvent| {
            let value = e.target().and_then(|t| Reflect::get(&t, &JsValue::from_str("value")).ok()).and_then(|v| v.as_string()).unwrap_or_default();
            let mut s = (*settings).clone();
            f(&mut s, value);
            settings.set(s);
        })
    };
    let on_api = {
        let settings = settings.clone();
        Callback::from(move |e: Event| {
            let i: web_sys::HtmlSelectElement = e.target_unchecked_into();
            settings.set(Settings { api: Api::from_name(&i.value()).unwrap_or(Api::OpenAi), ..(*settings).clone() });
        })
    };
    let on_endpoint = edit(|s, v| s.endpoint = v.trim().to_string());
    let on_model = edit(|s, v| s.model = v.trim().to_string());
    let on_rounds = edit(|s, v| s.rounds = v.parse::<u32>().map_or(super::DEFAULT_ROUNDS, |r| r.clamp(1, MAX_ROUNDS)));
    let on_key = {
        let key = key.clone();
        Callback::from(move |e: InputEvent| {
            let i: web_sys::HtmlInputElement = e.target_unchecked_into();
            key.set(i.value());
        })
    };
    let on_no_hints = {
        let settings = settings.clone();
        Callback::from(move |e: Event| {
            let i: web_sys::HtmlInputElement = e.target_unchecked_into();
            settings.set(Settings { no_hints: i.checked(), ..(*settings).clone() });
        })
    };
    let on_remember = {
        let (settings, key) = (settings.clone(), key.clone());
        Callback::from(move |e: Event| {
            let i: web_sys::HtmlInputElement = e.target_unchecked_into();
            let s = Settings { remember: i.checked(), ..(*settings).clone() };
            s.save(&key, &store_set, &store_remove);
            settings.set(s);
        })
    };
    let on_start = {
        let (settings, key, phase, views, control, grader, link, problem) =
            (settings.clone(), key.clone(), phase.clone(), views.clone(), control.clone(), grader.clone(), link.clone(), problem.clone());
        let (task, module) = (props.task.clone(), props.module.clone());
        let (with_hints, no_hints) = (props.prompt.clone(), props.prompt_no_hints.clone());
        Callback::from(move |_: MouseEvent| {
            let s = (*settings).clone();
            let prompt = if s.no_hints { &no_hints } else { &with_hints };
            let prompt = match (prompt, s.problem()) {
                (Err(e), _) => return problem.set(Some(format!("This task has no prompt: {e}"))),
                (_, Some(p)) => return problem.set(Some(p)),
                (Ok(p), None) => p.clone(),
            };
            problem.set(None);
            s.save(&key, &store_set, &store_remove);
            let c = Rc::new(Control::default());
            *control.borrow_mut() = c.clone();
            link.set(None);
            views.set(vec![]);
            let l = Loop {
                task: task.clone(),
                key: (*key).clone(),
                conversation: Rc::new(RefCell::new({
                    let c = Conversation::new(&prompt, &module, s.rounds);
                    if s.no_hints { c.wanting_a_mapping() } else { c }
                })),
                settings: s,
                control: c,
                phase: phase.clone(),
                views: views.clone(),
                grader: (*grader).clone(),
            };
            spawn_local(play(l));
        })
    };
    let on_cancel = {
        let (control, grader, phase) = (control.clone(), grader.clone(), phase.clone());
        Callback::from(move |_: MouseEvent| {
            let c = control.borrow().clone();
            c.cancelled.set(true);
            if let Some(a) = c.abort.borrow_mut().take() {
                a.abort();
            }
            grader.stop();
            phase.set(Phase::Cancelled);
        })
    };
    {
        let grader = grader.clone();
        let control = control.clone();
        use_effect_with((), move |_| {
            move || {
                let c = control.borrow().clone();
                c.cancelled.set(true);
                if let Some(a) = c.abort.borrow_mut().take() {
                    a.abort();
                }
                grader.stop();
            }
        });
    }
    let best = best_round(&views).cloned();
    let on_share = {
        let (link, task, best) = (link.clone(), props.task.clone(), best.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(fragment) = best.as_ref().and_then(|b| b.share_fragment(&task)) else { return };
            let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
            link.set(Some(fragment.map(|f| format!("{}{f}", href.split('#').next().unwrap_or("")))));
        })
    };

    let busy = phase.busy();
    let (state, status) = phase.status(&views);
    let s = &*settings;
    html! {
        <div id="llm">
            <p class="llm-note">
                { "Sends this task's prompt to the endpoint you give, grades each answer here, and while the score is \
                   below 1.0 sends the repair text back as the next turn. Requests go from this page to that endpoint \
                   only. The key stays in this page's memory unless you tick \u{201c}remember\u{201d}; it never goes \
                   into a link." }
            </p>
            <div class="llm-form">
                <label>{ "API " }
                    <select id="llm-api" onchange={on_api} disabled={busy}>
                        <option value="openai" selected={s.api == Api::OpenAi}>{ "OpenAI-compatible (chat completions)" }</option>
                        <option value="anthropic" selected={s.api == Api::Anthropic}>{ "Anthropic (Messages)" }</option>
                    </select>
                </label>
                <label>{ "Endpoint " }<input id="llm-endpoint" type="url" value={s.endpoint.clone()} oninput={on_endpoint}
                    placeholder="https://api.openai.com/v1" disabled={busy} /></label>
                <label>{ "Model " }<input id="llm-model" type="text" value={s.model.clone()} oninput={on_model} disabled={busy} /></label>
                <label>{ "API key " }<input id="llm-key" type="password" autocomplete="off" value={(*key).clone()} oninput={on_key} disabled={busy} /></label>
                <label class="remember"><input id="llm-remember" type="checkbox" checked={s.remember} onchange={on_remember} />
                    { " remember the key in this browser (localStorage)" }</label>
                <label class="no-hints" title="The prompt leaves the action list out: the model chooses its own actions and writes mapping.json from the traces' step names to them">
                    <input id="llm-no-hints" type="checkbox" checked={s.no_hints} onchange={on_no_hints} disabled={busy} />
                    { " no hints: the model chooses its actions and writes the mapping" }</label>
                <label>{ "Rounds " }<input id="llm-rounds" type="number" min="1" max={MAX_ROUNDS.to_string()} value={s.rounds.to_string()}
                    oninput={on_rounds} disabled={busy} /></label>
                <div class="llm-buttons">
                    <button id="llm-start" onclick={on_start} disabled={busy}>{ "Start" }</button>
                    <button id="llm-cancel" onclick={on_cancel} disabled={!busy}>{ "Cancel" }</button>
                </div>
            </div>
            { problem.as_ref().map(|p| html! { <p id="llm-problem" class="error">{ p }</p> }).unwrap_or_default() }
            <p id="llm-status" data-state={state}>{ status }</p>
            <ol id="llm-rounds-list">{ for views.iter().map(|v| round_view(&props.task, v, views.len())) }</ol>
            { best.as_ref().filter(|_| !busy).map(|b| html! {
                <section id="llm-best" data-round={b.round.to_string()}>
                    <span>{ format!("Best: round {} ({:.4}). ", b.round, b.score.unwrap_or(0.0)) }</span>
                    <button id="llm-share" onclick={on_share.clone()} title="A link that opens this round's model on this task and re-grades it">{ "Share link" }</button>
                    { match &*link {
                        Some(Ok(url)) => html! { <input id="llm-link" type="text" readonly=true value={url.clone()} /> },
                        Some(Err(e)) => html! { <p class="error">{ e }</p> },
                        None => html! {},
                    } }
                </section>
            }).unwrap_or_default() }
        </div>
    }
}

fn round_view(task: &str, v: &RoundView, rounds: usize) -> Html {
    let score = v.score.map(|s| format!("{s:.4}")).unwrap_or_default();
    let sent = (v.round as usize) < rounds;
    html! {
        <li class="llm-round" data-round={v.round.to_string()} data-status={v.status} data-score={score.clone()}>
            <h4>{ format!("Round {}: {}{}", v.round, v.status, match (v.score, v.overall) {
                (Some(c), Some(o)) => format!(", combined {c:.4} (overall {o:.4})"),
                (Some(s), None) => format!(", overall {s:.4}"),
                _ => String::new(),
            }) }</h4>
            { v.error.as_ref().map(|e| html! { <p class="llm-error error">{ e }</p> }).unwrap_or_default() }
            { v.model.as_ref().map(|m| html! {
                <details class="llm-model"><summary>{ format!("the model ({} lines)", m.lines().count()) }</summary><pre>{ m }</pre></details>
            }).unwrap_or_default() }
            { v.diff.as_ref().map(|d| {
                let (added, removed) = diff_counts(d);
                html! {
                    <details class="llm-diff"><summary>{ format!("changes from the model before: +{added} \u{2212}{removed} lines") }</summary>
                        <pre>{ for d.iter().filter(|l| !matches!(l, DiffLine::Same(_))).map(|l| match l {
                            DiffLine::Added(t) => html! { <div class="added">{ format!("+ {t}") }</div> },
                            DiffLine::Removed(t) => html! { <div class="removed">{ format!("- {t}") }</div> },
                            DiffLine::Same(_) => html! {},
                        }) }</pre>
                    </details>
                }
            }).unwrap_or_default() }
            { v.card.as_ref().map(|c| html! {
                <details class="llm-scorecard"><summary>{ "its scorecard" }</summary>{ scorecard(c) }</details>
            }).unwrap_or_default() }
            { match v.share_fragment(task) {
                Some(Ok(f)) => html! { <a class="llm-open" href={f} target="_blank" rel="noopener"
                    title="This round's model on the task page, in a new tab, re-graded">{ "open in the editor" }</a> },
                _ => html! {},
            } }
            { v.turn.as_ref().map(|t| html! {
                <details class="llm-feedback" data-sent={sent.to_string()}>
                    <summary>{ if sent { "the repair text sent as the next turn" } else { "the repair text (not sent: the conversation ended)" } }</summary>
                    <pre class="feedback-text">{ t }</pre>
                </details>
            }).unwrap_or_default() }
        </li>
    }
}
