/* SPDX-License-Identifier: MIT */
/*
 * fxt record: run a command under the trace manager (docs/manager.md). Every
 * process the command starts that uses libfxt registers as a provider and
 * hands over its shared buffer; the archive gets each provider's records,
 * including those of a provider that crashed. Linux only.
 */
#define _GNU_SOURCE 1 /* prctl, execvp with environment */
#include <fxt/manager.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/wait.h>
#endif

#include "cli.h"
#include "cli_io.h"
#include "cli_trace.h"
#include "record_sched.h"
#include "record_snap.h"

#define MAX_CMD_ARGS 4096
#define MAX_TRIGGERS 64

typedef struct record_config {
    const char *cmd[MAX_CMD_ARGS];
    unsigned ncmd;
    const char *out, *compress;
    unsigned mode; /* index into record_modes */
    uint64_t buffer_size;
    const char *categories;
    uint64_t duration_ns;
    int has_duration;
    unsigned clock;
    int attach;
    const char *socket;
    unsigned sched; /* index into record_sched_scopes: 0 off */
    /* the flight recorder (record_snap.h) */
    const char *triggers[MAX_TRIGGERS]; /* NAME[:snapshot|stop] */
    unsigned ntriggers;
    const char *snap_signal;
    int on_crash;
    uint64_t post_ns;
    unsigned max_snapshots;
    int verbose;
} record_config_t;

/*
 * --duration T: a bare number is seconds, as for timeout(1) (read as nanoseconds, "8" stopped
 * a recording at once); or with a unit: ns, us, ms, s, m, h. Zero is refused: it would
 * record nothing.
 */
static int parse_time(const char *v, uint64_t *out) {
    char buf[64];
    size_t n = strlen(v), num = n;
    while (num > 0 && ((v[num - 1] >= 'a' && v[num - 1] <= 'z'))) {
        num--; /* v[num..]: the unit */
    }
    const char *unit = v + num;
    uint64_t mul = 1, ns = 0;
    int ok = num > 0 && n < sizeof buf - 1;
    if (ok) {
        memcpy(buf, v, num);
        if (unit[0] == '\0' || strcmp(unit, "m") == 0 || strcmp(unit, "h") == 0) {
            mul = unit[0] == 'm' ? 60 : unit[0] == 'h' ? 3600 : 1;
            memcpy(buf + num, "s", 2); /* bare: seconds */
        } else {
            memcpy(buf + num, unit, n - num + 1); /* ns, us, ms, s: cli_parse_ns refuses others */
        }
        ok = cli_parse_ns(buf, &ns) == 0 && ns <= UINT64_MAX / mul;
    }
    *out = ns * mul;
    return ok ? 0 : -1;
}

static int parse_duration(void *config, const char *v, char *err, size_t errlen) {
    record_config_t *cfg = config;
    if (parse_time(v, &cfg->duration_ns) != 0 || cfg->duration_ns == 0) {
        snprintf(err, errlen, "a duration > 0: seconds, or with a unit: 500ms, 2.5s, 10m, 1h");
        return -1;
    }
    cfg->has_duration = 1;
    return 0;
}

/* --post T: as --duration, 0 allowed (the default: save at the trigger) */
static int parse_post(void *config, const char *v, char *err, size_t errlen) {
    record_config_t *cfg = config;
    if (parse_time(v, &cfg->post_ns) != 0) {
        snprintf(err, errlen, "a duration: seconds, or with a unit: 500ms, 2.5s, 10m, 1h");
        return -1;
    }
    return 0;
}

static const char *const record_modes[] = {"oneshot", "circular", "streaming", NULL};
static const char *const record_clocks[] = {"auto", "monotonic", "tsc", NULL};
static const char *const record_sched_scopes[] = {"off", "all", "tree", NULL};

