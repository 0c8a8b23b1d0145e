/* SPDX-License-Identifier: MIT */
/* A switch over record kinds must name every kind (the project builds with -Wswitch-enum), so
 * adding a kind warns at every site that must handle it. Compiled twice with the project's
 * warning flags: complete (in the build: listing the real kinds is enough, FXT_KIND_COUNT_ is
 * not one) and with FXT_PROBE_MISSING (tests/compile/switch_enum.sh: must be refused). */
#include <fxt/reader.h>

int fxt_probe_switch_enum(fxt_record_kind kind);
int fxt_probe_switch_enum(fxt_record_kind kind) {
    switch (kind) {
    case FXT_KIND_EVENT:
        return 1;
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_KERNEL_OBJECT:
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
    case FXT_KIND_LOG:
    case FXT_KIND_LARGE_BLOB:
#ifndef FXT_PROBE_MISSING
    case FXT_KIND_UNKNOWN:
#endif
    /* a default does not excuse a missing kind under -Wswitch-enum */
    default:
        return 0;
    }
}
