//! The docker CLI. Options from Docker 28.2.2's `docker --help` and each
//! listed command's `--help` (cobra and pflag: long names exact, `--opt=v`
//! or `--opt v`, short bundles with attached values, `-e=v` as `-e v`,
//! options anywhere, except that `run`, `create`, `exec`, `commit`, `tag`
//! and `top` stop at their first operand, the image or container, as
//! cobra's `SetInterspersed(false)` makes them: `docker exec app ls -la`
//! hands `-la` to `ls` (helper H28's sweep: it was asked as an unknown
//! docker option). The conformance test checks which commands stop, by
//! giving each an unknown option after an operand). Only one level of
//! commands, except the listing and inspecting subcommands of `docker
//! container`, `image`, `network`, `system` and `volume` (read-only
//! questions to the daemon), and the `docker container` and `docker image`
//! spellings of a top-level command (`docker container rm` is `docker rm`,
//! `docker image rm` is `docker rmi`: helper H30's sweep); the other
//! management commands (`docker container run`, `docker system prune`,
//! `docker network create`, …), plugins (`docker compose`, `docker
//! buildx`) and `login` are asked as unknown subcommands.
//!
//! The daemon is root on the host: running containers is docker's job, but
//! anything that hands the container the host (privileged mode, host
//! namespaces, devices, capabilities, security options), a bind mount of a
//! host path outside the working tree, any `--mount`, another client config
//! directory (credential helpers run), archives written outside the tree
//! and pushing images are asked. A `-v` source is read as a host path only
//! when it starts with `/`, `.` or `~` (else it names a volume); `--network
//! host` is a host namespace; another daemon (`-H`) receives what the
//! command sends; a build context or Dockerfile outside the tree is asked;
//! `docker cp` is judged by its destination, a `container:path` operand
//! being the container's.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::location;
use crate::policy::specs::types::{
    Copying,
    Effect::{
        AskedWhen, CopiesEnv, LoadsCode, LoadsFromOutside, Mounts, Network, OtherTree, ReadsFile,
        RunsProgram, SetsConfig, Uploads, WritesFile,
    },
    Grammar, Opt, Spec, Sub, flag, group, ids, sub, value,
};

const HOST: &str = "hands the container the host (privileged mode, host namespaces, devices, capabilities or security options)";
const MOUNT: &str = "mounts a host path into the container";
const MOUNTS: &str = "mounts a host path, volume or device into the container";
// Found by the H29 sweep: `-e GITHUB_TOKEN` (no `=value`) copies the
// host's token into a container whose command the agent chose.
const ENV: &str =
    "sets a variable in the container, which a bare NAME copies from the host's environment";
const ENV_FILE: &str =
    "sets the container's variables from a file, whose values the container's command can print";
const ARCHIVE: &str = "writes an image or container archive";

const GLOBAL: &[Opt] = &[
    value(&["--config"]).does(LoadsCode(
        "reads docker's client config from a directory, whose credential helpers and plugins run",
    )),
    value(&["-c", "--context"]).does(Network),
    flag(&["-D", "--debug"]),
    value(&["-H", "--host"]).does(Uploads(
        "talks to another docker daemon, which receives the build contexts, files and environment this command sends (DOCKER_HOST is refused as an override for the same reason)",
    )),
    value(&["-l", "--log-level"]),
    flag(&["--tls"]),
    value(&["--tlscacert"]).does(ReadsFile),
    value(&["--tlscert"]).does(ReadsFile),
    value(&["--tlskey"]).does(ReadsFile),
    flag(&["--tlsverify"]),
    flag(&["-v", "--version"]),
    flag(&["--help"]),
];

const ATTACH_OPTS: &[Opt] = &[
    value(&["--detach-keys"]),
    flag(&["--no-stdin"]),
    flag(&["--sig-proxy"]),
    flag(&["--help"]),
];

