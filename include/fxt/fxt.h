/* libfxt umbrella header: includes every public layer. */
#ifndef FXT_FXT_H
#define FXT_FXT_H

#include <fxt/common.h>
#include <fxt/format.h>
#include <fxt/reader.h>

#endif /* FXT_FXT_H */
