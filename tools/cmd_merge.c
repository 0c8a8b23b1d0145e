/*
 * fxt merge: the trace manager. One archive from several traces, each input's
 * records in its own provider section (provider ids remapped on collision,
 * multi-provider inputs kept section by section, init records per section).
 * Streaming: constant memory whatever the input sizes.
 */
#include <fxt/archive.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"

#define MAX_INPUTS 1024

static const char merge_help[] =
    "usage: fxt merge [options] IN... -o OUT\n"
    "\n"
    "Merge traces into one archive: one magic record, then each input's records\n"
    "inside its own provider section. An input's provider keeps its name (records\n"
    "outside any provider section get a provider named after the file); provider\n"
    "ids are remapped when inputs collide; multi-provider archives are kept section\n"
    "by section; initialization records stay with their section, so mixed tick\n"
    "rates stay correct; buffer-overflow provider events are preserved. Inputs may\n"
    "be gzip or zstd compressed; '-' reads standard input.\n"
    "\n"
    "  -o, --output FILE     output (default: standard output); .gz/.zst compress\n"
    "  --compress FORMAT     gzip, zstd or none, whatever the name\n"
    "  --offset FILE=NS      shift FILE's clock by NS nanoseconds (may be negative)\n"
    "\n"
    "exit status: 0 ok, 1 some input had damaged records (skipped) or records that\n"
    "could not be re-encoded (dropped), 2 usage error,\n"
    "3 I/O error, 4 out of memory\n";

static void base_name(const char *path, char *out, size_t cap) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    if (strcmp(path, "-") == 0) {
        b = "stdin";
    }
    snprintf(out, cap, "%s", b);
    char *dot = strchr(out, '.');
    if (dot != NULL && dot != out) {
        *dot = '\0';
    }
}

