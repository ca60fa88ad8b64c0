//! The go command. Options from go 1.19.8's `go help build`, `go help
//! testflag`, `go help test` and the other commands' help, each spelling
//! tried on the installed program (`tests/go_spec_conformance.rs` probes
//! them all again). Go's `flag` package reads every option as one word,
//! `-name` or `--name`, exactly ([`Grammar::GoFlag`]): no abbreviations,
//! no bundles; every command but `go test` stops at its first operand (`go
//! run . -toolexec x` passes it to the program, `go mod why pkg -m` reads
//! `-m` as a package), while `go test` reads options after its operands
//! too, up to `-args`. `go mod` and `go work` are groups whose commands
//! each have their own flags. Newer flags (`-C`, `-pgo`, `-cover` for
//! build) and flags the help does not list (`go get -insecure`) are asked
//! as unknown.
//!
//! Building, testing and running the module's own code is go's job; a tool
//! or program wrapped around the compiler or the test binary (`-toolexec`,
//! `-exec`, `-vettool`), linker flags (which can name an external linker),
//! compiler and assembler flags but the inert ones (`-N -l`, `-m`),
//! overlays and other module files, writes outside the working tree,
//! `go generate`, `go tool`, installing binaries and `go env -w` are asked,
//! as are `go run module@version` (downloads a module and runs it), `go bug`
//! (a browser) and `go work` adding a module directory outside the tree.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{
        LoadsCode, OtherTree, ReadsFile, RunsProgram, SetsConfig, SetsConfigUnless, WritesFile,
    },
    Grammar, KnownWords, Opt, Sources, Spec, Sub, flag, group, ids, sub, value,
};
use crate::policy::specs::types::{loads, location};

const OUT: &str = "writes a file";
const LINKER: &str =
    "passes flags to the linker or gccgo, which can name an external program to run (-extld)";
/// The linker flags agents pass to strip symbols and stamp a version
/// (`-ldflags '-s -w -X main.version=1.0'`, helper H28's sweep): they
/// change the binary's contents only. Every other link flag (`-extld`,
/// `-extldflags`, `-o`, `-L`, `-tmpdir`, profiles) is asked as `LINKER`.
const INERT_LINK_FLAGS: KnownWords = KnownWords {
    flags: &["-s", "-w"],
    with_value: &["-X", "-buildid"],
    package_pattern: false,
};
/// The compiler and assembler flags agents pass to debug and inspect a
/// build (`-gcflags 'all=-N -l'`, `-gcflags=-m`, helper H30's sweep): they
/// change the code built or print what the compiler decided. Every other
/// flag (`-cpuprofile`, `-memprofile`, `-trace`, `-o`, `-json`, `-d`,
/// `-importcfg` …, which write or read files of the caller's choosing) is
/// asked as `COMPILER`.
const INERT_GC_FLAGS: KnownWords = KnownWords {
    flags: &["-B", "-N", "-S", "-e", "-l", "-m", "-race"],
    with_value: &["-m"],
    package_pattern: true,
};
/// The assembler's flags that only change the code or print it.
const INERT_ASM_FLAGS: KnownWords = KnownWords {
    flags: &["-S", "-e"],
    with_value: &["-D"],
    package_pattern: true,
};
const COMPILER: &str = "passes flags to the compiler or assembler, which can write profiles, traces and other files where they are told (-cpuprofile, -o) or read files (-importcfg)";
const OVERLAY: &str = "builds other files or another go.mod in place of the module's own";

/// The build flags most commands share.
const BUILD: &[Opt] = &[
    flag(&["-a"]),
    flag(&["-asan"]),
    value(&["-asmflags"]).does(SetsConfigUnless(INERT_ASM_FLAGS, COMPILER)),
    value(&["-buildmode"]),
    flag(&["-buildvcs"]),
    value(&["-compiler"]),
    value(&["-gccgoflags"]).does(SetsConfig(LINKER)),
    value(&["-gcflags"]).does(SetsConfigUnless(INERT_GC_FLAGS, COMPILER)),
    value(&["-installsuffix"]),
    value(&["-ldflags"]).does(SetsConfigUnless(INERT_LINK_FLAGS, LINKER)),
    flag(&["-linkshared"]),
    flag(&["-msan"]),
    flag(&["-n"]),
    value(&["-overlay"]).does(LoadsCode(OVERLAY)),
    value(&["-p"]),
    value(&["-pkgdir"]).does(WritesFile("writes compiled packages into a directory")),
    flag(&["-race"]),
    value(&["-tags"]),
    value(&["-toolexec"]).does(RunsProgram(
        "runs every compiler and tool through the given command line",
    )),
    flag(&["-trimpath"]),
    flag(&["-v"]),
    flag(&["-work"]),
    flag(&["-x"]),
];

/// The module flags every command that loads the module takes.
const MODULE: &[Opt] = &[
    flag(&["-modcacherw"]),
    value(&["-modfile"]).does(LoadsCode(OVERLAY)),
];

/// `-mod`, which the build flags have but `go get` refuses.
const MOD_MODE: &[Opt] = &[value(&["-mod"])];

