//! The page: a gallery of tasks, a task page with tabs (description, with the bug model's check
//! of [`crate::bug_run`]; code, traces, invariants, prompt, and the LLM loop of [`crate::llm`]),
//! the editor checked as you type, and grading in a Web Worker with its scorecard.

use crate::bug_run::BugRun;
use crate::catalog::{self, InvariantDoc, TaskInfo};
use crate::code_editor::{lint_marks, CodeEditor};
use crate::grading::{Counterexample, ExerciseVerdict, GradeRequest, Scorecard, WorkerMessage};
use crate::llm::LlmPanel;
use crate::player::Player;
use crate::progress::{BoardAction, ProgressBoard};
use crate::share::{self, ShareError, SharePayload};
use crate::{analyze_text, severity_class};
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// The loader Trunk emits for the worker binary (`data-loader-shim`), next to index.html: it
/// imports `worker.js` and starts `worker_bg.wasm`.
const WORKER_SCRIPT: &str = "./worker_loader.js";
/// Milliseconds of quiet typing before the editor's text is checked.
const CHECK_DELAY_MS: u32 = 250;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

pub(crate) fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

pub(crate) fn save(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

pub(crate) fn forget(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

fn model_key(id: &str) -> String {
    format!("sysmo.model.{id}")
}

fn best_key(id: &str) -> String {
    format!("sysmo.best.{id}")
}

/// The best overall score reached on a task in this browser.
fn best_score(id: &str) -> Option<f64> {
    load(&best_key(id))?.parse().ok()
}

fn record_score(id: &str, overall: f64) {
    if best_score(id).is_none_or(|b| overall > b) {
        save(&best_key(id), &format!("{overall}"));
    }
}

fn score_text(x: f64) -> String {
    format!("{x:.4}")
}

#[derive(Clone, Debug, PartialEq)]
enum Route {
    Gallery,
    Task(String),
    /// A share link's whole fragment.
    Shared(String),
    /// A link's fragment that carries a task pack (`#/pack/1/…`).
    Pack(String),
}

fn route_from_hash() -> Route {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    if share::is_share_fragment(&hash) {
        return Route::Shared(hash);
    }
    if sysmo_task_format::pack::Pack::is_fragment(&hash) {
        return Route::Pack(hash);
    }
    match hash.strip_prefix("#/task/") {
        Some(id) if sysmo_tasks::task(id).is_some() => Route::Task(id.to_string()),
        _ => Route::Gallery,
    }
}

fn set_hash(route: &Route) {
    let hash = match route {
        Route::Gallery => "#/".to_string(),
        Route::Task(id) => format!("#/task/{id}"),
        Route::Shared(fragment) | Route::Pack(fragment) => fragment.clone(),
    };
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(&hash);
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let route = use_state(route_from_hash);
    // The task packs kept in this browser open before any page shows (a link may name one).
    let ready = use_state(|| false);
    let restore_errors = use_state(Vec::<String>::new);
    // Counts the packs opened since the page loaded, so the gallery lists them.
    let generation = use_state(|| 0u32);
    {
        let (route, ready, restore_errors) = (route.clone(), ready.clone(), restore_errors.clone());
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                let (_, errors) = crate::packs::restore().await;
                restore_errors.set(errors);
                route.set(route_from_hash());
                ready.set(true);
            });
        });
    }
    let on_opened = {
        let generation = generation.clone();
        Callback::from(move |_: String| generation.set(*generation + 1))
    };
    {
        // Follow the address bar (back and forward buttons).
        let route = route.clone();
        use_effect_with((), move |_| {
            let cb = Closure::<dyn FnMut()>::new(move || route.set(route_from_hash()));
            if let Some(w) = web_sys::window() {
                w.set_onhashchange(Some(cb.as_ref().unchecked_ref()));
            }
            move || {
                if let Some(w) = web_sys::window() {
                    w.set_onhashchange(None);
                }
                drop(cb);
            }
        });
    }
    let go = {
        let route = route.clone();
        Callback::from(move |r: Route| {
            set_hash(&r);
            route.set(r);
        })
    };
    let home = {
        let go = go.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            go.emit(Route::Gallery)
        })
    };
    html! {
        <>
            <header class="top">
                <h1><a href="#/" onclick={home}>{ "SysMo Playground" }</a></h1>
                <span class="tagline">{ "Model a real system in TLA+ and grade it against its traces, in your browser." }</span>
            </header>
            {
                match &*route {
                    _ if !*ready => html! { <main id="loading"><p>{ "Opening the task packs kept in this browser…" }</p></main> },
                    Route::Gallery => html! {
                        <Gallery open={go.reform(Route::Task)} generation={*generation} on_opened={on_opened.clone()} restore_errors={(*restore_errors).clone()} />
                    },
                    Route::Task(id) => html! { <TaskPage key={id.clone()} id={id.clone()} /> },
                    Route::Shared(fragment) => html! { <SharedTask key={fragment.clone()} fragment={fragment.clone()} /> },
                    Route::Pack(fragment) => html! { <PackLink key={fragment.clone()} fragment={fragment.clone()} go={go.clone()} on_opened={on_opened.clone()} /> },
                }
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct GalleryProps {
    open: Callback<String>,
    /// Changes when a pack opens.
    generation: u32,
    /// A task opened from a pack (or one removed): its id.
    on_opened: Callback<String>,
    /// Why packs kept in this browser did not open.
    restore_errors: Vec<String>,
}

#[function_component(Gallery)]
fn gallery(props: &GalleryProps) -> Html {
    let tasks = use_memo(props.generation, |_| catalog::all_tasks());
    html! {
        <main id="gallery">
            <h2>{ "Tasks" }</h2>
            <p class="lead">{ format!("{} tasks. Each comes with the code of a concurrent system, the traces it produced, and the invariants a faithful model keeps.", tasks.len()) }</p>
            <ul class="cards">
                { for tasks.iter().map(|t| {
                    let open = props.open.clone();
                    let id = t.id.clone();
                    let onclick = Callback::from(move |e: MouseEvent| { e.prevent_default(); open.emit(id.clone()) });
                    let best = best_score(&t.id);
                    let lines = match t.original_lines {
                        Some(n) if t.approx => format!("≈{n} lines"),
                        Some(n) => format!("{n} lines"),
                        None => "size unknown".to_string(),
                    };
                    html! {
                        <li class="task-card" data-task={t.id.clone()}>
                            <a href={format!("#/task/{}", t.id)} {onclick}>
                                <span class="title">{ &t.title }</span>
                                { if t.tutorial { html!{ <span class="badge tutorial">{ "tutorial" }</span> } } else { html!{} } }
                                { t.pack.as_ref().map(|h| html!{ <span class="badge pack" data-pack={h.clone()} title={format!("opened from the task pack {h}")}>{ "pack" }</span> }).unwrap_or_default() }
                                { (t.exercises > 0).then(|| html!{ <span class="badge exercises" data-exercises={t.exercises.to_string()}>{ format!("{} exercise{}", t.exercises, if t.exercises == 1 { "" } else { "s" }) }</span> }).unwrap_or_default() }
                                <span class="facts">
                                    <span class="system">{ &t.system }</span>{ " · " }
                                    <span class="language">{ &t.language }</span>{ " · " }
                                    <span class="size">{ format!("{lines}; {} lines of code shown", t.code_lines) }</span>{ " · " }
                                    <span class="traces">{ format!("{} traces", t.traces) }</span>
                                </span>
                                <span class="best" data-best={best.map(score_text).unwrap_or_default()}>
                                    { match best { Some(b) => format!("best score {}", score_text(b)), None => "not graded yet".to_string() } }
                                </span>
                            </a>
                        </li>
                    }
                }) }
            </ul>
            <Courses tasks={tasks.clone()} generation={props.generation} on_change={props.on_opened.clone()} />
            <PackOpener on_opened={props.on_opened.clone()} />
            <KeptPacks tasks={tasks.clone()} on_change={props.on_opened.clone()} />
            <ResultsExport />
            { for props.restore_errors.iter().map(|e| html! { <p class="error pack-restore-error">{ e }</p> }) }
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct CoursesProps {
    tasks: Rc<Vec<catalog::TaskInfo>>,
    /// Changes when a pack or a course opens.
    generation: u32,
    /// A course was removed.
    on_change: Callback<String>,
}

#[derive(Properties, PartialEq)]
struct KeptPacksProps {
    tasks: Rc<Vec<catalog::TaskInfo>>,
    /// A pack was removed: its task's id.
    on_change: Callback<String>,
}

/// The tasks opened from packs, each with a button that removes it from the gallery and from
/// this browser.
#[function_component(KeptPacks)]
fn kept_packs(props: &KeptPacksProps) -> Html {
    let error = use_state(|| None::<String>);
    let kept: Vec<&catalog::TaskInfo> = props.tasks.iter().filter(|t| t.pack.is_some()).collect();
    if kept.is_empty() {
        return html! {};
    }
    html! {
        <section id="kept-packs">
            <h3>{ "Kept in this browser" }</h3>
            <ul>
                { for kept.iter().map(|t| {
                    let (id, on_change, error) = (t.id.clone(), props.on_change.clone(), error.clone());
                    let onclick = Callback::from(move |_: MouseEvent| {
                        let (id, on_change, error) = (id.clone(), on_change.clone(), error.clone());
                        wasm_bindgen_futures::spawn_local(async move {
                            error.set(crate::packs::forget_task(&id).await.err());
                            on_change.emit(id);
                        });
                    });
                    html! {
                        <li data-task={t.id.clone()}>
                            { format!("{} (pack {}) ", t.title, t.pack.clone().unwrap_or_default()) }
                            <button class="forget-pack" {onclick}>{ "Remove" }</button>
                        </li>
                    }
                }) }
            </ul>
            { (*error).clone().map(|e| html! { <p class="error">{ format!("it could not be removed from this browser: {e}") }</p> }).unwrap_or_default() }
        </section>
    }
}

/// The courses opened in this browser: each one's tasks in its order, with the exercises
/// solved of each.
#[function_component(Courses)]
fn courses(props: &CoursesProps) -> Html {
    let courses = crate::packs::courses();
    if courses.is_empty() {
        return html! {};
    }
    let solved = |id: &str| {
        let attempts = crate::exercises::read_attempts(&load(&format!("sysmo.attempts.{id}")).unwrap_or_default());
        let exercises = sysmo_tasks::task(id).map(|t| crate::exercises::exercises_of(t.task_toml())).unwrap_or_default();
        exercises.iter().filter(|e| attempts.iter().any(|a| a.exercise.as_deref() == Some(e.id.as_str()) && a.solved == Some(true))).count()
    };
    html! {
        <section id="courses">
            <h3>{ "Courses" }</h3>
            { for courses.iter().map(|c| html! {
                <section class="course" data-course={c.title.clone()}>
                    <h4>
                        { &c.title }{ " " }
                        <button class="forget-course" onclick={{
                            let (title, on_change) = (c.title.clone(), props.on_change.clone());
                            Callback::from(move |_: MouseEvent| {
                                let (title, on_change) = (title.clone(), on_change.clone());
                                wasm_bindgen_futures::spawn_local(async move {
                                    // What could not be removed from IndexedDB comes back on the next visit.
                                    let _ = crate::packs::forget_course(&title).await;
                                    on_change.emit(title);
                                });
                            })
                        }}>{ "Remove" }</button>
                    </h4>
                    { if c.description.is_empty() { html! {} } else { html! { <p>{ &c.description }</p> } } }
                    <ol>
                        { for c.tasks.iter().map(|id| {
                            let info = props.tasks.iter().find(|t| t.id == *id);
                            let title = info.map_or(id.clone(), |t| t.title.clone());
                            let total = info.map_or(0, |t| t.exercises);
                            let done = solved(id);
                            let link = match sysmo_tasks::task(id) {
                                Some(_) => html! { <a href={format!("#/task/{id}")}>{ title }</a> },
                                None => html! { <span class="missing">{ format!("{id} (removed from this browser)") }</span> },
                            };
                            html! {
                                <li data-task={id.clone()} data-solved={done.to_string()}>
                                    { link }
                                    { if total > 0 { html! { <span class="progress-note">{ format!(" · {done} of {total} exercises solved") }</span> } } else { html! {} } }
                                </li>
                            }
                        }) }
                    </ol>
                </section>
            }) }
        </section>
    }
}

/// Every attempt kept in this browser, of every task (built in or opened).
fn all_attempts() -> Vec<crate::exercises::Attempt> {
    sysmo_tasks::tasks()
        .iter()
        .chain(sysmo_tasks::opened())
        .flat_map(|t| crate::exercises::read_attempts(&load(&format!("sysmo.attempts.{}", t.id)).unwrap_or_default()))
        .collect()
}

/// Downloads `text` as the file `name`.
fn download(name: &str, text: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlElement = document.create_element("a").map_err(|e| format!("{e:?}"))?.unchecked_into();
    let href = format!("data:application/json;charset=utf-8,{}", String::from(js_sys::encode_uri_component(text)));
    a.set_attribute("href", &href).map_err(|e| format!("{e:?}"))?;
    a.set_attribute("download", name).map_err(|e| format!("{e:?}"))?;
    a.click();
    Ok(())
}

/// "Export results": each task's best attempt per exercise, as one file for the teacher.
#[function_component(ResultsExport)]
fn results_export() -> Html {
    let note = use_state(String::new);
    let on_export = {
        let note = note.clone();
        Callback::from(move |_: MouseEvent| {
            let attempts = all_attempts();
            if attempts.is_empty() {
                note.set("No attempt yet: grade a model first.".into());
                return;
            }
            let text = crate::exercises::results(&attempts);
            let kept = crate::exercises::read_attempts(&serde_json::from_str::<serde_json::Value>(&text).map(|v| v["attempts"].to_string()).unwrap_or_default()).len();
            match download("sysmo-results.json", &text) {
                Ok(()) => note.set(format!("sysmo-results.json: the best of {} attempts, {kept} kept (one per task and exercise).", attempts.len())),
                Err(e) => note.set(format!("the results could not be written: {e}")),
            }
        })
    };
    html! {
        <section id="results">
            <h3>{ "Your results" }</h3>
            <p>{ "Every grade is kept in this browser. Export your best attempt at each task and exercise as one file for your teacher, who grades it again with " }<code>{ "sysmo grade --results" }</code>{ "." }</p>
            <button id="export-results" onclick={on_export}>{ "Export results" }</button>
            <span id="results-note">{ (*note).clone() }</span>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct PackLinkProps {
    fragment: String,
    go: Callback<Route>,
    on_opened: Callback<String>,
}

/// A link that carries a task pack or a course: it opens (and is kept), then its (first) task's page.
#[function_component(PackLink)]
fn pack_link(props: &PackLinkProps) -> Html {
    let error = use_state(|| None::<String>);
    {
        let (error, go, on_opened, fragment) = (error.clone(), props.go.clone(), props.on_opened.clone(), props.fragment.clone());
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                match crate::packs::open_fragment(&fragment).await {
                    Ok(opened) => {
                        // A course's link opens its first task.
                        if let Some(first) = opened.tasks.first() {
                            on_opened.emit(first.id.to_string());
                            go.emit(Route::Task(first.id.to_string()));
                        }
                    }
                    Err(e) => error.set(Some(e)),
                }
            });
        });
    }
    match &*error {
        None => html! { <main id="pack-link" data-state="opening"><p>{ "Opening the task pack this link carries…" }</p></main> },
        Some(e) => html! {
            <main id="pack-link" data-state="failed">
                <h2>{ "This link's task pack cannot be opened" }</h2>
                <p class="error" id="pack-link-error">{ e }</p>
                <p>{ "Ask for the link again, or for the pack's file, or " }<a href="#/">{ "go to the gallery of tasks" }</a>{ "." }</p>
            </main>
        },
    }
}

#[derive(Properties, PartialEq)]
struct PackOpenerProps {
    on_opened: Callback<String>,
}

/// Opens a pack's or a course's bytes and keeps what it opened ([`crate::packs::Opened`]).
async fn open_and_keep(bytes: &[u8]) -> Result<crate::packs::Opened, String> {
    crate::packs::open_and_keep(sysmo_task_format::course::Course::from_bytes(bytes)?).await
}

/// Says what opening a pack or a course from `source` (a file's name, an address) came to.
fn say_opened(status: &UseStateHandle<Option<(&'static str, String)>>, on_opened: &Callback<String>, source: &str, result: Result<crate::packs::Opened, String>) {
    match result {
        Ok(opened) => {
            status.set(Some(("opened", opened.sentence(source))));
            if let Some(first) = opened.tasks.first() {
                on_opened.emit(first.id.to_string());
            }
        }
        Err(e) => status.set(Some(("failed", format!("{source} does not open: {e}")))),
    }
}

/// Where the user opens a task pack: a file chooser that also takes a dropped file, or an
/// address to fetch.
#[function_component(PackOpener)]
fn pack_opener(props: &PackOpenerProps) -> Html {
    // ("opening" | "opened" | "failed", what to say)
    let status = use_state(|| None::<(&'static str, String)>);
    let open_file = {
        let (status, on_opened) = (status.clone(), props.on_opened.clone());
        Rc::new(move |file: web_sys::File| {
            let (status, on_opened) = (status.clone(), on_opened.clone());
            let name = file.name();
            status.set(Some(("opening", format!("opening {name}…"))));
            wasm_bindgen_futures::spawn_local(async move {
                let result = match crate::packs::file_bytes(&file).await {
                    Ok(bytes) => open_and_keep(&bytes).await,
                    Err(e) => Err(e),
                };
                say_opened(&status, &on_opened, &name, result);
            });
        })
    };
    let onchange = {
        let open_file = open_file.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.item(0)) {
                open_file(file);
            }
            // The same file chosen again is a change too.
            input.set_value("");
        })
    };
    let url = use_state(String::new);
    let on_url = {
        let url = url.clone();
        Callback::from(move |e: InputEvent| url.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let on_fetch = {
        let (status, on_opened, url) = (status.clone(), props.on_opened.clone(), url.clone());
        Callback::from(move |_: MouseEvent| {
            let (status, on_opened, address) = (status.clone(), on_opened.clone(), (*url).trim().to_string());
            if address.is_empty() {
                return;
            }
            status.set(Some(("opening", format!("fetching {address}…"))));
            wasm_bindgen_futures::spawn_local(async move {
                let result = match crate::packs::fetch_bytes(&address).await {
                    Ok(bytes) => open_and_keep(&bytes).await,
                    Err(e) => Err(e),
                };
                say_opened(&status, &on_opened, &address, result);
            });
        })
    };
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let ondrop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(file) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.item(0)) {
            open_file(file);
        }
    });
    let (state, text) = (*status).clone().unwrap_or(("idle", String::new()));
    html! {
        <section id="packs">
            <h3>{ "Task packs" }</h3>
            <p>{ "A task pack (a .sysmo file, written by " }<code>{ "sysmo task pack" }</code>{ ") is a task someone else wrote, or a course of several: open it and its tasks join the gallery, kept in this browser." }</p>
            <label id="pack-drop" class="pack-drop" {ondragover} {ondrop}>
                { "Choose or drop a task pack " }
                <input type="file" id="open-pack" accept=".sysmo,.json,application/gzip" {onchange} />
            </label>
            <div class="pack-url">
                <input type="url" id="pack-url" placeholder="or the address of a .sysmo file" value={(*url).clone()} oninput={on_url} />
                <button id="open-pack-url" onclick={on_fetch}>{ "Open" }</button>
            </div>
            <p id="pack-status" data-state={state} class={classes!((state == "failed").then_some("error"))}>{ text }</p>
        </section>
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Description,
    Code,
    Traces,
    Invariants,
    Prompt,
    Llm,
}

impl Tab {
    const ALL: [Tab; 6] = [Tab::Description, Tab::Code, Tab::Traces, Tab::Invariants, Tab::Prompt, Tab::Llm];
    fn name(self) -> &'static str {
        match self {
            Tab::Description => "Description",
            Tab::Code => "Code",
            Tab::Traces => "Traces",
            Tab::Invariants => "Invariants",
            Tab::Prompt => "Prompt",
            Tab::Llm => "LLM",
        }
    }
}

#[derive(Properties, PartialEq)]
struct TaskProps {
    id: String,
    /// Opened from a share link: the model, overrides and claimed scores it carries.
    #[prop_or_default]
    shared: Option<Rc<SharePayload>>,
}

#[derive(Properties, PartialEq)]
struct SharedProps {
    fragment: String,
}

/// A share link: the task page with the link's model, re-graded, or why the link cannot be read.
#[function_component(SharedTask)]
fn shared_task(props: &SharedProps) -> Html {
    let decoded = use_memo(props.fragment.clone(), |f| share::decode_fragment(f).map(Rc::new));
    match &*decoded {
        Ok(p) => html! { <TaskPage id={p.task.clone()} shared={Some(p.clone())} /> },
        Err(e) => share_error(e),
    }
}

fn share_error(e: &ShareError) -> Html {
    html! {
        <main id="share-error">
            <h2>{ "This share link cannot be opened" }</h2>
            <p class="error" id="share-message">{ e.to_string() }</p>
            <p>{ "Ask for the link again, or " }<a id="to-gallery" href="#/">{ "go to the gallery of tasks" }</a>{ "." }</p>
        </main>
    }
}

#[function_component(TaskPage)]
fn task_page(props: &TaskProps) -> Html {
    let files = sysmo_tasks::task(&props.id);
    let info = use_memo(props.id.clone(), |id| sysmo_tasks::task(id).and_then(|t| catalog::task_info(t).ok()));
    let tab = use_state(|| Tab::Description);
    let (Some(files), Some(info)) = (files, (*info).clone()) else {
        return html! { <main><p class="error">{ format!("No task `{}`.", props.id) }</p></main> };
    };
    let body = match *tab {
        // Always rendered (below), so that a check of the bug model survives a change of tab.
        Tab::Description => html! {},
        Tab::Code => html! { <CodeTab id={props.id.clone()} /> },
        Tab::Traces => html! { <TracesTab id={props.id.clone()} /> },
        Tab::Invariants => invariants_tab(files),
        Tab::Prompt => prompt_tab(files),
        // Always rendered (below), so that a running conversation survives a change of tab.
        Tab::Llm => html! {},
    };
    html! {
        <main id="task" data-task={props.id.clone()}>
            <h2>{ &info.title }</h2>
            <div class="columns">
                <section class="left">
                    <nav class="tabs" role="tablist">
                        { for Tab::ALL.iter().map(|t| {
                            let set = { let tab = tab.clone(); let t = *t; Callback::from(move |_| tab.set(t)) };
                            let selected = *tab == *t;
                            html! {
                                <button role="tab" class={classes!("tab", selected.then_some("selected"))}
                                    aria-selected={selected.to_string()} data-tab={t.name().to_lowercase()} onclick={set}>
                                    { t.name() }
                                </button>
                            }
                        }) }
                    </nav>
                    <div class="tab-body" data-tab="description" hidden={*tab != Tab::Description}>{ description_tab(&info) }</div>
                    <div class="tab-body" data-tab={tab.name().to_lowercase()} hidden={matches!(*tab, Tab::Llm | Tab::Description)}>{ body }</div>
                    <div class="tab-body" data-tab="llm" hidden={*tab != Tab::Llm}>
                        <LlmPanel task={props.id.clone()} module={info.module.clone()} prompt={files.prompt()} prompt_no_hints={files.prompt_no_hints()} />
                    </div>
                </section>
                <section class="right">
                    <Workbench info={Rc::new(info.clone())} shared={props.shared.clone()} />
                </section>
            </div>
        </main>
    }
}

fn description_tab(info: &TaskInfo) -> Html {
    let lines = match info.original_lines {
        Some(n) if info.approx => format!(", about {n} lines"),
        Some(n) => format!(", {n} lines"),
        None => String::new(),
    };
    html! {
        <div id="description">
            <p class="summary">{ &info.summary }</p>
            <p class="original">{ format!("Original system: {}; file {} ({}{lines}).", info.system, info.file, info.language) }</p>
            <h3>{ "What the model must capture" }</h3>
            <ul class="capture">{ for info.must_capture.iter().map(|m| html! { <li>{ m }</li> }) }</ul>
            <h3>{ "What to leave out" }</h3>
            <ul class="leave-out">{ for info.leave_out.iter().map(|m| html! { <li>{ m }</li> }) }</ul>
            <h3>{ "Pinned names" }</h3>
            <p>{ "Module " }<code class="module">{ &info.module }</code></p>
            <table class="pinned">
                <thead><tr><th>{ "kind" }</th><th>{ "name" }</th><th>{ "meaning" }</th></tr></thead>
                <tbody>
                    { for info.constants.iter().map(|(n, m)| html! { <tr class="constant"><td>{ "constant" }</td><td><code>{ n }</code></td><td>{ m }</td></tr> }) }
                    { for info.variables.iter().map(|(n, m)| html! { <tr class="variable"><td>{ "variable" }</td><td><code>{ n }</code></td><td>{ m }</td></tr> }) }
                    { for info.actions.iter().map(|a| html! { <tr class="action"><td>{ "action" }</td><td><code>{ a.head() }</code></td><td>{ &a.meaning }</td></tr> }) }
                </tbody>
            </table>
            <p class="check">{ format!("Checked with {}.", info.check_constants.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ")) }</p>
            { info.bug.as_ref().map(bug_section).unwrap_or_default() }
            <BugRun id={info.id.clone()} />
        </div>
    }
}

/// The task's historical bug: what the bug switch turns on and, when the task walks through
/// it, the bug found: the code path, the checker's counterexample and the fix.
fn bug_section(bug: &sysmo_task_format::Bug) -> Html {
    html! {
        <section class="bug">
            <h3>{ format!("The bug switch: {}", bug.name) }</h3>
            <p class="bug-summary">{ &bug.summary }</p>
            { bug.found.as_ref().map(|f| html! {
                <div class="bug-found">
                    <h3>{ "The bug, found" }</h3>
                    <h4>{ "The code path" }</h4>
                    <p class="code-path">{ &f.code_path }</p>
                    <h4>{ "The counterexample" }</h4>
                    <p class="counterexample">{ &f.counterexample }</p>
                    <h4>{ "The fix" }</h4>
                    <p class="fix">{ &f.fix }</p>
                </div>
            }).unwrap_or_default() }
        </section>
    }
}

/// Text with line numbers, one row per line.
fn numbered(text: &str, class: &'static str) -> Html {
    html! {
        <pre class={classes!("numbered", class)}>
            { for text.lines().enumerate().map(|(i, l)| html! {
                <div class="row"><span class="ln">{ i + 1 }</span><span class="src">{ if l.is_empty() { " " } else { l } }</span></div>
            }) }
        </pre>
    }
}

#[derive(Properties, PartialEq)]
struct IdProps {
    id: String,
}

#[function_component(CodeTab)]
fn code_tab(props: &IdProps) -> Html {
    let chosen = use_state(|| 0usize);
    let Some(task) = sysmo_tasks::task(&props.id) else { return html! {} };
    let onchange = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            chosen.set(sel.value().parse().unwrap_or(0));
        })
    };
    let (path, text) = task.code.get(*chosen).copied().unwrap_or(("", ""));
    html! {
        <div id="code">
            <label>{ "File " }
                <select id="code-file" {onchange}>
                    { for task.code.iter().enumerate().map(|(i, (p, _))| html! {
                        <option value={i.to_string()} selected={i == *chosen}>{ *p }</option>
                    }) }
                </select>
            </label>
            <p class="path">{ format!("{path} — {} lines", text.lines().count()) }</p>
            { numbered(text, "code") }
        </div>
    }
}

