//! The terminal approver: a person at the terminal answers approvals.
//!
//! While any approval is pending it shows the oldest one in full on the
//! alternate screen, with a countdown redrawn every second and one line per
//! other approval waiting; `o` allows once, `a` allows always (only when
//! offered, else a note explains), `d` denies, Ctrl-C denies and then stops
//! the process as Ctrl-C would. Answers carry the approver name
//! [`APPROVER`]; the first answer from any approver wins (DESIGN.md
//! section 7). It refuses keys for [`ARM_DELAY`] after a different approval
//! comes to the front, so a key meant for one approval cannot answer the
//! next; once the delay is over it draws the prompt in full, discards
//! whatever input is waiting, and counts only keys read after that (see
//! [`counts`]). It refuses pastes and escape sequences (see `keys`). It draws on
//! stderr or `/dev/tty`, never stdout, and restores the terminal on every
//! exit path. Upholds principle 3: every field is shown escaped, and the
//! id, countdown, command and keys stay on the screen whatever its size
//! (the details fold and scroll instead, see `render`); a resized terminal
//! (`SIGWINCH`) is redrawn at once.

mod fit;
mod keys;
mod log_gate;
mod render;
mod tty;

#[cfg(test)]
mod tests;

use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use approvals_ipc::ipc::Decision;
use nix::sys::signal::{Signal, raise};
use tokio::signal::unix::{Signal as SignalStream, SignalKind, signal};
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::broker::{Broker, PendingApproval, ResolveError};

pub use log_gate::{LogLine, PromptAwareStderr};
pub use tty::{Tty, TtyError};

use keys::{Key, key_of};
use render::{View, answered_line, offers_always, render};

/// The approver name the terminal's answers carry in the broker and audit log.
pub const APPROVER: &str = "terminal";

/// How long keys are ignored after a different approval comes to the front.
pub const ARM_DELAY: Duration = Duration::from_millis(600);

/// How often the countdown is redrawn.
const TICK: Duration = Duration::from_secs(1);

