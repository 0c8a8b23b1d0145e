/* SPDX-License-Identifier: MIT */
/*
 * libfxt trace manager (Linux): the shared-memory layout of a provider's
 * buffer, the provider <-> manager protocol, and the manager itself (what
 * `fxt record` runs). docs/manager.md describes all of it.
 *
 * A provider (a process using <fxt/trace.h>) writes its records into chunks
 * of a memfd mapping shared with the manager. Each chunk's committed length
 * is release-stored after each whole record, so whoever maps the buffer can
 * take exactly the complete records at any moment, also after the provider
 * died (crash, SIGKILL): that is what makes a trace survive its program.
 */
#ifndef FXT_MANAGER_H
#define FXT_MANAGER_H

#include <fxt/common.h>
#include <fxt/trace.h>
#include <fxt/writer.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the shared buffer ----------------------------------------------------------------
 *
 *   offset 0                 fxt_shm_header_t
 *   header.chunks_offset     fxt_shm_chunk_t[header.nchunks]   (descriptors)
 *   header.data_offset       chunk i's bytes at data_offset + i * chunk_size
 *
 * All fields are host byte order (the buffer never leaves the machine); chunk
 * bytes are FXT records in host order, each chunk self-contained (it starts
 * with its thread's kernel object and thread record and registers the strings
 * it uses). Fields a running provider changes are read with atomic loads.
 */
#define FXT_SHM_MAGIC UINT64_C(0x3146554254584621) /* "!FXTBUF1" read as little-endian */
#define FXT_SHM_VERSION 1u

enum fxt_shm_chunk_state {
    FXT_CHUNK_FREE = 0,  /* never used, or drained by the manager (streaming) */
    FXT_CHUNK_OWNED = 1, /* a thread writes into it */
    FXT_CHUNK_FULL = 2   /* sealed by its thread (streaming: ready to drain) */
};

enum fxt_shm_clock {
    FXT_SHM_CLOCK_MONOTONIC = 1, /* CLOCK_MONOTONIC nanoseconds */
    FXT_SHM_CLOCK_TSC = 2        /* raw x86 TSC ticks, ticks_per_second calibrated */
};

typedef struct fxt_shm_header {
    uint64_t magic; /* FXT_SHM_MAGIC */
    uint32_t version;
    uint32_t header_size; /* sizeof(fxt_shm_header_t) */
    uint32_t mode;        /* fxt_buffer_mode */
    uint32_t chunk_size;  /* bytes per chunk (multiple of 8) */
    uint32_t nchunks;
    uint32_t clock; /* enum fxt_shm_clock */
    uint64_t ticks_per_second;
    uint64_t chunks_offset; /* byte offset of the descriptors */
    uint64_t data_offset;   /* byte offset of chunk 0's bytes */
    uint64_t pid, ppid;     /* the provider */
    /* clock anchor taken at session start: the same instant in three clocks */
    uint64_t anchor_ticks, anchor_mono_ns, anchor_realtime_ns;
    /* the process's name, NUL-terminated, at most 63 bytes cut at a UTF-8 boundary: the
     * name the program gave itself (fxt_set_process_name, FXT_PROCESS_NAME), else its
     * default (argv0); rewritten by a rename while it runs, byte 0 last (0 meanwhile) */
    char name[64];
    /* changed while the provider runs (relaxed atomic adds) */
    uint64_t dropped;     /* records dropped because no chunk was free */
    uint64_t overwritten; /* chunks of old records reused (circular) */
    uint64_t next_seq;    /* the last sequence number handed out */
    uint32_t closed;      /* 1 after a clean stop: every chunk is sealed */
    uint32_t pages;       /* what backs the buffer: FXT_SHM_PAGES_* (set while it is populated) */
} fxt_shm_header_t;

/* fxt_shm_header_t.pages: set by the provider as its buffer is populated (docs/manager.md,
 * "Buffers"): the flags, and the 2 MiB huge pages obtained (in bits 8-31, known once
 * FXT_SHM_PAGES_RESIDENT or FXT_SHM_PAGES_DONE is set). 0: not known yet (or an older library). */
