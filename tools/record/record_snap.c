/* SPDX-License-Identifier: MIT */
/*
 * fxt record's flight recorder (record_snap.h, docs/manager.md#triggers). A trigger
 * opens a post-window (--post); when it is over the manager copies every provider's
 * buffer at once and writes a snapshot archive, under a hidden temporary name renamed
 * into place when whole: a snapshot file is never seen half-written. Triggers that come
 * while one waits for its post-window go into that snapshot (counted).
 */
#define _GNU_SOURCE 1 /* strsignal */
#include "record_snap.h"

#if defined(__linux__)

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_io.h"

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Where NAME.EXT takes its number: before ".fxt" (then any compression suffix), else
 * before a compression suffix, else at the end. */
static size_t number_at(const char *out) {
    const char *base = strrchr(out, '/');
    base = base != NULL ? base + 1 : out;
    const char *fxt = strstr(base, ".fxt");
    if (fxt != NULL && fxt > base) {
        return (size_t)(fxt - out);
    }
    static const char *const comp[] = {".gz", ".zst", ".zstd"};
    size_t n = strlen(out);
    for (size_t i = 0; i < sizeof comp / sizeof comp[0]; i++) {
        size_t k = strlen(comp[i]);
        if (n > k && strcmp(out + n - k, comp[i]) == 0 && out + n - k > base) {
            return n - k;
        }
    }
    return n;
}

int record_snap_path(const char *out, unsigned n, char *buf, size_t cap) {
    char num[16];
    if (n == 0) {
        snprintf(num, sizeof num, "final");
    } else {
        snprintf(num, sizeof num, "%u", n);
    }
    size_t k = 0;
    int templ = strstr(out, "%n") != NULL;
    if (!templ && n == 0) {
        k = (size_t)snprintf(buf, cap, "%s", out);
        return k < cap ? 0 : -1;
    }
    if (!templ) {
        size_t at = number_at(out);
        k = (size_t)snprintf(buf, cap, "%.*s.%s%s", (int)at, out, num, out + at);
        return k < cap ? 0 : -1;
    }
    for (const char *p = out; *p != '\0'; p++) {
        const char *piece = p[0] == '%' && p[1] == 'n' ? num : NULL;
        size_t len = piece != NULL ? strlen(piece) : 1;
        if (k + len >= cap) {
            return -1;
        }
        memcpy(buf + k, piece != NULL ? piece : p, len);
        k += len;
        p += piece != NULL;
    }
    buf[k] = '\0';
    return 0;
}

int record_snap_signal(const char *name) {
    static const struct {
        const char *name;
        int sig;
    } sigs[] = {
        {"HUP", SIGHUP}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"ALRM", SIGALRM}, {"WINCH", SIGWINCH}};
    if (strncmp(name, "SIG", 3) == 0) {
        name += 3;
    }
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        if (strcmp(name, sigs[i].name) == 0) {
            return sigs[i].sig;
        }
    }
    char *end;
    long v = strtol(name, &end, 10);
    /* INT and TERM stop the recording; KILL, STOP, CHLD, the fatal ones cannot be it */
    int taken = v == SIGINT || v == SIGTERM || v == SIGKILL || v == SIGSTOP || v == SIGCHLD || v == SIGSEGV ||
                v == SIGBUS || v == SIGFPE || v == SIGILL || v == SIGABRT || v == SIGPIPE;
    return end != name && *end == '\0' && v > 0 && v < NSIG && !taken ? (int)v : -1;
}

/* "alert frame_drop from game (4242)", "signal 10 (User defined signal 1)", ... */
static void describe(const fxt_manager_t *m, const fxt_manager_trigger_t *t, char *out, size_t cap) {
    char who[96] = "";
    size_t n = fxt_manager_provider_count(m);
    for (size_t i = n; i-- > 0 && t->pid != 0;) {
        fxt_manager_provider_t p;
        fxt_manager_get_provider(m, i, &p);
        if (p.pid == t->pid) {
            snprintf(who, sizeof who, "%s (%" PRIu64 ")", p.name, p.pid);
            break;
        }
    }
    if (t->kind == FXT_TRIGGER_ALERT) {
        snprintf(out, cap, "alert %.63s from %s", t->name, who);
    } else if (t->kind == FXT_TRIGGER_CRASH) {
        snprintf(out, cap, "crash of %s, signal %d (%s)", who, t->signal, strsignal(t->signal));
    } else {
        snprintf(out, cap, "signal %d (%s)", t->signal, strsignal(t->signal));
    }
}

