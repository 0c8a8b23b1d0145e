/* SPDX-License-Identifier: MIT */
/*
 * A hand-built trace with every record kind and argument type, written word by
 * word from the spec's bit layouts (shared by the reader and writer tests).
 */
#ifndef FXT_TEST_HAND_TRACE_H
#define FXT_TEST_HAND_TRACE_H

#include "reader_util.h"

/* ---- the hand-built trace ----------------------------------------------------- */

/* Every record kind and argument type, written in the byte order of b. */
static void build_all(tbuf_t *b) {
    /* magic: the whole record is 0x0016547846040010 */
    tb_w(b, 0x0016547846040010ull);
    /* provider info: type 0, size 2@4, meta 1@16, id 7@20, name len 4@52 */
    tb_w(b, 0x0040000000710020ull);
    TB_S(b, "prov");
    /* provider section: size 1@4, meta 2@16, id 7@20 */
    tb_w(b, 0x0000000000720010ull);
    /* provider event: size 1@4, meta 3@16, id 7@20, event 0@52 */
    tb_w(b, 0x0000000000730010ull);
    /* trace info: size 1@4, meta 4@16, info type 1@20 */
    tb_w(b, 0x0000000000140010ull);
    /* init: type 1, size 2@4; 1,000,000 ticks per second */
    tb_w(b, 0x0000000000000021ull);
    tb_w(b, 1000000);
    /* string: type 2, size 2@4, index 1@16, len 3@32 -> "cat" */
    tb_w(b, 0x0000000300010022ull);
    TB_S(b, "cat");
    /* string: index 2@16, len 4@32 -> "name" */
    tb_w(b, 0x0000000400020022ull);
    TB_S(b, "name");
    /* thread: type 3, size 3@4, index 1@16; pid 0x10, tid 0x20 */
    tb_w(b, 0x0000000000010033ull);
    tb_w(b, 0x10);
    tb_w(b, 0x20);

    /* instant event: type 4, size 22@4, event 0@16, 11 args@20, thread 1@24,
     * category 1@32, name 2@48; 1 + 1 + 19 arg words + 1 scope word = 22 */
    tb_w(b, 0x0002000101b00164ull);
    tb_w(b, 0x1000); /* timestamp */
    /* null arg: size 2@4, name inline len 1 (0x8001@16) */
    tb_w(b, 0x0000000080010020ull);
    TB_S(b, "n");
    /* int32: type 1, size 1@4, name 2@16, value -5 (0xfffffffb@32) */
    tb_w(b, 0xfffffffb00020011ull);
    /* uint32: type 2, size 1, name 2, value 0xdeadbeef@32 */
    tb_w(b, 0xdeadbeef00020012ull);
    /* int64: type 3, size 2@4, name 2@16; value -2 */
    tb_w(b, 0x0000000000020023ull);
    tb_w(b, 0xfffffffffffffffeull);
    /* uint64: type 4, size 2, name 2; value max */
    tb_w(b, 0x0000000000020024ull);
    tb_w(b, 0xffffffffffffffffull);
    /* double: type 5, size 2, name 2; value 1.5 = 0x3ff8000000000000 */
    tb_w(b, 0x0000000000020025ull);
    tb_w(b, 0x3ff8000000000000ull);
    /* string: type 6, size 2@4, name 2@16, value inline len 2 (0x8002@32) -> "hi" */
    tb_w(b, 0x0000800200020026ull);
    TB_S(b, "hi");
    /* pointer: type 7, size 2, name 2; 0x1234 */
    tb_w(b, 0x0000000000020027ull);
    tb_w(b, 0x1234);
    /* koid: type 8, size 2, name 2; 0x99 */
    tb_w(b, 0x0000000000020028ull);
    tb_w(b, 0x99);
    /* bool: type 9, size 1@4, name 2@16, true 1@32 */
    tb_w(b, 0x0000000100020019ull);
    /* unknown argument type 10: size 2@4, name 2@16, one payload word */
    tb_w(b, 0x000000000002002aull);
    tb_w(b, 0xabcdef);
    /* scope word appended by some writers: global */
    tb_w(b, 2);

    /* counter: size 8@4, event 1@16, 1 arg@20, inline thread 0@24,
     * category inline len 1 (0x8001@32), name inline len 3 (0x8003@48) */
    tb_w(b, 0x8003800100110084ull);
    tb_w(b, 0x1100);
    tb_w(b, 0x31); /* pid */
    tb_w(b, 0x32); /* tid */
    TB_S(b, "c");
    TB_S(b, "cnt");
    /* int32 arg: size 1, name 2, value 5@32 */
    tb_w(b, 0x0000000500020011ull);
    tb_w(b, 42); /* counter id, after the arguments */

    /* duration begin / end: size 2@4, event 2 or 3@16, thread 1@24, cat 1@32, name 2@48 */
    tb_w(b, 0x0002000101020024ull);
    tb_w(b, 0x2000);
    tb_w(b, 0x0002000101030024ull);
    tb_w(b, 0x2100);
    /* duration complete: size 3@4, event 4@16; end timestamp after */
    tb_w(b, 0x0002000101040034ull);
    tb_w(b, 0x3000);
    tb_w(b, 0x3500);
    /* async begin/instant/end (5,6,7) and flow begin/step/end (8,9,10), size 3: id last */
    static const uint64_t idh[6] = {0x0002000101050034ull, 0x0002000101060034ull, 0x0002000101070034ull,
                                    0x0002000101080034ull, 0x0002000101090034ull, 0x00020001010a0034ull};
    for (int i = 0; i < 6; i++) {
        tb_w(b, idh[i]);
        tb_w(b, 0x4000 + (uint64_t)i);
        tb_w(b, i < 3 ? 0xa : 0xf);
    }

    /* blob: type 5, size 3@4, name inline len 1 (0x8001@16), size 5@32, blob type 1@48 */
    tb_w(b, 0x0001000580010035ull);
    TB_S(b, "b");
    TB_S(b, "hello");
    /* userspace object: type 6, size 3@4, process thread ref 1@16, name 2@24, 1 arg@40 */
    tb_w(b, 0x0000010002010036ull);
    tb_w(b, 0xabc);                 /* pointer */
    tb_w(b, 0x0000000100020011ull); /* int32 arg name 2 = 1 */
    /* userspace object, inline process: size 4@4, process 0@16, name inline len 1 (0x8001@24) */
    tb_w(b, 0x0000008001000046ull);
    tb_w(b, 0xdef); /* pointer */
    tb_w(b, 0x77);  /* process koid: ONE word */
    TB_S(b, "o");
    /* kernel object: type 7, size 6@4, obj type 2 (thread)@16, name inline len 3 (0x8003@24),
     * 1 arg@40 */
    tb_w(b, 0x0000018003020067ull);
    tb_w(b, 0x20); /* koid */
    TB_S(b, "thr");
    /* koid arg: type 8, size 3@4, name inline len 7 (0x8007@16) "process"; value 0x10 */
    tb_w(b, 0x0000000080070038ull);
    TB_S(b, "process");
    tb_w(b, 0x10);
    /* context switch: type 8, size 5@4, 1 arg@16, cpu 3@20, out state 3@36, sched 1@60 */
    tb_w(b, 0x1000003000310058ull);
    tb_w(b, 0x5000);
    tb_w(b, 0x21); /* out tid */
    tb_w(b, 0x22); /* in tid */
    tb_w(b, 0x0000000500020011ull);
    /* thread wakeup: size 3@4, 0 args, cpu 1@20, sched 2@60 */
    tb_w(b, 0x2000000000100038ull);
    tb_w(b, 0x5100);
    tb_w(b, 0x23);
    /* legacy context switch: size 4@4, cpu 2@16, out state 2@24, out thread 1@28,
     * in thread inline 0@36, out prio 10@44, in prio 20@52, sched 0@60 */
    tb_w(b, 0x0140a00012020048ull);
    tb_w(b, 0x5200);
    tb_w(b, 0x41); /* in pid */
    tb_w(b, 0x42); /* in tid */
    /* log: type 9, size 3@4, length 5@16, thread 1@32 */
    tb_w(b, 0x0000000100050039ull);
    tb_w(b, 0x6000);
    TB_S(b, "hello");
    /* large blob format 0: type 15, size 7@4, large type 0@36, format 0@40 */
    tb_w(b, 0x000000000000007full);
    /* format header: category 1@0, name inline len 2 (0x8002@16), 1 arg@32, thread 1@36 */
    tb_w(b, 0x0000001180020001ull);
    TB_S(b, "lb");
    tb_w(b, 0x7000);                /* timestamp */
    tb_w(b, 0x0000000100020019ull); /* bool arg name 2 = true */
    tb_w(b, 3);                     /* payload size */
    TB_S(b, "xyz");
    /* large blob format 1: size 5@4, format 1@40 */
    tb_w(b, 0x000001000000005full);
    /* format header: category 0 (empty), name 2@16 */
    tb_w(b, 0x0000000000020000ull);
    tb_w(b, 9);
    TB_S(b, "123456789");
    /* unknown record type 10, size 2@4 */
    tb_w(b, 0x000000000000002aull);
    tb_w(b, 0);
    /* event type 11 (unknown): size 2@4, event 11@16 */
    tb_w(b, 0x00000000000b0024ull);
    tb_w(b, 0);
    /* scheduling type 3 (unknown): size 1@4, sched 3@60 */
    tb_w(b, 0x3000000000000018ull);
    /* metadata type 5 (unknown): size 1@4, meta 5@16 */
    tb_w(b, 0x0000000000050010ull);
    /* large record type 1 (unknown): size 1@4, large type 1@36 */
    tb_w(b, 0x000000100000001full);
    /* large blob format 2 (unknown): size 1@4, format 2@40 */
    tb_w(b, 0x000002000000001full);
}

#define ALL_RECORDS 36

#endif