#define FXT_SHM_PAGES_HUGETLB 0x1u  /* from the hugetlb pool (MFD_HUGETLB) */
#define FXT_SHM_PAGES_RESIDENT 0x2u /* every page was populated by a helper, off the traced threads */
#define FXT_SHM_PAGES_DONE 0x4u     /* populating ended (without RESIDENT: it stopped early) */
#define FXT_SHM_PAGES_HUGE_SHIFT 8u
#define FXT_SHM_PAGES_HUGE_MAX 0xffffffu

typedef struct fxt_shm_chunk {
    uint64_t tid;   /* owner thread (Linux tid) */
    uint64_t seq;   /* order in which chunks were taken (1, 2, ...); 0 = never used */
    uint32_t used;  /* committed bytes: release-stored after each whole record */
    uint32_t state; /* enum fxt_shm_chunk_state */
} fxt_shm_chunk_t;

/* ---- the protocol ---------------------------------------------------------------------
 *
 * FXT_TRACE_MANAGER names a Unix SOCK_SEQPACKET socket (mode 0600 in a 0700
 * directory). A provider connects and sends HELLO; the manager answers with
 * one fxt_mgr_config_t; the provider creates its buffer, sends BUFFER with
 * the memfd attached (SCM_RIGHTS), then CHUNK_FULL whenever a streaming chunk
 * is sealed (a wakeup; never blocks, may be lost: the manager also polls), ALERT
 * for fxt_alert() (the alert's name and time), and BYE with its final counts at a clean stop. EOF without
 * BYE: the provider died; the manager still reads everything committed in the mapping.
 *
 * The configuration is whole, whatever its size: fxt_mgr_config_t says how many
 * bytes the category list has, and the list follows in as many further messages
 * of at most FXT_MGR_PIECE bytes as it needs (none for "" = all). A HELLO with
 * another protocol's magic is answered by closing the connection.
 */
#define FXT_MANAGER_ENV "FXT_TRACE_MANAGER"
#define FXT_MGR_MAGIC 0x3252474du /* "MGR2" (MGR1 had a fixed 1024-byte category field) */
#define FXT_MGR_PIECE 32768u      /* bytes of the category list per message after the config */

enum fxt_mgr_msg_type {
    FXT_MSG_HELLO = 1,
    FXT_MSG_BUFFER = 2,
    FXT_MSG_CHUNK_FULL = 3,
    FXT_MSG_BYE = 4,
    FXT_MSG_ALERT = 5 /* fxt_alert(): name, and its time (ticks) in `records` */
};

typedef struct fxt_mgr_msg {                /* provider -> manager */
    uint32_t magic;                         /* FXT_MGR_MAGIC */
    uint32_t type;                          /* enum fxt_mgr_msg_type */
    uint64_t pid, ppid;                     /* HELLO */
    uint64_t records, dropped, overwritten; /* BYE */
    char name[64];                          /* HELLO: process name */
} fxt_mgr_msg_t;

typedef struct fxt_mgr_config { /* manager -> provider, once after HELLO */
    uint32_t magic;
    uint32_t mode;           /* fxt_buffer_mode */
    uint32_t clock;          /* enum fxt_shm_clock */
    uint32_t categories_len; /* bytes of the category list that follows ("" = all), no NUL */
    uint64_t buffer_size;
    uint64_t ticks_per_second;
} fxt_mgr_config_t;

/* ---- the manager ----------------------------------------------------------------------- */

typedef struct fxt_manager fxt_manager_t;

typedef struct fxt_manager_config {
    uint32_t struct_size;
    fxt_sink_t sink; /* the archive */
    fxt_buffer_mode mode;
    size_t buffer_size;      /* per provider; 0 = 32 MiB */
    const char *categories;  /* NULL or "" = all */
    fxt_clock_kind clock;    /* AUTO: TSC when invariant (the boot's rate), else monotonic */
    const char *socket_path; /* NULL: a new private one under $XDG_RUNTIME_DIR or /tmp */
} fxt_manager_config_t;
#define FXT_MANAGER_CONFIG_INIT                                                                              \
    { sizeof(fxt_manager_config_t), {NULL, NULL}, FXT_MODE_ONESHOT, 0, NULL, FXT_CLOCK_AUTO, NULL }