static int run(int argc, char **argv) {
    const char *inputs[MAX_INPUTS];
    int64_t offsets[MAX_INPUTS] = {0};
    const char *off_file[MAX_INPUTS];
    int64_t off_ns[MAX_INPUTS];
    int ninputs = 0, noffs = 0;
    const char *outpath = NULL, *compress = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && v) {
            outpath = v;
            i++;
        } else if (strcmp(a, "--compress") == 0 && v) {
            compress = v;
            i++;
        } else if (strcmp(a, "--offset") == 0 && v && noffs < MAX_INPUTS) {
            const char *eq = strrchr(v, '=');
            char *end;
            if (eq == NULL) {
                fprintf(stderr, "fxt merge: --offset wants FILE=NS\n");
                return CLI_EXIT_USAGE;
            }
            off_ns[noffs] = strtoll(eq + 1, &end, 10);
            if (*end || end == eq + 1) {
                fprintf(stderr, "fxt merge: bad offset '%s'\n", eq + 1);
                return CLI_EXIT_USAGE;
            }
            char *f = malloc((size_t)(eq - v) + 1);
            memcpy(f, v, (size_t)(eq - v));
            f[eq - v] = '\0';
            off_file[noffs++] = f;
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "fxt merge: unknown option or missing value: '%s'\n", a);
            return CLI_EXIT_USAGE;
        } else if (ninputs < MAX_INPUTS) {
            inputs[ninputs++] = a;
        }
    }
    if (ninputs == 0) {
        fprintf(stderr, "fxt merge: no input (see fxt help merge)\n");
        return CLI_EXIT_USAGE;
    }
    for (int k = 0; k < noffs; k++) {
        int found = 0;
        for (int i = 0; i < ninputs; i++) {
            if (strcmp(inputs[i], off_file[k]) == 0) {
                offsets[i] = off_ns[k];
                found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "fxt merge: --offset names '%s', which is not an input\n", off_file[k]);
            return CLI_EXIT_USAGE;
        }
    }
    char err[512];
    cli_output_t *out;
    if (cli_output_open(outpath, compress, &out, err, sizeof err) != 0) {
        fprintf(stderr, "fxt merge: %s\n", err);
        return CLI_EXIT_IO;
    }
    fxt_writer_options_t wo = {sizeof wo, 0, 1u << 20, 0, 0};
    fxt_writer_t *w;
    fxt_merger_t *m;
    if (fxt_writer_create(&wo, cli_output_sink(out), &w) != FXT_OK || fxt_merger_create(w, &m) != FXT_OK) {
        fprintf(stderr, "fxt merge: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    int rc = CLI_EXIT_OK;
    uint64_t damaged = 0, refused = 0;
    for (int i = 0; i < ninputs && rc == CLI_EXIT_OK; i++) {
        cli_input_t *in;
        if (cli_input_open(inputs[i], &in, err, sizeof err) != 0) {
            fprintf(stderr, "fxt merge: %s\n", err);
            rc = CLI_EXIT_IO;
            break;
        }
        char name[256];
        base_name(inputs[i], name, sizeof name);
        fxt_merger_input_t mi = FXT_MERGER_INPUT_INIT;
        mi.name = name;
        mi.offset_ns = offsets[i];
        fxt_merger_begin(m, &mi);
        const uint8_t *data;
        size_t len;
        int got;
        fxt_status st = FXT_OK;
        while ((got = cli_input_read(in, &data, &len, err, sizeof err)) > 0) {
            st = fxt_merger_feed(m, data, len);
            if (st != FXT_OK) {
                break;
            }
        }
        if (got < 0) {
            fprintf(stderr, "fxt merge: %s\n", err);
            rc = CLI_EXIT_IO;
        }
        fxt_status est = fxt_merger_end(m);
        if (st != FXT_OK) {
            fprintf(stderr, "fxt merge: writing: %s\n", fxt_status_str(st));
            rc = st == FXT_E_IO ? CLI_EXIT_IO : CLI_EXIT_LIMIT;
        }
        fxt_merger_stats_t ms;
        fxt_merger_get_stats(m, &ms);
        if (ms.damaged > damaged || est == FXT_E_TRUNCATED) {
            fprintf(stderr, "fxt merge: %s: %" PRIu64 " damaged record(s) skipped (last at offset %" PRIu64 ": %s)\n",
                    inputs[i], ms.damaged - damaged, fxt_merger_diag(m)->offset, fxt_merger_diag(m)->msg);
            damaged = ms.damaged;
        }
        if (ms.refused > refused) {
            fprintf(stderr, "fxt merge: %s: %" PRIu64 " record(s) could not be re-encoded and were dropped (last at offset %" PRIu64 ": %s)\n",
                    inputs[i], ms.refused - refused, fxt_merger_diag(m)->offset, fxt_merger_diag(m)->msg);
            refused = ms.refused;
        }
        cli_input_close(in);
    }
    fxt_status st = fxt_merger_finish(m);
    fxt_merger_stats_t ms;
    fxt_merger_get_stats(m, &ms);
    fxt_merger_destroy(m);
    fxt_writer_destroy(w);
    if (cli_output_close(out, st != FXT_OK) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    for (int k = 0; k < noffs; k++) {
        free((void *)off_file[k]);
    }
    if (st != FXT_OK && rc == CLI_EXIT_OK) {
        fprintf(stderr, "fxt merge: %s\n", fxt_status_str(st));
        rc = st == FXT_E_IO ? CLI_EXIT_IO : CLI_EXIT_LIMIT;
    }
    if (rc == CLI_EXIT_OK) {
        fprintf(stderr, "fxt merge: %" PRIu64 " inputs, %" PRIu64 " providers (%" PRIu64 " remapped), %" PRIu64
                        " records\n",
                ms.inputs, ms.providers, ms.remapped, ms.records);
    }
    return rc != CLI_EXIT_OK ? rc : (ms.damaged || ms.refused ? CLI_EXIT_DATA : CLI_EXIT_OK);
}

const cli_command_t cli_cmd_merge = {"merge", run, "merge traces into one archive (trace manager)", merge_help};
