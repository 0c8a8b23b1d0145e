/* SPDX-License-Identifier: MIT */
/*
 * Two processes pass a token through pipes; each send and wait is a duration:
 *
 *     fxt record -o pingpong.fxt -- ./pingpong 1000
 *     fxt json pingpong.fxt -o pingpong.json     # Perfetto: both processes, one timeline
 *
 * Under `fxt record` both processes (the child is forked, no exec) register
 * with the trace manager and stamp the same clock, so every receive follows
 * its send. Without it, FXT_TRACE_OUTPUT=pp-%p.fxt gives one trace per process.
 */
#include <fxt/trace.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int send_token(int out, long token) {
    FXT_DURATION("pingpong", "send", FXT_I64("token", token));
    return write(out, &token, sizeof token) == (ssize_t)sizeof token ? 0 : -1;
}

static int recv_token(int in, long *token) {
    FXT_DURATION("pingpong", "wait");
    if (read(in, token, sizeof *token) != (ssize_t)sizeof *token) {
        return -1;
    }
    FXT_INSTANT("pingpong", "received", FXT_I64("token", *token));
    return 0;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 100;
    int ab[2], ba[2];
    if (pipe(ab) != 0 || pipe(ba) != 0) {
        perror("pipe");
        return 1;
    }
    fxt_set_thread_name("main");
    FXT_INSTANT("pingpong", "start", FXT_I64("rounds", rounds));
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    int in = child == 0 ? ab[0] : ba[0], out = child == 0 ? ba[1] : ab[1];
    long token = 0;
    for (long r = 0; r < rounds; r++) {
        /* the parent sends first; each side passes the token on, one higher */
        if (child != 0 && send_token(out, token) != 0) {
            break;
        }
        if (recv_token(in, &token) != 0 || (child == 0 && send_token(out, token + 1) != 0)) {
            break;
        }
        token++;
    }
    if (child > 0) {
        close(out);
        waitpid(child, NULL, 0);
        printf("%ld round trips\n", rounds);
    }
    return 0;
}
