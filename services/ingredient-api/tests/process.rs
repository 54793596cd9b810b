//! The real binary: start-up errors, JSON logs with request ids, plain text logs in a file,
//! graceful shutdown on SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use test_support::process::{free_port, raw_request, sigterm, wait_for_port};

const BIN: &str = env!("CARGO_BIN_EXE_ingredient-api");

fn start(port: u16, extra: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("WORKERS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("binary starts");
    wait_for_port(port, Duration::from_secs(10), "the server");
    child
}

#[test]
fn invalid_configuration_fails_with_one_clear_line() {
    let out = Command::new(BIN)
        .env_clear()
        .env("PORT", "eighty")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("invalid PORT 'eighty': expected an integer from 0 to 65535"),
        "{stderr}"
    );
}

#[test]
fn a_bad_llm_configuration_fails_with_one_clear_line() {
    for (vars, expected) in [
        (
            &[("LLM_BASE_URL", "http://127.0.0.1:11434/v1")][..],
            "missing LLM_MODEL: the model name, required when LLM_BASE_URL or LLM_API_KEY is set",
        ),
        (
            &[
                ("LLM_BASE_URL", "http://127.0.0.1:11434/v1"),
                ("LLM_MODEL", "llava"),
                ("LLM_OCR_BUDGET_SECS", "forever"),
            ][..],
            "invalid LLM_OCR_BUDGET_SECS 'forever': expected a positive number of seconds, e.g. 5 or 0.5",
        ),
    ] {
        let mut cmd = Command::new(BIN);
        cmd.env_clear().env("PORT", "0");
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim(), format!("Error: {expected}"));
    }
}

#[test]
fn json_logs_carry_the_request_id() {
    let port = free_port();
    let mut child = start(port, &[("LOG_FORMAT", "json"), ("RUST_LOG", "info")]);
    let response = raw_request(
        port,
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    let request_id = response
        .lines()
        .find_map(|l| l.strip_prefix("x-request-id: "))
        .expect("x-request-id header")
        .trim()
        .to_owned();
    sigterm(&child);
    let stderr = child.stderr.take().unwrap();
    let lines: Vec<String> = BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .collect();
    child.wait().unwrap();
    let parsed: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(
        parsed.iter().any(|v| v.to_string().contains(&request_id)),
        "no log line with request id {request_id}: {lines:#?}"
    );
}

/// `make run > log 2>&1`: text logs that go to a file (not a terminal) carry no colour codes.
#[test]
fn text_logs_written_to_a_file_carry_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("stdout"), dir.path().join("stderr"));
    let port = free_port();
    let mut child = Command::new(BIN)
        .env_clear()
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("WORKERS", "1")
        .env("RUST_LOG", "info")
        .env("TERM", "xterm-256color")
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("binary starts");
    wait_for_port(port, Duration::from_secs(10), "the server");
    let response = raw_request(
        port,
        "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(response.starts_with("HTTP/1.1 404"), "{response}");
    sigterm(&child);
    assert!(child.wait().unwrap().success());
    let log = std::fs::read_to_string(&err).unwrap() + &std::fs::read_to_string(&out).unwrap();
    assert!(
        log.contains("ingredient-api listening") && log.contains("request completed"),
        "the log lines are missing: {log}"
    );
    assert!(
        !log.contains("\x1b["),
        "colour codes in a log file: {log:?}"
    );
}

#[test]
fn sigterm_lets_an_in_flight_request_finish() {
    let port = free_port();
    let mut child = start(port, &[]);
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    // A first keep-alive request proves the server has accepted this connection: a connection
    // still waiting in the kernel's backlog would be reset when the listener closes.
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut health = vec![0; length];
    reader.read_exact(&mut health).unwrap();
    assert_eq!(health, br#"{"status":"healthy"}"#);

    let body = r#"{"ingredients": "", "product_name": "half now, half after SIGTERM"}"#;
    let (first, second) = body.split_at(20);
    write!(
        stream,
        "POST /analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{first}",
        body.len()
    )
    .unwrap();
    stream.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    sigterm(&child);
    std::thread::sleep(Duration::from_millis(300));
    stream.write_all(second.as_bytes()).unwrap();
    let mut response = String::new();
    reader.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 400"), "{response}");
    assert!(
        response.contains("ingredients must not be blank"),
        "{response}"
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "graceful exit expected, got {status}");
}

#[test]
fn analyze_subcommand_prints_a_table() {
    let out = Command::new(BIN)
        .args([
            "analyze",
            "Water, Glycerin, Parfum",
            "--allergy",
            "fragrance",
            "--skin",
            "sensitive",
        ])
        .env_clear()
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Overall risk: HIGH"), "{text}");
    assert!(text.contains("Vegan: yes"), "{text}");
    assert!(text.contains("Processing: not a food"), "{text}");
    assert!(text.contains("Recognised: 3 of 3 ingredients"), "{text}");
    let parfum = text
        .lines()
        .find(|l| l.trim_start().starts_with("3  Parfum"))
        .unwrap_or_else(|| panic!("no Parfum row in\n{text}"));
    assert!(
        parfum.contains("AVOID") && parfum.contains("MATCH"),
        "{parfum}"
    );
    assert!(
        text.contains("ALLERGEN WARNING: Parfum - contains fragrance"),
        "{text}"
    );
}

#[test]
fn analyze_subcommand_json_matches_the_api_shape() {
    let out = Command::new(BIN)
        .args([
            "analyze",
            "Water, Glycerin",
            "--expertise",
            "expert",
            "--json",
        ])
        .env_clear()
        .output()
        .unwrap();
    assert!(out.status.success());
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["success"], true);
    assert_eq!(body["overall_risk"], "low");
    assert_eq!(body["ingredients"][1]["name"], "Glycerin");
    assert!(
        body["summary"]
            .as_str()
            .unwrap()
            .starts_with("Overall risk LOW")
    );
}

#[test]
fn analyze_subcommand_rejects_bad_input_with_exit_code_2() {
    let out = Command::new(BIN)
        .args(["analyze", "Water", "--skin", "greasy"])
        .env_clear()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: invalid skin_type 'greasy': expected one of normal, dry, oily, combination, sensitive"
    );
}

/// The server runs with glibc's allocator settings for ONNX Runtime's activations (it starts
/// itself again with them, under the same process id), keeps an operator's own threshold, and
/// runs without them when told to (`OCR_MALLOC=default`).
#[test]
fn the_server_runs_with_the_malloc_settings_for_ocr() {
    let environ = |child: &Child| {
        let raw = std::fs::read(format!("/proc/{}/environ", child.id())).unwrap();
        // glibc splits the tunables in place where it parses them: read the bytes whole.
        String::from_utf8_lossy(&raw).replace('\0', "\n")
    };
    for (vars, expected) in [
        (vec![], Some("glibc.malloc.mmap_threshold=131072")),
        (
            vec![("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=65536")],
            Some("glibc.malloc.mmap_threshold=65536"),
        ),
        (vec![("OCR_MALLOC", "default")], None),
    ] {
        let port = free_port();
        let mut child = start(port, &vars);
        let env = environ(&child);
        sigterm(&child);
        child.wait().unwrap();
        match expected {
            Some(expected) => {
                assert!(env.contains(expected), "{env}");
                assert_eq!(env.matches("mmap_threshold").count(), 1, "{env}");
            }
            None => assert!(!env.contains("mmap_threshold"), "{env}"),
        }
    }
}
