/* SPDX-License-Identifier: MIT */
/* libfxt_sqlite: growable arrays, string interning, the exact-key map, time, sorting. */
#include "sq_internal.h"

#include <stdlib.h>
#include <string.h>

int sq_vgrow(void **raw, size_t *cap, size_t need, size_t elem) {
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2) {
            return -1;
        }
        c *= 2;
    }
    if (c > SIZE_MAX / elem) {
        return -1;
    }
    void *p = realloc(*raw, c * elem);
    if (!p) {
        return -1;
    }
    *raw = p;
    *cap = c;
    return 0;
}

static uint64_t sq_hash_bytes(const char *p, size_t len) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        len -= 8;
    }
    uint64_t w = 0;
    if (len) {
        memcpy(&w, p, len);
    }
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

static int sq_strings_rehash(sq_strings *s) {
    size_t cap = s->hcap ? s->hcap * 2 : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h) {
        return -1;
    }
    for (size_t i = 0; i < s->tab.n; i++) {
        size_t j = (size_t)sq_hash_bytes(s->tab.v[i].p, s->tab.v[i].len) & (cap - 1);
        while (h[j]) {
            j = (j + 1) & (cap - 1);
        }
        h[j] = (uint32_t)i + 1;
    }
    free(s->hash);
    s->hash = h;
    s->hcap = cap;
    return 0;
}

/* A copy of p[0..len) in the arena (blocks of 1 MiB, or the string's size when larger). */
static const char *sq_arena_copy(sq_strings *s, const char *p, size_t len) {
    if (len > s->left) {
        size_t sz = len > (1u << 20) ? len : (1u << 20);
        char *b = malloc(sz);
        char **slot = b ? SQ_ADD(s->blocks) : NULL;
        if (!slot) {
            free(b);
            return NULL;
        }
        *slot = b;
        s->cur = b;
        s->left = sz;
    }
    char *d = s->cur;
    if (len) {
        memcpy(d, p, len);
    }
    s->cur += len;
    s->left -= len;
    return d;
}

uint32_t sq_intern(sq_strings *s, const char *p, size_t len) {
    if (len > UINT32_MAX || s->tab.n >= SQ_NONE - 1) {
        return SQ_NONE;
    }
    if ((s->tab.n + 1) * 2 > s->hcap && sq_strings_rehash(s) != 0) {
        return SQ_NONE;
    }
    size_t j = (size_t)sq_hash_bytes(p, len) & (s->hcap - 1);
    while (s->hash[j]) {
        const sq_strv *e = &s->tab.v[s->hash[j] - 1];
        if (e->len == len && (len == 0 || memcmp(e->p, p, len) == 0)) {
            return s->hash[j] - 1;
        }
        j = (j + 1) & (s->hcap - 1);
    }
    const char *copy = sq_arena_copy(s, p, len);
    sq_strv *e = copy ? SQ_ADD(s->tab) : NULL;
    if (!e) {
        return SQ_NONE;
    }
    e->p = copy;
    e->len = (uint32_t)len;
    s->hash[j] = (uint32_t)s->tab.n;
    return (uint32_t)s->tab.n - 1;
}

void sq_strings_free(sq_strings *s) {
    for (size_t i = 0; i < s->blocks.n; i++) {
        free(s->blocks.v[i]);
    }
    SQ_FREE(s->blocks);
    SQ_FREE(s->tab);
    free(s->hash);
    memset(s, 0, sizeof *s);
}

/* ---- map ------------------------------------------------------------------------------ */

static size_t sq_map_home(size_t cap, uint64_t a, uint64_t b, uint64_t c) {
    uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^ (c * 0x165667b19e3779f9ull);
    h ^= h >> 31;
    return (size_t)h & (cap - 1);
}

