/* SPDX-License-Identifier: MIT */
/*
 * A traced program for the `fxt record` tests (tests/cli/record/). The session
 * starts from the environment at the first event (FXT_TRACE_MANAGER under
 * fxt record, else FXT_TRACE_OUTPUT).
 *
 *   record_prog emit K T END     T threads ("worker-<j>") each emit K instants
 *                                test/ev {seq, thread}; then END: exit, _exit,
 *                                abort, segv, or hang (prints "ready PID", waits
 *                                to be killed); own-segv: a SIGSEGV handler of the
 *                                program's own (installed before the first event)
 *                                says "own handler" and _exit(3)s, then segv;
 *                                own-flush: the same handler calls
 *                                fxt_session_flush_on_crash() and re-raises
 *   record_prog ring N ROUNDS    N processes (fork, no exec) pass a token round
 *                                a ring of pipes: test/send {token} before each
 *                                write, test/recv {token} after each read
 *   record_prog fork K           K events, fork (no exec), K more in each process
 *   RECORD_PROG_ALERT_EVERY=N    emit: thread 0 raises FXT_ALERT(RECORD_PROG_ALERT_NAME,
 *                                default frame_drop) after each N-th event (seq N-1,
 *                                2N-1, ...), then sleeps RECORD_PROG_ALERT_SLEEP_MS (60);
 *                                RECORD_PROG_ALERT_KILL=1: SIGKILLs itself right after
 *                                the first alert (dies while the manager snapshots)
 *   RECORD_PROG_PACE_US=U        emit: every thread sleeps U us after each event
 *   RECORD_PROG_PROGRESS=FILE    emit: after each test/ev, thread j stores how many
 *                                it emitted (a uint64 at offset 8*j of FILE, shared
 *                                mapping), so that a test that kills the program
 *                                knows which events were committed (only while the
 *                                session is active: a crash handler ends it)
 *   record_prog race K T         T threads make the process's first trace calls at
 *                                once (thread 0 starts with test/start), K test/ev
 *                                {seq, thread} each; RECORD_PROG_SLOW_START=1 makes
 *                                the session start 30 ms slower (a getenv() that
 *                                sleeps for FXT_TRACE_CATEGORIES), as in issue 24.1
 *   record_prog forkfirst K N    fork N children before any trace call; every
 *                                process then emits K test/ev {seq, thread 0}
 *   record_prog exec K N         K test/ev {seq, thread N}, then exec itself with
 *                                N-1 (down to 0): one image per exec, one pid
 *   record_prog named NAME K     K test/ev, then fxt_set_process_name(NAME) (the
 *                                session runs already), then K more ("-": no call)
 *   record_prog flow             a flow across processes: the parent begins
 *                                test/handoff (an fxt_unique_id()) inside duration
 *                                test/send, forks, and the child ends it inside
 *                                duration test/recv
 */
#define _GNU_SOURCE 1
#include <fxt/trace.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long g_k;
static uint64_t *g_progress;  /* RECORD_PROG_PROGRESS: events emitted per thread */
static int g_slow_start = -1; /* RECORD_PROG_SLOW_START read (-1: not yet) */

/* libc's lookup (environ), slowed for FXT_TRACE_CATEGORIES when asked: this
 * definition wins over libc's for the (static) engine too */
char *getenv(const char *name) {
    size_t n = strlen(name);
    const char *v = NULL;
    for (char **e = environ; e != NULL && *e != NULL && v == NULL; e++) {
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') {
            v = *e + n + 1;
        }
    }
    if (strcmp(name, "FXT_TRACE_CATEGORIES") == 0 && __atomic_load_n(&g_slow_start, __ATOMIC_RELAXED) == 1) {
        struct timespec ts = {0, 30000000L};
        nanosleep(&ts, NULL);
    }
    return (char *)v;
}

static long g_alert_every, g_alert_sleep_ms = 60, g_pace_us;
static int g_alert_kill;
static const char *g_alert_name = "frame_drop";

static void sleep_us(long us) {
    struct timespec d = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&d, NULL);
}

static void read_alert_env(void) {
    const char *v;
    if ((v = getenv("RECORD_PROG_ALERT_EVERY")) != NULL) {
        g_alert_every = atol(v);
    }
    if ((v = getenv("RECORD_PROG_ALERT_SLEEP_MS")) != NULL) {
        g_alert_sleep_ms = atol(v);
    }
    if ((v = getenv("RECORD_PROG_ALERT_NAME")) != NULL && v[0] != '\0') {
        g_alert_name = v;
    }
    if ((v = getenv("RECORD_PROG_PACE_US")) != NULL) {
        g_pace_us = atol(v);
    }
    g_alert_kill = (v = getenv("RECORD_PROG_ALERT_KILL")) != NULL && strcmp(v, "1") == 0;
}