static const cli_opt_t record_opts[] = {
    CLI_OUTPUT_OPTS(record_config_t, out, compress, "the archive (default: record.fxt); .gz/.zst compress"),
    CLI_CHOICE(record_config_t, mode, "mode", record_modes, "MODE",
               "buffer mode of every process: oneshot (default), circular or streaming"),
    CLI_SIZE(record_config_t, buffer_size, uint64_t, "buffer-size", 65536, UINT64_C(1) << 40, "N",
             "buffer bytes per process (default 32M)"),
    CLI_STRING(record_config_t, categories, "categories", 0, "LIST",
               "enabled categories, e.g. 'gfx*,io' (default: all)"),
    CLI_CUSTOM("duration", parse_duration, "T",
               "stop recording after T, then end CMD with SIGTERM; a bare number is seconds "
               "(as for timeout), else a unit: ns, us, ms, s, m, h (500ms, 1.5m)"),
    CLI_CHOICE(record_config_t, clock, "clock", record_clocks, "CLOCK",
               "auto (TSC when invariant, else CLOCK_MONOTONIC), monotonic or tsc"),
    CLI_FLAG(record_config_t, attach, "attach", 0,
             "no CMD: record the processes that join (FXT_TRACE_MANAGER=socket) until Ctrl-C or --duration"),
    CLI_STRING(record_config_t, socket, "socket", 0, "PATH",
               "the manager's socket (default: a private new one)"),
    CLI_OPTIONAL_CHOICE(record_config_t, sched, "sched", record_sched_scopes, 1, "SCOPE",
                        "also record the kernel's scheduling (context switches, wakeups, task names; "
                        "root and tracefs, docs/sched.md): all CPUs' tasks (--sched, --sched=all) or "
                        "CMD's process tree only (--sched=tree)"),
    CLI_LIST(record_config_t, triggers, ntriggers, "trigger", "NAME[:ACTION]",
             "when a process calls fxt_alert(NAME): save a snapshot (ACTION snapshot, the default) "
             "or stop recording (stop); repeatable"),
    CLI_STRING(record_config_t, snap_signal, "snapshot-on-signal", 0, "SIG",
               "save a snapshot when fxt record receives SIG (USR1, USR2, HUP, ALRM, WINCH or a number)"),
    CLI_FLAG(record_config_t, on_crash, "on-crash", 0,
             "save a snapshot of every process when one is killed by a signal (the dead one included)"),
    CLI_CUSTOM("post", parse_post, "T",
               "keep recording T after a trigger before saving its snapshot (default 0)"),
    CLI_UINT(record_config_t, max_snapshots, unsigned, "max-snapshots", 1, 1000000, "N",
             "save at most N snapshots; later triggers are counted, not saved (default: no limit)"),
    CLI_FLAG(record_config_t, verbose, "verbose", 'v',
             "also say what each process's buffer obtained: every page resident or not, huge pages"),
};

static const cli_spec_t record_spec = {
    "record",
    record_opts,
    sizeof record_opts / sizeof record_opts[0],
    NULL,
    sizeof(record_config_t),
    "CMD",
    offsetof(record_config_t, cmd),
    offsetof(record_config_t, ncmd) + 1,
    0,
    MAX_CMD_ARGS,
};

#if defined(__linux__)

static volatile sig_atomic_t g_signal, g_signals, g_from_process;

static void on_signal(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    g_signal = sig;
    g_signals++;
    /* sent by a process (kill), not by the terminal: CMD did not get it, forward it */
    g_from_process = si != NULL && si->si_code == SI_USER;
}

/* record_sched_named_fn: what the providers' sections named keeps its name (docs/manager.md) */
static int provider_named(void *ctx, uint32_t obj_type, uint64_t koid) {
    int named = 0;
    return fxt_manager_object_named(ctx, obj_type, koid, &named) == FXT_OK && named;
}

