/* SPDX-License-Identifier: MIT */
/* A trace manager served on a thread of the test process (test_manager.c, test_trace_buffer.c):
 * polls until told to stop and every provider is collected. */
#ifndef FXT_TEST_MGR_THREAD_H
#define FXT_TEST_MGR_THREAD_H

#include <fxt/manager.h>
#include <pthread.h>

typedef struct mgr_thread {
    fxt_manager_t *m;
    int stop;
    pthread_t th;
} mgr_thread_t;

static void *serve(void *arg) {
    mgr_thread_t *x = (mgr_thread_t *)arg;
    while (!(__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE) && fxt_manager_connected(x->m) == 0)) {
        fxt_manager_poll(x->m, 2);
    }
    return NULL;
}

#endif /* FXT_TEST_MGR_THREAD_H */
