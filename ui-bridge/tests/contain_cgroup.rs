//! Runs contained by the cgroup per run (issue 9, hole 5): escapees that
//! left their session die with their run on completion, timeout and drop,
//! and an escapee of a live run waits for its own run.

mod contain_common;

use contain_common::*;
use ui_bridge::exec::contain::Requested;

fn cgroup() -> bool {
    contained(Requested::Cgroup, "cgroup")
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_escapees_die_when_the_run_completes() {
    let _turn = serial().await;
    if cgroup() {
        escapees_die_when_the_run_completes().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_quiet_escapees_die_when_the_run_completes() {
    let _turn = serial().await;
    if cgroup() {
        quiet_escapees_die_when_the_run_completes().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_escapees_die_when_the_run_times_out() {
    let _turn = serial().await;
    if cgroup() {
        escapees_die_when_the_run_times_out().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_escapees_die_when_the_run_is_dropped() {
    let _turn = serial().await;
    if cgroup() {
        escapees_die_when_the_run_is_dropped().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_an_escapee_of_a_live_run_waits_for_its_own_run() {
    let _turn = serial().await;
    if cgroup() {
        an_escapee_of_a_live_run_waits_for_its_own_run().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_a_stage_starts_in_its_run_cgroup_and_a_new_session() {
    let _turn = serial().await;
    if cgroup() {
        a_stage_starts_in_a_new_session_with_default_signals(true).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cgroup_by_fork_a_stage_starts_in_its_run_cgroup_and_a_new_session() {
    let _turn = serial().await;
    if cgroup() {
        let _fork = ByFork::new();
        a_stage_starts_in_a_new_session_with_default_signals(true).await;
        escapees_die_when_the_run_completes().await;
    }
}