/* fxt_snapshot_source_fn: the kernel's section of a snapshot */
static fxt_status sched_snapshot(void *ctx, fxt_writer_t *w, uint32_t provider_id, uint64_t from,
                                 uint64_t cut) {
    return record_sched_snapshot(ctx, w, provider_id, from, cut);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static pid_t start_cmd(const record_config_t *cfg, const char *sock) {
    setenv(FXT_MANAGER_ENV, sock, 1);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        execvp(cfg->cmd[0], (char *const *)cfg->cmd);
        fprintf(stderr, "fxt record: cannot run %s: %s\n", cfg->cmd[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

static void describe_end(const fxt_manager_provider_t *p, char *out, size_t cap) {
    switch (p->end) {
    case FXT_PROVIDER_SIGNALED:
        snprintf(out, cap, "killed by signal %d (%s)", p->status, strsignal(p->status));
        break;
    case FXT_PROVIDER_CLEAN:
        snprintf(out, cap, "exit %d", p->status);
        break;
    case FXT_PROVIDER_EXITED:
        snprintf(out, cap, "exit %d without stopping its session", p->status);
        break;
    case FXT_PROVIDER_LOST:
        snprintf(out, cap, "died (connection lost; crashed or killed)");
        break;
    case FXT_PROVIDER_RUNNING:
    default:
        snprintf(out, cap, "still running when recording stopped");
        break;
    }
}

/* An empty archive is not silent: say why it may be (issue #24.6); the exit status stays CMD's. */
static void explain_empty(const record_config_t *cfg, size_t nproc, uint64_t events) {
    const char *cats = cfg->categories != NULL && cfg->categories[0] != '\0' ? cfg->categories : NULL;
    if (nproc == 0 && cfg->attach) {
        fprintf(stderr, "fxt record: no process registered: none joined with %s set to the socket\n",
                FXT_MANAGER_ENV);
    } else if (nproc == 0) {
        fprintf(stderr,
                "fxt record: no process registered: the archive is empty. Likely: CMD (and what it "
                "starts) is not linked with libfxt, was built with FXT_NO_TRACE, made no trace call "
                "(no FXT_* macro reached, no fxt_session_start()), or lost %s from its environment "
                "before its first trace call\n",
                FXT_MANAGER_ENV);
    } else if (events == 0) {
        fprintf(stderr,
                "fxt record: no event recorded: %zu process%s registered but emitted no event%s%s%s\n", nproc,
                nproc == 1 ? "" : "es", cats ? " in the enabled categories (--categories '" : "",
                cats ? cats : "", cats ? "')" : "");
    }
}

static void print_summary(const fxt_manager_t *m, const char *out) {
    uint64_t ev = 0, bytes = 0, dropped = 0;
    size_t n = fxt_manager_provider_count(m);
    for (size_t i = 0; i < n; i++) {
        fxt_manager_provider_t p;
        fxt_manager_get_provider(m, i, &p);
        char end[128];
        describe_end(&p, end, sizeof end);
        fprintf(stderr,
                "fxt record: %s (%" PRIu64 "): %" PRIu64 " events, %" PRIu64 " bytes, %" PRIu64
                " dropped, %" PRIu64 " chunks overwritten, %s\n",
                p.name, p.pid, p.events, p.bytes, p.dropped, p.overwritten, end);
        ev += p.events;
        bytes += p.bytes;
        dropped += p.dropped;
    }
    fprintf(stderr,
            "fxt record: total: %zu processes, %" PRIu64 " events, %" PRIu64 " bytes, %" PRIu64
            " dropped -> %s\n",
            n, ev, bytes, dropped, out);
}

/* -v: what each provider's shared buffer obtained (docs/manager.md, "Buffers"). */
static void print_buffers(const fxt_manager_t *m) {
    char thp[64] = "?";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "r");
    if (f != NULL) {
        char line[256];
        const char *a = fgets(line, sizeof line, f) != NULL ? strchr(line, '[') : NULL;
        const char *b = a != NULL ? strchr(a, ']') : NULL;
        if (b != NULL && (size_t)(b - a) < sizeof thp) {
            snprintf(thp, sizeof thp, "%.*s", (int)(b - a - 1), a + 1);
        }
        fclose(f);
    }
    for (size_t i = 0; i < fxt_manager_provider_count(m); i++) {
        fxt_manager_provider_t p;
        fxt_manager_get_provider(m, i, &p);
        uint32_t huge = p.buffer_pages >> FXT_SHM_PAGES_HUGE_SHIFT, of = (uint32_t)(p.buffer_bytes >> 21);
        const char *res = p.buffer_pages & FXT_SHM_PAGES_RESIDENT
                              ? "all pages resident (populated at the start and by a helper thread)"
                          : p.buffer_pages & FXT_SHM_PAGES_DONE ? "populating stopped early"
                          : p.buffer_bytes ? "still populating when collected (huge pages not counted)"
                                           : "no buffer";
        fprintf(stderr,
                "fxt record: %s (%" PRIu64 "): buffer %" PRIu64 " KiB, %s, %" PRIu32 " of %" PRIu32
                " huge pages of 2 MiB (%s)\n",
                p.name, p.pid, p.buffer_bytes >> 10, res, huge, of,
                p.buffer_pages & FXT_SHM_PAGES_HUGETLB ? "hugetlb pool"
                : huge > 0                             ? "transparent huge pages"
                                                       : "4 KiB pages");
    }
    fprintf(stderr, "fxt record: transparent huge pages for shared memory: shmem_enabled=%s\n", thp);
}

/* One recording: its configuration, the manager, and where the loop stands. */
typedef struct record_state {
    const record_config_t *cfg;
    const char *path; /* the final archive */
    char final_path[4096];
    cli_output_t *out;
    fxt_manager_t *m;
    record_sched_t *sched;
    record_snap_t snap;
    int snap_sig;
    int snapshots; /* a trigger may save a snapshot */
    pid_t child;
    int child_status, child_done;
    uint64_t t0, child_end, sig_deadline;
    int seen_signals, seen_snap_signals;
} record_state_t;

static volatile sig_atomic_t g_snap_signals;

static void on_snap_signal(int sig) {
    (void)sig;
    g_snap_signals++;
}

/* The flight recorder's options, checked before anything starts: CLI_EXIT_USAGE or 0. */
static int check_snap_options(record_state_t *rs) {
    const record_config_t *cfg = rs->cfg;
    rs->snap_sig = 0;
    if (cfg->snap_signal != NULL && (rs->snap_sig = record_snap_signal(cfg->snap_signal)) < 0) {
        fprintf(stderr,
                "fxt record: --snapshot-on-signal %s: not a signal it can take (USR1, USR2, HUP, ALRM, "
                "WINCH, or a number other than INT, TERM, KILL, STOP, CHLD and the fatal ones)\n",
                cfg->snap_signal);
        return CLI_EXIT_USAGE;
    }
    int snapshots = rs->snap_sig > 0 || cfg->on_crash;
    for (unsigned i = 0; i < cfg->ntriggers; i++) {
        const char *colon = strchr(cfg->triggers[i], ':');
        size_t len = colon != NULL ? (size_t)(colon - cfg->triggers[i]) : strlen(cfg->triggers[i]);
        if (len == 0 || len > 63 ||
            (colon != NULL && strcmp(colon, ":snapshot") != 0 && strcmp(colon, ":stop") != 0)) {
            fprintf(stderr, "fxt record: --trigger %s: NAME (1 to 63 bytes), optionally :snapshot or :stop\n",
                    cfg->triggers[i]);
            return CLI_EXIT_USAGE;
        }
        snapshots |= colon == NULL || strcmp(colon, ":snapshot") == 0;
    }
    rs->snapshots = snapshots;
    if (snapshots && cfg->mode == FXT_MODE_STREAMING) {
        fprintf(stderr,
                "fxt record: snapshots need --mode circular or oneshot (a streaming buffer is drained "
                "into the archive as it fills: nothing stays to snapshot)\n");
        return CLI_EXIT_USAGE;
    }
    const char *out = cfg->out ? cfg->out : "record.fxt";
    rs->path = out;
    if (snapshots || strstr(out, "%n") != NULL) {
        if (strcmp(out, "-") == 0 || record_snap_path(out, 0, rs->final_path, sizeof rs->final_path) != 0) {
            fprintf(stderr, "fxt record: -o %s: snapshots need a file name (with %%n for their number)\n",
                    out);
            return CLI_EXIT_USAGE;
        }
        rs->path = rs->final_path;
    }
    memset(&rs->snap, 0, sizeof rs->snap);
    rs->snap.out = out;
    rs->snap.compress = cfg->compress;
    rs->snap.post_ns = cfg->post_ns;
    rs->snap.max = cfg->max_snapshots;
    return 0;
}

static int add_triggers(record_state_t *rs) {
    const record_config_t *cfg = rs->cfg;
    for (unsigned i = 0; i < cfg->ntriggers; i++) {
        char name[64];
        const char *colon = strchr(cfg->triggers[i], ':');
        size_t len = colon != NULL ? (size_t)(colon - cfg->triggers[i]) : strlen(cfg->triggers[i]);
        memcpy(name, cfg->triggers[i], len);
        name[len] = '\0';
        fxt_trigger_action a =
            colon != NULL && strcmp(colon, ":stop") == 0 ? FXT_TRIGGER_STOP : FXT_TRIGGER_SNAPSHOT;
        if (fxt_manager_add_trigger(rs->m, name, a) != FXT_OK) {
            return -1;
        }
    }
    return cfg->on_crash ? (fxt_manager_set_on_crash(rs->m, 1) == FXT_OK ? 0 : -1) : 0;
}

/* Open the archive and create the manager: 0 or an exit code (said on stderr). */
static int open_recording(record_state_t *rs) {
    const record_config_t *cfg = rs->cfg;
    char err[512];
    /* in place: the archive must survive fxt itself being killed (cli_io.h) */
    int orc = cli_output_open_flags(rs->path, cfg->compress, CLI_OUTPUT_IN_PLACE, &rs->out, err, sizeof err);
    if (orc != 0) {
        fprintf(stderr, "fxt record: %s\n", err);
        return orc;
    }
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = cli_output_sink(rs->out);
    mc.mode = (fxt_buffer_mode)cfg->mode;
    mc.buffer_size = (size_t)cfg->buffer_size;
    mc.categories = cfg->categories;
    mc.clock = cfg->clock == 1 ? FXT_CLOCK_MONOTONIC : cfg->clock == 2 ? FXT_CLOCK_TSC : FXT_CLOCK_AUTO;
    mc.socket_path = cfg->socket;
    fxt_status st = fxt_manager_create(&mc, &rs->m);
    if (st == FXT_OK && add_triggers(rs) != 0) {
        fxt_manager_destroy(rs->m);
        st = FXT_E_NOMEM;
    }
    if (st != FXT_OK) {
        fprintf(stderr, "fxt record: cannot start the trace manager%s%s: %s\n", cfg->socket ? " at " : "",
                cfg->socket ? cfg->socket : "", st == FXT_E_IO ? strerror(errno) : fxt_status_str(st));
        cli_output_close(rs->out, 1);
        return st == FXT_E_INVALID_ARG ? CLI_EXIT_USAGE : st == FXT_E_NOMEM ? CLI_EXIT_LIMIT : CLI_EXIT_IO;
    }
    return 0;
}

static void install_signals(const record_state_t *rs) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (rs->snap_sig > 0) {
        struct sigaction ss;
        memset(&ss, 0, sizeof ss);
        ss.sa_handler = on_snap_signal;
        ss.sa_flags = SA_RESTART;
        sigemptyset(&ss.sa_mask);
        sigaction(rs->snap_sig, &ss, NULL);
    }
}

/* --sched: the kernel's scheduling on the archive's clock (NULL when off or refused). */
static record_sched_t *start_sched(const record_config_t *cfg, fxt_manager_t *m) {
    record_sched_t *sched = NULL;
    char err[512];
    /* any run removes what a killed --sched run left in the kernel (docs/manager.md) */
    record_sched_sweep();
    if (cfg->sched == 0) {
        return NULL;
    }
    int is_tsc = 0;
    record_sched_options_t so = RECORD_SCHED_OPTIONS_INIT;
    so.ticks_per_second = fxt_manager_ticks_per_second(m, &is_tsc);
    so.clock = is_tsc ? RECORD_SCHED_CLOCK_TSC : RECORD_SCHED_CLOCK_MONO;
    so.tree_only = cfg->sched == 2;
    so.named = provider_named;
    so.named_ctx = m;
    if (record_sched_start(&so, &sched, err, sizeof err) != FXT_OK) {
        fprintf(stderr, "fxt record: --sched: %s; recording the processes' own traces only\n", err);
        return NULL;
    }
    return sched;
}

/* Start CMD (or say where processes join): 0, or CLI_EXIT_IO. */
static int start_recording(record_state_t *rs) {
    rs->child = -1;
    if (rs->cfg->attach) {
        fprintf(stderr, "fxt record: recording; processes join with %s=%s\n", FXT_MANAGER_ENV,
                fxt_manager_socket_path(rs->m));
        return 0;
    }
    rs->child = start_cmd(rs->cfg, fxt_manager_socket_path(rs->m));
    if (rs->child < 0) {
        fprintf(stderr, "fxt record: cannot start %s: %s\n", rs->cfg->cmd[0], strerror(errno));
        return CLI_EXIT_IO;
    }
    if (rs->sched != NULL) {
        record_sched_set_root(rs->sched, (int)rs->child);
    }
    return 0;
}

static void reap(record_state_t *rs) {
    int ws;
    pid_t pid;
    while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        fxt_manager_note_exit(rs->m, (uint64_t)pid, ws);
        if (pid == rs->child) {
            rs->child_done = 1;
            rs->child_status = ws;
            rs->child_end = now_ns();
        }
    }
}

/* After a poll round: 1 when the recording stops (signals, --duration, CMD's end, a stop trigger). */
static int should_stop(record_state_t *rs, uint64_t now) {
    if (g_signals != rs->seen_signals) {
        rs->seen_signals = g_signals;
        if (rs->seen_signals > 1 || rs->child < 0 || rs->child_done) {
            return 1; /* a second Ctrl-C: stop now */
        }
        if (g_from_process) {
            kill(rs->child, g_signal);
        }
        rs->sig_deadline = now + 2000000000u; /* give CMD 2 s to end */
    }
    if (rs->sig_deadline != 0 && now > rs->sig_deadline) {
        return 1;
    }
    if (rs->cfg->has_duration && now - rs->t0 >= rs->cfg->duration_ns) {
        return 1;
    }
    if (rs->snap.stop) {
        return 1;
    }
    /* CMD ended: the processes it left get 0.5 s to end their sessions */
    return rs->child_done && (fxt_manager_connected(rs->m) == 0 || now - rs->child_end > 500000000u);
}

static fxt_status record_loop(record_state_t *rs) {
    rs->t0 = now_ns();
    for (;;) {
        fxt_status st = fxt_manager_poll(rs->m, 20);
        /* what is written stays readable if fxt record itself is killed */
        fxt_writer_flush(fxt_manager_writer(rs->m));
        if (st != FXT_OK) {
            return st;
        }
        reap(rs);
        uint64_t now = now_ns();
        if (g_snap_signals != rs->seen_snap_signals) {
            rs->seen_snap_signals = g_snap_signals;
            record_snap_raise_signal(&rs->snap, rs->m, rs->snap_sig, now);
        }
        record_snap_poll(&rs->snap, rs->m, now, 0);
        if (should_stop(rs, now)) {
            /* a snapshot still in its post-window is saved now, before the buffers go */
            record_snap_poll(&rs->snap, rs->m, now, 1);
            return FXT_OK;
        }
    }
}

/* The kernel's provider section, after the processes'. */
static fxt_status finish_sched(record_state_t *rs) {
    record_sched_summary_t sum;
    memset(&sum, 0, sizeof sum);
    fxt_status kst =
        record_sched_finish(rs->sched, fxt_manager_writer(rs->m), fxt_manager_next_provider_id(rs->m), &sum);
    record_sched_destroy(rs->sched);
    rs->sched = NULL;
    if (kst != FXT_OK) {
        fprintf(stderr, "fxt record: --sched: writing the kernel's records: %s\n", fxt_status_str(kst));
        return kst;
    }
    fprintf(stderr,
            "fxt record: kernel: %" PRIu64 " context switches, %" PRIu64 " wakeups, %" PRIu64
            " tasks, %" PRIu64 " events lost\n",
            sum.switches, sum.wakeups, sum.tasks, sum.lost);
    return FXT_OK;
}

/* Stop, write the last sections, close the archive and print the summaries; the first error. */
static fxt_status finish_recording(record_state_t *rs, fxt_status pst) {
    fxt_status st = fxt_manager_stop(rs->m);
    if (rs->sched != NULL) {
        fxt_status kst = finish_sched(rs);
        st = st == FXT_OK ? kst : st;
    }
    fxt_status fst = fxt_manager_finish(rs->m);
    if (st == FXT_OK) {
        st = pst != FXT_OK ? pst : fst;
    }
    if (cli_output_close(rs->out, st != FXT_OK) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    print_summary(rs->m, rs->path);
    if (rs->cfg->verbose) {
        print_buffers(rs->m);
    }
    record_snap_summary(&rs->snap, rs->m);
    uint64_t events = 0;
    size_t np = fxt_manager_provider_count(rs->m);
    for (size_t i = 0; i < np; i++) {
        fxt_manager_provider_t p;
        fxt_manager_get_provider(rs->m, i, &p);
        events += p.events;
    }
    explain_empty(rs->cfg, np, events);
    fxt_manager_destroy(rs->m);
    rs->m = NULL;
    if (st != FXT_OK) {
        fprintf(stderr, "fxt record: writing %s: %s\n", rs->path, fxt_status_str(st));
    }
    return st;
}

/* Recording stopped before CMD ended (--duration, signals, a stop trigger): end it, SIGTERM
 * and 5 s to exit; after a second signal, or one that comes during those 5 s, SIGKILL now. */
static void end_child(record_state_t *rs) {
    if (rs->child <= 0 || rs->child_done) {
        return;
    }
    kill(rs->child, SIGTERM);
    int signals = g_signals;
    for (int i = 0; i < 500 && signals < 2 && g_signals == signals &&
                    waitpid(rs->child, &rs->child_status, WNOHANG) == 0;
         i++) {
        struct timespec d = {0, 10000000};
        nanosleep(&d, NULL);
    }
    if (waitpid(rs->child, &rs->child_status, WNOHANG) == 0) {
        kill(rs->child, SIGKILL);
        waitpid(rs->child, &rs->child_status, 0);
    }
    rs->child_done = 1;
}

static int record_run(const record_config_t *cfg) {
    if (cfg->ncmd == 0 && !cfg->attach) {
        fprintf(stderr, "fxt record: missing CMD (or --attach)\n");
        return CLI_EXIT_USAGE;
    }
    if (cfg->ncmd > 0 && cfg->attach) {
        fprintf(stderr, "fxt record: --attach takes no CMD\n");
        return CLI_EXIT_USAGE;
    }
    static record_state_t rs; /* the final path: kept off the stack */
    memset(&rs, 0, sizeof rs);
    rs.cfg = cfg;
    int rc = check_snap_options(&rs);
    if (rc == 0) {
        rc = open_recording(&rs);
    }
    if (rc != 0) {
        return rc;
    }
    /* orphaned descendants are reparented to us: their exit status tells how they ended */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    install_signals(&rs);
    rs.sched = start_sched(cfg, rs.m);
    if (rs.sched != NULL) {
        /* snapshots cut the kernel's scheduling at the providers' moment too */
        fxt_manager_set_snapshot_source(rs.m, sched_snapshot, rs.sched);
    }
    if (start_recording(&rs) != 0) {
        record_sched_destroy(rs.sched);
        fxt_manager_destroy(rs.m);
        cli_output_close(rs.out, 1);
        return CLI_EXIT_IO;
    }
    fxt_status st = finish_recording(&rs, record_loop(&rs));
    end_child(&rs);
    if (st != FXT_OK) {
        return st == FXT_E_IO ? CLI_EXIT_IO : CLI_EXIT_LIMIT;
    }
    if (rs.child_done) {
        return WIFEXITED(rs.child_status) ? WEXITSTATUS(rs.child_status) : 128 + WTERMSIG(rs.child_status);
    }
    return CLI_EXIT_OK;
}

#else

static int record_run(const record_config_t *cfg) {
    (void)cfg;
    fprintf(stderr,
            "fxt record: needs Linux (memfd, SCM_RIGHTS); use FXT_TRACE_OUTPUT per process instead\n");
    return CLI_EXIT_IO;
}

#endif

/* record_run on the config cli_main parsed. */
static int record_start(void *config) { return record_run(config); }

/* `fxt record prog -x`, like `fxt record -- prog -x`: CMD's own options are not fxt's, so a "--"
 * goes before the first argument that is not an option (at most one word added). */
static int record_args(int argc, char **argv, char **out) {
    int n = 0, cut = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (i > 0 && !cut && strcmp(a, "--") == 0) {
            cut = 1;
        } else if (i > 0 && !cut && (a[0] != '-' || a[1] == '\0')) {
            out[n++] = (char *)"--";
            cut = 1;
        } else if (i > 0 && !cut && cli_opt_takes_next(&record_spec, a) && i + 1 < argc) {
            out[n++] = argv[i++];
            a = argv[i];
        }
        out[n++] = (char *)a;
    }
    out[n] = NULL;
    return n;
}

const cli_command_t cli_cmd_record = {
    "record",
    record_start,
    record_args,
    "run a command and record the traces of all its processes (trace manager)",
    "fxt record [options] -- CMD [ARGS...]   |   fxt record [options] --attach",
    "Run CMD with FXT_TRACE_MANAGER set: every process it starts that uses libfxt\n"
    "(children, shell pipelines, fork without exec) registers with this manager,\n"
    "gets the recording's configuration and hands over its trace buffer, a shared\n"
    "mapping. The manager collects each process's records when it exits, crashes\n"
    "or when recording stops (CMD's end, --duration, Ctrl-C/SIGTERM), drains\n"
    "streaming buffers while they fill, and writes one archive: per process a\n"
    "provider \"name (pid)\" with its threads, records, losses and how it ended.\n"
    "A summary per process goes to stderr. See docs/manager.md.\n",
    &record_spec,
    "SIGINT/SIGTERM: recording stops once CMD ends (at most 2 s later); a signal\n"
    "sent to fxt record by another process is forwarded to CMD; a second one stops\n"
    "at once. exit status: CMD's (128+N when killed by signal N); with --attach 0;\n"
    "2 usage error, 3 I/O error, 4 out of memory or an internal limit\n",
};