const EXEC: &str = "runs the built program or test binary through the given program";

const BUILD_ONLY: &[Opt] = &[flag(&["-i"]), value(&["-o"]).does(WritesFile(OUT))];

const RUN: &[Opt] = &[value(&["-exec"]).does(RunsProgram(EXEC))];

const TEST: &[Opt] = &[
    value(&["-bench"]),
    flag(&["-benchmem"]),
    value(&["-benchtime"]),
    value(&["-blockprofile"]).does(WritesFile(OUT)),
    value(&["-blockprofilerate"]),
    flag(&["-c"]),
    value(&["-count"]),
    flag(&["-cover"]),
    value(&["-covermode"]),
    value(&["-coverpkg"]),
    value(&["-coverprofile"]).does(WritesFile(OUT)),
    value(&["-cpu"]),
    value(&["-cpuprofile"]).does(WritesFile(OUT)),
    value(&["-exec"]).does(RunsProgram(EXEC)),
    flag(&["-failfast"]),
    value(&["-fuzz"]),
    value(&["-fuzzminimizetime"]),
    value(&["-fuzztime"]),
    flag(&["-i"]),
    flag(&["-json"]),
    value(&["-list"]),
    value(&["-memprofile"]).does(WritesFile(OUT)),
    value(&["-memprofilerate"]),
    value(&["-mutexprofile"]).does(WritesFile(OUT)),
    value(&["-mutexprofilefraction"]),
    value(&["-o"]).does(WritesFile(OUT)),
    value(&["-outputdir"]).does(WritesFile("writes profiles into a directory")),
    value(&["-parallel"]),
    value(&["-run"]),
    flag(&["-short"]),
    value(&["-shuffle"]),
    value(&["-timeout"]),
    value(&["-trace"]).does(WritesFile(OUT)),
    value(&["-vet"]),
];

const INSTALL: &[Opt] = &[flag(&["-i"])];

/// `go get` takes the build flags but `-mod`; `-f` is a no-op kept for
/// old scripts. `-insecure` (fetches over plain HTTP) is left unknown, so
/// it is asked.
const GET: &[Opt] = &[flag(&["-d"]), flag(&["-f"]), flag(&["-t"]), flag(&["-u"])];

const LIST: &[Opt] = &[
    flag(&["-compiled"]),
    flag(&["-deps"]),
    flag(&["-e"]),
    flag(&["-export"]),
    value(&["-f"]),
    flag(&["-find"]),
    flag(&["-json"]),
    flag(&["-m"]),
    flag(&["-retracted"]),
    value(&["-reuse"]).does(ReadsFile),
    flag(&["-test"]),
    flag(&["-u"]),
    flag(&["-versions"]),
];

const VET: &[Opt] =
    &[value(&["-vettool"]).does(RunsProgram("runs the given program as the vet tool"))];

const CLEAN: &[Opt] = &[
    flag(&["-cache"]),
    flag(&["-fuzzcache"]),
    flag(&["-i"]),
    flag(&["-modcache"]),
    flag(&["-r"]),
    flag(&["-testcache"]),
];

const FMT: &[Opt] = &[value(&["-mod"]), flag(&["-n"]), flag(&["-x"])];

const GENERATE: &[Opt] = &[value(&["-run"])];

const ENV: &[Opt] = &[
    flag(&["-json"]),
    flag(&["-u"]).does(SetsConfig(
        "unsets go environment defaults for every later go command",
    )),
    flag(&["-w"]).does(SetsConfig(
        "sets go environment defaults (GOFLAGS, GOPROXY, CC, …) for every later go command",
    )),
];

const REPLACE: &str = "replaces a module with other code, which later builds compile and run";

const MOD_DOWNLOAD: &[Opt] = &[
    flag(&["-json"]),
    value(&["-reuse"]).does(ReadsFile),
    flag(&["-x"]),
];

const MOD_EDIT: &[Opt] = &[
    value(&["-dropexclude"]),
    value(&["-dropreplace"]),
    value(&["-droprequire"]),
    value(&["-dropretract"]),
    value(&["-exclude"]),
    flag(&["-fmt"]),
    value(&["-go"]),
    flag(&["-json"]),
    value(&["-module"]),
    flag(&["-print"]),
    value(&["-replace"]).does(LoadsCode(REPLACE)),
    value(&["-require"]),
    value(&["-retract"]),
    flag(&["-x"]),
];

const MOD_GRAPH: &[Opt] = &[value(&["-go"])];

const MOD_TIDY: &[Opt] = &[
    value(&["-compat"]),
    flag(&["-e"]),
    value(&["-go"]),
    flag(&["-v"]),
];

const MOD_VENDOR: &[Opt] = &[
    flag(&["-e"]),
    value(&["-o"]).does(WritesFile("writes the vendor directory elsewhere")),
    flag(&["-v"]),
];

const MOD_WHY: &[Opt] = &[flag(&["-m"]), flag(&["-vendor"])];

