/* SPDX-License-Identifier: MIT */
/*
 * A small multi-threaded C program instrumented with libfxt's trace macros.
 * `make demo` runs it and writes demo.fxt; open that in https://ui.perfetto.dev.
 *
 * Without arguments it traces itself into demo.fxt; with FXT_TRACE_OUTPUT set
 * in the environment it is configured from there instead (no recompiling).
 */
#include <fxt/trace.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void busy(unsigned us) {
    struct timespec d = {0, (long)us * 1000};
    nanosleep(&d, NULL);
}

static void decode_frame(int frame) {
    FXT_DURATION("demo.decode", "decode_frame");
    FXT_INSTANT("demo.decode", "keyframe", FXT_I32("frame", frame), FXT_BOOL("key", frame % 10 == 0));
    busy(200 + (unsigned)(frame % 7) * 50);
}

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    char name[32];
    snprintf(name, sizeof name, "worker-%d", id);
    fxt_set_thread_name(name);
    for (int frame = 0; frame < 200; frame++) {
        FXT_DURATION_BEGIN("demo", "frame", FXT_I32("frame", frame), FXT_I32("worker", id));
        decode_frame(frame);
        /* each frame hands off to the next one: a flow from frame to frame */
        if (frame > 0) {
            FXT_FLOW_END("demo", "handoff", (uint64_t)(id * 1000 + frame - 1));
        }
        if (frame < 199) {
            FXT_FLOW_BEGIN("demo", "handoff", (uint64_t)(id * 1000 + frame));
        }
        FXT_COUNTER("demo", "queue_depth", (uint64_t)id, FXT_I64("depth", (frame * 7 + id) % 13));
        if (frame % 50 == 0) {
            FXT_LOG("demo", "worker %d reached frame %d", id, frame);
        }
        FXT_DURATION_END("demo", "frame");
    }
    return NULL;
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "demo.fxt";
    if (fxt_session_start_from_env() == FXT_E_NOT_FOUND) {
        fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
        cfg.output_path = out;
        cfg.categories = "demo*";
        cfg.mode = FXT_MODE_ONESHOT;
        if (fxt_session_start(&cfg) != FXT_OK) {
            fprintf(stderr, "demo: cannot start tracing into %s\n", out);
            return 1;
        }
    }
    fxt_set_thread_name("main");
    FXT_ASYNC_BEGIN("demo", "session", 1);
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
    }
    FXT_ASYNC_END("demo", "session", 1);
    fxt_session_stats_t st;
    fxt_status s = fxt_session_stop();
    fxt_session_get_stats(&st);
    printf("demo: %llu records from %llu threads, %llu dropped, %llu bytes written (%s)\n",
           (unsigned long long)st.records, (unsigned long long)st.threads, (unsigned long long)st.dropped,
           (unsigned long long)st.bytes, fxt_status_str(s));
    return s == FXT_OK ? 0 : 1;
}
