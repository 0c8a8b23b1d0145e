/* SPDX-License-Identifier: MIT */
/*
 * libfxt archive layer: the trace manager's side of the format. Aggregate the
 * records of several providers (or several traces) into one archive, each in
 * its own provider section, and re-encode decoded records.
 *
 *     fxt_merger_t *m;
 *     fxt_merger_create(w, &m);                    // w: an fxt_writer_t (sink of your choice)
 *     fxt_merger_input_t in = FXT_MERGER_INPUT_INIT;
 *     in.name = "gpu";                             // provider name when the input has none
 *     fxt_merger_begin_input(m, &in);
 *     fxt_merger_feed(m, buf, len);                // any number of chunks
 *     fxt_merger_end_input(m);                           // repeat begin/feed/end per input
 *     fxt_merger_finish(m);  fxt_merger_destroy(m);
 *
 * Raw provider buffers: fxt_merger_add_provider / fxt_merger_add_buffer below.
 *
 * Memory stays constant: inputs are streamed record by record.
 */
#ifndef FXT_ARCHIVE_H
#define FXT_ARCHIVE_H

#include <fxt/reader.h>
#include <fxt/writer.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Write a decoded record again through `w`, shifting its timestamps by
 * `tick_shift` ticks (saturated at 0 and at 2^64-1, never wrapped). Strings and threads are written through
 * the writer's interning (inline ones stay inline); string and thread records
 * themselves are not copied (the writer registers what it uses). Metadata
 * records (magic, provider info/section/event) are the caller's business and
 * are not written (FXT_OK). Unknown records are copied verbatim when the byte
 * orders match, else skipped with FXT_E_UNSUPPORTED.
 */
FXT_API fxt_status fxt_write_record(fxt_writer_t *w, const fxt_record_t *rec, int64_t tick_shift);

typedef struct fxt_merger fxt_merger_t;

typedef struct fxt_merger_input {
    uint32_t struct_size;
    const char *name;  /* provider name for records outside any provider section */
    int64_t offset_ns; /* shift this input's clock by this many nanoseconds */
} fxt_merger_input_t;
#define FXT_MERGER_INPUT_INIT                                                                                \
    { sizeof(fxt_merger_input_t), NULL, 0 }

/** Start a merge into `w` (the merger writes the magic record first). */
FXT_API fxt_status fxt_merger_create(fxt_writer_t *w, fxt_merger_t **out);
FXT_API fxt_status fxt_merger_begin_input(fxt_merger_t *m, const fxt_merger_input_t *in);
/** Feed a chunk of the current input. Damaged records are skipped and counted. */
FXT_API fxt_status fxt_merger_feed(fxt_merger_t *m, const void *data, size_t len);
/** End the current input; FXT_E_TRUNCATED if it ended inside a record (what came before is kept). */
FXT_API fxt_status fxt_merger_end_input(fxt_merger_t *m);
/** Flush the writer; returns its sticky status. */
FXT_API fxt_status fxt_merger_finish(fxt_merger_t *m);
FXT_API void fxt_merger_destroy(fxt_merger_t *m);

/*
 * Trace-manager side for raw provider buffers (records a provider wrote, e.g.
 * collected from shared memory), interleavable with begin/feed/end inputs:
 *
 *     uint32_t gpu;
 *     fxt_merger_add_provider(m, "gpu", &gpu);     // provider info record, fresh id
 *     fxt_merger_add_buffer(m, gpu, buf, len);     // any number of buffers, any order
 *
 * A buffer holds whole records in the host byte order (the output must be in
 * the host order too, else FXT_E_UNSUPPORTED). Records are copied verbatim into
 * the provider's section (a provider section record is written when the
 * previous records belonged to another provider), so string and thread
 * indexes defined in one buffer stay valid in the provider's later buffers.
 * Metadata records inside a buffer are garbage per the spec and skipped.
 * A record with size 0, or one running past the end of the buffer, ends the
 * buffer: what came before is kept and FXT_E_TRUNCATED is returned (counted
 * as damaged).
 */
/** Register a provider; `*id` receives its archive id (never colliding). */
FXT_API fxt_status fxt_merger_add_provider(fxt_merger_t *m, const char *name, uint32_t *id);
/** Append records of a provider registered with fxt_merger_add_provider. */
FXT_API fxt_status fxt_merger_add_buffer(fxt_merger_t *m, uint32_t id, const void *data, size_t len);

typedef struct fxt_merger_stats {
    uint64_t inputs, records, damaged, providers, remapped;
    uint64_t refused; /* records the writer could not re-encode (dropped; see fxt_merger_diag) */
} fxt_merger_stats_t;
FXT_API void fxt_merger_get_stats(const fxt_merger_t *m, fxt_merger_stats_t *out);
/** The last damaged or refused record's diagnostic (offset within the current input). */
FXT_API const fxt_diag_t *fxt_merger_diag(const fxt_merger_t *m);

#ifdef __cplusplus
}
#endif

#endif
