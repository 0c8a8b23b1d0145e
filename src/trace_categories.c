/* SPDX-License-Identifier: MIT */
/* Category patterns ("gfx,net*") and the per-call-site enabled state of the trace macros. */
#include "trace_internal.h"

#include <stdlib.h>
#include <string.h>

void fxt__trace_free_cats(void) {
    for (size_t i = 0; i < fxt__trace.ncats; i++) {
        free(fxt__trace.cats[i]);
    }
    free(fxt__trace.cats);
    fxt__trace.cats = NULL;
    fxt__trace.ncats = 0;
}

int fxt__trace_parse_cats(const char *spec) {
    fxt__trace_free_cats();
    fxt__trace.all_cats = spec == NULL || spec[0] == '\0' || strcmp(spec, "*") == 0;
    if (fxt__trace.all_cats) {
        return 0;
    }
    const char *p = spec;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n && (*p == ' ' || *p == '\t')) {
            p++;
            n--;
        }
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) {
            n--;
        }
        if (n) {
            char **nc = realloc(fxt__trace.cats, (fxt__trace.ncats + 1) * sizeof *nc);
            if (nc == NULL) {
                return -1;
            }
            fxt__trace.cats = nc;
            fxt__trace.cats[fxt__trace.ncats] = malloc(n + 1);
            if (fxt__trace.cats[fxt__trace.ncats] == NULL) {
                return -1;
            }
            memcpy(fxt__trace.cats[fxt__trace.ncats], p, n);
            fxt__trace.cats[fxt__trace.ncats][n] = '\0';
            if (strcmp(fxt__trace.cats[fxt__trace.ncats], "*") == 0) {
                fxt__trace.all_cats = 1;
            }
            fxt__trace.ncats++;
        }
        p += n;
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        if (*p == ',') {
            p++;
        }
    }
    return 0;
}

static int cat_match(const char *cat) {
    if (fxt__trace.all_cats) {
        return 1;
    }
    for (size_t i = 0; i < fxt__trace.ncats; i++) {
        const char *pat = fxt__trace.cats[i];
        size_t n = strlen(pat);
        if (n && pat[n - 1] == '*') {
            if (strncmp(cat, pat, n - 1) == 0) {
                return 1;
            }
        } else if (strcmp(cat, pat) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Zero-code tracing: the first call site evaluated in a process with no session
 * starts one from FXT_TRACE_* when FXT_TRACE_OUTPUT is set (once per process;
 * an explicit fxt_session_start() before that wins: fxt__trace.env_tried). A site
 * evaluated while a start is under way waits for it: caching "off" would lose the
 * thread's events until the next refresh (issue 24.1). */
int fxt__site_refresh(fxt__site_t *s) {
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace_wait_start_locked();
    int try_env = !fxt__trace.env_tried && !fxt__trace.active;
    pthread_mutex_unlock(&fxt__trace.lock);
    if (try_env) {
        (void)fxt__trace_start_from_env(1);
    }
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace_wait_start_locked();
    int on = fxt__trace.active && cat_match(s->category);
    uint32_t st = on ? __atomic_load_n(&fxt__gen_on, __ATOMIC_RELAXED)
                     : __atomic_load_n(&fxt__gen_off, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&fxt__trace.lock);
    /* the fast path needs the category's length each event: measure it once per site */
    if (s->category != NULL) {
        __atomic_store_n(&s->category_len, (uint32_t)strlen(s->category), __ATOMIC_RELAXED);
    }
    /* a state computed before a later change is stale: its value is never current again */
    __atomic_store_n(&s->state, st, __ATOMIC_RELAXED);
    return on;
}

int fxt_category_enabled(const char *category) {
    pthread_mutex_lock(&fxt__trace.lock);
    int on = fxt__trace.active && category != NULL && cat_match(category);
    pthread_mutex_unlock(&fxt__trace.lock);
    return on;
}