#[function_component(TracesTab)]
fn traces_tab(props: &IdProps) -> Html {
    let chosen = use_state(|| 0usize);
    let Some(task) = sysmo_tasks::task(&props.id) else { return html! {} };
    let (path, text) = task.traces.get(*chosen).copied().unwrap_or(("", ""));
    let view = catalog::trace_view(text);
    html! {
        <div id="traces">
            <ul class="trace-list">
                { for task.traces.iter().enumerate().map(|(i, (p, t))| {
                    let set = { let chosen = chosen.clone(); Callback::from(move |_| chosen.set(i)) };
                    let steps = t.lines().filter(|l| l.contains("\"kind\":\"step\"")).count();
                    let name = p.rsplit('/').next().unwrap_or(*p).to_string();
                    html! {
                        <li><button class={classes!("trace", (i == *chosen).then_some("selected"))} data-trace={name.clone()} onclick={set}>
                            { format!("{name} ({steps} steps)") }
                        </button></li>
                    }
                }) }
            </ul>
            <p class="trace-head">{ format!("{path}: scheduler {}, seed {}, constants {}", view.scheduler, view.seed, view.constants) }</p>
            <p class="trace-init">{ "Initial state: " }<code>{ &view.init }</code></p>
            <table class="trace-table">
                <thead><tr><th>{ "line" }</th><th>{ "actor" }</th><th>{ "action" }</th><th>{ "arguments" }</th><th>{ "observed state" }</th></tr></thead>
                <tbody>
                    { for view.rows.iter().map(|r| html! {
                        <tr><td>{ r.line }</td><td>{ &r.actor }</td><td>{ &r.action }</td><td><code>{ &r.args }</code></td><td><code>{ &r.state }</code></td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

fn invariants_tab(task: &sysmo_tasks::TaskFiles) -> Html {
    let Some((name, text)) = task.invariants_tla() else { return html! { <p>{ "This task has no invariants module." }</p> } };
    let docs: Vec<InvariantDoc> = catalog::invariant_docs(text, task.file("invariants.cfg").unwrap_or(""), task.file("violations.cfg"));
    let hidden = catalog::hidden_properties(task.task_toml());
    let shown = catalog::redact(text, &hidden);
    html! {
        <div id="invariants">
            <ul class="invariant-docs">
                { for docs.iter().map(|d| html! {
                    <li data-name={d.name.clone()}>
                        <code>{ &d.name }</code>
                        { d.tag.as_ref().map(|t| html! { <span class="badge">{ t }</span> }).unwrap_or_default() }
                        { match (&d.checked_as, d.must_violate) {
                            (Some(_), true) => html! { <span class="badge violate">{ "a faithful model violates it" }</span> },
                            (Some(k), false) => html! { <span class="badge checked">{ format!("checked as {k}") }</span> },
                            _ => html! {},
                        } }
                        { if hidden.contains(&d.name) { html! { <span class="badge hidden">{ "formula hidden" }</span> } } else { html! {} } }
                        { " " }{ &d.sentence }
                    </li>
                }) }
            </ul>
            <p class="path">{ name }</p>
            { numbered(&shown, "invariants") }
        </div>
    }
}

fn copy_to_clipboard(text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

fn prompt_tab(task: &sysmo_tasks::TaskFiles) -> Html {
    match task.prompt() {
        Ok(p) => {
            let copy = { let p = p.clone(); Callback::from(move |_| copy_to_clipboard(&p)) };
            html! {
                <div id="prompt">
                    <button id="copy-prompt" onclick={copy}>{ "Copy" }</button>
                    <pre id="prompt-text">{ p }</pre>
                </div>
            }
        }
        Err(e) => html! { <p class="error">{ e }</p> },
    }
}

/// Where grading stands.
#[derive(Clone, Debug, PartialEq)]
enum GradeState {
    Idle,
    Running { stage: String, slices: u64, syntax: Option<f64> },
    Done(Rc<Scorecard>),
    /// A property answer to an exercise judged (no scorecard: it is not a model).
    Judged,
    Cancelled,
    Failed(String),
}

/// The grading worker and the handler that keeps its messages flowing to the page. A request
/// made before the worker says it is ready waits in `pending`.
pub(crate) struct WorkerSlot {
    pub(crate) worker: web_sys::Worker,
    ready: Rc<std::cell::Cell<bool>>,
    pending: Rc<std::cell::RefCell<Option<String>>>,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl WorkerSlot {
    pub(crate) fn send(&self, text: String) -> Result<(), String> {
        if self.ready.get() {
            self.worker.post_message(&JsValue::from_str(&text)).map_err(|e| format!("{e:?}"))
        } else {
            *self.pending.borrow_mut() = Some(text);
            Ok(())
        }
    }
}

pub(crate) fn start_worker(on: Callback<WorkerMessage>) -> Result<WorkerSlot, String> {
    let worker = web_sys::Worker::new(WORKER_SCRIPT).map_err(|e| format!("cannot start the worker: {e:?}"))?;
    let ready = Rc::new(std::cell::Cell::new(false));
    let pending = Rc::new(std::cell::RefCell::new(None::<String>));
    let (w, r, p) = (worker.clone(), ready.clone(), pending.clone());
    let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        if let Some(text) = e.data().as_string() {
            match WorkerMessage::from_json(&text) {
                Ok(WorkerMessage::Ready) => {
                    r.set(true);
                    if let Some(req) = p.borrow_mut().take() {
                        if let Err(err) = w.post_message(&JsValue::from_str(&req)) {
                            on.emit(WorkerMessage::Failed { run: 0, message: format!("{err:?}") });
                        }
                    }
                }
                Ok(m) => on.emit(m),
                Err(err) => on.emit(WorkerMessage::Failed { run: 0, message: err }),
            }
        }
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    Ok(WorkerSlot { worker, ready, pending, _onmessage: onmessage })
}

#[derive(Properties, PartialEq)]
struct WorkbenchProps {
    info: Rc<TaskInfo>,
    #[prop_or_default]
    shared: Option<Rc<SharePayload>>,
}

#[function_component(Workbench)]
fn workbench(props: &WorkbenchProps) -> Html {
    let id = props.info.id.clone();
    let template = use_memo(props.info.clone(), |i| catalog::template_module(i));
    let shared = props.shared.clone();
    // A share link's model replaces the text in the editor (without overwriting the saved one
    // until it is edited).
    let text = use_state(|| match &shared {
        Some(p) => p.model.clone(),
        None => load(&model_key(&id)).unwrap_or_else(|| (*template).clone()),
    });
    let overrides = use_state(|| match &shared {
        Some(p) => Overrides { cfg: p.cfg.clone().unwrap_or_default(), mapping: p.mapping.clone().unwrap_or_default() },
        None => Overrides::load(&id),
    });
    // What the current run grades, for its share link.
    let graded = use_mut_ref(|| None::<(String, Overrides)>);
    // The task's exercises, the one chosen (kept per task), and the judged answer's verdict
    // with the hints shown so far.
    let exercises = use_memo(id.clone(), |id| sysmo_tasks::task(id).map(|t| crate::exercises::exercises_of(t.task_toml())).unwrap_or_default());
    let exercise = use_state(|| load(&format!("sysmo.exercise.{id}")).filter(|e| exercises.iter().any(|x| x.id == *e)));
    let verdict = use_state(|| None::<ExerciseVerdict>);
    let shown_hints = use_state(|| 0usize);
    // The last report of the current run (for the grader's explanation), and the exercise
    // the run answers.
    let last_report = use_mut_ref(|| None::<Box<sysmo_grade::report::Report>>);
    let graded_exercise = use_mut_ref(|| None::<String>);
    // The run that checks a share link's claimed scores, and what it found.
    let claim_run = use_mut_ref(|| None::<u64>);
    let verification = use_state(|| shared.as_ref().map(|_| Verification::Pending));
    let link = use_state(|| None::<Result<String, String>>);
    let copy_note = use_state(String::new);
    let checked = use_state(|| (*text).clone());
    let timer = use_mut_ref(|| None::<Timeout>);
    // A write-invariant exercise's answer is definitions, checked inside the task's invariants
    // module as the grader checks them; anything else is a module.
    let writes_property = (*exercise).as_ref().is_some_and(|e| exercises.iter().any(|x| x.id == *e && x.kind == crate::exercises::ExerciseKind::WriteInvariant));
    let view = use_memo(((*checked).clone(), writes_property, id.clone(), props.info.module.clone()), |(t, property, id, module)| {
        let task = sysmo_tasks::task(id).filter(|_| *property);
        match task.and_then(|t| Some((t.invariants_tla()?, t.file(&format!("reference/{module}.tla"))?))) {
            Some((invariants, reference)) => crate::analyze_definitions(t, invariants, module, reference),
            None => analyze_text(t),
        }
    });
    let marks = use_memo(((*checked).clone(), view.clone()), |(t, v)| lint_marks(t, &v.diagnostics));
    let grade = use_state(|| GradeState::Idle);
    let run = use_mut_ref(|| 0u64);
    let slot = use_mut_ref(|| None::<WorkerSlot>);
    let board = use_reducer(crate::progress::Board::default);

    let set_text = {
        let (text, checked, timer, id) = (text.clone(), checked.clone(), timer.clone(), id.clone());
        Callback::from(move |value: String| {
            save(&model_key(&id), &value);
            text.set(value.clone());
            let checked = checked.clone();
            // Check once typing pauses; a new keystroke cancels the pending check.
            *timer.borrow_mut() = Some(Timeout::new(CHECK_DELAY_MS, move || checked.set(value)));
        })
    };
    let reset = {
        let (set_text, template) = (set_text.clone(), template.clone());
        Callback::from(move |_| set_text.emit((*template).clone()))
    };

    let on_message = {
        let (grade, run, id, board) = (grade.clone(), run.clone(), id.clone(), board.clone());
        let (claim_run, verification, shared) = (claim_run.clone(), verification.clone(), shared.clone());
        let (verdict, last_report, graded_exercise, graded) = (verdict.clone(), last_report.clone(), graded_exercise.clone(), graded.clone());
        Callback::from(move |m: WorkerMessage| {
            let current = *run.borrow();
            let checks_claim = *claim_run.borrow() == Some(current);
            match m {
                WorkerMessage::Stage { run, progress } if run == current => board.dispatch(BoardAction::Apply(progress)),
                WorkerMessage::Progress { run, stage, slices, syntax } if run == current => {
                    grade.set(GradeState::Running { stage, slices, syntax })
                }
                WorkerMessage::Report { run, report } if run == current => {
                    let card = Scorecard::from_report(&report);
                    match (&shared, checks_claim) {
                        (Some(p), true) => verification.set(Some(Verification::of(&p.claimed, &card))),
                        _ => {
                            record_score(&id, card.overall);
                            // An answer to an exercise is recorded with its verdict, next.
                            if graded_exercise.borrow().is_none() {
                                let model = graded.borrow().as_ref().map(|(m, _)| m.clone()).unwrap_or_default();
                                record_attempt(&id, None, &model, Some(&card), None);
                            }
                        }
                    }
                    *last_report.borrow_mut() = Some(report);
                    grade.set(GradeState::Done(Rc::new(card)))
                }
                WorkerMessage::Exercise { run, verdict: v } if run == current => {
                    let model = graded.borrow().as_ref().map(|(m, _)| m.clone()).unwrap_or_default();
                    let card = last_report.borrow().as_ref().map(|r| Scorecard::from_report(r));
                    record_attempt(&id, graded_exercise.borrow().clone(), &model, card.as_ref(), Some(&v));
                    if card.is_none() {
                        grade.set(GradeState::Judged);
                    }
                    verdict.set(Some(v));
                }
                WorkerMessage::Failed { run, message } if run == current || run == 0 => {
                    if checks_claim {
                        verification.set(Some(Verification::Failed(message.clone())));
                    }
                    grade.set(GradeState::Failed(message))
                }
                _ => {}
            }
        })
    };
    let ensure_worker = {
        let (slot, on_message) = (slot.clone(), on_message.clone());
        move || -> Result<(), String> {
            if slot.borrow().is_none() {
                *slot.borrow_mut() = Some(start_worker(on_message.clone())?);
            }
            Ok(())
        }
    };
    let start_grade = {
        let (slot, run, grade, text, id, ensure_worker) = (slot.clone(), run.clone(), grade.clone(), text.clone(), id.clone(), ensure_worker.clone());
        let (overrides, graded, link, copy_note) = (overrides.clone(), graded.clone(), link.clone(), copy_note.clone());
        let board = board.clone();
        let (exercise, verdict, shown_hints, last_report, graded_exercise) =
            (exercise.clone(), verdict.clone(), shown_hints.clone(), last_report.clone(), graded_exercise.clone());
        let shared_link = shared.is_some();
        Rc::new(move || -> Option<u64> {
            board.dispatch(BoardAction::Reset);
            verdict.set(None);
            shown_hints.set(0);
            *last_report.borrow_mut() = None;
            // A share link's model is graded as it was shared, without an exercise.
            let answers = if shared_link { None } else { (*exercise).clone() };
            *graded_exercise.borrow_mut() = answers.clone();
            if let Err(e) = ensure_worker() {
                grade.set(GradeState::Failed(e));
                return None;
            }
            *run.borrow_mut() += 1;
            let o = (*overrides).clone();
            let req = GradeRequest {
                run: *run.borrow(),
                task: id.clone(),
                model: (*text).clone(),
                cfg: o.cfg_override(),
                mapping: o.mapping_override(),
                bug_model: false,
                pack: GradeRequest::pack_of(&id),
                exercise: answers,
            };
            *graded.borrow_mut() = Some(((*text).clone(), o));
            link.set(None);
            copy_note.set(String::new());
            let s = slot.borrow();
            let s = s.as_ref()?;
            match s.send(req.to_json()) {
                Ok(()) => grade.set(GradeState::Running { stage: "starting".into(), slices: 0, syntax: None }),
                Err(e) => grade.set(GradeState::Failed(e)),
            }
            Some(req.run)
        })
    };
    let on_grade = {
        let start_grade = start_grade.clone();
        Callback::from(move |_: MouseEvent| {
            start_grade();
        })
    };
    {
        // A share link's model is graded as soon as the page opens, to check its claim.
        let (start_grade, claim_run, shared) = (start_grade.clone(), claim_run.clone(), shared.clone());
        use_effect_with((), move |_| {
            if shared.is_some() {
                *claim_run.borrow_mut() = start_grade();
            }
        });
    }
    let on_copy_link = {
        let (graded, grade, link, copy_note, id) = (graded.clone(), grade.clone(), link.clone(), copy_note.clone(), id.clone());
        Callback::from(move |_: MouseEvent| {
            let (GradeState::Done(card), Some((model, o))) = (&*grade, graded.borrow().clone()) else { return };
            let payload = SharePayload {
                task: id.clone(),
                model,
                cfg: o.cfg_override(),
                mapping: o.mapping_override(),
                claimed: share::Scores::from_card(card),
                pack: sysmo_tasks::task(&id).and_then(|t| t.pack_hash()),
            };
            match share::encode_fragment(&payload) {
                Ok(fragment) => {
                    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
                    let url = format!("{}{fragment}", href.split('#').next().unwrap_or(""));
                    copy_link(&url, copy_note.clone());
                    link.set(Some(Ok(url)));
                }
                Err(e) => link.set(Some(Err(e.to_string()))),
            }
        })
    };
    let on_cfg = {
        let (overrides, id) = (overrides.clone(), id.clone());
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            let o = Overrides { cfg: area.value(), ..(*overrides).clone() };
            o.save(&id);
            overrides.set(o);
        })
    };
    let on_mapping = {
        let (overrides, id) = (overrides.clone(), id.clone());
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            let o = Overrides { mapping: area.value(), ..(*overrides).clone() };
            o.save(&id);
            overrides.set(o);
        })
    };
    let on_cancel = {
        let (slot, run, grade, board) = (slot.clone(), run.clone(), grade.clone(), board.clone());
        let (claim_run, verification) = (claim_run.clone(), verification.clone());
        Callback::from(move |_| {
            board.dispatch(BoardAction::Cancel);
            if *claim_run.borrow() == Some(*run.borrow()) {
                verification.set(Some(Verification::Failed("the re-grade was cancelled".into())));
            }
            // Stop the engine where it is: terminate the worker and start a fresh one.
            if let Some(s) = slot.borrow_mut().take() {
                s.worker.terminate();
            }
            *run.borrow_mut() += 1;
            let _ = ensure_worker();
            grade.set(GradeState::Cancelled);
        })
    };
    {
        let slot = slot.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(s) = slot.borrow_mut().take() {
                    s.worker.terminate();
                }
            }
        });
    }

    let on_exercise = {
        let (exercise, id, verdict) = (exercise.clone(), id.clone(), verdict.clone());
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let v = sel.value();
            save(&format!("sysmo.exercise.{id}"), &v);
            verdict.set(None);
            exercise.set(Some(v).filter(|v| !v.is_empty()));
        })
    };
    let chosen: Option<crate::exercises::Exercise> = (*exercise).as_ref().and_then(|e| exercises.iter().find(|x| x.id == *e)).cloned();
    let on_load_starter = {
        let (set_text, chosen, id) = (set_text.clone(), chosen.clone(), id.clone());
        Callback::from(move |_: MouseEvent| {
            let starter = chosen.as_ref().and_then(|c| c.starter.as_deref()).and_then(|p| sysmo_tasks::task(&id).and_then(|t| t.file(p)));
            if let Some(text) = starter {
                set_text.emit(text.to_string());
            }
        })
    };
    let hint_list: Vec<String> = match (&*verdict, &chosen) {
        (Some(v), Some(ex)) if ex.id == v.exercise => {
            let model = graded.borrow().as_ref().map(|(m, _)| m.clone()).unwrap_or_default();
            let explanation = last_report.borrow().as_ref().map(|r| sysmo_grade::feedback::feedback(r, &model, 1500)).unwrap_or_default();
            crate::exercises::hints(ex, v, &explanation)
        }
        _ => vec![],
    };
    let on_next_hint = {
        let (shown_hints, id, verdict, total) = (shown_hints.clone(), id.clone(), verdict.clone(), hint_list.len());
        Callback::from(move |_: MouseEvent| {
            if *shown_hints < total {
                if let Some(v) = &*verdict {
                    let key = hints_key(&id, &v.exercise);
                    let used: u32 = load(&key).and_then(|n| n.parse().ok()).unwrap_or(0);
                    save(&key, &(used + 1).to_string());
                }
                shown_hints.set(*shown_hints + 1);
            }
        })
    };
    let status = if view.clean { "clean" } else { "errors" };
    let running = matches!(*grade, GradeState::Running { .. });
    html! {
        <div id="workbench">
            { exercise_bar(&exercises, chosen.as_ref(), on_exercise, on_load_starter) }
            <div class="editor-head">
                <label for="editor-text">{
                    if chosen.as_ref().is_some_and(|c| c.kind == crate::exercises::ExerciseKind::WriteInvariant) {
                        format!("Your property (definitions added to {}Invariants.tla)", props.info.module)
                    } else {
                        format!("Your model ({}.tla)", props.info.module)
                    }
                }</label>
                <button id="reset" onclick={reset} title="Replace the text with a starter module that has the pinned names">{ "Reset to template" }</button>
            </div>
            <CodeEditor text={AttrValue::from((*text).clone())} checked={AttrValue::from((*checked).clone())}
                marks={marks.clone()} on_change={set_text.clone()} />
            <section id="summary" data-status={status} data-checked={(*checked == *text).to_string()}>
                <span id="score">{ format!("syntax score {:.4}", view.syntax_score) }</span>
                { " · " }
                <span id="definitions">{ format!("{} of {} definitions parse", view.definitions_parsed, view.definitions_total) }</span>
            </section>
            <ul id="diagnostics">
                { for view.diagnostics.iter().map(|d| html! {
                    <li class={severity_class(d.severity)} data-code={d.code.clone()}>
                        { format!("{}:{} {} {}", d.line, d.column, d.code, d.message) }
                    </li>
                }) }
            </ul>
            <div class="grade-bar">
                <button id="grade" onclick={on_grade} disabled={running}>{ "Grade" }</button>
                <button id="cancel" onclick={on_cancel} disabled={!running}>{ "Cancel" }</button>
                { grade_status(&grade) }
            </div>
            { verdict.as_ref().map(|v| exercise_result(v, &hint_list, *shown_hints, on_next_hint)).unwrap_or_default() }
            { overrides_view(&overrides, on_cfg, on_mapping) }
            { shared.as_ref().map(|p| verification_view(p, verification.as_ref())).unwrap_or_default() }
            { if board.reports > 0 { html! { <ProgressBoard board={(*board).clone()} /> } } else { html! {} } }
            { if let GradeState::Done(card) = &*grade { scorecard(card) } else { html! {} } }
            { if matches!(*grade, GradeState::Done(_)) { share_bar(on_copy_link, link.as_ref(), &copy_note) } else { html! {} } }
        </div>
    }
}

