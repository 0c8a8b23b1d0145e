/* SPDX-License-Identifier: MIT */
/* Format layer: accessors against hand-computed words from the spec. */
#include <fxt/format.h>
#include <fxt/reader.h>

#include "test.h"

static void magic_record_fields(void) {
    /* Spec: the magic record as an 8-byte number is 0x0016547846040010. */
    uint64_t w = FXT_MAGIC_RECORD;
    CHECK_EQ_U64(fxt_get_rec_type(w), FXT_RECORD_METADATA);
    CHECK_EQ_U64(fxt_get_rec_size(w), 1);
    CHECK_EQ_U64(fxt_get_meta_type(w), FXT_META_TRACE_INFO);
    CHECK_EQ_U64(fxt_get_meta_trace_info_type(w), FXT_TRACE_INFO_MAGIC);
    CHECK_EQ_U64(fxt_get_meta_magic(w), FXT_MAGIC_NUMBER);
    CHECK_EQ_U64(fxt_get_meta_magic_zero(w), 0);
    CHECK_EQ_U64(fxt_put_rec_type(0) | fxt_put_rec_size(1) | fxt_put_meta_type(4) |
                     fxt_put_meta_magic(FXT_MAGIC_NUMBER),
                 w);
    CHECK_EQ_U64(fxt_bswap64(w), FXT_MAGIC_RECORD_SWAPPED);
    /* Little-endian bytes 10 00 04 46 78 54 16 00. */
    const unsigned char le[8] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    CHECK_EQ_U64(fxt_load_le64(le), w);
}

static void field_masks(void) {
    CHECK_EQ_U64(FXT_MASK(rec_type), 0xf);
    CHECK_EQ_U64(FXT_MASK(rec_size), 0xfff0);
    CHECK_EQ_U64(FXT_MASK(large_size), UINT64_C(0xffffffff0));
    CHECK_EQ_U64(FXT_MASK(event_name), UINT64_C(0xffff000000000000));
    CHECK_EQ_U64(FXT_MASK(sched_type), UINT64_C(0xf000000000000000));
    CHECK_EQ_U64(FXT_MASK(arg_bool), UINT64_C(0x100000000));
    /* put masks out-of-range values instead of spilling into other fields */
    CHECK_EQ_U64(fxt_put_rec_type(0x1f), 0xf);
}

static void event_header_fields(void) {
    /* Duration begin, 2 args, thread ref 3, category ref 1, name ref 2, 5 words:
     * type 4 | size 5<<4 | event type 2<<16 | nargs 2<<20 | thread 3<<24 | cat 1<<32 | name 2<<48 */
    uint64_t w = UINT64_C(0x0002000103220054);
    CHECK_EQ_U64(fxt_get_rec_type(w), FXT_RECORD_EVENT);
    CHECK_EQ_U64(fxt_get_rec_size(w), 5);
    CHECK_EQ_U64(fxt_get_event_type(w), FXT_EVENT_DURATION_BEGIN);
    CHECK_EQ_U64(fxt_get_event_nargs(w), 2);
    CHECK_EQ_U64(fxt_get_event_thread(w), 3);
    CHECK_EQ_U64(fxt_get_event_category(w), 1);
    CHECK_EQ_U64(fxt_get_event_name(w), 2);
}

static void strrefs_and_padding(void) {
    CHECK(fxt_strref_is_inline(0x8005));
    CHECK(!fxt_strref_is_inline(0x0005));
    CHECK_EQ_U64(fxt_strref_value(0x8005), 5);
    CHECK_EQ_U64(fxt_strref_inline(5), 0x8005);
    /* an index names a table entry: 1..0x7fff; not the empty ref 0, not an inline one */
    CHECK(!fxt_strref_is_index(0));
    CHECK(fxt_strref_is_index(1));
    CHECK(fxt_strref_is_index(0x7fff));
    CHECK(!fxt_strref_is_index(0x8000));
    CHECK(!fxt_strref_is_index(0x8005));
    CHECK(!fxt_strref_is_index(0xffff));
    CHECK_EQ_U64(fxt_pad8(0), 0);
    CHECK_EQ_U64(fxt_pad8(1), 8);
    CHECK_EQ_U64(fxt_pad8(8), 8);
    CHECK_EQ_U64(fxt_words(9), 2);
}

static void names(void) {
    CHECK(strcmp(fxt_record_kind_name(FXT_KIND_LEGACY_CONTEXT_SWITCH), "legacy_context_switch") == 0);
    CHECK(strcmp(fxt_event_type_name(FXT_EVENT_FLOW_END), "flow_end") == 0);
    CHECK(fxt_event_type_name(11) == NULL);
    CHECK(strcmp(fxt_arg_type_name(FXT_ARG_BOOL), "bool") == 0);
    CHECK(strcmp(fxt_status_name(FXT_E_TRUNCATED), "FXT_E_TRUNCATED") == 0);
    CHECK(strcmp(fxt_status_str(FXT_OK), "success") == 0);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(magic_record_fields);
    RUN(field_masks);
    RUN(event_header_fields);
    RUN(strrefs_and_padding);
    RUN(names);
    return TEST_EXIT();
}
