use super::*;
use crate::ipc::control::ControlRequest;

const TOKEN: &str = "test-token";
const NOW: i64 = 1_700_000_000_000;
const NONCE: &str = "00112233445566778899aabbccddeeff";
const JSON: &str = r#"{"command":["/bin/echo","hi"],"cwd":null,"timeoutMs":null}"#;

fn frame(nonce: &str, ts: i64, json: &str) -> ExecFrame {
    ExecFrame {
        id: "id-1".into(),
        nonce: nonce.into(),
        ts,
        hmac: auth::sign(TOKEN, nonce, ts, json),
        request_json: json.into(),
    }
}

/// An instance that started long before `NOW`, accepting client-made nonces.
fn long_running() -> &'static Instance {
    static INSTANCE: std::sync::OnceLock<Instance> = std::sync::OnceLock::new();
    INSTANCE.get_or_init(|| Instance::started_at(0, ClientNonces::Accept).unwrap())
}

fn check(
    frame: &ExecFrame,
    now_ms: i64,
    replay: &Mutex<ReplayCache>,
    challenge: &mut ChallengeState,
) -> Result<ExecRequest, Refusal> {
    check_on(long_running(), frame, now_ms, replay, challenge)
}

fn check_on(
    instance: &Instance,
    frame: &ExecFrame,
    now_ms: i64,
    replay: &Mutex<ReplayCache>,
    challenge: &mut ChallengeState,
) -> Result<ExecRequest, Refusal> {
    let token = Token::new(TOKEN);
    let ctx = AdmitContext {
        token: &token,
        ttl_ms: 10_000,
        now_ms,
        replay,
        instance,
    };
    admit(frame, &ctx, challenge).map(Admitted::into_request)
}

fn fresh() -> (Mutex<ReplayCache>, ChallengeState) {
    (
        Mutex::new(ReplayCache::new(16, 20_001)),
        ChallengeState::default(),
    )
}

#[test]
fn admits_the_openclaw_vector_frame() {
    let (replay, mut challenge) = fresh();
    let f = frame(NONCE, NOW, JSON);
    assert_eq!(
        f.hmac,
        "37a2d4ed3207260d3a320434f22802c52fdbf28988962b0a2655b05bf6251a9c"
    );
    let request = check(&f, NOW, &replay, &mut challenge).unwrap();
    assert_eq!(request.command, ["/bin/echo", "hi"]);
}

#[test]
fn refuses_timestamps_outside_the_ttl_in_both_directions() {
    let cases: &[(i64, i64, Result<(), Refusal>)] = &[
        (NOW - 10_000, NOW, Ok(())),
        (NOW + 10_000, NOW, Ok(())),
        (NOW - 10_001, NOW, Err(Refusal::Ttl)),
        (NOW + 10_001, NOW, Err(Refusal::Ttl)),
        (i64::MIN, NOW, Err(Refusal::Ttl)),
        (i64::MAX, NOW, Err(Refusal::Ttl)),
        (i64::MAX, i64::MIN, Err(Refusal::Ttl)),
        (0, NOW, Err(Refusal::Ttl)),
    ];
    for (i, (ts, now, want)) in cases.iter().enumerate() {
        let (replay, mut challenge) = fresh();
        let nonce = format!("{NONCE}{i:02}");
        let got = check(&frame(&nonce, *ts, JSON), *now, &replay, &mut challenge).map(|_| ());
        assert_eq!(&got, want, "ts={ts} now={now}");
    }
}

