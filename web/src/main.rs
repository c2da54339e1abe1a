fn main() {
    yew::Renderer::<web::App>::new().render();
}
