/* SPDX-License-Identifier: MIT */
/* Scheduling events kept between capture and archive, and their FXT encoding. */
#include "sched_model.h"

#include <fxt/format.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(sched_ev_t) == 32, "an event stays 32 bytes: the log holds millions");

void sched_model_init(sched_model_t *m) {
    memset(m, 0, sizeof *m);
    cli_map_init(&m->tasks, sizeof(sched_task_t));
}

void sched_model_free(sched_model_t *m) {
    for (size_t i = 0; i < m->nchunks; i++) {
        free(m->chunk[i]);
    }
    free(m->chunk);
    cli_map_free(&m->tasks);
    memset(m, 0, sizeof *m);
}

int sched_model_add(sched_model_t *m, const sched_ev_t *ev) {
    /* every task an event names gets kernel objects, even one never switched in */
    sched_model_task(m, ev->a, 1);
    if (ev->kind == SCHED_EV_SWITCH || ev->kind == SCHED_EV_FORK) {
        sched_model_task(m, ev->b, 1);
    }
    size_t at = (size_t)(m->n % SCHED_CHUNK);
    if (at == 0 && m->n / SCHED_CHUNK == m->nchunks) {
        if (m->nchunks == m->chunk_cap) {
            size_t cap = m->chunk_cap ? m->chunk_cap * 2 : 16;
            sched_ev_t **c = realloc(m->chunk, cap * sizeof *c);
            if (c == NULL) {
                goto oom;
            }
            m->chunk = c;
            m->chunk_cap = cap;
        }
        m->chunk[m->nchunks] = malloc(SCHED_CHUNK * sizeof(sched_ev_t));
        if (m->chunk[m->nchunks] == NULL) {
            goto oom;
        }
        m->nchunks++;
    }
    sched_ev_t *e = &m->chunk[m->n / SCHED_CHUNK][at];
    *e = *ev;
    e->seq = (uint32_t)m->n;
    m->n++;
    return 0;
oom:
    m->oom = 1;
    m->lost++;
    return -1;
}

sched_task_t *sched_model_task(sched_model_t *m, int32_t tid, int create) {
    size_t before = m->tasks.count;
    sched_task_t *t = cli_map_get(&m->tasks, &tid, sizeof tid, create);
    if (t != NULL && m->tasks.count != before) {
        t->tgid = -1;
        t->parent = -1;
    }
    return t;
}

void sched_model_comm(sched_model_t *m, int32_t tid, const char *comm, size_t len, uint64_t ts) {
    sched_task_t *t = sched_model_task(m, tid, 1);
    if (t == NULL || (t->has_comm && ts < t->comm_ts)) {
        return; /* CPUs are drained one after another: an older name may come later */
    }
    t->comm_ts = ts;
    size_t n = 0;
    while (n < len && n < SCHED_COMM_LEN - 1 && comm[n] != '\0') {
        n++;
    }
    /* the same name is seen on every switch: compare before copying */
    if (!t->has_comm || strncmp(t->comm, comm, n) != 0 || t->comm[n] != '\0') {
        memcpy(t->comm, comm, n);
        t->comm[n] = '\0';
        t->has_comm = 1;
    }
}

uint32_t sched_out_state(int64_t prev_state) {
    uint64_t s = (uint64_t)prev_state & 0xffu; /* the preemption bit (0x100) and above: runnable */
    if (s == 0) {
        return FXT_THREAD_RUNNING; /* preempted or yielded: still runnable */
    }
    if (s & 0x1u) { /* S: interruptible sleep */
        return FXT_THREAD_BLOCKED;
    }
    if (s & 0x2u) { /* D: uninterruptible sleep */
        return FXT_THREAD_BLOCKED;
    }
    if (s & 0xcu) { /* T, t: stopped, traced */
        return FXT_THREAD_SUSPENDED;
    }
    if (s & 0x10u) { /* X: dead */
        return FXT_THREAD_DEAD;
    }
    if (s & 0x20u) { /* Z: zombie, exiting */
        return FXT_THREAD_DYING;
    }
    return FXT_THREAD_BLOCKED; /* P (parked), I (idle kthread) */
}

