/* SPDX-License-Identifier: MIT */
/*
 * fxt merge: the trace manager. One archive from several traces, each input's
 * records in its own provider section (provider ids remapped on collision,
 * multi-provider inputs kept section by section, init records per section).
 * Streaming: constant memory whatever the input sizes.
 */
#include <fxt/archive.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"

/* A fixed bound keeps the config static (no allocation while parsing arguments). */
#define MAX_INPUTS 1024

/* The provider name for an input without provider info: the file's name up to its first dot. */
static void base_name(const char *path, char *out, size_t cap) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    if (strcmp(path, "-") == 0) {
        b = "stdin";
    }
    snprintf(out, cap, "%s", b);
    char *dot = strchr(out, '.');
    /* A leading dot (".hidden") is part of the name, not an extension. */
    if (dot != NULL && dot != out) {
        *dot = '\0';
    }
}

/* ---- command ------------------------------------------------------------------------ */

typedef struct merge_config {
    const char *inputs[MAX_INPUTS];
    unsigned ninputs;
    const char *out, *compress;
    const char *offsets[MAX_INPUTS]; /* --offset FILE=NS as given */
    unsigned noffsets;
    int64_t shift_ns[MAX_INPUTS]; /* per input, resolved from offsets by merge_offsets */
} merge_config_t;

static const cli_opt_t merge_opts[] = {
    CLI_OUTPUT_OPTS(merge_config_t, out, compress, "output (default: standard output); .gz/.zst compress"),
    CLI_LIST(merge_config_t, offsets, noffsets, "offset", "FILE=NS",
             "shift FILE's clock by NS nanoseconds (may be negative, at most 5e17 either way; repeatable)"),
};

static const cli_spec_t merge_spec = {
    "merge",
    merge_opts,
    sizeof merge_opts / sizeof merge_opts[0],
    NULL,
    sizeof(merge_config_t),
    "IN",
    offsetof(merge_config_t, inputs),
    offsetof(merge_config_t, ninputs) + 1,
    1,
    MAX_INPUTS,
};

/* The largest --offset, in ns either way (see merge_offset). */
#define MAX_OFFSET_NS 500000000000000000LL