fn grade_status(g: &GradeState) -> Html {
    let (state, text) = match g {
        GradeState::Idle => ("idle", String::new()),
        GradeState::Running { stage, slices, syntax } => {
            let text = match (stage.as_str(), syntax) {
                ("checking", Some(s)) => format!(
                    "syntax {} — running runtime, conformance, invariants and precision ({slices} slices of work)",
                    score_text(*s)
                ),
                (stage, _) => format!("running {stage}…"),
            };
            ("running", text)
        }
        GradeState::Done(card) => ("done", format!("graded: overall {}", score_text(card.overall))),
        GradeState::Judged => ("done", "judged".to_string()),
        GradeState::Cancelled => ("cancelled", "cancelled".to_string()),
        GradeState::Failed(m) => ("failed", format!("grading failed: {m}")),
    };
    html! { <span id="grade-status" data-state={state}>{ text }</span> }
}

fn hints_key(task: &str, exercise: &str) -> String {
    format!("sysmo.hints.{task}.{exercise}")
}

/// Keeps a grade of `task` as an attempt (see [`crate::exercises`]).
fn record_attempt(task: &str, exercise: Option<String>, model: &str, card: Option<&Scorecard>, verdict: Option<&ExerciseVerdict>) {
    let hints = exercise.as_ref().and_then(|e| load(&hints_key(task, e))).and_then(|n| n.parse().ok()).unwrap_or(0);
    let pack = sysmo_tasks::task(task).and_then(|t| t.pack_hash());
    let attempt = crate::exercises::Attempt::of(task, pack, exercise, model, card, verdict, hints, js_sys::Date::now());
    let key = format!("sysmo.attempts.{task}");
    let mut all = crate::exercises::read_attempts(&load(&key).unwrap_or_default());
    all.push(attempt);
    save(&key, &crate::exercises::write_attempts(&all));
}