typedef enum fxt_provider_end {
    FXT_PROVIDER_RUNNING = 0,  /* still connected (collected when recording stopped) */
    FXT_PROVIDER_CLEAN = 1,    /* stopped its session (BYE) */
    FXT_PROVIDER_EXITED = 2,   /* exit status known, no BYE */
    FXT_PROVIDER_SIGNALED = 3, /* killed by a signal */
    FXT_PROVIDER_LOST = 4      /* connection ended without BYE, status unknown */
} fxt_provider_end;

typedef struct fxt_manager_provider {
    uint32_t id; /* provider id in the archive */
    uint64_t pid;
    char name[64];
    uint64_t events; /* event, log and blob records collected */
    uint64_t bytes;  /* bytes of records collected */
    uint64_t dropped, overwritten;
    fxt_provider_end end;
    int status;            /* exit status or signal number */
    uint64_t buffer_bytes; /* its shared buffer's size (0: none was mapped) */
    uint32_t buffer_pages; /* what backs it: fxt_shm_header_t.pages (FXT_SHM_PAGES_*) */
} fxt_manager_provider_t;

/** Create a manager: calibrates the clock, binds the socket, writes the archive's magic. */
FXT_API fxt_status fxt_manager_create(const fxt_manager_config_t *cfg, fxt_manager_t **out);
/** The socket path to export as FXT_TRACE_MANAGER. */
FXT_API const char *fxt_manager_socket_path(const fxt_manager_t *m);
/** The archive's clock: ticks per second, and 1 when ticks are raw TSC (0: CLOCK_MONOTONIC ns). */
FXT_API uint64_t fxt_manager_ticks_per_second(const fxt_manager_t *m, int *is_tsc);
/** Serve providers for up to timeout_ms (accept, config, drain, collect the ones that ended). */
FXT_API fxt_status fxt_manager_poll(fxt_manager_t *m, int timeout_ms);
/** Tell the manager how a process ended (from waitpid): used for providers that crash. */
FXT_API void fxt_manager_note_exit(fxt_manager_t *m, uint64_t pid, int wait_status);
/** Providers still connected. */
FXT_API size_t fxt_manager_connected(const fxt_manager_t *m);
/** Stop recording: collect every provider still connected (their committed records, now). */
FXT_API fxt_status fxt_manager_stop(fxt_manager_t *m);
/** The archive's writer (after stop: other sources append their provider sections). */
FXT_API fxt_writer_t *fxt_manager_writer(fxt_manager_t *m);
/** A provider id not used by any provider of the archive. */
FXT_API uint32_t fxt_manager_next_provider_id(fxt_manager_t *m);
/** Whether a provider's section named kernel object (obj_type: FXT_OBJ_PROCESS, FXT_OBJ_THREAD,
 *  koid: pid or tid) in *named: every provider's process, and each thread that wrote a chunk.
 *  A source appended after stop (the kernel's scheduling) names only the others, so the
 *  names a program gives its process and threads are the archive's last word. */
FXT_API fxt_status fxt_manager_object_named(const fxt_manager_t *m, uint32_t obj_type, uint64_t koid,
                                            int *named);
/** Providers seen so far, and provider i's summary. */
FXT_API size_t fxt_manager_provider_count(const fxt_manager_t *m);
FXT_API void fxt_manager_get_provider(const fxt_manager_t *m, size_t i, fxt_manager_provider_t *out);
/** Flush the archive; the first output error, if any. */
FXT_API fxt_status fxt_manager_finish(fxt_manager_t *m);
/** Close the socket (removing it and its directory) and free everything. NULL is a no-op. */
FXT_API void fxt_manager_destroy(fxt_manager_t *m);

/* ---- triggers and snapshots (docs/manager.md#triggers) ---------------------------------
 *
 * A snapshot is a complete archive of what every provider's buffer holds up to a cut
 * time, written while the providers keep running (oneshot and circular buffers). */

typedef enum fxt_trigger_action {
    FXT_TRIGGER_SNAPSHOT = 0, /* save a snapshot */
    FXT_TRIGGER_STOP = 1      /* stop the recording */
} fxt_trigger_action;

typedef enum fxt_trigger_kind {
    FXT_TRIGGER_ALERT = 1,  /* a provider's fxt_alert() named by fxt_manager_add_trigger() */
    FXT_TRIGGER_SIGNAL = 2, /* the recorder's own (the caller makes these) */
    FXT_TRIGGER_CRASH = 3   /* a provider died by a signal (fxt_manager_set_on_crash) */
} fxt_trigger_kind;

