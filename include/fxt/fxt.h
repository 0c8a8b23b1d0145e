/* libfxt umbrella header: includes every public layer. */
#ifndef FXT_FXT_H
#define FXT_FXT_H

#include <fxt/common.h>
#include <fxt/format.h>
#include <fxt/reader.h>
#include <fxt/writer.h>
#include <fxt/archive.h>
#include <fxt/trace.h>

#endif /* FXT_FXT_H */