fn exercise_bar(
    exercises: &[crate::exercises::Exercise],
    chosen: Option<&crate::exercises::Exercise>,
    on_change: Callback<Event>,
    on_load_starter: Callback<MouseEvent>,
) -> Html {
    if exercises.is_empty() {
        return html! {};
    }
    use crate::exercises::ExerciseKind;
    html! {
        <section id="exercise-bar" data-exercise={chosen.map(|c| c.id.clone()).unwrap_or_default()}>
            <label for="exercise">{ "Exercise " }</label>
            <select id="exercise" onchange={on_change}>
                <option value="" selected={chosen.is_none()}>{ "none: model the system" }</option>
                { for exercises.iter().map(|e| html! {
                    <option value={e.id.clone()} selected={chosen.is_some_and(|c| c.id == e.id)}>{ format!("{} ({})", e.title, e.kind.as_str()) }</option>
                }) }
            </select>
            { chosen.map(|c| html! {
                <>
                    <p id="exercise-prompt" data-kind={c.kind.as_str()}>{ &c.prompt }</p>
                    { if c.kind == ExerciseKind::FixModel { html! { <button id="load-starter" onclick={on_load_starter}>{ "Load the starter model" }</button> } } else { html! {} } }
                </>
            }).unwrap_or_default() }
        </section>
    }
}

