/* child.c — the llvmpipe reference as a child process: spawn with LP_NUM_THREADS, line protocol, reap.
 * Fed by kit.c, one.c and blur.c; talks to build/mosaic-llvmpipe --serve (bench/llvmpipe/lp_main.c). */
#include "tools/bench/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ENVIRON with LP_NUM_THREADS replaced; the strings live in BUF. */
static char **child_env(int threads, char *buf, size_t size)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LP_NUM_THREADS=", 15) != 0)
            env[k++] = environ[i];
    snprintf(buf, size, "LP_NUM_THREADS=%d", threads);
    env[k++] = buf;
    env[k] = NULL;
    return env;
}

static int child_read_line(bench_child *c, char *line, size_t size)
{
    if (!fgets(line, (int)size, c->out))
        return -1;
    line[strcspn(line, "\r\n")] = '\0';
    return 0;
}

int bench_child_start(bench_child *c, char *const argv[], int threads, char *err, size_t err_size)
{
    memset(c, 0, sizeof *c);
    c->pid = -1;
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(from_child, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        close(to_child[0]), close(to_child[1]);
        return -1;
    }
    char envbuf[64];
    char **env = child_env(threads, envbuf, sizeof envbuf);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
    int rc = env ? posix_spawn(&c->pid, argv[0], &fa, NULL, argv, env) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(to_child[0]);
    close(from_child[1]);
    if (rc != 0) {
        snprintf(err, err_size, "%s: %s", argv[0], strerror(rc));
        close(to_child[1]), close(from_child[0]);
        c->pid = -1;
        return -1;
    }
    c->in = fdopen(to_child[1], "w");
    c->out = fdopen(from_child[0], "r");
    if (!c->in || !c->out) {
        snprintf(err, err_size, "fdopen: %s", strerror(errno));
        if (!c->in)
            close(to_child[1]);
        if (!c->out)
            close(from_child[0]);
        bench_child_stop(c);
        return -1;
    }
    char line[512];
    if (child_read_line(c, line, sizeof line) != 0 || strncmp(line, "ready ", 6) != 0) {
        snprintf(err, err_size, "%s did not start: %s", argv[0],
                 strncmp(line, "error ", 6) == 0 ? line + 6 : "no 'ready' line (see its stderr)");
        bench_child_stop(c);
        return -1;
    }
    snprintf(c->renderer, sizeof c->renderer, "%.255s", line + 6);
    return 0;
}

int bench_child_cmd(bench_child *c, const char *cmd, char *reply, size_t reply_size, char *err,
                    size_t err_size)
{
    if (!c->in || fprintf(c->in, "%s\n", cmd) < 0 || fflush(c->in) != 0) {
        snprintf(err, err_size, "llvmpipe child: cannot send '%s'", cmd);
        return -1;
    }
    if (child_read_line(c, reply, reply_size) != 0) {
        snprintf(err, err_size, "llvmpipe child: no answer to '%s' (it exited?)", cmd);
        return -1;
    }
    if (strncmp(reply, "error ", 6) == 0) {
        snprintf(err, err_size, "llvmpipe child: %s", reply + 6);
        return -1;
    }
    return 0;
}

void bench_child_stop(bench_child *c)
{
    if (c->in) {
        fputs("quit\n", c->in);
        fclose(c->in);  /* EOF also ends the serve loop */
        c->in = NULL;
    }
    if (c->out) {
        fclose(c->out);
        c->out = NULL;
    }
    if (c->pid > 0) {
        int st;
        while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {
        }
        c->pid = -1;
    }
}
