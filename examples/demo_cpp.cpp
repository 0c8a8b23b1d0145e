/* SPDX-License-Identifier: MIT */
// Every trace macro from C++ (RAII scoped durations), writing demo_cpp.fxt.
#include <fxt/trace.h>

#include <cstdio>
#include <thread>
#include <vector>

static void render(int frame) {
    FXT_DURATION("cpp", "render", FXT_I32("frame", frame)); // one duration complete event for this scope
    FXT_INSTANT("cpp", "frame", FXT_I32("frame", frame), FXT_U32("u32", 7u), FXT_I64("i64", -5),
                FXT_U64("u64", 5u), FXT_F64("ms", 16.6), FXT_STR("state", "ok"), FXT_PTR("this", &frame),
                FXT_KOID("koid", 1234), FXT_BOOL("vsync", true), FXT_NULL("nothing"));
    if (FXT_CATEGORY_ENABLED("cpp.expensive")) {
        FXT_INSTANT("cpp.expensive", "details", FXT_I32("frame", frame));
    }
}

int main() {
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.output_path = "demo_cpp.fxt";
    cfg.categories = "cpp*";
    cfg.mode = FXT_MODE_STREAMING;
    if (fxt_session_start(&cfg) != FXT_OK) {
        std::fprintf(stderr, "cannot start tracing\n");
        return 1;
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; t++) {
        threads.emplace_back([t] {
            FXT_DURATION_BEGIN("cpp", "thread", FXT_I32("index", t));
            for (int f = 0; f < 100; f++) {
                render(f);
                FXT_COUNTER("cpp", "fps", 1, FXT_F64("fps", 60.0 - f % 3));
                FXT_ASYNC_BEGIN("cpp", "load", static_cast<uint64_t>(f));
                FXT_ASYNC_INSTANT("cpp", "load", static_cast<uint64_t>(f), FXT_I32("progress", 50));
                FXT_ASYNC_END("cpp", "load", static_cast<uint64_t>(f));
                FXT_FLOW_BEGIN("cpp", "job", static_cast<uint64_t>(t * 1000 + f));
                FXT_FLOW_STEP("cpp", "job", static_cast<uint64_t>(t * 1000 + f));
                FXT_FLOW_END("cpp", "job", static_cast<uint64_t>(t * 1000 + f));
            }
            FXT_LOG("cpp", "thread %d done", t);
            FXT_BLOB("cpp", "blob", "payload", 7);
            FXT_DURATION_END("cpp", "thread");
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    return fxt_session_stop() == FXT_OK ? 0 : 1;
}