fn exercise_result(v: &ExerciseVerdict, hints: &[String], shown: usize, on_next: Callback<MouseEvent>) -> Html {
    html! {
        <section id="exercise-result" data-solved={v.outcome.solved.to_string()} data-exercise={v.exercise.clone()}>
            <p class={classes!("verdict", (!v.outcome.solved).then_some("error"))}>{ format!("{} {}", if v.outcome.solved { "✓ Solved:" } else { "✗ Not solved:" }, v.outcome.why) }</p>
            { v.outcome.killed.map(|(k, t)| html! { <p class="killed">{ format!("bug models killed: {k} of {t}") }</p> }).unwrap_or_default() }
            { if hints.is_empty() { html! {} } else { html! {
                <>
                    <button id="next-hint" onclick={on_next} disabled={shown >= hints.len()}>{ format!("Show a hint ({shown} of {} shown)", hints.len()) }</button>
                    <ol id="hints">{ for hints.iter().take(shown).map(|h| html! { <li class="hint">{ h }</li> }) }</ol>
                </>
            } } }
        </section>
    }
}

/// A counterexample in the player; `name` names the exported file.
fn counterexample_view(c: &Counterexample, name: &str) -> Html {
    html! { <Player cex={Rc::new(c.clone())} name={name.to_string()} /> }
}

