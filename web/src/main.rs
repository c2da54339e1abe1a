#![forbid(unsafe_code)]
fn main() {
    yew::Renderer::<web::App>::new().render();
}
