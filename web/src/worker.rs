//! The grading worker: receives a grade request (JSON text) from the page, grades the model with
//! the engine, posts progress between slices of work and then the report. A check request
//! (`web::check_bench`) runs the model checker alone and answers with its counts and time. The page terminates
//! and restarts the worker to cancel a run.

#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web::grading::handle_request;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let out = scope.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let text = e.data().as_string().unwrap_or_default();
        // A model-checking request (the web benchmark), timed with the worker's clock.
        if let Some(reply) = web::check_bench::handle_check_request(&text, &js_sys::Date::now) {
            let _ = out.post_message(&JsValue::from_str(&reply));
            return;
        }
        let post = |m: web::grading::WorkerMessage| {
            let _ = out.post_message(&JsValue::from_str(&m.to_json()));
        };
        let last = handle_request(&text, &mut |m| post(m));
        post(last);
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    // A message the page posts before this point finds no handler: say when to start.
    let _ = scope.post_message(&JsValue::from_str(&web::grading::WorkerMessage::Ready.to_json()));
}

/// The worker runs only in a browser; natively there is nothing to do.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