#[test]
fn ttl_is_checked_before_the_hmac() {
    let (replay, mut challenge) = fresh();
    let mut f = frame(NONCE, NOW - 60_000, JSON);
    f.hmac = "00".repeat(32);
    assert_eq!(
        check(&f, NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Ttl
    );
}

#[test]
fn refuses_a_wrong_hmac_and_does_not_spend_the_nonce() {
    let (replay, mut challenge) = fresh();
    let mut f = frame(NONCE, NOW, JSON);
    f.hmac = auth::sign("other-token", NONCE, NOW, JSON);
    assert_eq!(
        check(&f, NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Hmac
    );
    // An attacker's forged frame must not burn the legitimate client's nonce.
    assert!(check(&frame(NONCE, NOW, JSON), NOW, &replay, &mut challenge).is_ok());
}

#[test]
fn refuses_a_body_swapped_under_a_valid_signature() {
    let (replay, mut challenge) = fresh();
    let mut f = frame(NONCE, NOW, JSON);
    f.request_json = r#"{"command":["/bin/rm","-rf","/"]}"#.into();
    assert_eq!(
        check(&f, NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Hmac
    );
}

#[test]
fn refuses_a_replayed_client_nonce_on_any_connection() {
    let (replay, mut first) = fresh();
    let f = frame(NONCE, NOW, JSON);
    assert!(check(&f, NOW, &replay, &mut first).is_ok());
    let mut second = ChallengeState::default();
    assert_eq!(
        check(&f, NOW, &replay, &mut second).unwrap_err(),
        Refusal::Replay
    );
}

#[test]
fn consumes_the_challenge_nonce_once() {
    let (replay, mut challenge) = fresh();
    let nonce = auth::new_nonce().unwrap();
    challenge.issue(nonce.clone());
    let f = frame(&nonce, NOW, JSON);
    assert!(check(&f, NOW, &replay, &mut challenge).is_ok());
    challenge.issue(auth::new_nonce().unwrap());
    assert_eq!(
        check(&f, NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Nonce
    );
}

#[test]
fn a_spent_challenge_nonce_is_a_replay_on_another_connection() {
    let (replay, mut challenge) = fresh();
    let nonce = auth::new_nonce().unwrap();
    challenge.issue(nonce.clone());
    let f = frame(&nonce, NOW, JSON);
    assert!(check(&f, NOW, &replay, &mut challenge).is_ok());
    let mut other = ChallengeState::default();
    assert_eq!(
        check(&f, NOW, &replay, &mut other).unwrap_err(),
        Refusal::Replay
    );
}

#[test]
fn a_challenge_issued_to_another_connection_is_refused_even_unspent() {
    let (replay, mut mine) = fresh();
    let instance = long_running();
    let theirs_nonce = instance.issue_nonce().unwrap();
    let mut theirs = ChallengeState::default();
    theirs.issue(theirs_nonce.clone());
    mine.issue(instance.issue_nonce().unwrap());
    let f = frame(&theirs_nonce, NOW, JSON);
    assert_eq!(
        check(&f, NOW, &replay, &mut mine).unwrap_err(),
        Refusal::Nonce
    );
    // Its own connection can still use it.
    assert!(check(&f, NOW, &replay, &mut theirs).is_ok());
}

#[test]
fn a_line_signed_before_this_instance_started_is_refused_within_the_ttl() {
    // Hole 8: a line captured before a restart, replayed after it. The new
    // instance has an empty replay cache; only the start time stops it.
    let restarted = Instance::started_at(NOW - 2_000, ClientNonces::Accept).unwrap();
    let cases: &[(i64, Result<(), Refusal>)] = &[
        (NOW - 2_001, Err(Refusal::BeforeStart)),
        (NOW - 9_000, Err(Refusal::BeforeStart)),
        (NOW - 2_000, Ok(())),
        (NOW, Ok(())),
    ];
    for (i, (ts, want)) in cases.iter().enumerate() {
        let (replay, mut challenge) = fresh();
        let nonce = format!("{NONCE}{i:02}");
        let got = check_on(
            &restarted,
            &frame(&nonce, *ts, JSON),
            NOW,
            &replay,
            &mut challenge,
        );
        assert_eq!(&got.map(|_| ()), want, "ts={ts}");
    }
}

#[test]
fn require_challenge_refuses_client_made_nonces_and_earlier_instances_challenges() {
    let earlier = Instance::started_at(0, ClientNonces::Refuse).unwrap();
    let strict = Instance::started_at(0, ClientNonces::Refuse).unwrap();
    let (replay, mut challenge) = fresh();
    let issued = strict.issue_nonce().unwrap();
    challenge.issue(issued.clone());
    for nonce in [NONCE.to_owned(), earlier.issue_nonce().unwrap()] {
        let got = check_on(
            &strict,
            &frame(&nonce, NOW, JSON),
            NOW,
            &replay,
            &mut challenge,
        );
        assert_eq!(got.unwrap_err(), Refusal::ClientNonce, "{nonce}");
    }
    // Its own challenge on this connection is admitted, once.
    let f = frame(&issued, NOW, JSON);
    assert!(check_on(&strict, &f, NOW, &replay, &mut challenge).is_ok());
    assert_eq!(
        check_on(&strict, &f, NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Nonce
    );
    // The default instance accepts the same client-made nonce.
    let (replay, mut challenge) = fresh();
    assert!(check(&frame(NONCE, NOW, JSON), NOW, &replay, &mut challenge).is_ok());
}

#[test]
fn refuses_malformed_nonces() {
    for nonce in ["", "short", "zz112233445566778899aabbccddeeff"] {
        let (replay, mut challenge) = fresh();
        let got = check(&frame(nonce, NOW, JSON), NOW, &replay, &mut challenge);
        assert_eq!(got.unwrap_err(), Refusal::Nonce, "{nonce:?}");
    }
}

#[test]
fn refuses_when_the_replay_cache_is_full() {
    let replay = Mutex::new(ReplayCache::new(1, 20_000));
    let mut challenge = ChallengeState::default();
    assert!(check(&frame(NONCE, NOW, JSON), NOW, &replay, &mut challenge).is_ok());
    let other = "ffeeddccbbaa99887766554433221100";
    assert_eq!(
        check(&frame(other, NOW, JSON), NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::ReplayCacheFull
    );
}

#[test]
fn refuses_unparseable_request_json_after_authentication() {
    let bad = [
        "not json",
        r#"{"cwd":"/"}"#,
        r#"{"command":"ls"}"#,
        r#"{"command":["ls"],"approvalDecision":"maybe"}"#,
        r#"{"command":["ls"],"env":{"A":1}}"#,
    ];
    for (i, json) in bad.iter().enumerate() {
        let (replay, mut challenge) = fresh();
        let nonce = format!("{NONCE}{i:02}");
        let got = check(&frame(&nonce, NOW, json), NOW, &replay, &mut challenge);
        assert_eq!(got.unwrap_err(), Refusal::Json, "{json}");
    }
}

#[test]
fn a_replayed_line_is_never_admitted_again_at_any_later_time() {
    // The cache window (2 x TTL + 1) must cover every instant the TTL check passes.
    for ts in [NOW - 10_000, NOW, NOW + 10_000] {
        let (replay, mut challenge) = fresh();
        let f = frame(NONCE, ts, JSON);
        assert!(check(&f, NOW, &replay, &mut challenge).is_ok());
        for later in (NOW..=NOW + 30_000)
            .step_by(250)
            .chain([NOW + 20_000, NOW + 20_001])
        {
            let mut other = ChallengeState::default();
            let got = check(&f, later, &replay, &mut other);
            assert!(got.is_err(), "ts={ts} replayed at now={later}");
        }
    }
}

fn check_control(
    frame: &ExecFrame,
    replay: &Mutex<ReplayCache>,
    challenge: &mut ChallengeState,
) -> Result<ControlRequest, Refusal> {
    let token = Token::new(TOKEN);
    let ctx = AdmitContext {
        token: &token,
        ttl_ms: 10_000,
        now_ms: NOW,
        replay,
        instance: long_running(),
    };
    admit(frame, &ctx, challenge).map(Admitted::into_request)
}

#[test]
fn admits_a_control_request_through_the_same_checks() {
    let (replay, mut challenge) = fresh();
    let list = r#"{"op":"list"}"#;
    let got = check_control(&frame(NONCE, NOW, list), &replay, &mut challenge);
    assert_eq!(got.unwrap(), ControlRequest::List {});
    // The same line again: refused as a replay, like an exec frame.
    let mut other = ChallengeState::default();
    let again = check_control(&frame(NONCE, NOW, list), &replay, &mut other);
    assert_eq!(again.unwrap_err(), Refusal::Replay);
    // Wrong token, stale timestamp: refused with the exec reasons.
    let mut forged = frame("ffeeddccbbaa99887766554433221100", NOW, list);
    forged.hmac = auth::sign("other-token", &forged.nonce, NOW, list);
    let got = check_control(&forged, &replay, &mut other);
    assert_eq!(got.unwrap_err(), Refusal::Hmac);
    let stale = frame("ffeeddccbbaa99887766554433221100", NOW - 10_001, list);
    assert_eq!(
        check_control(&stale, &replay, &mut other).unwrap_err(),
        Refusal::Ttl
    );
}

#[test]
fn a_signed_exec_body_is_not_admitted_as_a_control_request_nor_the_reverse() {
    let (replay, mut challenge) = fresh();
    let got = check_control(&frame(NONCE, NOW, JSON), &replay, &mut challenge);
    assert_eq!(got.unwrap_err(), Refusal::Json);
    let (replay, mut challenge) = fresh();
    let list = r#"{"op":"list"}"#;
    let got = check(&frame(NONCE, NOW, list), NOW, &replay, &mut challenge);
    assert_eq!(got.unwrap_err(), Refusal::Json);
}

#[test]
fn a_connection_remembers_several_spent_challenges() {
    let (replay, mut challenge) = fresh();
    let nonces: Vec<String> = (0..3).map(|_| auth::new_nonce().unwrap()).collect();
    for nonce in &nonces {
        challenge.issue(nonce.clone());
        assert!(check(&frame(nonce, NOW, JSON), NOW, &replay, &mut challenge).is_ok());
    }
    // The oldest of the three is still named a reused nonce on this
    // connection, not merely a replay.
    assert_eq!(
        check(&frame(&nonces[0], NOW, JSON), NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Nonce
    );
}

/// The system clock in ms, read independently of `auth::wall_clock_ms`.
fn system_clock_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

#[test]
fn the_ttl_is_measured_against_the_real_clock() {
    // The server passes `auth::wall_clock_ms()` as `now_ms`: a line signed
    // just now must pass, and one signed (or post-dated) past the TTL by the
    // system clock must not, whatever that clock reads today.
    let real_now = system_clock_ms();
    let cases: &[(i64, Result<(), Refusal>)] = &[
        (real_now, Ok(())),
        (real_now - 11_000, Err(Refusal::Ttl)),
        (real_now + 11_000, Err(Refusal::Ttl)),
    ];
    for (i, (ts, want)) in cases.iter().enumerate() {
        let (replay, mut challenge) = fresh();
        let nonce = format!("{NONCE}{i:02}");
        let got = check(
            &frame(&nonce, *ts, JSON),
            auth::wall_clock_ms(),
            &replay,
            &mut challenge,
        );
        assert_eq!(&got.map(|_| ()), want, "ts={ts} real_now={real_now}");
    }
}

#[test]
fn a_client_nonce_in_place_of_the_challenge_does_not_spend_the_challenge() {
    // OpenClaw's client ignores the challenge and signs its own nonce. That
    // is admitted (default) but must not consume the outstanding challenge,
    // and must never be taken for it.
    let instance = long_running();
    let (replay, mut challenge) = fresh();
    let issued = instance.issue_nonce().unwrap();
    challenge.issue(issued.clone());
    assert!(check(&frame(NONCE, NOW, JSON), NOW, &replay, &mut challenge).is_ok());
    // The client-made nonce is not a spent challenge: replayed on this
    // connection it is caught by the replay cache, not the challenge state.
    assert_eq!(
        check(&frame(NONCE, NOW, JSON), NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Replay
    );
    // The challenge is still outstanding, and usable exactly once.
    let f = frame(&issued, NOW, JSON);
    assert!(check(&f, NOW, &replay, &mut challenge).is_ok());
    assert_eq!(
        check(&f, NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Nonce
    );
}

#[test]
fn require_challenge_refuses_a_client_nonce_without_spending_the_challenge() {
    let strict = Instance::started_at(0, ClientNonces::Refuse).unwrap();
    let (replay, mut challenge) = fresh();
    let issued = strict.issue_nonce().unwrap();
    challenge.issue(issued.clone());
    let got = check_on(
        &strict,
        &frame(NONCE, NOW, JSON),
        NOW,
        &replay,
        &mut challenge,
    );
    assert_eq!(got.unwrap_err(), Refusal::ClientNonce);
    // The refused nonce was not recorded either: nothing of it is remembered.
    assert!(replay.lock().unwrap().is_empty());
    let f = frame(&issued, NOW, JSON);
    assert!(check_on(&strict, &f, NOW, &replay, &mut challenge).is_ok());
}

#[test]
fn a_fresh_challenge_replaces_an_unused_one() {
    // A connection has one outstanding challenge: after a new one is sent,
    // the old one is no longer this connection's challenge but still one
    // this instance issued, so it is refused as a nonce, not admitted.
    let instance = long_running();
    let (replay, mut challenge) = fresh();
    let first = instance.issue_nonce().unwrap();
    let second = instance.issue_nonce().unwrap();
    challenge.issue(first.clone());
    challenge.issue(second.clone());
    assert_eq!(
        check(&frame(&first, NOW, JSON), NOW, &replay, &mut challenge).unwrap_err(),
        Refusal::Nonce
    );
    assert!(check(&frame(&second, NOW, JSON), NOW, &replay, &mut challenge).is_ok());
}
