/*
 * peakrss OUT PROGRAM [ARGUMENT...]: runs PROGRAM on the same terminal, waits for it and writes
 * its peak resident set size in KiB (getrusage(2) ru_maxrss, from wait4(2)) and the CPU time it
 * used in microseconds (ru_utime + ru_stime), separated by a space, to the file OUT;
 * exits with PROGRAM's status (128 + N when a signal N ended it).
 *
 * bench.py starts programs through this small process because a program forked from Python
 * itself would report Python's resident size: a process's peak RSS survives exec(2).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: peakrss OUT PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return 127;
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) return 127;
    /* CPU time, user and system, in microseconds: what a busy machine's waits do not add to. */
    long cpu = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    fprintf(out, "%ld %ld\n", usage.ru_maxrss, cpu);
    fclose(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
