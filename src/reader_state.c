/* SPDX-License-Identifier: MIT */
/* Per-provider tables of the reader: strings, threads, kernel and userspace objects. */
#include "reader_state.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t x) {
    /* splitmix64 finalizer: spreads sequential koids and pointers over the table */
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

void fxt__provider_init(fxt__provider_t *p, uint32_t id, int has_id) {
    memset(p, 0, sizeof *p);
    p->id = id;
    p->has_id = has_id;
    /* No initialization record yet: 1 tick = 1 ns is the spec's default (spec-notes). */
    p->ticks_per_second = UINT64_C(1000000000);
}

static void obj_map_free(fxt__obj_map_t *m) {
    for (size_t i = 0; i < m->cap; i++) {
        free(m->slots[i].name);
    }
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

/* Frees the tables but not P itself: the implicit context is embedded in the reader. */
void fxt__provider_free(fxt__provider_t *p) {
    if (p == NULL) {
        return;
    }
    for (uint32_t i = 0; i < p->strings_hi; i++) {
        free(p->strings[i].buf);
    }
    free(p->strings);
    free(p->threads);
    obj_map_free(&p->kobjs);
    obj_map_free(&p->uobjs);
    memset(p, 0, sizeof *p);
}

/* Back to a new provider's state (no strings, threads or objects, the default tick rate) while
 * keeping the string buffers and tables: a recycled reader (fxt_reader_reset, fxt_reader_seed)
 * then registers the same strings again without allocating (each fresh page costs a fault). */
void fxt__provider_clear(fxt__provider_t *p) {
    for (uint32_t i = 0; i < p->strings_hi; i++) {
        p->strings[i].set = 0;
        p->strings[i].len = 0;
    }
    if (p->threads != NULL) {
        memset(p->threads, 0, (FXT_MAX_THREAD_INDEX + 1u) * sizeof *p->threads);
    }
    obj_map_free(&p->kobjs);
    obj_map_free(&p->uobjs);
    p->ticks_per_second = UINT64_C(1000000000);
}

/* Linear probing; the table is never full (load <= 3/4), so an empty slot ends the search. */
fxt__provider_t *fxt__provider_find(const fxt__provider_map_t *m, uint32_t id) {
    if (m->cap == 0) {
        return NULL;
    }
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)mix64(id) & mask;; i = (i + 1) & mask) {
        fxt__provider_t *p = m->slots[i];
        if (p == NULL) {
            return NULL;
        }
        if (p->id == id) {
            return p;
        }
    }
}

