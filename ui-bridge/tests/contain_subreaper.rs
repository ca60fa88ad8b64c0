//! Runs contained by the child subreaper (issue 9, hole 5): escapees that
//! left their session die with their run on completion, timeout and drop,
//! and an escapee of a live run waits for its own run.

mod contain_common;

use contain_common::*;
use ui_bridge::exec::contain::Requested;

fn subreaper() -> bool {
    contained(Requested::Subreaper, "subreaper")
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_escapees_die_when_the_run_completes() {
    let _turn = serial().await;
    if subreaper() {
        escapees_die_when_the_run_completes().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_quiet_escapees_die_when_the_run_completes() {
    let _turn = serial().await;
    if subreaper() {
        quiet_escapees_die_when_the_run_completes().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_escapees_die_when_the_run_times_out() {
    let _turn = serial().await;
    if subreaper() {
        escapees_die_when_the_run_times_out().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_escapees_die_when_the_run_is_dropped() {
    let _turn = serial().await;
    if subreaper() {
        escapees_die_when_the_run_is_dropped().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_an_escapee_of_a_live_run_waits_for_its_own_run() {
    let _turn = serial().await;
    if subreaper() {
        an_escapee_of_a_live_run_waits_for_its_own_run().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_a_stage_starts_in_a_new_session_with_default_signals() {
    let _turn = serial().await;
    if subreaper() {
        a_stage_starts_in_a_new_session_with_default_signals(false).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn subreaper_by_fork_a_stage_starts_in_a_new_session_with_default_signals() {
    let _turn = serial().await;
    if subreaper() {
        let _fork = ByFork::new();
        a_stage_starts_in_a_new_session_with_default_signals(false).await;
        escapees_die_when_the_run_completes().await;
    }
}