/* Write snapshot number s->taken + 1 under a temporary name, then rename it into place. */
static void save(record_snap_t *s, fxt_manager_t *m) {
    char path[4096], tmp[4200], err[512], why[256];
    unsigned n = s->taken + s->failed + 1;
    describe(m, &s->why, why, sizeof why);
    s->pending = 0;
    if (record_snap_path(s->out, n, path, sizeof path) != 0) {
        fprintf(stderr, "fxt record: snapshot %u (%s): the output name is too long\n", n, why);
        s->failed++;
        return;
    }
    const char *slash = strrchr(path, '/');
    size_t dlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
    snprintf(tmp, sizeof tmp, "%.*s.%s.partial", (int)dlen, path, path + dlen);
    cli_output_t *o;
    /* the final name's compression, whatever the temporary name says */
    const char *fmt = s->compress;
    size_t pl = strlen(path);
    if (fmt == NULL) {
        fmt = pl > 3 && strcmp(path + pl - 3, ".gz") == 0 ? "gzip"
              : (pl > 4 && strcmp(path + pl - 4, ".zst") == 0) ||
                      (pl > 5 && strcmp(path + pl - 5, ".zstd") == 0)
                  ? "zstd"
                  : "none";
    }
    if (cli_output_open_flags(tmp, fmt, CLI_OUTPUT_IN_PLACE, &o, err, sizeof err) != 0) {
        fprintf(stderr, "fxt record: snapshot %u (%s): %s\n", n, why, err);
        s->failed++;
        return;
    }
    fxt_snapshot_info_t info;
    fxt_status st = fxt_manager_snapshot(m, &s->why, s->cut, cli_output_sink(o), &info);
    int bad = cli_output_close(o, st != FXT_OK) != 0 || st != FXT_OK;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        fprintf(stderr, "fxt record: snapshot %u (%s): writing %s: %s\n", n, why, path,
                st != FXT_OK ? fxt_status_str(st) : strerror(e));
        s->failed++;
        return;
    }
    s->taken++;
    int is_tsc = 0;
    uint64_t tps = fxt_manager_ticks_per_second(m, &is_tsc);
    double window = info.last_ticks > info.first_ticks
                        ? (double)(info.last_ticks - info.first_ticks) / (double)tps * 1e3
                        : 0;
    double before = info.last_ticks > 0 && s->cut > info.first_ticks
                        ? (double)(s->cut - info.first_ticks) / (double)tps * 1e3
                        : 0;
    fprintf(stderr,
            "fxt record: snapshot %u (%s): %" PRIu32 " providers, %" PRIu64 " events, %" PRIu64
            " bytes, %.3f ms covered (%.3f ms before the cut), %" PRIu64 " chunks overwritten, %" PRIu64
            " while copying (%.1f ms), %" PRIu64 " dropped, saved %.1f ms after the trigger -> %s\n",
            n, why, info.providers, info.events, info.bytes, window, before, info.overwritten + info.torn,
            info.torn, (double)info.copy_ns / 1e6, info.dropped, (double)(mono_ns() - s->learnt_ns) / 1e6,
            path);
    if (s->merged > 0) {
        fprintf(stderr, "fxt record: snapshot %u also answers %u later trigger%s of its post-window\n", n,
                s->merged, s->merged == 1 ? "" : "s");
        s->merged = 0;
    }
}

/* A trigger: a snapshot after the post-window, unless one waits already or the limit is reached. */
static void queue(record_snap_t *s, fxt_manager_t *m, const fxt_manager_trigger_t *t, uint64_t now_ns) {
    if (t->action == FXT_TRIGGER_STOP) {
        char why[256];
        describe(m, t, why, sizeof why);
        fprintf(stderr, "fxt record: %s: stopping the recording (--trigger %.63s:stop)\n", why, t->name);
        s->stop = 1;
        return;
    }
    if (s->pending) {
        s->merged++;
        return;
    }
    if (s->max != 0 && s->taken + s->failed >= s->max) {
        s->skipped++;
        fxt_manager_set_on_crash(m, 0); /* no snapshot will hold a crashed buffer any more */
        fxt_manager_hold(m, 0);
        return;
    }
    int is_tsc = 0;
    uint64_t tps = fxt_manager_ticks_per_second(m, &is_tsc);
    s->why = *t;
    s->pending = 1;
    s->learnt_ns = now_ns;
    s->due_ns = now_ns + s->post_ns;
    /* the post-window in the archive's ticks (ns * rate / 1e9, without overflow) */
    uint64_t post = s->post_ns / 1000000000u * tps + s->post_ns % 1000000000u * tps / 1000000000u;
    s->cut = t->ticks + post;
}

void record_snap_raise_signal(record_snap_t *s, fxt_manager_t *m, int sig, uint64_t now_ns) {
    fxt_manager_trigger_t t;
    memset(&t, 0, sizeof t);
    t.kind = FXT_TRIGGER_SIGNAL;
    t.action = FXT_TRIGGER_SNAPSHOT;
    t.ticks = fxt_manager_now(m);
    t.signal = sig;
    queue(s, m, &t, now_ns);
}

void record_snap_poll(record_snap_t *s, fxt_manager_t *m, uint64_t now_ns, int flush) {
    fxt_manager_trigger_t t;
    while (fxt_manager_take_trigger(m, &t) == FXT_OK) {
        queue(s, m, &t, now_ns);
    }
    if (s->pending && (flush || now_ns >= s->due_ns)) {
        save(s, m);
    }
}

void record_snap_summary(const record_snap_t *s, const fxt_manager_t *m) {
    uint64_t lost = 0;
    fxt_manager_triggers_lost(m, &lost);
    if (s->taken + s->failed + s->skipped == 0 && lost == 0) {
        return;
    }
    fprintf(stderr, "fxt record: %u snapshot%s saved", s->taken, s->taken == 1 ? "" : "s");
    if (s->failed > 0) {
        fprintf(stderr, ", %u failed", s->failed);
    }
    if (s->skipped > 0) {
        fprintf(stderr, ", %u trigger%s ignored past --max-snapshots %u", s->skipped,
                s->skipped == 1 ? "" : "s", s->max);
    }
    if (lost > 0) {
        fprintf(stderr, ", %" PRIu64 " trigger%s lost (raised while 64 waited to be taken)", lost,
                lost == 1 ? "" : "s");
    }
    fputc('\n', stderr);
}

#endif