static int provider_map_grow(fxt__provider_map_t *m) {
    size_t ncap = m->cap ? m->cap * 2 : 16;
    fxt__provider_t **ns = calloc(ncap, sizeof *ns);
    if (ns == NULL) {
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        fxt__provider_t *p = m->slots[i];
        if (p == NULL) {
            continue;
        }
        size_t j = (size_t)mix64(p->id) & (ncap - 1);
        while (ns[j] != NULL) {
            j = (j + 1) & (ncap - 1);
        }
        ns[j] = p;
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

/* The state of provider ID, created on first sight; NULL with *st set when over the limit
 * or out of memory (the record that named it is then reported as failed). */
fxt__provider_t *fxt__provider_get(fxt__provider_map_t *m, uint32_t id, fxt_status *st) {
    fxt__provider_t *p = fxt__provider_find(m, id);
    if (p != NULL) {
        return p;
    }
    /* FXT_E_LIMIT, not NOMEM: a hostile trace naming millions of providers is refused at 2^20. */
    if (m->count >= FXT__MAX_PROVIDERS) {
        *st = FXT_E_LIMIT;
        return NULL;
    }
    /* Grown before inserting, at 3/4 load, so probes stay short and always end. */
    if ((m->count + 1) * 4 > m->cap * 3 && provider_map_grow(m) != 0) {
        *st = FXT_E_NOMEM;
        return NULL;
    }
    /* Providers are allocated one by one: r->cur points at one, and growing the map must not move it. */
    p = malloc(sizeof *p);
    if (p == NULL) {
        *st = FXT_E_NOMEM;
        return NULL;
    }
    fxt__provider_init(p, id, 1);
    size_t j = (size_t)mix64(id) & (m->cap - 1);
    while (m->slots[j] != NULL) {
        j = (j + 1) & (m->cap - 1);
    }
    m->slots[j] = p;
    m->count++;
    return p;
}

void fxt__provider_map_free(fxt__provider_map_t *m) {
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slots[i] != NULL) {
            fxt__provider_free(m->slots[i]);
            free(m->slots[i]);
        }
    }
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

/* Copy `len` bytes into an owned buffer, reusing its capacity. */
static int copy_into(char **buf, uint32_t *cap, const char *s, uint32_t len) {
    /* A replaced string or object name reuses its buffer: recycled slots do not allocate each time. */
    if (len > *cap || *buf == NULL) {
        uint32_t ncap = len < 16 ? 16 : len;
        char *nb = realloc(*buf, ncap);
        if (nb == NULL) {
            return -1;
        }
        *buf = nb;
        *cap = ncap;
    }
    if (len > 0) {
        memcpy(*buf, s, len);
    }
    return 0;
}

/* Stores a copy: the record's bytes live in the caller's buffer, and later records refer to
 * the string by index after that buffer is gone. Re-registration replaces (spec-notes). */
fxt_status fxt__string_set(fxt__provider_t *p, uint16_t index, const char *s, uint32_t len) {
    if (index >= p->nstrings) {
        /* 64 slots, then the whole 15-bit index space at once: calloc's fresh pages are touched
         * only where strings are set (doubling with realloc touched every page about twice, and
         * on VMs a first touch costs more than the work done on the page). */
        uint32_t n = p->nstrings == 0 && index < 64 ? 64 : FXT_MAX_STRING_INDEX + 1u;
        fxt__str_slot_t *ns = calloc(n, sizeof *ns);
        if (ns == NULL) {
            return FXT_E_NOMEM;
        }
        if (p->nstrings != 0) {
            memcpy(ns, p->strings, (size_t)p->nstrings * sizeof *ns);
        }
        free(p->strings);
        p->strings = ns;
        p->nstrings = n;
    }
    if (index >= p->strings_hi) {
        p->strings_hi = (uint32_t)index + 1u;
    }
    fxt__str_slot_t *slot = &p->strings[index];
    if (copy_into(&slot->buf, &slot->cap, s, len) != 0) {
        return FXT_E_NOMEM;
    }
    slot->len = len;
    slot->set = 1;
    return FXT_OK;
}

fxt_status fxt__thread_set(fxt__provider_t *p, uint8_t index, uint64_t pid, uint64_t tid) {
    if (p->threads == NULL) {
        /* All 256 slots at once: small, and an 8-bit index can never go past it. */
        p->threads = calloc(FXT_MAX_THREAD_INDEX + 1u, sizeof *p->threads);
        if (p->threads == NULL) {
            return FXT_E_NOMEM;
        }
    }
    p->threads[index].pid = pid;
    p->threads[index].tid = tid;
    p->threads[index].set = 1;
    return FXT_OK;
}

/* Kernel objects are keyed by koid (k2 = 0), userspace objects by (pid, pointer). */
static size_t obj_hash(uint64_t k1, uint64_t k2) { return (size_t)mix64(k1 ^ mix64(k2)); }

const fxt__obj_t *fxt__obj_find(const fxt__obj_map_t *m, uint64_t k1, uint64_t k2) {
    if (m->cap == 0) {
        return NULL;
    }
    size_t mask = m->cap - 1;
    for (size_t i = obj_hash(k1, k2) & mask;; i = (i + 1) & mask) {
        const fxt__obj_t *o = &m->slots[i];
        if (!o->used) {
            return NULL;
        }
        if (o->k1 == k1 && o->k2 == k2) {
            return o;
        }
    }
}

static int obj_map_grow(fxt__obj_map_t *m) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    fxt__obj_t *ns = calloc(ncap, sizeof *ns);
    if (ns == NULL) {
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used) {
            continue;
        }
        size_t j = obj_hash(m->slots[i].k1, m->slots[i].k2) & (ncap - 1);
        while (ns[j].used) {
            j = (j + 1) & (ncap - 1);
        }
        ns[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

/* Inserts or replaces: a later record for the same object updates its name and process. */
fxt_status fxt__obj_put(fxt__obj_map_t *m, uint64_t k1, uint64_t k2, uint32_t obj_type, const char *name,
                        uint32_t name_len, int has_process, uint64_t process_koid) {
    if ((m->count + 1) * 4 > m->cap * 3 && obj_map_grow(m) != 0) {
        return FXT_E_NOMEM;
    }
    size_t mask = m->cap - 1;
    size_t i = obj_hash(k1, k2) & mask;
    while (m->slots[i].used && !(m->slots[i].k1 == k1 && m->slots[i].k2 == k2)) {
        i = (i + 1) & mask;
    }
    fxt__obj_t *o = &m->slots[i];
    if (!o->used) {
        o->used = 1;
        o->k1 = k1;
        o->k2 = k2;
        m->count++;
    }
    o->obj_type = obj_type;
    o->has_process = (uint8_t)(has_process != 0);
    o->process_koid = process_koid;
    o->has_name = (uint8_t)(name != NULL);
    o->name_len = 0;
    if (name != NULL) {
        if (copy_into(&o->name, &o->name_cap, name, name_len) != 0) {
            /* The entry stays, without a name, so lookups report "no name" rather than a stale one. */
            o->has_name = 0;
            return FXT_E_NOMEM;
        }
        o->name_len = name_len;
    }
    return FXT_OK;
}