pub(crate) fn scorecard(card: &Scorecard) -> Html {
    let stage_detail = |key: &str| -> Html {
        match key {
            "syntax" => html! {
                <ul class="detail-diagnostics">
                    { for card.diagnostics.iter().map(|d| html! { <li>{ d }</li> }) }
                    { if card.diagnostics.is_empty() { html! { <li>{ "no diagnostics" }</li> } } else { html! {} } }
                </ul>
            },
            "runtime" => html! {
                <>
                    { card.gate.as_ref().map(|g| html! { <p class="gate">{ g }</p> }).unwrap_or_default() }
                    { card.gate_counterexample.as_ref().map(|c| counterexample_view(c, &format!("{}-runtime-gate", card.task))).unwrap_or_default() }
                    { for card.simulation_errors.iter().map(|e| html! { <p class="sim-error">{ e }</p> }) }
                    <table class="coverage">
                        <thead><tr><th>{ "action" }</th><th>{ "produced a successor" }</th><th>{ "counted" }</th></tr></thead>
                        <tbody>{ for card.coverage.iter().map(|c| html! {
                            <tr data-action={c.action.clone()} class={classes!((!c.counted).then_some("bad"))}>
                                <td>{ &c.action }</td><td>{ if c.produced { "yes" } else { "no" } }</td>
                                <td>{ if c.counted { "yes" } else if c.before_error { "no: last step before an error" } else { "no: never enabled" } }</td>
                            </tr>
                        }) }</tbody>
                    </table>
                </>
            },
            "conformance" => html! {
                <>
                    <p class="windows">{ &card.windows }</p>
                    <table class="conformance">
                        <thead><tr><th>{ "action" }</th><th>{ "windows passed" }</th><th>{ "first failing window" }</th></tr></thead>
                        <tbody>{ for card.conformance.iter().map(|c| html! {
                            <tr data-action={c.action.clone()} class={classes!((!c.ok).then_some("bad"))}>
                                <td>{ &c.action }</td><td>{ format!("{}/{}", c.passed, c.windows) }</td>
                                <td>{ c.first_failure.clone().unwrap_or_default() }</td>
                            </tr>
                        }) }</tbody>
                    </table>
                </>
            },
            "precision" => html! {
                <>
                    <p class="precision-note">{ &card.precision_note }</p>
                    <ul class="precision-steps">
                        { for card.precision.iter().map(|o| html! {
                            <li data-step={o.step.clone()} class="bad">
                                <div class="message">{ &o.message }</div>
                                <div class="from"><span>{ "system state: " }</span>
                                    { for o.from.iter().map(|(k, v)| html! { <code>{ format!("{k} = {v}") }</code> }) }
                                </div>
                                <div class="code-steps">{ format!("the code's steps from there: {}", if o.code_steps.is_empty() { "none".to_string() } else { o.code_steps.join(", ") }) }</div>
                                <details class="cex"><summary>{ format!("the model's path to it, {} states", o.counterexample.states.len()) }</summary>{ counterexample_view(&o.counterexample, &format!("{}-over-permissive-{}", card.task, o.step)) }</details>
                            </li>
                        }) }
                    </ul>
                </>
            },
            _ => html! {
                <ul class="invariant-results">
                    { for card.invariants.iter().map(|i| html! {
                        <li data-name={i.name.clone()} data-verdict={i.verdict.clone()} class={classes!((i.verdict != "pass").then_some("bad"))}>
                            <code>{ &i.name }</code>{ format!(" ({}{}): {} — {}", i.kind, if i.expect == "violate" { ", must be violated" } else { "" }, i.verdict, i.result) }
                            { i.message.as_ref().map(|m| html! { <div class="message">{ m }</div> }).unwrap_or_default() }
                            { i.counterexample.as_ref().map(|c| html! {
                                <details class="cex"><summary>{ format!("counterexample, {} states", c.states.len()) }</summary>{ counterexample_view(c, &format!("{}-{}", card.task, i.name)) }</details>
                            }).unwrap_or_default() }
                        </li>
                    }) }
                </ul>
            },
        }
    };
    html! {
        <section id="scorecard">
            <h3>{ "Scorecard" }<span id="overall" data-score={score_text(card.overall)}>{ format!("overall {}", score_text(card.overall)) }</span>
                { card.combined.map(|c| html! { <span id="combined" data-score={score_text(c)} title="the mean of all five stages, precision included">{ format!("with precision {}", score_text(c)) }</span> }).unwrap_or_default() }
            </h3>
            { card.stopped.as_ref().map(|s| html! { <p class="error">{ format!("stopped early during the {s} stage") }</p> }).unwrap_or_default() }
            { for card.stages.iter().map(|s| html! {
                <details class={classes!("stage", s.status.clone())} data-stage={s.key.clone()} data-status={s.status.clone()}>
                    <summary>
                        <span class="name">{ &s.key }</span>
                        <span class="score" data-score={score_text(s.score)}>{ score_text(s.score) }</span>
                        <span class="status">{ if s.status == "skipped" { "skipped (gated)".to_string() } else { s.status.clone() } }</span>
                        <span class="stage-summary">{ s.reason.clone().filter(|_| s.status != "ran").unwrap_or_else(|| s.summary.clone()) }</span>
                    </summary>
                    { stage_detail(&s.key) }
                </details>
            }) }
        </section>
    }
}

