/* SPDX-License-Identifier: MIT */
/*
 * The struct_size rule shared by every options/config struct (see common.h):
 * `dst` holds the defaults; the caller's struct is read up to its struct_size.
 */
#ifndef FXT_OPTIONS_H
#define FXT_OPTIONS_H

#include <fxt/common.h>

#include <stdint.h>
#include <string.h>

/*
 * Read the caller's `opt` (may be NULL) over the defaults in dst[0..dst_size).
 * struct_size 0 (or a NULL opt): defaults; smaller than dst_size: the fields it
 * covers, defaults past it; larger: FXT_E_INVALID_ARG (options this library
 * does not know). dst's own struct_size is left as it is.
 */
static inline fxt_status fxt__options_read(void *dst, size_t dst_size, const void *opt) {
    if (opt == NULL) {
        return FXT_OK;
    }
    uint32_t n;
    memcpy(&n, opt, sizeof n);
    if (n > dst_size) {
        return FXT_E_INVALID_ARG;
    }
    if (n > sizeof n) {
        memcpy((char *)dst + sizeof n, (const char *)opt + sizeof n, n - sizeof n);
    }
    return FXT_OK;
}

#endif /* FXT_OPTIONS_H */
