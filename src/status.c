/* SPDX-License-Identifier: MIT */
/* Status codes, version, and the names of record kinds and types. */
#include <fxt/common.h>
#include <fxt/reader.h>

const char *fxt_status_str(fxt_status status) {
    switch (status) {
#define FXT_STATUS_STR_(name, value, msg)                                                                    \
    case FXT_##name:                                                                                         \
        return msg;
        FXT_STATUS_MAP(FXT_STATUS_STR_)
#undef FXT_STATUS_STR_
    case FXT_STATUS_LIMIT_: /* not a status; nor is any value outside the map */
    default:
        return "unknown status";
    }
}

const char *fxt_status_name(fxt_status status) {
    switch (status) {
#define FXT_STATUS_NAME_(name, value, msg)                                                                   \
    case FXT_##name:                                                                                         \
        return "FXT_" #name;
        FXT_STATUS_MAP(FXT_STATUS_NAME_)
#undef FXT_STATUS_NAME_
    case FXT_STATUS_LIMIT_:
    default:
        return "FXT_UNKNOWN_STATUS";
    }
}

const char *fxt_version(void) { return FXT_VERSION_STRING; }

const char *fxt_record_kind_name(fxt_record_kind kind) {
    static const char *const names[FXT_KIND_COUNT_] = {
        "magic",
        "provider_info",
        "provider_section",
        "provider_event",
        "trace_info",
        "init",
        "string",
        "thread",
        "event",
        "blob",
        "userspace_object",
        "kernel_object",
        "context_switch",
        "thread_wakeup",
        "legacy_context_switch",
        "log",
        "large_blob",
        "unknown",
    };
    if ((unsigned)kind >= FXT_KIND_COUNT_) {
        return "unknown";
    }
    return names[kind];
}

const char *fxt_event_type_name(unsigned event_type) {
    static const char *const names[FXT_EVENT_TYPE_COUNT] = {
        "instant",       "counter",   "duration_begin", "duration_end", "duration_complete", "async_begin",
        "async_instant", "async_end", "flow_begin",     "flow_step",    "flow_end",
    };
    return event_type < FXT_EVENT_TYPE_COUNT ? names[event_type] : NULL;
}

const char *fxt_arg_type_name(unsigned arg_type) {
    static const char *const names[FXT_ARG_TYPE_COUNT] = {
        "null", "int32", "uint32", "int64", "uint64", "double", "string", "pointer", "koid", "bool",
    };
    return arg_type < FXT_ARG_TYPE_COUNT ? names[arg_type] : NULL;
}