/* ---- writing ------------------------------------------------------------------ */

static int32_t task_tgid(const sched_task_t *t, int32_t tid) { return t->tgid >= 0 ? t->tgid : tid; }

sched_task_t *sched_model_task_at(sched_model_t *m, size_t i, int32_t *tid) {
    const char *key;
    sched_task_t *t = cli_map_at(&m->tasks, i, &key, NULL);
    memcpy(tid, key, sizeof *tid);
    return t;
}

/* Mark the root and everything forked from it, transitively, and the threads of those processes. */
static void mark_tree(sched_model_t *m, int32_t root) {
    sched_task_t *r = sched_model_task(m, root, 0);
    if (r != NULL) {
        r->in_tree = 1;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < m->tasks.count; i++) {
            int32_t tid;
            sched_task_t *t = sched_model_task_at(m, i, &tid);
            if (t->in_tree) {
                continue;
            }
            const sched_task_t *p = t->parent >= 0 ? sched_model_task(m, t->parent, 0) : NULL;
            const sched_task_t *g = t->tgid >= 0 && t->tgid != tid ? sched_model_task(m, t->tgid, 0) : NULL;
            if ((p != NULL && p->in_tree) || (g != NULL && g->in_tree)) {
                t->in_tree = 1;
                changed = 1;
            }
        }
    }
}

static int in_tree(sched_model_t *m, int32_t tid) {
    const sched_task_t *t = sched_model_task(m, tid, 0);
    return t != NULL && t->in_tree;
}

static int ev_cmp(const void *pa, const void *pb) {
    const sched_ev_t *a = pa, *b = pb;
    if (a->ts != b->ts) {
        return a->ts < b->ts ? -1 : 1;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A task's name: its last comm; the idle task is "swapper" on every CPU. */
static fxt_str_t task_name(const sched_task_t *t, int32_t tid, char *buf, size_t cap) {
    if (tid == 0) {
        return fxt_cstr("swapper");
    }
    if (t != NULL && t->has_comm) {
        return fxt_cstr(t->comm);
    }
    snprintf(buf, cap, "tid %d", (int)tid);
    return fxt_cstr(buf);
}

static fxt_status write_objects(sched_model_t *m, fxt_writer_t *w, const sched_write_opts_t *o,
                                uint64_t *threads) {
    int tree_only = o->tree_only;
    char buf[32];
    /* a process whose leader was never seen gets one, named after the first thread seen */
    for (size_t i = 0, n = m->tasks.count; i < n; i++) {
        int32_t tid;
        sched_task_t t = *sched_model_task_at(m, i, &tid); /* a copy: the map may grow */
        int32_t pid = task_tgid(&t, tid);
        if ((tree_only && !t.in_tree) || pid == tid || sched_model_task(m, pid, 0) != NULL) {
            continue;
        }
        sched_task_t *leader = sched_model_task(m, pid, 1);
        if (leader == NULL) {
            return FXT_E_NOMEM;
        }
        *leader = t;
        leader->tgid = pid;
        leader->parent = -1;
        leader->synthetic = 1;
    }
    /* processes first: a viewer resolves a thread's `process` koid to a known process */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < m->tasks.count; i++) {
            int32_t tid;
            const sched_task_t *t = sched_model_task_at(m, i, &tid);
            int32_t pid = task_tgid(t, tid);
            if ((tree_only && !t->in_tree) || (pass == 0 && pid != tid) || (pass == 1 && t->synthetic)) {
                continue;
            }
            *threads += pass;
            /* the kernel section comes last and readers keep an object's last name: what a
             * provider named (its process, its threads) keeps the program's name */
            uint32_t type = pass == 0 ? FXT_OBJ_PROCESS : FXT_OBJ_THREAD;
            if (o->named != NULL && o->named(o->named_ctx, type, (uint64_t)tid)) {
                continue;
            }
            fxt_arg_t arg = fxt_arg_koid(fxt_cstr("process"), (uint64_t)pid);
            fxt_status st =
                fxt_write_kernel_object(w, (uint64_t)tid, pass == 0 ? FXT_OBJ_PROCESS : FXT_OBJ_THREAD,
                                        task_name(t, tid, buf, sizeof buf), &arg, pass);
            if (st != FXT_OK) {
                return st;
            }
        }
    }
    return FXT_OK;
}