const BUILD_OPTS: &[Opt] = &[
    value(&["--add-host"]),
    value(&["--build-arg"]).does(CopiesEnv(
        "passes a build argument, which a bare NAME takes from the host's environment",
    )),
    value(&["--cache-from"]),
    value(&["--cgroup-parent"]).does(RunsProgram(HOST)),
    flag(&["--compress"]),
    value(&["--cpu-period"]),
    value(&["--cpu-quota"]),
    value(&["-c", "--cpu-shares"]),
    value(&["--cpuset-cpus"]),
    value(&["--cpuset-mems"]),
    flag(&["--disable-content-trust"]),
    value(&["-f", "--file"]).does(OtherTree(
        "builds with a Dockerfile from another directory, whose steps run with the build context",
    )),
    flag(&["--force-rm"]),
    value(&["--iidfile"]).does(WritesFile("writes the image id to a file")),
    value(&["--isolation"]),
    value(&["--label"]),
    value(&["-m", "--memory"]),
    value(&["--memory-swap"]),
    value(&["--network"]).does(AskedWhen(&["host"], HOST)),
    flag(&["--no-cache"]),
    value(&["--platform"]),
    flag(&["--pull"]),
    flag(&["-q", "--quiet"]),
    flag(&["--rm"]),
    value(&["--security-opt"]).does(RunsProgram(HOST)),
    value(&["--shm-size"]),
    flag(&["--squash"]),
    value(&["-t", "--tag"]),
    value(&["--target"]),
    value(&["--ulimit"]),
    flag(&["--help"]),
];

const COMMIT_OPTS: &[Opt] = &[
    value(&["-a", "--author"]),
    value(&["-c", "--change"]),
    value(&["-m", "--message"]),
    flag(&["-p", "--pause"]),
    flag(&["--help"]),
];