static size_t sq_map_slot(const sq_mapent *e, size_t cap, uint64_t a, uint64_t b, uint64_t c) {
    size_t j = sq_map_home(cap, a, b, c);
    while (e[j].val != SQ_NONE && (e[j].k[0] != a || e[j].k[1] != b || e[j].k[2] != c)) {
        j = (j + 1) & (cap - 1);
    }
    return j;
}

uint32_t sq_map_get(const sq_map *m, uint64_t a, uint64_t b, uint64_t c) {
    if (!m->cap) {
        return SQ_NONE;
    }
    return m->e[sq_map_slot(m->e, m->cap, a, b, c)].val;
}

static int sq_map_grow(sq_map *m) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    sq_mapent *e = malloc(cap * sizeof *e);
    if (!e) {
        return -1;
    }
    for (size_t i = 0; i < cap; i++) {
        e[i].val = SQ_NONE;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->e[i].val != SQ_NONE) {
            e[sq_map_slot(e, cap, m->e[i].k[0], m->e[i].k[1], m->e[i].k[2])] = m->e[i];
        }
    }
    free(m->e);
    m->e = e;
    m->cap = cap;
    return 0;
}

int sq_map_put(sq_map *m, uint64_t a, uint64_t b, uint64_t c, uint32_t val) {
    if ((m->n + 1) * 2 > m->cap && sq_map_grow(m) != 0) {
        return -1;
    }
    sq_mapent *e = &m->e[sq_map_slot(m->e, m->cap, a, b, c)];
    if (e->val == SQ_NONE) {
        m->n++;
    }
    e->k[0] = a;
    e->k[1] = b;
    e->k[2] = c;
    e->val = val;
    return 0;
}

/* Linear probing's deletion: later entries of the cluster that may not stay behind the hole
 * move into it (no tombstones, so a map of short-lived keys stays small). */
void sq_map_del(sq_map *m, uint64_t a, uint64_t b, uint64_t c) {
    if (!m->cap) {
        return;
    }
    size_t mask = m->cap - 1, hole = sq_map_slot(m->e, m->cap, a, b, c);
    if (m->e[hole].val == SQ_NONE) {
        return;
    }
    m->e[hole].val = SQ_NONE;
    m->n--;
    for (size_t j = (hole + 1) & mask; m->e[j].val != SQ_NONE; j = (j + 1) & mask) {
        size_t home = sq_map_home(m->cap, m->e[j].k[0], m->e[j].k[1], m->e[j].k[2]);
        /* the entry at j stays unless the hole lies cyclically in [home, j) */
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            m->e[hole] = m->e[j];
            m->e[j].val = SQ_NONE;
            hole = j;
        }
    }
}

void sq_map_free(sq_map *m) {
    free(m->e);
    memset(m, 0, sizeof *m);
}

/* ---- argument sets -------------------------------------------------------------------- */

uint32_t sq_arg_set(const sq_db *db, size_t row) {
    size_t lo = 0, hi = db->set_first.n; /* the last set starting at or before row */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (db->set_first.v[mid] <= row) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return (uint32_t)lo;
}

/* ---- slice durations ------------------------------------------------------------------ */

int64_t sq_slice_dur(const sq_db *db, const sq_slice *s) {
    if (s->dur < SQ_DUR_OPEN) {
        return s->dur;
    }
    if (s->dur == SQ_DUR_OPEN) {
        return -1;
    }
    uint32_t i = sq_map_get(&db->long_row, (uint64_t)(s - db->slices.v), 0, 0);
    return i < db->long_dur.n ? db->long_dur.v[i] : -1;
}

int sq_set_dur_long(sq_db *db, sq_slice *s, int64_t dur) {
    uint64_t row = (uint64_t)(s - db->slices.v);
    uint32_t i = s->dur == SQ_DUR_LONG ? sq_map_get(&db->long_row, row, 0, 0) : SQ_NONE;
    if (i == SQ_NONE || i >= db->long_dur.n) {
        int64_t *d = db->long_dur.n < SQ_NONE - 1 ? SQ_ADD(db->long_dur) : NULL;
        if (!d || sq_map_put(&db->long_row, row, 0, 0, (uint32_t)(db->long_dur.n - 1)) != 0) {
            return -1;
        }
        i = (uint32_t)(db->long_dur.n - 1);
    }
    db->long_dur.v[i] = dur;
    s->dur = SQ_DUR_LONG;
    return 0;
}

