//! Task packs in the browser: a pack file (`sysmo task pack`), or a course of several,
//! opened from the gallery (a file chosen or dropped, or a URL the user gives), or carried by
//! a link's fragment (`#/pack/1/…`, `sysmo task pack --link`), joins the tasks
//! ([`sysmo_tasks::open_pack`]; a pack of a built-in task, as a course carries the tutorials,
//! is that task). Each pack of a task that is not built in is kept in this browser's IndexedDB
//! (database [`DB`], object store [`STORE`], the pack's JSON under its content hash), so that
//! the page opens it again on every visit ([`restore`]). So is each course's index
//! ([`CourseIndex`]: its title, description and tasks in order, under `course:<title>`), which
//! the gallery lists ([`courses`]). A pack that replaces an earlier version of its task
//! forgets the earlier one, and the user may remove a pack or a course ([`forget_task`],
//! [`forget_course`]). The worker gets the pack with each request
//! ([`crate::grading::GradeRequest::pack`]).

use sysmo_task_format::course::Course;
use sysmo_task_format::pack::Pack;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransactionMode};

/// The IndexedDB database of the playground.
pub const DB: &str = "sysmo-playground";
/// Its object store of packs: the pack's JSON, keyed by its content hash.
pub const STORE: &str = "packs";