/// The user's configuration and mapping in place of the task's (blank: the task's own).
#[derive(Clone, Debug, PartialEq, Default)]
struct Overrides {
    cfg: String,
    mapping: String,
}

impl Overrides {
    fn load(id: &str) -> Overrides {
        Overrides {
            cfg: load(&format!("sysmo.cfg.{id}")).unwrap_or_default(),
            mapping: load(&format!("sysmo.mapping.{id}")).unwrap_or_default(),
        }
    }

    fn save(&self, id: &str) {
        save(&format!("sysmo.cfg.{id}"), &self.cfg);
        save(&format!("sysmo.mapping.{id}"), &self.mapping);
    }

    fn cfg_override(&self) -> Option<String> {
        Some(self.cfg.clone()).filter(|t| !t.trim().is_empty())
    }

    fn mapping_override(&self) -> Option<String> {
        Some(self.mapping.clone()).filter(|t| !t.trim().is_empty())
    }
}

fn overrides_view(o: &Overrides, on_cfg: Callback<InputEvent>, on_mapping: Callback<InputEvent>) -> Html {
    let active = o.cfg_override().is_some() || o.mapping_override().is_some();
    html! {
        <details id="overrides" class="overrides" open={active} data-active={active.to_string()}>
            <summary>{ if active { "Overrides in use: your configuration or mapping replaces the task's" } else { "Overrides: configuration and mapping (empty: the task's own)" } }</summary>
            <label for="cfg-override">{ "Configuration (.cfg)" }</label>
            <textarea id="cfg-override" spellcheck="false" rows="4" placeholder="CONSTANT Threads = {0, 1}" value={o.cfg.clone()} oninput={on_cfg} />
            <label for="mapping-override">{ "Mapping (TOML, see docs/mapping.md)" }</label>
            <textarea id="mapping-override" spellcheck="false" rows="4" value={o.mapping.clone()} oninput={on_mapping} />
        </details>
    }
}

