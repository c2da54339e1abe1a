//! Task packs in the browser: a pack file (`sysmo task pack`) opened from the gallery (a file
//! chosen or dropped, or a URL the user gives), or carried by a link's fragment (`#/pack/1/…`,
//! `sysmo task pack --link`), joins the tasks ([`sysmo_tasks::open_pack`]) and is kept in this browser's IndexedDB (database
//! [`DB`], object store [`STORE`], the pack's JSON under its content hash), so that the page
//! opens it again on every visit ([`restore`]). The worker gets the pack with each request
//! ([`crate::grading::GradeRequest::pack`]).

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

/// Opens a pack file's bytes: reads it and opens its task; the error says what is wrong.
pub fn open_bytes(bytes: &[u8]) -> Result<(&'static sysmo_tasks::TaskFiles, Pack), String> {
    let pack = Pack::from_bytes(bytes)?;
    let task = sysmo_tasks::open_pack(&pack)?;
    Ok((task, pack))
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
    let db = database().await?;
    let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite).map_err(js_text)?;
    let store = tx.object_store(STORE).map_err(js_text)?;
    let req = store.put_with_key(&JsValue::from_str(&pack.to_json()), &JsValue::from_str(&pack.content_hash())).map_err(js_text)?;
    done(&req).await.map(|_| ())
}

/// Opens every pack kept in IndexedDB. Returns the tasks opened and, for each pack that no
/// longer opens, why.
pub async fn restore() -> (Vec<&'static str>, Vec<String>) {
    let texts = match kept().await {
        Ok(t) => t,
        Err(e) => return (vec![], vec![e]),
    };
    let (mut ids, mut errors) = (vec![], vec![]);
    for text in texts {
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

/// Opens the pack a link's fragment carries and keeps it; returns its task's id.
pub async fn open_fragment(fragment: &str) -> Result<&'static str, String> {
    let pack = Pack::from_fragment(fragment)?;
    let task = sysmo_tasks::open_pack(&pack)?;
    // A pack that cannot be kept still opens for this visit.
    let _ = keep(&pack).await;
    Ok(task.id)
}

/// The bytes of a file the user chose or dropped.
pub async fn file_bytes(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(js_text)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
