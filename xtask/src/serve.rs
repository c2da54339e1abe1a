//! A small static file server for the built web app (127.0.0.1 only), and `cargo xtask serve`.

use crate::tools::{self, Need};
use crate::runner::run_process;
use crate::util::{first_cause, run_tee, step};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Which build of the web app.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WebBuild {
    /// `trunk build --release`: the `release` profile (thin LTO) and wasm-opt; what is
    /// published, and what `cargo xtask bench web` measures.
    Release,
    /// `trunk build`: the `dev` profile, whose engine crates are optimised (the workspace's
    /// Cargo.toml), no LTO, no wasm-opt. For the edit loop of `serve`, and what the browser
    /// tests test: it shares every compiled crate with the wasm tests' build, so after those it
    /// costs seconds where the release build costs many minutes.
    Quick,
}

/// `cargo xtask serve [--release] [--port N]`: install, build (offline), serve until interrupted.
pub fn serve_command(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut port = 8080u16;
    let mut build = WebBuild::Quick;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--port" => {
                port = it.next().and_then(|p| p.parse().ok()).ok_or("--port needs a number")?;
            }
            "--release" => build = WebBuild::Release,
            other => return Err(format!("unknown option `{other}` for serve (options: --release, --port N)")),
        }
    }
    let tb = tools::ensure_all(root, Need { web: true, ..Need::none() })?;
    let dist = build_web(root, &tb.path, build, None)?;
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    step(&format!("serving {} on http://127.0.0.1:{port}/ (Ctrl-C to stop)", dist.display()));
    serve_forever(listener, dist);
    Ok(true)
}

/// Builds the app with Trunk (offline) at the repository root and returns the dist folder.
/// Trunk's output goes to the console, or to `log` when given.
pub fn build_web(root: &Path, path: &std::ffi::OsString, build: WebBuild, log: Option<&Path>) -> Result<PathBuf, String> {
    let mut args = vec!["build", "--offline"];
    if build == WebBuild::Release {
        args.push("--release");
    }
    let run = || {
        let mut cmd = Command::new("trunk");
        cmd.args(&args).current_dir(root).env("PATH", path).env("TRUNK_OFFLINE", "true").env("NO_COLOR", "true");
        match log {
            None => run_tee(&mut cmd),
            Some(log) => {
                step(&format!("$ trunk {} (output in {})", args.join(" "), log.display()));
                let end = run_process(&mut cmd, Duration::from_secs(30 * 60))?;
                let text = end.output();
                if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
                    let _ = f.write_all(text.as_bytes());
                }
                Ok((end.success(), text))
            }
        }
    };
    let (ok, text) = run()?;
    if !ok {
        // Once more, so that a passing trouble of the machine does not fail the build; the
        // cause of the first failure is shown either way.
        step(&format!("`trunk build` failed ({}); trying once more", first_cause(&text)));
        let (ok, text) = run()?;
        if !ok {
            return Err(format!("`trunk {}` failed: {}", args.join(" "), first_cause(&text)));
        }
    }
    let dist = root.join("dist");
    if dist.join("index.html").exists() {
        Ok(dist)
    } else {
        Err(format!("trunk finished but {} has no index.html", dist.display()))
    }
}

/// Serve `dist` on `listener`, one thread per connection, until the process ends.
pub fn serve_forever(listener: TcpListener, dist: PathBuf) {
    for stream in listener.incoming().flatten() {
        let dist = dist.clone();
        std::thread::spawn(move || {
            let _ = handle(stream, &dist);
        });
    }
}

pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "tla" | "cfg" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Map a request target to a file under `dist` (None when it would leave `dist`).
pub fn resolve(dist: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let mut out = dist.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    Some(out)
}

fn handle(stream: TcpStream, dist: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let mut stream = stream;
    if method != "GET" && method != "HEAD" {
        return respond(&mut stream, "405 Method Not Allowed", "text/plain", b"method not allowed\n", true);
    }
    let body_wanted = method == "GET";
    match resolve(dist, target).and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
        Some((p, bytes)) => respond(&mut stream, "200 OK", content_type(&p), &bytes, body_wanted),
        None => respond(&mut stream, "404 Not Found", "text/plain", b"not found\n", body_wanted),
    }
}

fn respond(s: &mut TcpStream, status: &str, ctype: &str, body: &[u8], with_body: bool) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    if with_body {
        s.write_all(body)?;
    }
    s.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn resolve_stays_inside_dist() {
        let d = Path::new("/srv/dist");
        assert_eq!(resolve(d, "/app.wasm?x=1"), Some(PathBuf::from("/srv/dist/app.wasm")));
        assert_eq!(resolve(d, "/../secret"), None);
        assert_eq!(resolve(d, "/a/../../b"), None);
    }

    #[test]
    fn serves_wasm_with_its_mime_type_and_404s() {
        let dir = std::env::temp_dir().join(format!("xtask-serve-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<title>t</title>").unwrap();
        std::fs::write(dir.join("m.wasm"), [0u8, 0x61, 0x73, 0x6d]).unwrap();
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let d2 = dir.clone();
        std::thread::spawn(move || serve_forever(l, d2));
        let get = |path: &str| {
            let mut s = TcpStream::connect(addr).unwrap();
            write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let mut out = Vec::new();
            s.read_to_end(&mut out).unwrap();
            out
        };
        let r = get("/m.wasm");
        let text = String::from_utf8_lossy(&r);
        assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
        assert!(text.contains("Content-Type: application/wasm"));
        assert!(r.ends_with(&[0u8, 0x61, 0x73, 0x6d]));
        assert!(String::from_utf8_lossy(&get("/")).contains("<title>t</title>"));
        assert!(String::from_utf8_lossy(&get("/nope.js")).starts_with("HTTP/1.1 404"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