fn js_text(e: JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .or_else(|| e.dyn_ref::<web_sys::DomException>().map(|e| e.message()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A course opened in this browser, as the gallery lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct CourseIndex {
    pub title: String,
    pub description: String,
    /// Its tasks' ids, in the course's order.
    pub tasks: Vec<String>,
}

/// The `format` of a course's index kept in IndexedDB.
const COURSE_INDEX_FORMAT: &str = "sysmo-course-index/1";

impl CourseIndex {
    fn of(course: &Course) -> CourseIndex {
        let tasks = course.packs.iter().filter_map(|p| p.task_toml().ok()).map(|t| t.id).collect();
        CourseIndex { title: course.title.clone(), description: course.description.clone(), tasks }
    }

    fn key(&self) -> String {
        format!("course:{}", self.title)
    }

    fn to_json(&self) -> String {
        serde_json::json!({ "format": COURSE_INDEX_FORMAT, "title": self.title, "description": self.description, "tasks": self.tasks }).to_string()
    }

    /// A course's index as kept; `None` for any other text (a pack's JSON).
    fn from_json(text: &str) -> Option<CourseIndex> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        (v["format"] == COURSE_INDEX_FORMAT).then_some(())?;
        let tasks = v["tasks"].as_array()?.iter().filter_map(|t| t.as_str().map(str::to_string)).collect();
        Some(CourseIndex { title: v["title"].as_str()?.to_string(), description: v["description"].as_str().unwrap_or("").to_string(), tasks })
    }
}

thread_local! {
    static COURSES: std::cell::RefCell<Vec<CourseIndex>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The courses opened in this browser, in the order opened (a course opened again, by its
/// title, replaces the earlier one).
pub fn courses() -> Vec<CourseIndex> {
    COURSES.with(|c| c.borrow().clone())
}

fn add_course(index: CourseIndex) {
    COURSES.with(|c| {
        let mut list = c.borrow_mut();
        list.retain(|x| x.title != index.title);
        list.push(index);
    });
}

/// What opening a pack or a course came to.
pub struct Opened {
    /// The course's title; `None` for a single pack.
    pub course: Option<String>,
    /// Its tasks, in its order.
    pub tasks: Vec<&'static sysmo_tasks::TaskFiles>,
    /// Whether the packs of tasks that are not built in are kept in this browser, or why not.
    pub kept: Result<(), String>,
}

impl Opened {
    /// A sentence saying what opened from `source` (a file's name, an address, a link).
    pub fn sentence(&self, source: &str) -> String {
        let name = |t: &sysmo_tasks::TaskFiles| match t.pack_hash {
            Some(h) => format!("`{}` (pack {h})", t.id),
            None => format!("`{}` (built in)", t.id),
        };
        let what = match (&self.course, self.tasks.as_slice()) {
            (None, [t]) => match t.pack_hash {
                Some(h) => format!("opened the task `{}` from {source} (pack {h})", t.id),
                None => format!("opened the task `{}` from {source}: it is built in", t.id),
            },
            (title, tasks) => {
                let list: Vec<String> = tasks.iter().map(|t| name(t)).collect();
                format!("opened the course \"{}\" from {source}: {} tasks, {}", title.as_deref().unwrap_or(""), list.len(), list.join(", "))
            }
        };
        let own = self.tasks.iter().any(|t| t.pack.is_some());
        match &self.kept {
            Ok(()) if own => format!("{what}; it is kept in this browser"),
            Ok(()) => what,
            Err(e) => format!("{what}; it could not be kept in this browser ({e})"),
        }
    }
}

/// Opens every task of a course (or of a pack read as a course of one) and keeps the packs of
/// those that are not built in. Opens nothing when one of them does not open.
pub async fn open_and_keep(course: Course) -> Result<Opened, String> {
    // The built-in tasks first: a course made for another version of the playground, whose
    // tutorial differs from this one's, opens nothing.
    let built_in = |p: &Pack| p.task_toml().is_ok_and(|t| sysmo_tasks::tasks().iter().any(|b| b.id == t.id));
    let mut slots = Vec::with_capacity(course.packs.len());
    for p in &course.packs {
        slots.push(match built_in(p) {
            true => Some(sysmo_tasks::open_pack(p).map_err(|e| format!("{e}: it was made for another version of the playground"))?),
            false => None,
        });
    }
    let mut tasks = Vec::with_capacity(slots.len());
    // The kept packs a newer version replaces (by task id), to forget once it is kept.
    let mut replaced = vec![];
    for (slot, p) in slots.into_iter().zip(&course.packs) {
        tasks.push(match slot {
            Some(t) => t,
            None => {
                let earlier = p.task_toml().ok().and_then(|t| sysmo_tasks::task(&t.id)).and_then(|t| t.pack_hash);
                let t = sysmo_tasks::open_pack(p)?;
                replaced.extend(earlier.filter(|h| Some(*h) != t.pack_hash));
                t
            }
        });
    }
    let mut kept = Ok(());
    for (p, t) in course.packs.iter().zip(&tasks) {
        if t.pack.is_some() {
            if let Err(e) = keep(p).await {
                kept = Err(e);
            }
        }
    }
    // Else a reload would open the older version too, and either could win.
    for h in replaced {
        if let Err(e) = delete(h).await {
            kept = Err(e);
        }
    }
    if course.is_course() {
        let index = CourseIndex::of(&course);
        if let Err(e) = put(&index.key(), &index.to_json()).await {
            kept = Err(e);
        }
        add_course(index);
    }
    Ok(Opened { course: course.is_course().then(|| course.title.clone()), tasks, kept })
}

/// The result of an IndexedDB request, once it succeeds.
async fn done(req: &IdbRequest) -> Result<JsValue, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let (ok_req, err_req) = (req.clone(), req.clone());
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &ok_req.result().unwrap_or(JsValue::UNDEFINED));
        });
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let why = err_req.error().ok().flatten().map(|e| JsValue::from_str(&e.message())).unwrap_or_else(|| JsValue::from_str("the request failed"));
            let _ = reject.call1(&JsValue::NULL, &why);
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(err.unchecked_ref()));
    });
    JsFuture::from(promise).await.map_err(js_text)
}

async fn database() -> Result<IdbDatabase, String> {
    let factory = web_sys::window()
        .and_then(|w| w.indexed_db().ok().flatten())
        .ok_or("this browser gives no IndexedDB: packs are not kept")?;
    let open = factory.open_with_u32(DB, 1).map_err(js_text)?;
    let on_upgrade = {
        let open = open.clone();
        Closure::once_into_js(move |_: web_sys::Event| {
            if let Ok(db) = open.result() {
                let db: IdbDatabase = db.unchecked_into();
                if !db.object_store_names().contains(STORE) {
                    let _ = db.create_object_store(STORE);
                }
            }
        })
    };
    open.set_onupgradeneeded(Some(on_upgrade.unchecked_ref()));
    Ok(done(&open).await?.unchecked_into())
}

/// Keeps the pack in IndexedDB, under its content hash.
pub async fn keep(pack: &Pack) -> Result<(), String> {
    put(&pack.content_hash(), &pack.to_json()).await
}

/// Removes what the store keeps under `key`.
async fn delete(key: &str) -> Result<(), String> {
    let db = database().await?;
    let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite).map_err(js_text)?;
    let store = tx.object_store(STORE).map_err(js_text)?;
    let req = store.delete(&JsValue::from_str(key)).map_err(js_text)?;
    done(&req).await.map(|_| ())
}