/// Whether a share link's claimed scores hold in this browser.
#[derive(Clone, Debug, PartialEq)]
enum Verification {
    Pending,
    Verified,
    Differs(Vec<share::ScoreDifference>),
    Failed(String),
}

impl Verification {
    fn of(claimed: &share::Scores, card: &Scorecard) -> Verification {
        let diffs = share::differences(claimed, &share::Scores::from_card(card));
        if diffs.is_empty() { Verification::Verified } else { Verification::Differs(diffs) }
    }
}

/// A score as the share views print it: four decimals, or every digit when four hide a difference.
fn exact_score(x: f64, other: f64) -> String {
    if score_text(x) == score_text(other) { format!("{x}") } else { score_text(x) }
}

fn verification_view(p: &SharePayload, v: Option<&Verification>) -> Html {
    let claimed: Vec<String> = share::SCORE_NAMES.iter().map(|n| format!("{n} {}", score_text(p.claimed.get(n).unwrap_or(0.0)))).collect();
    let overrides = match (&p.cfg, &p.mapping) {
        (None, None) => String::new(),
        (Some(_), None) => " It uses its own configuration.".into(),
        (None, Some(_)) => " It uses its own mapping.".into(),
        (Some(_), Some(_)) => " It uses its own configuration and mapping.".into(),
    };
    let (state, body) = match v {
        None | Some(Verification::Pending) => ("pending", html! { <p id="verify-status">{ "Re-grading the shared model in this browser to check the claimed scores…" }</p> }),
        Some(Verification::Verified) => (
            "verified",
            html! { <p id="verify-status" class="verified">{ "✓ verified: this browser's grade gives exactly the claimed scores." }</p> },
        ),
        Some(Verification::Differs(diffs)) => (
            "differs",
            html! {
                <>
                    <p id="verify-status" class="error">{ format!("✗ not verified: {} of the claimed scores differ from this browser's grade.", diffs.len()) }</p>
                    <table id="verify-differences">
                        <thead><tr><th>{ "stage" }</th><th>{ "claimed" }</th><th>{ "got" }</th></tr></thead>
                        <tbody>{ for diffs.iter().map(|d| html! {
                            <tr class="difference" data-stage={d.stage} data-claimed={format!("{}", d.claimed)} data-got={format!("{}", d.got)}>
                                <td>{ d.stage }</td><td class="claimed">{ exact_score(d.claimed, d.got) }</td><td class="got">{ exact_score(d.got, d.claimed) }</td>
                            </tr>
                        }) }</tbody>
                    </table>
                </>
            },
        ),
        Some(Verification::Failed(m)) => ("failed", html! { <p id="verify-status" class="error">{ format!("The shared model could not be re-graded: {m}") }</p> }),
    };
    html! {
        <section id="verification" data-state={state}>
            <h3>{ "Shared model" }</h3>
            <p class="claimed">{ format!("The link claims: {}.{overrides}", claimed.join(", ")) }</p>
            { body }
        </section>
    }
}

/// Put `url` on the clipboard when the browser allows it; `note` says what happened.
fn copy_link(url: &str, note: UseStateHandle<String>) {
    let Some(w) = web_sys::window() else { return };
    let navigator = w.navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        note.set("This browser gives no clipboard here: copy the link from the field.".into());
        return;
    }
    note.set("Copying…".into());
    let (ok_note, err_note) = (note.clone(), note);
    let ok = Closure::<dyn FnMut(JsValue)>::new(move |_| ok_note.set("Link copied to the clipboard.".into()));
    let err = Closure::<dyn FnMut(JsValue)>::new(move |_| err_note.set("The clipboard was refused: copy the link from the field.".into()));
    let _ = navigator.clipboard().write_text(url).then2(&ok, &err);
    ok.forget();
    err.forget();
}

fn share_bar(on_copy: Callback<MouseEvent>, link: Option<&Result<String, String>>, note: &str) -> Html {
    html! {
        <section id="share">
            <button id="copy-link" onclick={on_copy} title="A link that opens this model on this task and re-grades it">{ "Copy link" }</button>
            <span id="share-note">{ note }</span>
            { match link {
                Some(Ok(url)) => html! {
                    <input id="share-link" type="text" readonly=true value={url.clone()} data-length={url.len().to_string()}
                        onfocus={Callback::from(|e: FocusEvent| { let i: web_sys::HtmlInputElement = e.target_unchecked_into(); i.select(); })} />
                },
                Some(Err(e)) => html! { <p id="share-link-error" class="error">{ e }</p> },
                None => html! {},
            } }
        </section>
    }
}
