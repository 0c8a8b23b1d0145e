/*
 * libfxt archive layer: the trace manager's side of the format. Aggregate the
 * records of several providers (or several traces) into one archive, each in
 * its own provider section, and re-encode decoded records.
 *
 *     fxt_merger_t *m;
 *     fxt_merger_create(w, &m);                    // w: an fxt_writer_t (sink of your choice)
 *     fxt_merger_input_t in = FXT_MERGER_INPUT_INIT;
 *     in.name = "gpu";                             // provider name when the input has none
 *     fxt_merger_begin(m, &in);
 *     fxt_merger_feed(m, buf, len);                // any number of chunks
 *     fxt_merger_end(m);                           // repeat begin/feed/end per input
 *     fxt_merger_finish(m);  fxt_merger_destroy(m);
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
 * `tick_shift` ticks (clamped at 0). Strings and threads are written through
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
    const char *name;       /* provider name for records outside any provider section */
    int64_t offset_ns;      /* shift this input's clock by this many nanoseconds */
} fxt_merger_input_t;
#define FXT_MERGER_INPUT_INIT {sizeof(fxt_merger_input_t), NULL, 0}

/** Start a merge into `w` (the merger writes the magic record first). */
FXT_API fxt_status fxt_merger_create(fxt_writer_t *w, fxt_merger_t **out);
FXT_API fxt_status fxt_merger_begin(fxt_merger_t *m, const fxt_merger_input_t *in);
/** Feed a chunk of the current input. Damaged records are skipped and counted. */
FXT_API fxt_status fxt_merger_feed(fxt_merger_t *m, const void *data, size_t len);
/** End the current input; FXT_E_TRUNCATED if it ended inside a record (what came before is kept). */
FXT_API fxt_status fxt_merger_end(fxt_merger_t *m);
/** Flush the writer; returns its sticky status. */
FXT_API fxt_status fxt_merger_finish(fxt_merger_t *m);
FXT_API void fxt_merger_destroy(fxt_merger_t *m);

typedef struct fxt_merger_stats {
    uint64_t inputs, records, damaged, providers, remapped;
} fxt_merger_stats_t;
FXT_API void fxt_merger_get_stats(const fxt_merger_t *m, fxt_merger_stats_t *out);
/** The last damaged record's diagnostic (offset within the current input). */
FXT_API const fxt_diag_t *fxt_merger_diag(const fxt_merger_t *m);

#ifdef __cplusplus
}
#endif

#endif
