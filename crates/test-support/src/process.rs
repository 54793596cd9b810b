//! Processes and ports: what tests that start a real binary or server need.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A loopback port free at the time of the call (bind to 0, read the port, release it).
/// Another process may take it before the caller binds it: callers that can retry do.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// Waits until something accepts connections on the loopback `port`; panics after `limit`
/// naming `what`.
pub fn wait_for_port(port: u16, limit: Duration, what: &str) {
    let deadline = Instant::now() + limit;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{what} did not start listening");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `request` as is to the loopback `port` and reads the answer to the end.
pub fn raw_request(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("server listens");
    stream.write_all(request.as_bytes()).expect("request sent");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response read");
    response
}

/// Sends SIGTERM to `child` (by PID, with the `kill` command).
pub fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -TERM {} failed", child.id());
}

/// Whether `pid` is a live process (not gone, not a zombie).
pub fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_port_can_be_bound_and_is_then_seen_listening() {
        let port = free_port();
        let listener = TcpListener::bind(("127.0.0.1", port)).unwrap();
        wait_for_port(port, Duration::from_secs(1), "the listener");
        drop(listener);
    }

    #[test]
    fn this_process_is_alive_and_a_bogus_pid_is_not() {
        assert!(alive(&std::process::id().to_string()));
        assert!(!alive("0"));
    }
}