/// Prompts on `tty` for every approval in `broker` until `shutdown`
/// completes; the terminal is restored before this returns.
///
/// # Cancel safety
///
/// Dropping the future drops the prompt session, which restores the terminal.
pub async fn run(broker: Broker, mut tty: Tty, shutdown: impl Future<Output = ()>) {
    // A person is here: a failing hook leaves approvals to them.
    let _attached = broker.attach(APPROVER);
    let mut events = broker.subscribe();
    tokio::pin!(shutdown);
    // The approval in front, and when keys start to answer it.
    let mut front: Option<Front> = None;
    let mut note: Option<&'static str> = None;
    let mut interrupted = false;
    // A resized terminal is redrawn at its new size.
    let mut resized = match signal(SignalKind::window_change()) {
        Ok(stream) => Some(stream),
        Err(error) => {
            tracing::warn!(%error, "cannot watch for terminal resizes; the prompt keeps its first size");
            None
        }
    };
    let mut expanded = false;
    let mut scroll = 0usize;
    loop {
        let pending = broker.list();
        let Some(first) = pending.first().cloned() else {
            front = None;
            // Wait outside prompt mode (the terminal is the user's again).
            tokio::select! {
                () = &mut shutdown => return,
                event = events.recv() => if matches!(event, Err(RecvError::Closed)) { return },
            }
            continue;
        };
        let mut session = match tty.session() {
            Ok(session) => session,
            Err(error) => {
                tracing::warn!(%error, "terminal approver stopped: cannot prompt");
                return;
            }
        };
        // One prompt session lasts while approvals keep waiting.
        let mut pending = pending;
        let mut first = first;
        let mut answered: Vec<String> = Vec::new();
        loop {
            if front.as_ref().is_none_or(|front| front.id != first.id) {
                front = Some(Front {
                    id: first.id.clone(),
                    arm_at: Instant::now() + ARM_DELAY,
                    answerable_since: None,
                });
                note = None;
                expanded = false;
                scroll = 0;
            }
            let armed_at = front
                .as_ref()
                .map_or_else(Instant::now, |front| front.arm_at);
            let armed = Instant::now() >= armed_at;
            let view = View {
                now_ms: unix_ms(),
                armed,
                note,
                size: session.size(),
                expanded,
                scroll,
            };
            let frame = render(&pending, view);
            scroll = scroll.min(frame.max_scroll);
            session.draw(&frame.rows);
            if let Some(front) = front
                .as_mut()
                .filter(|f| armed && f.answerable_since.is_none())
            {
                // The full prompt, keys included, is on the screen: from now
                // on a key can answer, but nothing typed (or injected) before.
                session.discard_typed_ahead();
                front.answerable_since = Some(Instant::now());
            }
            let answerable_since = front.as_ref().and_then(|front| front.answerable_since);
            tokio::select! {
                () = &mut shutdown => {
                    drop(session);
                    return;
                }
                event = events.recv() => if matches!(event, Err(RecvError::Closed)) {
                    drop(session);
                    return;
                },
                () = tokio::time::sleep(TICK) => {}
                () = tokio::time::sleep_until(armed_at), if !armed => {}
                () = resize(&mut resized) => {}
                chunk = session.next_keys() => match key_of(&chunk.bytes) {
                    Err(why) => note = Some(why),
                    Ok(Key::Expand) => {
                        expanded = !expanded;
                        scroll = 0;
                    }
                    Ok(Key::ScrollDown) => scroll = scroll.saturating_add(1).min(frame.max_scroll),
                    Ok(Key::ScrollUp) => scroll = scroll.saturating_sub(1),
                    Ok(Key::Interrupt) => {
                        answer(&broker, &first, Decision::Deny, &mut answered);
                        interrupted = true;
                    }
                    Ok(Key::Answer(_)) if !counts(chunk.read_at, answerable_since) => {
                        note = Some("ignored: keys answer once the prompt shows the keys");
                    }
                    Ok(Key::Answer(Decision::AllowAlways)) if !offers_always(&first) => {
                        note = Some("allow always is not offered for this command (ask=always, or it cannot be persisted safely): press o or d");
                    }
                    Ok(Key::Answer(decision)) => {
                        if let Some(why) = answer(&broker, &first, decision, &mut answered) {
                            note = Some(why);
                        }
                    }
                },
            }
            if interrupted {
                break;
            }
            pending = broker.list();
            match pending.first() {
                Some(next) => first = next.clone(),
                None => break,
            }
        }
        drop(session);
        for line in &answered {
            tty.say(line);
        }
        if interrupted {
            tracing::info!("ctrl-c at the approval prompt: denied; stopping");
            // The terminal is restored: let Ctrl-C do what it always does.
            if let Err(error) = raise(Signal::SIGINT) {
                tracing::error!(%error, "cannot raise SIGINT");
            }
            interrupted = false;
        }
    }
}

/// Waits for the next resize; pends forever without a resize stream.
async fn resize(resized: &mut Option<SignalStream>) {
    match resized {
        Some(stream) => {
            if stream.recv().await.is_none() {
                *resized = None;
            }
        }
        None => std::future::pending().await,
    }
}

/// The approval at the front of the prompt, and since when it can be answered.
struct Front {
    id: String,
    /// When the arming delay ends.
    arm_at: Instant,
    /// When the armed prompt was drawn and waiting input discarded.
    answerable_since: Option<Instant>,
}

/// Whether keys read at `read_at` may answer: only keys read after the
/// armed prompt was drawn and the input before it discarded.
fn counts(read_at: Instant, answerable_since: Option<Instant>) -> bool {
    answerable_since.is_some_and(|since| read_at >= since)
}

/// Answers `approval`; the normal-screen line goes to `answered`, and a note
/// comes back when the broker refused the answer.
fn answer(
    broker: &Broker,
    approval: &PendingApproval,
    decision: Decision,
    answered: &mut Vec<String>,
) -> Option<&'static str> {
    match broker.resolve(&approval.id, decision, APPROVER) {
        Ok(_) => {
            answered.push(answered_line(approval, decision));
            None
        }
        Err(ResolveError::NotFound) => {
            Some("that approval already ended (answered elsewhere or expired)")
        }
        Err(error) => {
            tracing::warn!(id = approval.id, %error, "terminal answer refused");
            Some("the broker refused that answer")
        }
    }
}

/// Now, in Unix milliseconds (0 if the clock is before 1970).
fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