/* One --offset FILE=NS: the shift goes to every input named FILE. 0 or a usage error. */
static int merge_offset(merge_config_t *cfg, const char *arg) {
    /* The last '=': a file name may contain '=' itself, a number cannot. */
    const char *eq = strrchr(arg, '=');
    if (eq == NULL) {
        fprintf(stderr, "fxt merge: --offset wants FILE=NS\n");
        return CLI_EXIT_USAGE;
    }
    char *end;
    errno = 0;
    long long ns = strtoll(eq + 1, &end, 10);
    if (*end || end == eq + 1 || errno == ERANGE) {
        fprintf(stderr, "fxt merge: bad offset '%s'\n", eq + 1);
        return CLI_EXIT_USAGE;
    }
    /* The merger converts the offset to each provider's ticks in 64 bits: within this bound
     * the shift fits for any rate up to 18.4 GHz (2^63 / 5e17 ticks per ns), never wrapped. */
    if (ns > MAX_OFFSET_NS || ns < -MAX_OFFSET_NS) {
        fprintf(stderr, "fxt merge: offset '%s' is beyond +-%lld ns (15.8 years)\n", eq + 1, MAX_OFFSET_NS);
        return CLI_EXIT_USAGE;
    }
    size_t flen = (size_t)(eq - arg);
    int found = 0;
    for (unsigned i = 0; i < cfg->ninputs; i++) {
        if (strlen(cfg->inputs[i]) == flen && memcmp(cfg->inputs[i], arg, flen) == 0) {
            /* No break: the same path given twice gets the shift on both inputs. */
            cfg->shift_ns[i] = ns;
            found = 1;
        }
    }
    if (!found) {
        fprintf(stderr, "fxt merge: --offset names '%.*s', which is not an input\n", (int)flen, arg);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Offsets are resolved after parsing because FILE must match an input, which may come later. */
static int merge_offsets(merge_config_t *cfg) {
    int rc = 0;
    for (unsigned k = 0; rc == 0 && k < cfg->noffsets; k++) {
        rc = merge_offset(cfg, cfg->offsets[k]);
    }
    return rc;
}

/* Feed one input to the merger and report its damaged and refused records. 0 or an exit code. */
static int merge_input(fxt_merger_t *m, cli_output_t *out, const char *path, int64_t shift_ns,
                       uint64_t *damaged, uint64_t *refused) {
    char err[512];
    cli_input_t *in;
    if (cli_input_open(path, &in, err, sizeof err) != 0) {
        fprintf(stderr, "fxt merge: %s\n", err);
        return CLI_EXIT_IO;
    }
    char name[256];
    base_name(path, name, sizeof name);
    fxt_merger_input_t mi = FXT_MERGER_INPUT_INIT;
    /* Used only when the input has records outside any provider section (see the help text). */
    mi.name = name;
    mi.offset_ns = shift_ns;
    fxt_merger_begin_input(m, &mi);
    const uint8_t *data;
    size_t len;
    int got, rc = CLI_EXIT_OK;
    fxt_status st = FXT_OK;
    fxt_merger_stats_t before;
    fxt_merger_get_stats(m, &before);
    while ((got = cli_input_read(in, &data, &len, err, sizeof err)) > 0) {
        st = fxt_merger_feed(m, data, len);
        /* A feed error is the writer's (sink or memory); damaged input records are not errors here. */
        if (st != FXT_OK) {
            break;
        }
        /* A record of size 0 is fatal: the reader ignores the rest of the input, so it is not read
         * (/dev/zero would be read forever, a compression bomb decompressed whole). Known by its
         * status, when this chunk counted damage and no refusal (whose status is the writer's). */
        fxt_merger_stats_t now;
        fxt_merger_get_stats(m, &now);
        if (now.damaged > before.damaged && now.refused == before.refused &&
            fxt_merger_diag(m)->status == FXT_E_BAD_RECORD_SIZE) {
            break;
        }
        before = now;
    }
    if (got < 0) {
        fprintf(stderr, "fxt merge: %s\n", err);
        rc = CLI_EXIT_IO;
    }
    /* Always ended, even after an error; FXT_E_TRUNCATED says the input was cut inside a record. */
    fxt_status est = fxt_merger_end_input(m);
    int werr = st == FXT_E_IO ? cli_output_errno(out) : 0;
    if (st == FXT_E_IO) {
        cli_output_error("merge", werr);
        rc = CLI_EXIT_IO;
    } else if (st != FXT_OK) {
        fprintf(stderr, "fxt merge: writing: %s\n", fxt_status_str(st));
        rc = CLI_EXIT_LIMIT;
    }
    fxt_merger_stats_t ms;
    fxt_merger_get_stats(m, &ms);
    /* The merger's counters are cumulative: the difference is this input's share. */
    if (ms.damaged > *damaged || est == FXT_E_TRUNCATED) {
        fprintf(stderr,
                "fxt merge: %s: %" PRIu64 " damaged record(s) skipped (last at offset %" PRIu64 ": %s)\n",
                path, ms.damaged - *damaged, fxt_merger_diag(m)->offset, fxt_merger_diag(m)->msg);
        *damaged = ms.damaged;
    }
    if (ms.refused > *refused) {
        fprintf(stderr,
                "fxt merge: %s: %" PRIu64
                " record(s) could not be re-encoded and were dropped (last at offset %" PRIu64 ": %s)\n",
                path, ms.refused - *refused, fxt_merger_diag(m)->offset, fxt_merger_diag(m)->msg);
        *refused = ms.refused;
    }
    cli_input_close(in);
    return rc;
}

/* Opens the output, feeds every input to one merger, then reports totals; exit 1 when any
 * input had damaged or refused records. */
static int merge_run(void *config) {
    merge_config_t *cfg = config;
    int prc = merge_offsets(cfg);
    if (prc != 0) {
        return prc;
    }
    char err[512];
    cli_output_t *out;
    for (unsigned i = 0; i < cfg->ninputs; i++) {
        if (cli_input_check("merge", cfg->inputs[i]) != 0) {
            return CLI_EXIT_IO; /* no output file for a missing input */
        }
    }
    if (cli_output_check("merge", cfg->out, cfg->inputs, cfg->ninputs) != 0) {
        return CLI_EXIT_USAGE; /* writing it would destroy an input */
    }
    int orc = cli_output_open(cfg->out, cfg->compress, &out, err, sizeof err);
    if (orc != 0) {
        fprintf(stderr, "fxt merge: %s\n", err);
        return orc;
    }
    /* A 1 MiB writer buffer: fewer sink writes when re-encoding large inputs. */
    fxt_writer_options_t wo = {sizeof wo, 0, 1u << 20, 0, 0};
    fxt_writer_t *w = NULL;
    fxt_merger_t *m = NULL;
    if (fxt_writer_create(&wo, cli_output_sink(out), &w) != FXT_OK || fxt_merger_create(w, &m) != FXT_OK) {
        fprintf(stderr, "fxt merge: out of memory\n");
        fxt_writer_destroy(w);
        cli_output_close(out, 1);
        return CLI_EXIT_LIMIT;
    }
    int rc = CLI_EXIT_OK;
    uint64_t damaged = 0, refused = 0;
    /* An I/O or writer error stops the merge; damaged records only count towards exit 1. */
    for (unsigned i = 0; i < cfg->ninputs && rc == CLI_EXIT_OK; i++) {
        rc = merge_input(m, out, cfg->inputs[i], cfg->shift_ns[i], &damaged, &refused);
    }
    fxt_status st = fxt_merger_finish(m);
    fxt_merger_stats_t ms;
    fxt_merger_get_stats(m, &ms);
    fxt_merger_destroy(m);
    fxt_writer_destroy(w);
    /* A failed merge (output, input I/O, memory) skips the compressor trailer and keeps no
     * output: a file missing an input must not look like the whole merge. A close failure is an
     * I/O error. */
    if (cli_output_close(out, st != FXT_OK || rc != CLI_EXIT_OK) != 0 && st == FXT_OK && rc == CLI_EXIT_OK) {
        st = FXT_E_IO;
    }
    int werr = errno;
    if (st != FXT_OK && rc == CLI_EXIT_OK) {
        if (st == FXT_E_IO) {
            cli_output_error("merge", werr);
        } else {
            fprintf(stderr, "fxt merge: %s\n", fxt_status_str(st));
        }
        rc = st == FXT_E_IO ? CLI_EXIT_IO : CLI_EXIT_LIMIT;
    }
    if (rc == CLI_EXIT_OK) {
        fprintf(stderr,
                "fxt merge: %" PRIu64 " inputs, %" PRIu64 " providers (%" PRIu64 " remapped), %" PRIu64
                " records\n",
                ms.inputs, ms.providers, ms.remapped, ms.records);
    }
    return rc != CLI_EXIT_OK ? rc : (ms.damaged || ms.refused ? CLI_EXIT_DATA : CLI_EXIT_OK);
}

const cli_command_t cli_cmd_merge = {
    "merge",
    merge_run,
    NULL,
    "merge traces into one archive (trace manager)",
    "fxt merge [options] IN... -o OUT",
    "Merge traces into one archive: one magic record, then each input's records\n"
    "inside its own provider section. An input's provider keeps its name (records\n"
    "outside any provider section get a provider named after the file); provider\n"
    "ids are remapped when inputs collide; multi-provider archives are kept section\n"
    "by section; initialization records stay with their section, so mixed tick\n"
    "rates stay correct; buffer-overflow provider events are preserved. Inputs may\n"
    "be gzip or zstd compressed; '-' reads standard input.\n",
    &merge_spec,
    "exit status: 0 ok, 1 some input had damaged records (skipped) or records that\n"
    "could not be re-encoded (dropped), 2 usage error,\n"
    "3 I/O error, 4 out of memory or an internal limit\n",
};