/// Forgets the task opened from a pack with this id: it leaves the gallery and this browser.
pub async fn forget_task(id: &str) -> Result<(), String> {
    let hash = sysmo_tasks::task(id).and_then(|t| t.pack_hash);
    sysmo_tasks::close(id);
    match hash {
        Some(h) => delete(h).await,
        None => Ok(()),
    }
}

/// Forgets a course: its index, and the tasks of its own packs (not the built-in ones).
pub async fn forget_course(title: &str) -> Result<(), String> {
    let Some(index) = courses().into_iter().find(|c| c.title == title) else { return Ok(()) };
    COURSES.with(|c| c.borrow_mut().retain(|x| x.title != title));
    let mut result = delete(&index.key()).await;
    for id in &index.tasks {
        if let Err(e) = forget_task(id).await {
            result = Err(e);
        }
    }
    result
}

/// Keeps `text` in the store under `key`.
async fn put(key: &str, text: &str) -> Result<(), String> {
    let db = database().await?;
    let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite).map_err(js_text)?;
    let store = tx.object_store(STORE).map_err(js_text)?;
    let req = store.put_with_key(&JsValue::from_str(text), &JsValue::from_str(key)).map_err(js_text)?;
    done(&req).await.map(|_| ())
}

/// Opens every pack kept in IndexedDB, and lists every course kept. Returns the tasks opened
/// and, for each pack that no longer opens, why.
pub async fn restore() -> (Vec<&'static str>, Vec<String>) {
    let texts = match kept().await {
        Ok(t) => t,
        Err(e) => return (vec![], vec![e]),
    };
    let (mut ids, mut errors) = (vec![], vec![]);
    for text in texts {
        if let Some(index) = CourseIndex::from_json(&text) {
            add_course(index);
            continue;
        }
        match Pack::from_json(&text).and_then(|p| sysmo_tasks::open_pack(&p)) {
            Ok(t) => ids.push(t.id),
            Err(e) => errors.push(format!("a kept task pack does not open: {e}")),
        }
    }
    (ids, errors)
}

async fn kept() -> Result<Vec<String>, String> {
    let db = database().await?;
    let tx = db.transaction_with_str(STORE).map_err(js_text)?;
    let store = tx.object_store(STORE).map_err(js_text)?;
    let all = done(&store.get_all().map_err(js_text)?).await?;
    Ok(js_sys::Array::from(&all).iter().filter_map(|v| v.as_string()).collect())
}

/// The bytes at a URL the user gave (fetched only on that request).
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("it cannot be fetched ({})", js_text(e)))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("fetching it answers {} {}", response.status(), response.status_text()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(js_text)?).await.map_err(js_text)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Opens the pack or the course a link's fragment carries and keeps it.
pub async fn open_fragment(fragment: &str) -> Result<Opened, String> {
    open_and_keep(Course::from_fragment(fragment)?).await
}

/// The bytes of a file the user chose or dropped.
pub async fn file_bytes(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(js_text)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_opened_is_said_in_a_sentence() {
        let counter = sysmo_tasks::task("counter").unwrap();
        let mut mine = counter.to_pack();
        let toml = mine.files["task.toml"].replacen("id = \"counter\"", "id = \"my-counter\"", 1);
        mine.files.insert("task.toml".into(), toml);
        let opened = sysmo_tasks::open_pack(&mine).unwrap();
        let h = mine.content_hash();
        let said = |course: Option<&str>, tasks: Vec<&'static sysmo_tasks::TaskFiles>, kept: Result<(), String>| {
            Opened { course: course.map(str::to_string), tasks, kept }.sentence("c.sysmo")
        };
        assert_eq!(said(None, vec![opened], Ok(())), format!("opened the task `my-counter` from c.sysmo (pack {h}); it is kept in this browser"));
        assert_eq!(said(None, vec![counter], Ok(())), "opened the task `counter` from c.sysmo: it is built in");
        assert_eq!(
            said(Some("Locks"), vec![counter, opened], Err("quota".into())),
            format!("opened the course \"Locks\" from c.sysmo: 2 tasks, `counter` (built in), `my-counter` (pack {h}); it could not be kept in this browser (quota)")
        );
    }
}