const CP_OPTS: &[Opt] = &[
    flag(&["-a", "--archive"]),
    flag(&["-L", "--follow-link"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

const CREATE_OPTS: &[Opt] = &[
    value(&["--gpus"]),
    value(&["--add-host"]),
    value(&["--annotation"]),
    value(&["-a", "--attach"]),
    value(&["--blkio-weight"]),
    value(&["--blkio-weight-device"]),
    value(&["--cap-add"]).does(RunsProgram(HOST)),
    value(&["--cap-drop"]),
    value(&["--cgroup-parent"]).does(RunsProgram(HOST)),
    value(&["--cgroupns"]).does(RunsProgram(HOST)),
    value(&["--cidfile"]).does(WritesFile("writes the container id to a file")),
    value(&["--cpu-count"]),
    value(&["--cpu-percent"]),
    value(&["--cpu-period"]),
    value(&["--cpu-quota"]),
    value(&["--cpu-rt-period"]),
    value(&["--cpu-rt-runtime"]),
    value(&["-c", "--cpu-shares"]),
    value(&["--cpus"]),
    value(&["--cpuset-cpus"]),
    value(&["--cpuset-mems"]),
    value(&["--device"]).does(RunsProgram(HOST)),
    value(&["--device-cgroup-rule"]).does(RunsProgram(HOST)),
    value(&["--device-read-bps"]),
    value(&["--device-read-iops"]),
    value(&["--device-write-bps"]),
    value(&["--device-write-iops"]),
    flag(&["--disable-content-trust"]),
    value(&["--dns"]),
    value(&["--dns-option"]),
    value(&["--dns-search"]),
    value(&["--domainname"]),
    value(&["--entrypoint"]),
    value(&["-e", "--env"]).does(CopiesEnv(ENV)),
    value(&["--env-file"]).does(LoadsFromOutside(ENV_FILE)),
    value(&["--expose"]),
    value(&["--group-add"]),
    value(&["--health-cmd"]),
    value(&["--health-interval"]),
    value(&["--health-retries"]),
    value(&["--health-start-interval"]),
    value(&["--health-start-period"]),
    value(&["--health-timeout"]),
    value(&["-h", "--hostname"]),
    flag(&["--init"]),
    flag(&["-i", "--interactive"]),
    value(&["--io-maxbandwidth"]),
    value(&["--io-maxiops"]),
    value(&["--ip"]),
    value(&["--ip6"]),
    value(&["--ipc"]).does(RunsProgram(HOST)),
    value(&["--isolation"]),
    value(&["--kernel-memory"]),
    value(&["-l", "--label"]),
    value(&["--label-file"]).does(ReadsFile),
    value(&["--link"]),
    value(&["--link-local-ip"]),
    value(&["--log-driver"]),
    value(&["--log-opt"]),
    value(&["--mac-address"]),
    value(&["-m", "--memory"]),
    value(&["--memory-reservation"]),
    value(&["--memory-swap"]),
    value(&["--memory-swappiness"]),
    value(&["--mount"]).does(SetsConfig(MOUNTS)),
    value(&["--name"]),
    value(&["--network"]).does(AskedWhen(&["host"], HOST)),
    value(&["--network-alias"]),
    flag(&["--no-healthcheck"]),
    flag(&["--oom-kill-disable"]),
    value(&["--oom-score-adj"]),
    value(&["--pid"]).does(RunsProgram(HOST)),
    value(&["--pids-limit"]),
    value(&["--platform"]),
    flag(&["--privileged"]).does(RunsProgram(HOST)),
    value(&["-p", "--publish"]),
    flag(&["-P", "--publish-all"]),
    value(&["--pull"]),
    flag(&["-q", "--quiet"]),
    flag(&["--read-only"]),
    value(&["--restart"]),
    flag(&["--rm"]),
    value(&["--runtime"]),
    value(&["--security-opt"]).does(RunsProgram(HOST)),
    value(&["--shm-size"]),
    value(&["--stop-signal"]),
    value(&["--stop-timeout"]),
    value(&["--storage-opt"]),
    value(&["--sysctl"]),
    value(&["--tmpfs"]),
    flag(&["-t", "--tty"]),
    value(&["--ulimit"]),
    flag(&["--use-api-socket"]),
    value(&["-u", "--user"]),
    value(&["--userns"]).does(RunsProgram(HOST)),
    value(&["--uts"]).does(RunsProgram(HOST)),
    value(&["-v", "--volume"]).does(Mounts(MOUNT)),
    value(&["--volume-driver"]),
    value(&["--volumes-from"]).does(SetsConfig(
        "mounts every volume of another container, which may hold host paths",
    )),
    value(&["-w", "--workdir"]),
    flag(&["--help"]),
];

const DIFF_OPTS: &[Opt] = &[flag(&["--help"])];

const EVENTS_OPTS: &[Opt] = &[
    value(&["-f", "--filter"]),
    value(&["--format"]),
    value(&["--since"]),
    value(&["--until"]),
    flag(&["--help"]),
];

const EXEC_OPTS: &[Opt] = &[
    flag(&["-d", "--detach"]),
    value(&["--detach-keys"]),
    value(&["-e", "--env"]).does(CopiesEnv(ENV)),
    value(&["--env-file"]).does(LoadsFromOutside(ENV_FILE)),
    flag(&["-i", "--interactive"]),
    flag(&["--privileged"]).does(RunsProgram(HOST)),
    flag(&["-t", "--tty"]),
    value(&["-u", "--user"]),
    value(&["-w", "--workdir"]),
    flag(&["--help"]),
];

const EXPORT_OPTS: &[Opt] = &[
    value(&["-o", "--output"]).does(WritesFile(ARCHIVE)),
    flag(&["--help"]),
];

const HISTORY_OPTS: &[Opt] = &[
    value(&["--format"]),
    flag(&["-H", "--human"]),
    flag(&["--no-trunc"]),
    value(&["--platform"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

const IMAGES_OPTS: &[Opt] = &[
    flag(&["-a", "--all"]),
    flag(&["--digests"]),
    value(&["-f", "--filter"]),
    value(&["--format"]),
    flag(&["--no-trunc"]),
    flag(&["-q", "--quiet"]),
    flag(&["--tree"]),
    flag(&["--help"]),
];

const IMPORT_OPTS: &[Opt] = &[
    value(&["-c", "--change"]),
    value(&["-m", "--message"]),
    value(&["--platform"]),
    flag(&["--help"]),
];

const INFO_OPTS: &[Opt] = &[value(&["-f", "--format"]), flag(&["--help"])];

const INSPECT_OPTS: &[Opt] = &[
    value(&["-f", "--format"]),
    flag(&["-s", "--size"]),
    value(&["--type"]),
    flag(&["--help"]),
];

const KILL_OPTS: &[Opt] = &[value(&["-s", "--signal"]), flag(&["--help"])];

const LOAD_OPTS: &[Opt] = &[
    value(&["-i", "--input"]),
    value(&["--platform"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

const LOGS_OPTS: &[Opt] = &[
    flag(&["--details"]),
    flag(&["-f", "--follow"]),
    value(&["--since"]),
    value(&["-n", "--tail"]),
    flag(&["-t", "--timestamps"]),
    value(&["--until"]),
    flag(&["--help"]),
];

const PAUSE_OPTS: &[Opt] = &[flag(&["--help"])];

const PORT_OPTS: &[Opt] = &[flag(&["--help"])];

/// `docker network ls` and `docker volume ls` (`--cluster`: volume only).
const LIST_OPTS: &[Opt] = &[
    flag(&["--cluster"]),
    value(&["-f", "--filter"]),
    value(&["--format"]),
    flag(&["--no-trunc"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

/// `docker network inspect` and `docker volume inspect` (`-v`: network only).
const OBJECT_INSPECT_OPTS: &[Opt] = &[
    value(&["-f", "--format"]),
    flag(&["-v", "--verbose"]),
    flag(&["--help"]),
];

/// The read-only subcommands of `docker network` and `docker volume`: the
/// others create, connect, remove or prune, and are asked as unknown.
const OBJECT_READS: &[Sub] = &[
    sub(&["inspect"], &[OBJECT_INSPECT_OPTS]),
    sub(&["ls", "list"], &[LIST_OPTS]),
];

/// `docker system df`.
const SYSTEM_DF_OPTS: &[Opt] = &[
    value(&["--format"]),
    flag(&["-v", "--verbose"]),
    flag(&["--help"]),
];

/// `docker context ls`.
const CONTEXT_LS_OPTS: &[Opt] = &[
    value(&["--format"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

/// `docker context inspect`.
const CONTEXT_INSPECT_OPTS: &[Opt] = &[value(&["-f", "--format"]), flag(&["--help"])];

/// The read-only subcommands of `docker context` (helper H28's sweep:
/// `docker context ls` was an unknown subcommand). `use`, `create`,
/// `update`, `import`, `export` and `rm` change which daemon every later
/// docker command talks to, or write files: still unknown, so asked.
const CONTEXT_READS: &[Sub] = &[
    sub(&["inspect"], &[CONTEXT_INSPECT_OPTS]),
    sub(&["ls", "list"], &[CONTEXT_LS_OPTS]),
    sub(&["show"], &[&[flag(&["--help"])]]),
];

/// The subcommands of `docker container` that are the same commands as a
/// top-level one (`ls` is `docker ps`, `rm` is `docker rm`), judged the
/// same way: stopping, starting and removing containers is docker's own
/// job on a broad allowlist, whichever spelling names it (helper H30's
/// sweep: `docker rm` was allowed while `docker container rm` was asked as
/// unknown). `run`, `create`, `exec`, `cp`, `commit`, `export`, `prune`
/// and `update` are not here: still unknown, so asked.
const CONTAINER_SUBS: &[Sub] = &[
    sub(&["diff"], &[DIFF_OPTS]),
    sub(&["inspect"], &[INSPECT_OPTS]),
    sub(&["kill"], &[KILL_OPTS]),
    sub(&["logs"], &[LOGS_OPTS]),
    sub(&["ls", "list", "ps"], &[PS_OPTS]),
    sub(&["pause"], &[PAUSE_OPTS]),
    sub(&["port"], &[PORT_OPTS]),
    sub(&["rename"], &[RENAME_OPTS]),
    sub(&["restart"], &[RESTART_OPTS]),
    sub(&["rm", "remove"], &[RM_OPTS]),
    sub(&["start"], &[START_OPTS]),
    sub(&["stats"], &[STATS_OPTS]),
    sub(&["stop"], &[STOP_OPTS]),
    sub(&["top"], &[TOP_OPTS]).operand_ends_options(),
    sub(&["unpause"], &[UNPAUSE_OPTS]),
    sub(&["wait"], &[WAIT_OPTS]),
];

/// The subcommands of `docker image` that are a top-level one: `ls` is
/// `docker images`, `rm` is `docker rmi`.
const IMAGE_READS: &[Sub] = &[
    sub(&["history"], &[HISTORY_OPTS]),
    sub(&["inspect"], &[INSPECT_OPTS, &[value(&["--platform"])]]),
    sub(&["ls", "list"], &[IMAGES_OPTS]),
    // `docker image rm` is `docker rmi` (H30 sweep).
    sub(&["rm", "remove"], &[RMI_OPTS]),
];

/// The read-only subcommands of `docker system`: `info` is `docker info`.
const SYSTEM_READS: &[Sub] = &[
    sub(&["df"], &[SYSTEM_DF_OPTS]),
    sub(&["info"], &[INFO_OPTS]),
];

const PS_OPTS: &[Opt] = &[
    flag(&["-a", "--all"]),
    value(&["-f", "--filter"]),
    value(&["--format"]),
    value(&["-n", "--last"]),
    flag(&["-l", "--latest"]),
    flag(&["--no-trunc"]),
    flag(&["-q", "--quiet"]),
    flag(&["-s", "--size"]),
    flag(&["--help"]),
];

const PULL_OPTS: &[Opt] = &[
    flag(&["-a", "--all-tags"]),
    flag(&["--disable-content-trust"]),
    value(&["--platform"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

const PUSH_OPTS: &[Opt] = &[
    flag(&["-a", "--all-tags"]),
    flag(&["--disable-content-trust"]),
    value(&["--platform"]),
    flag(&["-q", "--quiet"]),
    flag(&["--help"]),
];

const RENAME_OPTS: &[Opt] = &[flag(&["--help"])];

const RESTART_OPTS: &[Opt] = &[
    value(&["-s", "--signal"]),
    value(&["-t", "--timeout"]),
    flag(&["--help"]),
];

const RM_OPTS: &[Opt] = &[
    flag(&["-f", "--force"]),
    flag(&["-l", "--link"]),
    flag(&["-v", "--volumes"]),
    flag(&["--help"]),
];

const RMI_OPTS: &[Opt] = &[
    flag(&["-f", "--force"]),
    flag(&["--no-prune"]),
    value(&["--platform"]),
    flag(&["--help"]),
];

/// `run` is `create` and `start`: `create`'s options and these.
const RUN_OPTS: &[Opt] = &[
    flag(&["-d", "--detach"]),
    value(&["--detach-keys"]),
    flag(&["--sig-proxy"]),
];

const SAVE_OPTS: &[Opt] = &[
    value(&["-o", "--output"]).does(WritesFile(ARCHIVE)),
    value(&["--platform"]),
    flag(&["--help"]),
];

const SEARCH_OPTS: &[Opt] = &[
    value(&["-f", "--filter"]),
    value(&["--format"]),
    value(&["--limit"]),
    flag(&["--no-trunc"]),
    flag(&["--help"]),
];

const START_OPTS: &[Opt] = &[
    flag(&["-a", "--attach"]),
    value(&["--checkpoint"]),
    value(&["--checkpoint-dir"]),
    value(&["--detach-keys"]),
    flag(&["-i", "--interactive"]),
    flag(&["--help"]),
];

const STATS_OPTS: &[Opt] = &[
    flag(&["-a", "--all"]),
    value(&["--format"]),
    flag(&["--no-stream"]),
    flag(&["--no-trunc"]),
    flag(&["--help"]),
];

const STOP_OPTS: &[Opt] = &[
    value(&["-s", "--signal"]),
    value(&["-t", "--timeout"]),
    flag(&["--help"]),
];

const TAG_OPTS: &[Opt] = &[flag(&["--help"])];

const TOP_OPTS: &[Opt] = &[flag(&["--help"])];

const UNPAUSE_OPTS: &[Opt] = &[flag(&["--help"])];

const UPDATE_OPTS: &[Opt] = &[
    value(&["--blkio-weight"]),
    value(&["--cpu-period"]),
    value(&["--cpu-quota"]),
    value(&["--cpu-rt-period"]),
    value(&["--cpu-rt-runtime"]),
    value(&["-c", "--cpu-shares"]),
    value(&["--cpus"]),
    value(&["--cpuset-cpus"]),
    value(&["--cpuset-mems"]),
    value(&["-m", "--memory"]),
    value(&["--memory-reservation"]),
    value(&["--memory-swap"]),
    value(&["--pids-limit"]),
    value(&["--restart"]),
    flag(&["--help"]),
];

const VERSION_OPTS: &[Opt] = &[value(&["-f", "--format"]), flag(&["--help"])];

const WAIT_OPTS: &[Opt] = &[flag(&["--help"])];

const SUBS: &[Sub] = &[
    sub(&["attach"], &[ATTACH_OPTS]),
    sub(&["build"], &[BUILD_OPTS]).operands(Operands::Dirs(
        "sends this directory to the daemon as the build context, which the Dockerfile's steps read and can send anywhere",
    )),
    sub(&["commit"], &[COMMIT_OPTS]).operand_ends_options(),
    group(&["context"], &[&[flag(&["--help"])]], CONTEXT_READS),
    group(&["container"], &[&[flag(&["--help"])]], CONTAINER_SUBS),
    sub(&["cp"], &[CP_OPTS]).operands(Operands::Destination(Copying {
        why: "copies between a container and the host",
        remote: true,
        trailing_slash_is_contents: false,
        recursive: true,
        links: false,
    })),
    sub(&["create"], &[CREATE_OPTS]).operand_ends_options(),
    sub(&["diff"], &[DIFF_OPTS]),
    sub(&["events"], &[EVENTS_OPTS]),
    sub(&["exec"], &[EXEC_OPTS]).operand_ends_options(),
    sub(&["export"], &[EXPORT_OPTS]),
    sub(&["history"], &[HISTORY_OPTS]),
    group(&["image"], &[&[flag(&["--help"])]], IMAGE_READS),
    sub(&["images"], &[IMAGES_OPTS]),
    sub(&["import"], &[IMPORT_OPTS]),
    sub(&["info"], &[INFO_OPTS]),
    sub(&["inspect"], &[INSPECT_OPTS]),
    sub(&["kill"], &[KILL_OPTS]),
    sub(&["load"], &[LOAD_OPTS]),
    sub(&["logs"], &[LOGS_OPTS]),
    group(&["network"], &[&[flag(&["--help"])]], OBJECT_READS),
    sub(&["pause"], &[PAUSE_OPTS]),
    sub(&["port"], &[PORT_OPTS]),
    sub(&["ps"], &[PS_OPTS]),
    sub(&["pull"], &[PULL_OPTS]),
    sub(&["push"], &[PUSH_OPTS]).does(Uploads("pushes an image to a registry")),
    sub(&["rename"], &[RENAME_OPTS]),
    sub(&["restart"], &[RESTART_OPTS]),
    sub(&["rm"], &[RM_OPTS]),
    sub(&["rmi"], &[RMI_OPTS]),
    sub(&["run"], &[CREATE_OPTS, RUN_OPTS]).operand_ends_options(),
    sub(&["save"], &[SAVE_OPTS]),
    sub(&["search"], &[SEARCH_OPTS]),
    sub(&["start"], &[START_OPTS]),
    sub(&["stats"], &[STATS_OPTS]),
    sub(&["stop"], &[STOP_OPTS]),
    group(&["system"], &[&[flag(&["--help"])]], SYSTEM_READS),
    sub(&["tag"], &[TAG_OPTS]).operand_ends_options(),
    sub(&["top"], &[TOP_OPTS]).operand_ends_options(),
    sub(&["unpause"], &[UNPAUSE_OPTS]),
    sub(&["update"], &[UPDATE_OPTS]),
    sub(&["version"], &[VERSION_OPTS]),
    group(&["volume"], &[&[flag(&["--help"])]], OBJECT_READS),
    sub(&["wait"], &[WAIT_OPTS]),
];

/// `docker`.
pub(crate) const DOCKER: Spec = Spec {
    family: "docker",
    names: &["docker"],
    ids: ids!("docker"),
    grammar: Grammar::Clap,
    opts: &[GLOBAL],
    subs: SUBS,
    checked_with: "Docker CLI 28.2.2",
    operands: Operands::Plain,
    env: &[
        location(
            "DOCKER_CERT_PATH",
            "docker reads TLS keys from this directory",
        ),
        location(
            "DOCKER_CONFIG",
            "docker reads its config and credential helpers from this directory",
        ),
        location("DOCKER_CONTEXT", "points docker at another daemon"),
        location("DOCKER_HOST", "points docker at another daemon"),
    ],
};
