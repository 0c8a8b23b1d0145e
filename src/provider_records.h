/* SPDX-License-Identifier: MIT */
/*
 * Records that both the trace engine (src/trace_session.c) and the trace
 * manager (src/manager.c) write around a provider's chunks, so that a trace
 * written in-process and an archive written by `fxt record` say the same
 * thing the same way. Library-only (not part of the public API).
 */
#ifndef FXT_PROVIDER_RECORDS_H
#define FXT_PROVIDER_RECORDS_H

#include <fxt/common.h>
#include <fxt/writer.h>

#include <stdint.h>

/* The process's kernel object record, carrying the clock anchor (docs/manager.md): the
 * same instant as `ticks` (trace clock), CLOCK_MONOTONIC and CLOCK_REALTIME (epoch)
 * nanoseconds, and the clock's rate. Both the engine and the manager write it after a
 * provider's initialization record, so traces of several machines can be aligned. */
static inline fxt_status fxt__write_process_clock(fxt_writer_t *w, uint64_t pid, const char *name,
                                                  uint64_t ticks, uint64_t ticks_per_second, uint64_t mono_ns,
                                                  uint64_t realtime_ns) {
    fxt_arg_t a[4] = {fxt_arg_uint64(fxt_str_inline(fxt_cstr("clock_ticks")), ticks),
                      fxt_arg_uint64(fxt_str_inline(fxt_cstr("clock_ticks_per_second")), ticks_per_second),
                      fxt_arg_uint64(fxt_str_inline(fxt_cstr("clock_monotonic_ns")), mono_ns),
                      fxt_arg_uint64(fxt_str_inline(fxt_cstr("clock_realtime_ns")), realtime_ns)};
    return fxt_write_kernel_object(w, pid, FXT_OBJ_PROCESS, fxt_str_inline(fxt_cstr(name)), a, 4);
}

/* Lost data, said in the trace (docs/trace.md): a buffer-overflow provider event, so
 * readers and `fxt check` know pairs may be broken after it, then an instant
 * fxt/<what> (records_dropped, chunks_overwritten) with the count. Nothing when 0. */
static inline fxt_status fxt__write_loss_report(fxt_writer_t *w, uint32_t provider_id, uint64_t pid,
                                                uint64_t ts, const char *what, uint64_t count) {
    if (count == 0) {
        return FXT_OK;
    }
    fxt_write_provider_event(w, provider_id, FXT_PROVIDER_EVENT_BUFFER_FULL);
    /* inline strings: raw chunk bytes around it register their own string indexes */
    fxt_arg_t a = fxt_arg_uint64(fxt_str_inline(fxt_cstr("count")), count);
    return fxt_write_instant(w, ts, fxt_thread_inline(pid, 0), fxt_str_inline(fxt_cstr("fxt")),
                             fxt_str_inline(fxt_cstr(what)), &a, 1);
}

#endif /* FXT_PROVIDER_RECORDS_H */
