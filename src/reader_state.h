/* SPDX-License-Identifier: MIT */
/*
 * Internal: the per-provider state the reader keeps (string, thread and
 * object tables, tick rate). Shared by reader.c (decoding) and
 * reader_state.c (tables).
 */
#ifndef FXT_READER_STATE_H
#define FXT_READER_STATE_H

#include <fxt/reader.h>

#include <stddef.h>
#include <stdint.h>

/* A string table slot: an owned copy, reused on re-registration. */
typedef struct fxt__str_slot {
    char *buf; /* NULL until the slot first needs storage */
    uint32_t len;
    uint32_t cap;
    uint8_t set; /* 1 when registered */
} fxt__str_slot_t;

typedef struct fxt__thread_slot {
    uint64_t pid;
    uint64_t tid;
    uint8_t set;
} fxt__thread_slot_t;

/* An object table entry (kernel objects: k1 = koid; userspace: k1 = pid, k2 = ptr). */
typedef struct fxt__obj {
    uint64_t k1, k2;
    uint64_t process_koid;
    char *name;
    uint32_t name_len, name_cap;
    uint32_t obj_type;
    uint8_t used, has_process, has_name;
} fxt__obj_t;

typedef struct fxt__obj_map {
    fxt__obj_t *slots;
    size_t cap; /* power of two, or 0 */
    size_t count;
} fxt__obj_map_t;

typedef struct fxt__provider {
    uint32_t id;
    int has_id; /* 0 for the implicit context before any provider record */
    uint64_t ticks_per_second;
    fxt__str_slot_t *strings; /* indexes [0, nstrings) allocated */
    uint32_t nstrings;
    uint32_t strings_hi;         /* indexes [0, strings_hi) were set at some time (may hold buffers) */
    fxt__thread_slot_t *threads; /* 256 entries once a thread is registered */
    fxt__obj_map_t kobjs;
    fxt__obj_map_t uobjs;
} fxt__provider_t;

/* Providers by id: an open-addressing map of ids to heap-allocated states. */
typedef struct fxt__provider_map {
    fxt__provider_t **slots;
    size_t cap;
    size_t count;
} fxt__provider_map_t;

/* Upper bound on distinct provider ids, so hostile input cannot exhaust memory. */
#define FXT__MAX_PROVIDERS (1u << 20)

void fxt__provider_init(fxt__provider_t *p, uint32_t id, int has_id);
void fxt__provider_free(fxt__provider_t *p);
/* Empty the tables (as after init) but keep their allocations for reuse. */
void fxt__provider_clear(fxt__provider_t *p);

/* Find or create the state of provider `id`; NULL on allocation failure or limit. */
fxt__provider_t *fxt__provider_get(fxt__provider_map_t *m, uint32_t id, fxt_status *st);
/* Look up without creating. */
fxt__provider_t *fxt__provider_find(const fxt__provider_map_t *m, uint32_t id);
void fxt__provider_map_free(fxt__provider_map_t *m);

fxt_status fxt__string_set(fxt__provider_t *p, uint16_t index, const char *s, uint32_t len);
fxt_status fxt__thread_set(fxt__provider_t *p, uint8_t index, uint64_t pid, uint64_t tid);

static inline const fxt__str_slot_t *fxt__string_get(const fxt__provider_t *p, uint16_t index) {
    if (index < p->nstrings && p->strings[index].set) {
        return &p->strings[index];
    }
    return NULL;
}

static inline const fxt__thread_slot_t *fxt__thread_get(const fxt__provider_t *p, uint8_t index) {
    if (p->threads != NULL && p->threads[index].set) {
        return &p->threads[index];
    }
    return NULL;
}

/* Insert or replace an object; `name` may be NULL (unresolved). */
fxt_status fxt__obj_put(fxt__obj_map_t *m, uint64_t k1, uint64_t k2, uint32_t obj_type, const char *name,
                        uint32_t name_len, int has_process, uint64_t process_koid);
const fxt__obj_t *fxt__obj_find(const fxt__obj_map_t *m, uint64_t k1, uint64_t k2);

#endif /* FXT_READER_STATE_H */