static void *worker(void *arg) {
    long j = (long)(intptr_t)arg;
    char name[32];
    snprintf(name, sizeof name, "worker-%ld", j);
    fxt_set_thread_name(name);
    for (long i = 0; i < g_k; i++) {
        FXT_INSTANT("test", "ev", FXT_I64("seq", i), FXT_I64("thread", j));
        /* committed: recorded or counted as dropped. A caught fatal signal ends a standalone
         * session (its handler writes the trace) while other threads still run: an event
         * that returns after that may not be in the trace; one that returns while the
         * session is still active was committed before (the session never restarts) */
        if (g_progress != NULL && fxt_session_active()) {
            __atomic_store_n(&g_progress[j], (uint64_t)i + 1, __ATOMIC_RELEASE);
        }
        if (g_alert_every > 0 && j == 0 && (i + 1) % g_alert_every == 0) {
            FXT_ALERT(g_alert_name);
            if (g_alert_kill) {
                raise(SIGKILL);
            }
            sleep_us(g_alert_sleep_ms * 1000);
        }
        if (g_pace_us > 0) {
            sleep_us(g_pace_us);
        }
    }
    return NULL;
}

static void map_progress(void) {
    const char *path = getenv("RECORD_PROG_PROGRESS");
    if (path == NULL || path[0] == '\0') {
        return;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, 64 * sizeof(uint64_t)) != 0) {
        perror(path);
        exit(2);
    }
    void *m = mmap(NULL, 64 * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    close(fd);
    g_progress = m;
}

/* A program's own SIGSEGV handler (async-signal-safe). */
static int g_own_flush;
static void own_handler(int sig) {
    static const char msg[] = "own handler\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    if (!g_own_flush) {
        _exit(3);
    }
    fxt_session_flush_on_crash(sig); /* the trace, then the default action */
    signal(sig, SIG_DFL);
    raise(sig);
}

static int emit(long k, long nt, const char *end) {
    g_k = k;
    map_progress();
    read_alert_env();
    if (strncmp(end, "own-", 4) == 0) {
        g_own_flush = strcmp(end, "own-flush") == 0;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = own_handler;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, NULL);
        end = "segv";
    }
    FXT_INSTANT("test", "start"); /* starts the session (and registers) on the main thread */
    pthread_t th[64];
    nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
    for (long j = 0; j < nt; j++) {
        pthread_create(&th[j], NULL, worker, (void *)(intptr_t)j);
    }
    for (long j = 0; j < nt; j++) {
        pthread_join(th[j], NULL);
    }
    if (strcmp(end, "_exit") == 0) {
        _exit(0);
    } else if (strcmp(end, "abort") == 0) {
        abort();
    } else if (strcmp(end, "segv") == 0) {
        volatile int *volatile p = NULL;
        *p = 1;
    } else if (strcmp(end, "hang") == 0) {
        printf("ready %ld\n", (long)getpid());
        fflush(stdout);
        for (;;) {
            pause();
        }
    }
    return 0;
}

static int ring(int n, long rounds) {
    int fds[64][2];
    n = n < 2 ? 2 : n > 64 ? 64 : n;
    FXT_INSTANT("test", "start"); /* the parent traces before it forks */
    for (int i = 0; i < n; i++) {
        if (pipe(fds[i]) != 0) {
            return 1;
        }
    }
    int me = 0;
    for (int i = 1; i < n; i++) {
        pid_t p = fork();
        if (p == 0) {
            me = i;
            break;
        }
    }
    int in = fds[me][0], out = fds[(me + 1) % n][1];
    long v = 0;
    for (long r = 0; r < rounds; r++) {
        if (me == 0) {
            FXT_INSTANT("test", "send", FXT_I64("token", v));
            if (write(out, &v, sizeof v) != (ssize_t)sizeof v) {
                return 1;
            }
            if (read(in, &v, sizeof v) != (ssize_t)sizeof v) {
                return 1;
            }
            FXT_INSTANT("test", "recv", FXT_I64("token", v));
            v++;
        } else {
            if (read(in, &v, sizeof v) != (ssize_t)sizeof v) {
                return 1;
            }
            FXT_INSTANT("test", "recv", FXT_I64("token", v));
            v++;
            FXT_INSTANT("test", "send", FXT_I64("token", v));
            if (write(out, &v, sizeof v) != (ssize_t)sizeof v) {
                return 1;
            }
        }
    }
    if (me == 0) {
        while (wait(NULL) > 0) {
        }
    }
    return 0;
}

static int forked(long k) {
    for (long i = 0; i < k; i++) {
        FXT_INSTANT("test", "parent_before", FXT_I64("seq", i));
    }
    pid_t p = fork();
    for (long i = 0; i < k; i++) {
        FXT_INSTANT("test", p == 0 ? "child" : "parent_after", FXT_I64("seq", i));
    }
    if (p > 0) {
        waitpid(p, NULL, 0);
    }
    return 0;
}