/* ---- time and sorting ------------------------------------------------------------------ */

int64_t sq_ticks_to_ns_rate(uint64_t ticks, uint64_t tps) {
    __extension__ typedef unsigned __int128 u128;
    u128 v = (u128)ticks * 1000000000u / tps;
    uint64_t ns = v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
    /* SQLite integers are signed: times past 2^63 ns (292 years) saturate */
    return ns > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)ns;
}

/* Bits needed for values up to v. */
static unsigned sq_bits(uint64_t v) {
    unsigned b = 0;
    while (b < 64 && (v >> b) != 0) {
        b++;
    }
    return b;
}

/* LSD radix sort of packed (key - min) << ib | index words on the key's bits only, 11 bits a
 * pass: the index in the low bits keeps equal keys in input order. Sequential reads. */
static int sq_sort_packed(uint64_t *v, size_t n, uint64_t min, unsigned ib, unsigned rb, uint32_t *out) {
    uint64_t *tmp = malloc(n * sizeof *tmp);
    size_t *count = malloc(2049 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        v[i] = ((v[i] - min) << ib) | i;
    }
    uint64_t *src = v, *dst = tmp;
    for (unsigned lo = 0; lo < rb; lo += 11) {
        unsigned shift = ib + lo;
        memset(count, 0, 2049 * sizeof *count);
        for (size_t i = 0; i < n; i++) {
            count[((src[i] >> shift) & 2047u) + 1]++;
        }
        for (unsigned d = 0; d < 2048; d++) {
            count[d + 1] += count[d];
        }
        for (size_t i = 0; i < n; i++) {
            dst[count[(src[i] >> shift) & 2047u]++] = src[i];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    uint64_t mask = ib >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ib) - 1;
    for (size_t i = 0; i < n; i++) {
        out[i] = (uint32_t)(src[i] & mask);
    }
    free(tmp);
    free(count);
    return 0;
}

/* Sort indexes by key, stable; `keys` is overwritten. Already sorted input (most flows, a
 * trace's events) costs one pass; otherwise a packed radix sort when key range and index fit
 * in 64 bits, else an indirect one on 8-bit digits skipping the digits all keys share. */
int sq_sort_u64(uint64_t *keys, size_t n, uint32_t *out) {
    uint64_t all_or = 0, all_and = ~(uint64_t)0, min = UINT64_MAX, max = 0;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        out[i] = (uint32_t)i;
        all_or |= keys[i];
        all_and &= keys[i];
        sorted &= i == 0 || keys[i - 1] <= keys[i];
        min = keys[i] < min ? keys[i] : min;
        max = keys[i] > max ? keys[i] : max;
    }
    if (sorted) {
        return 0;
    }
    unsigned ib = sq_bits(n - 1), rb = sq_bits(max - min);
    if (ib + rb <= 64) {
        return sq_sort_packed(keys, n, min, ib, rb, out);
    }
    uint64_t differ = all_or ^ all_and;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp) {
        return -1;
    }
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (((differ >> shift) & 0xffu) == 0) {
            continue;
        }
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++) {
            count[((keys[out[i]] >> shift) & 0xffu) + 1]++;
        }
        for (unsigned d = 0; d < 256; d++) {
            count[d + 1] += count[d];
        }
        for (size_t i = 0; i < n; i++) {
            tmp[count[(keys[out[i]] >> shift) & 0xffu]++] = out[i];
        }
        memcpy(out, tmp, n * sizeof *out);
    }
    free(tmp);
    return 0;
}