typedef struct {
    int32_t tid, prio; /* the thread the last switch written on a CPU switched in */
    int valid;
} cpu_last_t;

/*
 * One context switch record. Priorities are arguments (only the legacy record
 * had fields for them); the idle task (tid 0) gets the weight INT32_MIN, the
 * idle mark of Fuchsia's scheduler that viewers (Perfetto) honour; a switch
 * inferred from the ones around it is marked "inferred".
 */
static fxt_status write_switch(fxt_writer_t *w, uint64_t ts, uint32_t cpu, uint32_t state, int32_t out,
                               int32_t out_prio, int32_t in, int32_t in_prio, int inferred) {
    fxt_arg_t args[5];
    unsigned n = 0;
    args[n++] = fxt_arg_int32(fxt_cstr("outgoing_priority"), out_prio);
    args[n++] = fxt_arg_int32(fxt_cstr("incoming_priority"), in_prio);
    if (out == 0) {
        args[n++] = fxt_arg_int32(fxt_cstr("outgoing_weight"), INT32_MIN);
    }
    if (in == 0) {
        args[n++] = fxt_arg_int32(fxt_cstr("incoming_weight"), INT32_MIN);
    }
    if (inferred) {
        args[n++] = fxt_arg_bool(fxt_cstr("inferred"), 1);
    }
    return fxt_write_context_switch(w, ts, cpu, state, (uint64_t)out, (uint64_t)in, args, n);
}

/* The log's events stamped up to o->to (all when 0), sorted by time, in *out (malloc): the count. */
static fxt_status sorted_events(const sched_model_t *m, const sched_write_opts_t *o, sched_ev_t **out,
                                uint64_t *count) {
    sched_ev_t *ev = NULL;
    uint64_t n = 0;
    if (m->n > 0) {
        ev = malloc((size_t)m->n * sizeof *ev);
        if (ev == NULL) {
            return FXT_E_NOMEM;
        }
        for (uint64_t i = 0; i < m->n; i++) {
            ev[n] = m->chunk[i / SCHED_CHUNK][i % SCHED_CHUNK];
            n += o->to == 0 || ev[n].ts <= o->to;
        }
        qsort(ev, (size_t)n, sizeof *ev, ev_cmp);
    }
    *out = ev;
    *count = n;
    return FXT_OK;
}

/* Fork and exec tie tasks to their parent and process, in time order. */
static void tie_tasks(sched_model_t *m, const sched_ev_t *ev, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        sched_task_t *t;
        if (ev[i].kind == SCHED_EV_FORK && (t = sched_model_task(m, ev[i].b, 1)) != NULL) {
            t->parent = ev[i].a;
        } else if (ev[i].kind == SCHED_EV_EXEC && (t = sched_model_task(m, ev[i].a, 1)) != NULL) {
            t->tgid = ev[i].a; /* after exec the caller is the process's only thread, its leader */
            const sched_task_t *old = ev[i].b != ev[i].a ? sched_model_task(m, ev[i].b, 0) : NULL;
            if (old != NULL && t->parent < 0) {
                t->parent = old->parent;
            }
        }
    }
}

/* A switch (and the one inferred before it when the CPU's last switch-in does not match). */
static fxt_status emit_switch(sched_model_t *m, fxt_writer_t *w, const sched_ev_t *e,
                              const sched_write_opts_t *o, cpu_last_t *last, record_sched_summary_t *s) {
    fxt_status st = FXT_OK;
    if (o->tree_only && !in_tree(m, e->a) && !in_tree(m, e->b)) {
        return FXT_OK;
    }
    cpu_last_t *l = &last[e->cpu];
    if (e->ts < o->from) { /* before a snapshot's window: only who runs where */
        *l = (cpu_last_t){e->b, e->b_prio, 1};
        return FXT_OK;
    }
    if (l->valid && l->tid != e->a) {
        /* the CPU ran l->tid, yet this switch leaves e->a: a switch in between
         * is missing (dropped for --sched=tree, or not reported by the kernel).
         * End l->tid's slice here so that a CPU never runs two threads. */
        st = write_switch(w, e->ts, e->cpu, FXT_THREAD_RUNNING, l->tid, l->prio, e->a, e->a_prio, 1);
        s->switches++;
        s->inferred++;
    }
    if (st == FXT_OK) {
        st = write_switch(w, e->ts, e->cpu, e->out_state, e->a, e->a_prio, e->b, e->b_prio, 0);
        s->switches++;
    }
    *l = (cpu_last_t){e->b, e->b_prio, 1};
    return st;
}