/// `go mod`'s commands, each with its own flags (go reads them with its
/// flag package: exact names, up to the first operand).
const MOD_SUBS: &[Sub] = &[
    sub(&["download"], &[MODULE, MOD_DOWNLOAD]),
    sub(&["edit"], &[MODULE, MOD_EDIT]),
    sub(&["graph"], &[MODULE, MOD_GRAPH]),
    sub(&["init"], &[MODULE]),
    sub(&["tidy"], &[MODULE, MOD_TIDY]),
    sub(&["vendor"], &[MODULE, MOD_VENDOR]),
    sub(&["verify"], &[MODULE]),
    sub(&["why"], &[MODULE, MOD_WHY]),
];

const WORK_EDIT: &[Opt] = &[
    value(&["-dropreplace"]),
    value(&["-dropuse"]),
    flag(&["-fmt"]),
    value(&["-go"]),
    flag(&["-json"]),
    flag(&["-print"]),
    value(&["-replace"]).does(LoadsCode(REPLACE)),
    value(&["-use"]).does(OtherTree(WORK_USE)),
];

const WORK_USE: &str =
    "adds a module directory to the workspace, whose code later builds compile and run";

/// `go work`'s commands.
const WORK_SUBS: &[Sub] = &[
    sub(&["edit"], &[WORK_EDIT]),
    sub(&["init"], &[MODULE]).operands(Operands::Dirs(WORK_USE)),
    sub(&["sync"], &[MODULE]),
    sub(&["use"], &[MODULE, &[flag(&["-r"])]]).operands(Operands::Dirs(WORK_USE)),
];

/// `go fix`: rewrites the module's own sources for newer APIs, as `go fmt`
/// formats them.
const FIX: &[Opt] = &[value(&["-fix"]), flag(&["-v"]), flag(&["-x"])];

const VERSION: &[Opt] = &[flag(&["-m"]), flag(&["-v"])];

const DOC: &[Opt] = &[
    flag(&["-all"]),
    flag(&["-c"]),
    flag(&["-cmd"]),
    flag(&["-short"]),
    flag(&["-src"]),
    flag(&["-u"]),
];

const TOOL: &[Opt] = &[flag(&["-n"])];

const SUBS: &[Sub] = &[
    sub(&["bug"], &[]).does(RunsProgram(
        "opens a new GitHub issue in a browser, which BROWSER or the desktop names",
    )),
    sub(&["build"], &[BUILD, MODULE, MOD_MODE, BUILD_ONLY]),
    sub(&["clean"], &[BUILD, MODULE, MOD_MODE, CLEAN]),
    sub(&["doc"], &[DOC]),
    sub(&["env"], &[ENV]),
    // `go fmt ../x` and `go fix ../x` rewrite another tree's files
    // (found by the H27 sweep).
    sub(&["fix"], &[MODULE, FIX]).operands(Operands::Dirs("rewrites the package's files in place")),
    sub(&["fmt"], &[FMT]).operands(Operands::Dirs("rewrites the package's files in place")),
    sub(&["generate"], &[BUILD, MODULE, MOD_MODE, GENERATE])
        .does(RunsProgram("runs the commands of the //go:generate lines")),
    sub(&["get"], &[BUILD, MODULE, GET]),
    sub(&["help"], &[]),
    sub(&["install"], &[BUILD, MODULE, MOD_MODE, INSTALL]).does(LoadsCode(
        "builds and installs binaries into GOBIN, which is on PATH",
    )),
    sub(&["list"], &[BUILD, MODULE, MOD_MODE, LIST]),
    group(&["mod"], &[], MOD_SUBS),
    sub(&["run"], &[BUILD, MODULE, MOD_MODE, RUN]).operands(Operands::Installs(
        Sources::Go,
        "builds and runs this package",
    )),
    sub(&["test"], &[BUILD, MODULE, MOD_MODE, TEST]),
    sub(&["tool"], &[TOOL]).does(RunsProgram("runs a Go tool by name")),
    sub(&["version"], &[VERSION]),
    sub(&["vet"], &[BUILD, MODULE, MOD_MODE, VET]),
    group(&["work"], &[], WORK_SUBS),
];

/// `go`.
pub(crate) const GO: Spec = Spec {
    family: "go",
    names: &["go"],
    ids: ids!("go"),
    grammar: Grammar::GoFlag {
        permuting: &["test"],
    },
    opts: &[],
    subs: SUBS,
    checked_with: "go 1.19.8 (golang-1.19-go, Debian 12)",
    operands: Operands::Plain,
    env: &[
        loads("CGO_*", "passes compiler and linker flags to cgo builds"),
        location("GOENV", "go reads its settings from this file"),
        loads("GOEXPERIMENT", "changes the toolchain's behavior"),
        loads(
            "GOFLAGS",
            "adds flags, such as -toolexec, to every go command",
        ),
        location("GOPATH", "where go keeps modules and binaries"),
        loads("GOPROXY", "fetches modules from this proxy"),
        location("GOROOT", "which go toolchain runs"),
        loads("GOTOOLCHAIN", "downloads and runs another toolchain"),
    ],
};
