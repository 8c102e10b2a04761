//! Tests of the parent module.

use super::*;

const LIMITS: Timeouts = Timeouts {
    first_byte: Duration::from_secs(5),
    header_read: Duration::from_secs(10),
    keep_alive: Duration::from_secs(75),
};

#[test]
fn each_phase_has_its_own_deadline() {
    let connection = Arc::new(Connection::new());
    let start = connection.accepted;
    let at = |d: u64| start + Duration::from_secs(d);
    assert_eq!(
        connection.verdict(at(1), &LIMITS, None),
        Verdict::Wait(Some(at(5))),
        "a new connection waits for its first byte"
    );
    assert_eq!(
        connection.verdict(at(6), &LIMITS, None),
        Verdict::Close(Closing::Silent)
    );
    connection.received(b"GET / HTTP/1.1\r\n");
    let Verdict::Wait(Some(head_deadline)) = connection.verdict(at(1), &LIMITS, None) else {
        panic!("a started head has a deadline");
    };
    assert!(head_deadline >= start + LIMITS.header_read);
    assert_eq!(
        connection.verdict(head_deadline, &LIMITS, None),
        Verdict::Close(Closing::HeadTimeout)
    );
    let in_flight = connection.request_started();
    assert_eq!(
        connection.verdict(at(1000), &LIMITS, None),
        Verdict::Wait(None),
        "no limit while a request is answered"
    );
    assert_eq!(
        connection.idle_since(),
        None,
        "a busy connection is not evicted"
    );
    drop(in_flight);
    let quiet = connection.idle_since().expect("idle again");
    assert_eq!(
        connection.verdict(quiet, &LIMITS, None),
        Verdict::Wait(Some(quiet + LIMITS.keep_alive))
    );
    let drain = quiet + Duration::from_secs(30);
    assert_eq!(
        connection.verdict(drain, &LIMITS, Some(drain)),
        Verdict::Wait(Some(drain + DRAIN_QUIET)),
        "draining shortens the keep-alive, counted from the drain's start"
    );
    connection.evict();
    assert_eq!(
        connection.verdict(quiet, &LIMITS, None),
        Verdict::Close(Closing::Evicted)
    );
}

#[test]
fn recognises_http2_by_its_preface_even_in_pieces() {
    let connection = Connection::new();
    connection.received(&H2_PREFACE[..3]);
    assert!(!connection.is_http2());
    connection.received(&H2_PREFACE[3..]);
    assert!(connection.is_http2());
    let http1 = Connection::new();
    http1.received(b"PRI / HTTP/1.1\r\n");
    assert!(!http1.is_http2());
}
