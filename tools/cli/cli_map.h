/* SPDX-License-Identifier: MIT */
/*
 * A small hash map for the CLI tools: byte-string keys (copied), fixed-size
 * zero-initialised values, iteration in insertion order (so output is
 * deterministic). Memory grows with the number of distinct keys only.
 */
#ifndef FXT_CLI_MAP_H
#define FXT_CLI_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_map {
    size_t vsize;     /* value bytes */
    size_t stride;    /* bytes per entry: head and value (cli_map_stride) */
    size_t count;     /* entries */
    size_t ecap;      /* entry array capacity */
    uint8_t *entries; /* count entries of stride cli_map_stride(m) */
    uint32_t *index;  /* open addressing: entry number + 1, 0 = empty */
    size_t icap;      /* power of two */
    void *keys;       /* the keys' copies: blocks (cli_map.c), newest first */
    size_t kleft;     /* bytes free in the newest block */
    void *spare;      /* key blocks emptied by cli_map_clear, used again before new ones */
} cli_map_t;

/* The map's hash of key[0..n) (never 0), for callers that keep hashes of their own. */
uint64_t cli_hash_bytes(const void *key, size_t n);

/* A growing array: makes *arr (of *cap elements of `elem` bytes) hold at least `need`, doubling
 * from `first`; 0, or -1 when out of memory (the array is then unchanged). */
int cli_grow(void *arr, size_t *cap, size_t need, size_t elem, size_t first);

void cli_map_init(cli_map_t *m, size_t vsize);
void cli_map_free(cli_map_t *m);
/* Empties the map, keeping its memory (entries, index, key blocks) for the keys to come. */
void cli_map_clear(cli_map_t *m);
/* The value for key, created (zeroed) if absent and `create`; NULL if absent or out of memory. */
void *cli_map_get(cli_map_t *m, const void *key, size_t klen, int create);
/* Same, also giving the entry's insertion index (for cli_map_at). */
void *cli_map_get_ix(cli_map_t *m, const void *key, size_t klen, int create, size_t *index);
/* Each entry is this head, then the value, rounded to 16 bytes so every value is aligned for
 * any type a caller stores. In the header so cli_map_at inlines: tools call it per record. */
typedef struct cli_map_head {
    uint64_t hash;
    char *key;
    size_t klen;
} cli_map_head_t;

static inline size_t cli_map_stride(const cli_map_t *m) { return m->stride; }

/* Entry i (0 <= i < count) in insertion order: iteration without walking the hash index. */
static inline void *cli_map_at(const cli_map_t *m, size_t i, const char **key, size_t *klen) {
    cli_map_head_t *e = (cli_map_head_t *)(void *)(m->entries + i * m->stride);
    if (key) {
        *key = e->key;
    }
    if (klen) {
        *klen = e->klen;
    }
    return (uint8_t *)e + sizeof *e;
}
/* Remove nothing: maps only grow (tools that need removal keep a flag in the value). */

/* Convenience: a key made of up to four 64-bit integers. */
static inline void *cli_map_get_u64(cli_map_t *m, uint64_t a, uint64_t b, int create) {
    uint64_t k[2] = {a, b};
    return cli_map_get(m, k, sizeof k, create);
}

#endif
