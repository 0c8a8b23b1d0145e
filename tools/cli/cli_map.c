/* SPDX-License-Identifier: MIT */
/* Insertion-ordered hash map for the CLI tools (see cli_map.h). */
#include "cli_map.h"

#include <stdlib.h>
#include <string.h>

/* Entries live in one array in insertion order (the value follows the head); a separate
 * open-addressing index of entry numbers finds them. Output in first-seen order needs no sort. */
typedef cli_map_head_t entry_head_t;

static size_t stride(const cli_map_t *m) { return cli_map_stride(m); }

int cli_grow(void *arr, size_t *cap, size_t need, size_t elem, size_t first) {
    if (need <= *cap) {
        return 0;
    }
    size_t ncap = *cap ? *cap : first;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem) {
            return -1;
        }
        ncap *= 2;
    }
    /* arr points at a T *: read and written as bytes, so any object pointer type will do */
    void *old, *np;
    memcpy(&old, arr, sizeof old);
    if ((np = realloc(old, ncap * elem)) == NULL) {
        return -1;
    }
    memcpy(arr, &np, sizeof np);
    *cap = ncap;
    return 0;
}

uint64_t cli_hash_bytes(const void *key, size_t n) {
    const uint8_t *p = key;
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    /* A word at a time: keys are mostly a few 64-bit integers, hashed once per record, and
     * FNV-1a's byte loop was the bulk of a lookup. */
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 32;
    }
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    /* The index uses the low bits, so fold high bits down. */
    h ^= h >> 29;
    return h | 1;
}

void cli_map_init(cli_map_t *m, size_t vsize) {
    memset(m, 0, sizeof *m);
    m->vsize = vsize;
    /* Rounded to 16 bytes so every value is aligned for any type a caller stores; kept, not
     * recomputed: cli_map_at runs several times per record. */
    m->stride = (sizeof(entry_head_t) + vsize + 15) & ~(size_t)15;
}

/* Keys are copied into blocks of at least KEY_BLOCK bytes, not one allocation each: a map of
 * many small keys (check's async and flow ids: 30K on 20 MB) spent more in malloc and free than
 * in its lookups. A key's copy never moves, as an allocation of its own did not. */
#define KEY_BLOCK 4096
typedef struct key_block {
    struct key_block *next;
    size_t used, cap;
    max_align_t data[]; /* aligned as malloc's were, for callers that read keys in place */
} key_block_t;

static char *key_copy(cli_map_t *m, const void *key, size_t klen) {
    size_t n = (klen + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (n == 0) {
        n = sizeof(max_align_t); /* distinct copies for empty keys, as malloc(1) gave */
    }
    key_block_t *b = m->keys;
    if (b == NULL || n > m->kleft) {
        key_block_t *sp = m->spare;
        if (sp != NULL && sp->cap >= n) {
            b = sp;
            m->spare = sp->next;
        } else {
            size_t cap = n > KEY_BLOCK ? n : KEY_BLOCK;
            if ((b = malloc(sizeof *b + cap)) == NULL) {
                return NULL;
            }
            b->cap = cap;
        }
        b->next = m->keys;
        b->used = 0;
        m->keys = b;
        m->kleft = b->cap;
    }
    char *k = (char *)b->data + b->used;
    b->used += n;
    m->kleft -= n;
    if (klen) {
        memcpy(k, key, klen);
    }
    return k;
}

static void free_blocks(key_block_t *b) {
    for (key_block_t *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
}

void cli_map_free(cli_map_t *m) {
    free_blocks(m->keys);
    free_blocks(m->spare);
    free(m->entries);
    free(m->index);
    memset(m, 0, sizeof *m);
}

void cli_map_clear(cli_map_t *m) {
    /* The key blocks in use join the spare ones (their order does not matter: any holds a key). */
    key_block_t *b = m->keys;
    if (b != NULL) {
        while (b->next != NULL) {
            b = b->next;
        }
        b->next = m->spare;
        m->spare = m->keys;
    }
    m->keys = NULL;
    m->kleft = 0;
    m->count = 0;
    if (m->index != NULL) {
        memset(m->index, 0, m->icap * sizeof *m->index);
    }
}

/* Rebuilds the index at twice the size from the stored hashes; keys are not rehashed. */
static int grow_index(cli_map_t *m) {
    size_t ncap = m->icap ? m->icap * 2 : 64;
    uint32_t *ni = calloc(ncap, sizeof *ni);
    if (ni == NULL) {
        return -1;
    }
    size_t st = stride(m);
    for (size_t i = 0; i < m->count; i++) {
        uint64_t h = ((entry_head_t *)(m->entries + i * st))->hash;
        size_t j = (size_t)h & (ncap - 1);
        while (ni[j] != 0) {
            j = (j + 1) & (ncap - 1);
        }
        /* Entry number + 1, so 0 can mark an empty slot. */
        ni[j] = (uint32_t)(i + 1);
    }
    free(m->index);
    m->index = ni;
    m->icap = ncap;
    return 0;
}

void *cli_map_get(cli_map_t *m, const void *key, size_t klen, int create) {
    return cli_map_get_ix(m, key, klen, create, NULL);
}

/* The value for KEY, created zeroed when CREATE; INDEX gets its insertion index (for
 * cli_map_at). NULL when absent (or out of memory while creating). */
void *cli_map_get_ix(cli_map_t *m, const void *key, size_t klen, int create, size_t *index) {
    uint64_t h = cli_hash_bytes(key, klen);
    size_t st = stride(m);
    if (m->icap) {
        for (size_t j = (size_t)h & (m->icap - 1); m->index[j] != 0; j = (j + 1) & (m->icap - 1)) {
            entry_head_t *e = (entry_head_t *)(m->entries + (m->index[j] - 1) * st);
            if (e->hash == h && e->klen == klen && memcmp(e->key, key, klen) == 0) {
                if (index) {
                    *index = m->index[j] - 1;
                }
                return (uint8_t *)e + sizeof *e;
            }
        }
    }
    if (!create) {
        return NULL;
    }
    /* The index is kept at most half full so probes stay short and always find an empty slot. */
    if ((m->count + 1) * 2 > m->icap && grow_index(m) != 0) {
        return NULL;
    }
    if (m->count == m->ecap) {
        size_t ncap = m->ecap ? m->ecap * 2 : 32;
        /* Values move here: a pointer from an earlier get is invalid after a get that creates. */
        uint8_t *ne = realloc(m->entries, ncap * st);
        if (ne == NULL) {
            return NULL;
        }
        m->entries = ne;
        m->ecap = ncap;
    }
    /* The key is copied: callers pass scratch buffers and record strings that are reused. */
    char *k = key_copy(m, key, klen);
    if (k == NULL) {
        return NULL;
    }
    entry_head_t *e = (entry_head_t *)(m->entries + m->count * st);
    /* New values start zeroed: callers rely on that instead of an init callback. */
    memset(e, 0, st);
    e->hash = h;
    e->key = k;
    e->klen = klen;
    size_t j = (size_t)h & (m->icap - 1);
    while (m->index[j] != 0) {
        j = (j + 1) & (m->icap - 1);
    }
    m->index[j] = (uint32_t)(m->count + 1);
    if (index) {
        *index = m->count;
    }
    m->count++;
    return (uint8_t *)e + sizeof *e;
}
