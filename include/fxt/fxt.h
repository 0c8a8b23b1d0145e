/* SPDX-License-Identifier: MIT */
/* libfxt umbrella header: includes every public layer. */
#ifndef FXT_FXT_H
#define FXT_FXT_H

#include <fxt/archive.h>
#include <fxt/common.h>
#include <fxt/format.h>
#include <fxt/reader.h>
#include <fxt/trace.h>
#include <fxt/writer.h>

#endif /* FXT_FXT_H */