static pthread_barrier_t g_bar;

static void *race_worker(void *arg) {
    long j = (long)(intptr_t)arg;
    pthread_barrier_wait(&g_bar);
    if (j == 0) {
        FXT_INSTANT("test", "start");
    }
    for (long i = 0; i < g_k; i++) {
        FXT_INSTANT("test", "ev", FXT_I64("seq", i), FXT_I64("thread", j));
    }
    return NULL;
}

static int race(long k, long nt) {
    const char *slow = getenv("RECORD_PROG_SLOW_START");
    __atomic_store_n(&g_slow_start, slow != NULL && strcmp(slow, "1") == 0, __ATOMIC_RELAXED);
    g_k = k;
    pthread_t th[64];
    nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
    pthread_barrier_init(&g_bar, NULL, (unsigned)nt);
    for (long j = 0; j < nt; j++) {
        pthread_create(&th[j], NULL, race_worker, (void *)(intptr_t)j);
    }
    for (long j = 0; j < nt; j++) {
        pthread_join(th[j], NULL);
    }
    return 0;
}

static int forkfirst(long k, long n) {
    pid_t me = 0;
    for (long c = 0; c < n; c++) {
        me = fork();
        if (me < 0) {
            return 1;
        }
        if (me == 0) {
            break;
        }
    }
    for (long i = 0; i < k; i++) {
        FXT_INSTANT("test", "ev", FXT_I64("seq", i), FXT_I64("thread", 0));
    }
    if (me != 0) {
        int bad = 0, status;
        while (wait(&status) > 0) {
            bad += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        }
        return bad != 0;
    }
    return 0;
}

static int exec_chain(const char *self, long k, long n) {
    for (long i = 0; i < k; i++) {
        FXT_INSTANT("test", "ev", FXT_I64("seq", i), FXT_I64("thread", n));
    }
    if (n <= 0) {
        return 0;
    }
    /* exec ends this image like _exit: its session must be written first */
    fxt_session_stop();
    char ks[32], ns[32];
    snprintf(ks, sizeof ks, "%ld", k);
    snprintf(ns, sizeof ns, "%ld", n - 1);
    execl("/proc/self/exe", self, "exec", ks, ns, (char *)NULL);
    return 1;
}

static int named(const char *name, long k) {
    for (long i = 0; i < k; i++) {
        FXT_INSTANT("test", "ev", FXT_I64("seq", i), FXT_I64("thread", 0));
    }
    if (strcmp(name, "-") != 0 && fxt_set_process_name(name) != FXT_OK) {
        fprintf(stderr, "record_prog: fxt_set_process_name(%s) refused\n", name);
        return 1;
    }
    for (long i = k; i < 2 * k; i++) {
        FXT_INSTANT("test", "ev", FXT_I64("seq", i), FXT_I64("thread", 0));
    }
    return 0;
}

static int flow(void) {
    uint64_t id = fxt_unique_id();
    FXT_DURATION_BEGIN("test", "send");
    FXT_FLOW_BEGIN("test", "handoff", id);
    FXT_DURATION_END("test", "send");
    pid_t p = fork();
    if (p < 0) {
        return 1;
    }
    if (p == 0) {
        FXT_DURATION_BEGIN("test", "recv");
        FXT_FLOW_END("test", "handoff", id);
        FXT_DURATION_END("test", "recv");
        return 0;
    }
    int status;
    return waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "named") == 0) {
        return named(argv[2], atol(argv[3]));
    }
    if (argc == 2 && strcmp(argv[1], "flow") == 0) {
        return flow();
    }
    if (argc == 4 && strcmp(argv[1], "race") == 0) {
        return race(atol(argv[2]), atol(argv[3]));
    }
    if (argc == 4 && strcmp(argv[1], "forkfirst") == 0) {
        return forkfirst(atol(argv[2]), atol(argv[3]));
    }
    if (argc == 4 && strcmp(argv[1], "exec") == 0) {
        return exec_chain(argv[0], atol(argv[2]), atol(argv[3]));
    }
    if (argc == 5 && strcmp(argv[1], "emit") == 0) {
        return emit(atol(argv[2]), atol(argv[3]), argv[4]);
    }
    if (argc == 4 && strcmp(argv[1], "ring") == 0) {
        return ring(atoi(argv[2]), atol(argv[3]));
    }
    if (argc == 3 && strcmp(argv[1], "fork") == 0) {
        return forked(atol(argv[2]));
    }
    fprintf(
        stderr,
        "usage: record_prog emit K T END | ring N ROUNDS | fork K | race K T | forkfirst K N | exec K N | "
        "named NAME K | flow\n");
    return 2;
}