/* The switches and wakeups of the sorted log; the last time seen in *last_ts. */
static fxt_status write_events(sched_model_t *m, fxt_writer_t *w, const sched_ev_t *ev, uint64_t n,
                               const sched_write_opts_t *o, record_sched_summary_t *s, uint64_t *last_ts) {
    uint32_t ncpu = 0;
    for (uint64_t i = 0; i < n; i++) {
        ncpu = ev[i].kind == SCHED_EV_SWITCH && ev[i].cpu >= ncpu && ev[i].cpu <= FXT_MAX_CPU ? ev[i].cpu + 1
                                                                                              : ncpu;
    }
    cpu_last_t *last = ncpu ? calloc(ncpu, sizeof *last) : NULL;
    if (ncpu && last == NULL) {
        return FXT_E_NOMEM;
    }
    fxt_str_t prio = fxt_cstr("priority");
    fxt_status st = FXT_OK;
    for (uint64_t i = 0; i < n && st == FXT_OK; i++) {
        const sched_ev_t *e = &ev[i];
        *last_ts = e->ts;
        if (e->cpu > FXT_MAX_CPU) { /* the records' cpu field has 16 bits: such an event is corrupt */
            continue;
        }
        if (e->kind == SCHED_EV_SWITCH) {
            st = emit_switch(m, w, e, o, last, s);
        } else if (e->kind == SCHED_EV_WAKEUP && e->ts >= o->from && (!o->tree_only || in_tree(m, e->a))) {
            fxt_arg_t arg = fxt_arg_int32(prio, e->a_prio);
            st = fxt_write_thread_wakeup(w, e->ts, e->cpu, (uint64_t)e->a, &arg, 1);
            s->wakeups++;
        }
    }
    free(last);
    return st;
}

fxt_status sched_model_write(sched_model_t *m, fxt_writer_t *w, uint32_t provider_id,
                             const sched_write_opts_t *o, record_sched_summary_t *sum) {
    record_sched_summary_t s = {0, 0, 0, 0, 0};
    sched_ev_t *ev;
    uint64_t n, last_ts = 0;
    fxt_status st = sorted_events(m, o, &ev, &n);
    if (st != FXT_OK) {
        return st;
    }
    tie_tasks(m, ev, n);
    if (o->tree_only) {
        mark_tree(m, o->root);
    }
    st = fxt_write_provider_info(w, provider_id, fxt_cstr("kernel"));
    if (st == FXT_OK) {
        st = fxt_write_init(w, o->ticks_per_second ? o->ticks_per_second : 1000000000u);
    }
    if (st == FXT_OK) {
        st = write_objects(m, w, o, &s.tasks);
    }
    if (st == FXT_OK) {
        st = write_events(m, w, ev, n, o, &s, &last_ts);
    }
    free(ev);
    s.lost = m->lost;
    if (st == FXT_OK && s.lost > 0) {
        /* the format's own signal, and the count for tools that read arguments */
        st = fxt_write_provider_event(w, provider_id, FXT_PROVIDER_EVENT_BUFFER_FULL);
        fxt_arg_t arg = fxt_arg_uint64(fxt_cstr("count"), s.lost);
        if (st == FXT_OK) {
            st = fxt_write_instant(w, last_ts, fxt_thread(0, 0), fxt_cstr("kernel"), fxt_cstr("lost_events"),
                                   &arg, 1);
        }
    }
    if (sum != NULL) {
        *sum = s;
    }
    return st;
}