typedef struct fxt_manager_trigger {
    fxt_trigger_kind kind;
    fxt_trigger_action action;
    uint64_t ticks; /* when, trace clock: the alert's time, or when the manager learnt of it */
    uint64_t pid;   /* the provider that raised it or died; 0 for the recorder's signal */
    int signal;     /* SIGNAL, CRASH: the signal number */
    char name[64];  /* ALERT: the alert's name; CRASH: the provider's name */
} fxt_manager_trigger_t;

typedef struct fxt_snapshot_info {
    uint32_t providers;
    uint64_t events, bytes;           /* event, log and blob records kept; bytes of records */
    uint64_t first_ticks, last_ticks; /* the kept events' time span (0, 0: none) */
    uint64_t overwritten;             /* chunks of older records reused before the cut (circular) */
    uint64_t torn;                    /* chunks reused while the snapshot copied them: left out, counted */
    uint64_t dropped;                 /* records dropped for lack of a chunk */
    uint64_t copy_ns;                 /* the copy (the window in which a chunk can be torn) */
} fxt_snapshot_info_t;

/** fxt_alert(NAME) in a provider raises a trigger with `action` (NAME: 1 to 63 bytes). */
FXT_API fxt_status fxt_manager_add_trigger(fxt_manager_t *m, const char *name, fxt_trigger_action action);
/** on != 0: a provider killed by a signal raises a CRASH trigger (snapshot), and its buffer
 *  stays mapped until the next snapshot, which holds it as recovered. 0 (no more snapshots
 *  to come): the buffers kept so far are released. */
FXT_API fxt_status fxt_manager_set_on_crash(fxt_manager_t *m, int on);
/** on != 0: providers that end from now on stay mapped, for the next snapshot (which
 *  releases them). The manager holds by itself from the moment it raises a snapshot trigger
 *  until fxt_manager_snapshot(), so a provider that alerts and exits at once is in it; a
 *  caller that takes a trigger and will not save it calls fxt_manager_hold(m, 0). */
FXT_API fxt_status fxt_manager_hold(fxt_manager_t *m, int on);
/** Another source of every snapshot (the kernel's scheduling): after the providers, fn writes
 *  its provider section (provider_id) with its records stamped in [from, cut] into w, from
 *  being the snapshot's earliest provider event (cut when it has none). NULL: none. */
typedef fxt_status (*fxt_snapshot_source_fn)(void *ctx, fxt_writer_t *w, uint32_t provider_id, uint64_t from,
                                             uint64_t cut);
FXT_API fxt_status fxt_manager_set_snapshot_source(fxt_manager_t *m, fxt_snapshot_source_fn fn, void *ctx);
/** The oldest trigger raised and not yet taken, in *out: FXT_OK, or FXT_E_NOT_FOUND. At most 64
 *  wait to be taken: one raised beyond them is dropped and counted (fxt_manager_triggers_lost). */
FXT_API fxt_status fxt_manager_take_trigger(fxt_manager_t *m, fxt_manager_trigger_t *out);
/** Triggers dropped because 64 were waiting to be taken, since the manager was created. */
FXT_API fxt_status fxt_manager_triggers_lost(const fxt_manager_t *m, uint64_t *out);
/** The archive's clock now, in its ticks (fxt_manager_ticks_per_second). */
FXT_API uint64_t fxt_manager_now(const fxt_manager_t *m);
/**
 * Write a snapshot into `sink`: a complete archive of every provider still mapped, holding
 * their committed records up to `cut` (ticks; records stamped later are left out), plus
 * an instant fxt/trigger describing `why` (NULL: none). The providers keep running; a
 * chunk a circular provider reuses while it is copied is left out whole and counted in
 * out->torn (and in the archive's fxt/chunks_overwritten). FXT_E_STATE after stop.
 */
FXT_API fxt_status fxt_manager_snapshot(fxt_manager_t *m, const fxt_manager_trigger_t *why, uint64_t cut,
                                        fxt_sink_t sink, fxt_snapshot_info_t *out);

#ifdef __cplusplus
}
#endif

#endif /* FXT_MANAGER_H */
