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

#define MAX_CMD_ARGS 4096

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
} record_config_t;

/*
 * --duration T: a bare number is seconds, as for timeout(1) (read as nanoseconds, "8" stopped
 * a recording at once); or with a unit: ns, us, ms, s, m, h. Zero is refused: it would
 * record nothing.
 */
static int parse_duration(void *config, const char *v, char *err, size_t errlen) {
    record_config_t *cfg = config;
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
        ok = cli_parse_ns(buf, &ns) == 0 && ns <= UINT64_MAX / mul && ns > 0;
    }
    if (!ok) {
        snprintf(err, errlen, "a duration > 0: seconds, or with a unit: 500ms, 2.5s, 10m, 1h");
        return -1;
    }
    cfg->duration_ns = ns * mul;
    cfg->has_duration = 1;
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

static int record_run(const record_config_t *cfg) {
    if (cfg->ncmd == 0 && !cfg->attach) {
        fprintf(stderr, "fxt record: missing CMD (or --attach)\n");
        return CLI_EXIT_USAGE;
    }
    if (cfg->ncmd > 0 && cfg->attach) {
        fprintf(stderr, "fxt record: --attach takes no CMD\n");
        return CLI_EXIT_USAGE;
    }
    const char *path = cfg->out ? cfg->out : "record.fxt";
    char err[512];
    cli_output_t *out;
    /* in place: the archive must survive fxt itself being killed (cli_io.h) */
    int orc = cli_output_open_flags(path, cfg->compress, CLI_OUTPUT_IN_PLACE, &out, err, sizeof err);
    if (orc != 0) {
        fprintf(stderr, "fxt record: %s\n", err);
        return orc;
    }
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = cli_output_sink(out);
    mc.mode = (fxt_buffer_mode)cfg->mode;
    mc.buffer_size = (size_t)cfg->buffer_size;
    mc.categories = cfg->categories;
    mc.clock = cfg->clock == 1 ? FXT_CLOCK_MONOTONIC : cfg->clock == 2 ? FXT_CLOCK_TSC : FXT_CLOCK_AUTO;
    mc.socket_path = cfg->socket;
    fxt_manager_t *m;
    fxt_status st = fxt_manager_create(&mc, &m);
    if (st != FXT_OK) {
        fprintf(stderr, "fxt record: cannot start the trace manager%s%s: %s\n", cfg->socket ? " at " : "",
                cfg->socket ? cfg->socket : "", st == FXT_E_IO ? strerror(errno) : fxt_status_str(st));
        cli_output_close(out, 1);
        return st == FXT_E_INVALID_ARG ? CLI_EXIT_USAGE : CLI_EXIT_IO;
    }
    /* orphaned descendants are reparented to us: their exit status tells how they ended */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    record_sched_t *sched = NULL;
    /* any run removes what a killed --sched run left in the kernel (docs/manager.md) */
    record_sched_sweep();
    if (cfg->sched != 0) {
        /* the kernel's events on the archive's clock, so they line up with the providers' */
        int is_tsc = 0;
        record_sched_options_t so = RECORD_SCHED_OPTIONS_INIT;
        so.ticks_per_second = fxt_manager_ticks_per_second(m, &is_tsc);
        so.clock = is_tsc ? RECORD_SCHED_CLOCK_TSC : RECORD_SCHED_CLOCK_MONO;
        so.tree_only = cfg->sched == 2;
        so.named = provider_named;
        so.named_ctx = m;
        if (record_sched_start(&so, &sched, err, sizeof err) != FXT_OK) {
            fprintf(stderr, "fxt record: --sched: %s; recording the processes' own traces only\n", err);
            sched = NULL;
        }
    }
    pid_t child = -1;
    if (cfg->attach) {
        fprintf(stderr, "fxt record: recording; processes join with %s=%s\n", FXT_MANAGER_ENV,
                fxt_manager_socket_path(m));
    } else {
        child = start_cmd(cfg, fxt_manager_socket_path(m));
        if (child < 0) {
            fprintf(stderr, "fxt record: cannot start %s: %s\n", cfg->cmd[0], strerror(errno));
            record_sched_destroy(sched);
            fxt_manager_destroy(m);
            cli_output_close(out, 1);
            return CLI_EXIT_IO;
        }
        if (sched != NULL) {
            record_sched_set_root(sched, (int)child);
        }
    }
    uint64_t t0 = now_ns(), child_end = 0, sig_deadline = 0;
    int child_status = 0, child_done = 0, seen_signals = 0;
    for (;;) {
        st = fxt_manager_poll(m, 20);
        /* what is written stays readable if fxt record itself is killed */
        fxt_writer_flush(fxt_manager_writer(m));
        if (st != FXT_OK) {
            break;
        }
        int ws;
        pid_t pid;
        while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
            fxt_manager_note_exit(m, (uint64_t)pid, ws);
            if (pid == child) {
                child_done = 1;
                child_status = ws;
                child_end = now_ns();
            }
        }
        uint64_t now = now_ns();
        if (g_signals != seen_signals) {
            seen_signals = g_signals;
            if (seen_signals > 1 || child < 0 || child_done) {
                break; /* a second Ctrl-C: stop now */
            }
            if (g_from_process) {
                kill(child, g_signal);
            }
            sig_deadline = now + 2000000000u; /* give CMD 2 s to end */
        }
        if (sig_deadline != 0 && now > sig_deadline) {
            break;
        }
        if (cfg->has_duration && now - t0 >= cfg->duration_ns) {
            break;
        }
        /* CMD ended: the processes it left get 0.5 s to end their sessions */
        if (child_done && (fxt_manager_connected(m) == 0 || now - child_end > 500000000u)) {
            break;
        }
    }
    fxt_status pst = st;
    st = fxt_manager_stop(m);
    if (sched != NULL) {
        /* the kernel's provider section, after the processes' */
        record_sched_summary_t sum;
        memset(&sum, 0, sizeof sum);
        fxt_status kst =
            record_sched_finish(sched, fxt_manager_writer(m), fxt_manager_next_provider_id(m), &sum);
        record_sched_destroy(sched);
        if (kst != FXT_OK) {
            fprintf(stderr, "fxt record: --sched: writing the kernel's records: %s\n", fxt_status_str(kst));
            if (st == FXT_OK) {
                st = kst;
            }
        } else {
            fprintf(stderr,
                    "fxt record: kernel: %" PRIu64 " context switches, %" PRIu64 " wakeups, %" PRIu64
                    " tasks, %" PRIu64 " events lost\n",
                    sum.switches, sum.wakeups, sum.tasks, sum.lost);
        }
    }
    fxt_status fst = fxt_manager_finish(m);
    if (st == FXT_OK) {
        st = pst != FXT_OK ? pst : fst;
    }
    if (cli_output_close(out, st != FXT_OK) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    print_summary(m, path);
    {
        uint64_t events = 0;
        size_t np = fxt_manager_provider_count(m);
        for (size_t i = 0; i < np; i++) {
            fxt_manager_provider_t p;
            fxt_manager_get_provider(m, i, &p);
            events += p.events;
        }
        explain_empty(cfg, np, events);
    }
    fxt_manager_destroy(m);
    if (st != FXT_OK) {
        fprintf(stderr, "fxt record: writing %s: %s\n", path, fxt_status_str(st));
    }
    if (child > 0 && !child_done) {
        /* recording stopped before CMD ended (--duration, signals): end it, SIGTERM and 5 s
         * to exit; after a second signal, or one that comes during those 5 s, SIGKILL now */
        kill(child, SIGTERM);
        int signals = g_signals;
        for (int i = 0;
             i < 500 && signals < 2 && g_signals == signals && waitpid(child, &child_status, WNOHANG) == 0;
             i++) {
            struct timespec d = {0, 10000000};
            nanosleep(&d, NULL);
        }
        if (waitpid(child, &child_status, WNOHANG) == 0) {
            kill(child, SIGKILL);
            waitpid(child, &child_status, 0);
        }
        child_done = 1;
    }
    if (st != FXT_OK) {
        return st == FXT_E_IO ? CLI_EXIT_IO : CLI_EXIT_LIMIT;
    }
    if (child_done) {
        return WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 128 + WTERMSIG(child_status);
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

static int record_main(int argc, char **argv) {
    static record_config_t cfg; /* 32 KiB of argument slots: kept off the stack */
    static char *args[MAX_CMD_ARGS + 64];
    memset(&cfg, 0, sizeof cfg);
    /* `fxt record prog -x`, like `fxt record -- prog -x`: CMD's own options are
     * not fxt's, so everything from the first argument that is not an option on */
    int n = 0, cut = 0;
    for (int i = 0; i < argc && n < (int)(sizeof args / sizeof args[0]) - 1; i++) {
        const char *a = argv[i];
        if (i > 0 && !cut && strcmp(a, "--") == 0) {
            cut = 1;
        } else if (i > 0 && !cut && (a[0] != '-' || a[1] == '\0')) {
            args[n++] = (char *)"--";
            cut = 1;
        } else if (i > 0 && !cut && cli_opt_takes_next(&record_spec, a) && i + 1 < argc) {
            args[n++] = argv[i++];
            a = argv[i];
        }
        args[n++] = (char *)a;
    }
    args[n] = NULL;
    int rc = cli_parse(&record_spec, n, args, &cfg);
    return rc != 0 ? rc : record_run(&cfg);
}

const cli_command_t cli_cmd_record = {
    "record",
    record_main,
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
