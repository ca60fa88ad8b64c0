//! What `/proc` says about a process: its children, and its parent,
//! process group, session and whether it is a zombie.
//!
//! It decides nothing; a process that is gone reads as absent, and a line
//! it cannot parse reads as absent too (the caller then neither kills nor
//! reaps it).

use std::fs;

/// The fields of `/proc/PID/stat` that containment needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stat {
    /// The process id.
    pub pid: i32,
    /// Its parent.
    pub ppid: i32,
    /// Its process group.
    pub pgrp: i32,
    /// Its session.
    pub session: i32,
    /// Whether it has exited and waits to be reaped.
    pub zombie: bool,
}

/// Whether `pid` may be sent a kill by containment: never init, never
/// ourselves (`me`), never a group or everyone (a pid of 0 or below), even
/// when `/proc` or `cgroup.procs` says so.
pub(super) fn may_kill(pid: i32, me: i32) -> bool {
    pid > 1 && pid != me
}

/// Reads `/proc/PID/stat`; `None` once the process is gone.
pub(super) fn stat(pid: i32) -> Option<Stat> {
    parse_stat(&fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Parses a `stat` line; the command name is skipped by its last `)`, as it
/// may hold spaces and parentheses.
fn parse_stat(line: &str) -> Option<Stat> {
    let (head, rest) = line.rsplit_once(')')?;
    let pid = head.split_once(' ')?.0.trim().parse().ok()?;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?;
    let mut number = || fields.next()?.parse::<i32>().ok();
    let (ppid, pgrp, session) = (number()?, number()?, number()?);
    Some(Stat {
        pid,
        ppid,
        pgrp,
        session,
        zombie: state == "Z" || state == "X",
    })
}

/// The children of `pid`, from each of its threads' `children` file, or,
/// on kernels without those files, from a scan of every process.
pub(super) fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut listed = false;
    for task in tasks.flatten() {
        // A thread that just ended has no file any more; skip it.
        if let Ok(text) = fs::read_to_string(task.path().join("children")) {
            listed = true;
            found.extend(
                text.split_whitespace()
                    .filter_map(|word| word.parse::<i32>().ok()),
            );
        }
    }
    if listed { found } else { children_by_scan(pid) }
}

/// Every process whose parent is `pid`, by reading every `stat`.
fn children_by_scan(pid: i32) -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(stat)
        .filter(|stat| stat.ppid == pid)
        .map(|stat| stat.pid)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_stat_line_whose_name_holds_spaces_and_parentheses() {
        let line = "4242 (a) b (c) S 1 4242 4240 0 -1 4194560 100 0 0 0\n";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                pid: 4242,
                ppid: 1,
                pgrp: 4242,
                session: 4240,
                zombie: false
            })
        );
        let zombie = "7 (sleep) Z 3 5 6 0";
        assert_eq!(parse_stat(zombie).map(|s| s.zombie), Some(true));
        assert_eq!(parse_stat("7 (sleep) S 3 x 6"), None);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn containment_never_kills_init_itself_or_a_group() {
        let cases = [
            (-1, false),
            (0, false),
            (1, false),
            (7, false),
            (2, true),
            (8, true),
        ];
        for (pid, want) in cases {
            assert_eq!(may_kill(pid, 7), want, "{pid}");
        }
    }

    #[test]
    fn we_are_listed_under_our_parent_both_ways() {
        // Our parent, not a child of ours: a sweep of a concurrent test's
        // run under the subreaper would kill a child we spawned here.
        let me = i32::try_from(std::process::id()).expect("pid");
        let parent = nix::unistd::getppid().as_raw();
        let own = stat(me).map(|s| (s.ppid, s.zombie));
        assert_eq!(
            (
                children(parent).contains(&me),
                children_by_scan(parent).contains(&me),
                own
            ),
            (true, true, Some((parent, false)))
        );
        assert_eq!(children(i32::MAX), Vec::<i32>::new());
    }
}
