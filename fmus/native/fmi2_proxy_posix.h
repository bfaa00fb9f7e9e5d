/* The proxy's process on Linux (fmi2_proxy.c): started by fork and exec,
 * its channel a memory file, its Link a Unix socket pair, its standard
 * error a memory file the proxy reads.  Included by fmi2_proxy.c. */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define EXPORT __attribute__((visibility("default")))
#define BINARY_SUFFIX ".so"
#define PROCESS_FILE "crane-cosim-fmu-process"
/* the folders of resources/ with the runtime's and the kernels' archives */
#define RUNTIME_FOLDER "crane_cosim_runtime"
#define KERNELS_FOLDER "crane_cosim_kernels"

typedef struct {
    pid_t pid;
    int errors;     /* its standard error (a memory file) */
    int channel_fd; /* the channel's memory (a memory file) */
    off_t errors_shown; /* how much of it reached the host's standard error */
} Process;

static void process_init(Process *proc, Link *link)
{
    proc->pid = 0;
    proc->errors = proc->channel_fd = link->socket = -1;
}

/* What the process wrote to its standard error since the last call, passed
 * on to the host's. */
static void process_show_errors(Process *proc)
{
    char buffer[8192];
    for (;;) {
        ssize_t n = pread(proc->errors, buffer, sizeof buffer, proc->errors_shown);
        if (n <= 0)
            return;
        if (!write_all(STDERR_FILENO, buffer, (size_t)n))
            return;
        proc->errors_shown += n;
    }
}

/* The end of the process's standard error (at most n - 1 bytes) into words. */
static void process_last_words(Process *proc, char *words, size_t n)
{
    struct stat st;
    words[0] = '\0';
    if (fstat(proc->errors, &st) == 0 && st.st_size > 0) {
        off_t from = st.st_size > (off_t)n - 1 ? st.st_size - ((off_t)n - 1) : 0;
        ssize_t k = pread(proc->errors, words, n - 1, from);
        words[k > 0 ? k : 0] = '\0';
    }
}

static void pause_5ms(void)
{
    struct timespec pause = {0, 5000000};
    nanosleep(&pause, NULL);
}

/* How the process ended, a clause, waiting a second at most for it; its
 * pid in *id. */
static void process_how_it_ended(Process *proc, char *how, size_t n, long *id)
{
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200 && done == 0; ++i) { /* it ends at once; a second at most */
        done = waitpid(proc->pid, &status, WNOHANG);
        if (done == 0)
            pause_5ms();
    }
    if (done == proc->pid && WIFSIGNALED(status))
        snprintf(how, n, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (done == proc->pid && WIFEXITED(status))
        snprintf(how, n, "exited with status %d", WEXITSTATUS(status));
    else
        snprintf(how, n, "closed its connection");
    *id = (long)proc->pid;
    if (done == proc->pid)
        proc->pid = 0;
}

static void process_kill(Process *proc)
{
    if (proc->pid > 0)
        kill(proc->pid, SIGKILL);
}

/* The process ended (two seconds at most after the link closed, then
 * killed) and everything of it closed. */
static void process_release(Process *proc, Link *link, Channel *channel)
{
    if (link->socket >= 0)
        close(link->socket);
    if (proc->pid > 0) {
        int status;
        pid_t done = 0;
        for (int i = 0; i < 400 && done == 0; ++i) {
            done = waitpid(proc->pid, &status, WNOHANG);
            if (done == 0)
                pause_5ms();
        }
        if (done == 0) {
            kill(proc->pid, SIGKILL);
            waitpid(proc->pid, &status, 0);
        }
    }
    if (proc->errors >= 0)
        close(proc->errors);
    if (channel)
        munmap(channel, CHANNEL_SIZE);
    if (proc->channel_fd >= 0)
        close(proc->channel_fd);
}

/* The path of this library (PATH_MAX bytes). */
static int own_path(char *path)
{
    Dl_info self;
    return dladdr((void *)&own_path, &self) && self.dli_fname && realpath(self.dli_fname, path);
}

/* The one file in `folder` whose name ends with `suffix` ("" when there is none). */
static void only_file(const char *folder, const char *suffix, char *path, size_t n)
{
    path[0] = '\0';
    DIR *dir = opendir(folder);
    if (!dir)
        return;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t k = strlen(e->d_name), s = strlen(suffix);
        if (k > s && !strcmp(e->d_name + k - s, suffix) && e->d_name[0] != '.') {
            snprintf(path, n, "%s/%s", folder, e->d_name);
            break;
        }
    }
    closedir(dir);
}

/* Start the program: run directly, or by the dynamic loader where the host
 * unpacked it without its execute permission.  The child gets the socket
 * as file descriptor 3, the channel as 4, the memory file as its standard
 * error. */
static pid_t fork_program(int socket, int channel, int errors, char *const argv[])
{
    char *loader_argv[8];
    int k = 0;
    loader_argv[k++] = "/lib64/ld-linux-x86-64.so.2";
    for (int i = 0; argv[i] && k < 7; ++i)
        loader_argv[k++] = argv[i];
    loader_argv[k] = NULL;
    int direct = access(argv[0], X_OK) == 0;
    extern char **environ;
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* the child: only calls that are safe after fork in a threaded host */
    int s = fcntl(socket, F_DUPFD, 10), m = fcntl(channel, F_DUPFD, 10), e = fcntl(errors, F_DUPFD, 10);
    if (s < 0 || m < 0 || e < 0 || dup2(s, 3) < 0 || dup2(m, 4) < 0 || dup2(e, STDERR_FILENO) < 0)
        _exit(127);
    if (direct)
        execve(argv[0], argv, environ);
    execve(loader_argv[0], loader_argv, environ);
    _exit(127);
}

/* The channel, its memory mapped into *channel, the link and the process
 * running argv (NULL-terminated); 0 with why[] saying what failed. */
static int process_start(Process *proc, Link *link, Channel **channel, char *const argv[], char *why, size_t n)
{
    int pair[2];
    proc->errors = (int)syscall(SYS_memfd_create, "crane-cosim-fmu-stderr", 1u /* MFD_CLOEXEC */);
    proc->channel_fd = (int)syscall(SYS_memfd_create, "crane-cosim-fmu-channel", 1u /* MFD_CLOEXEC */);
    if (proc->channel_fd >= 0 && ftruncate(proc->channel_fd, CHANNEL_SIZE) == 0) {
        *channel = mmap(NULL, CHANNEL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, proc->channel_fd, 0);
        if (*channel == MAP_FAILED)
            *channel = NULL;
    }
    if (proc->errors < 0 || !*channel || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        snprintf(why, n, "cannot make the FMU's process a channel: %s", strerror(errno));
        return 0;
    }
    proc->pid = fork_program(pair[1], proc->channel_fd, proc->errors, argv);
    close(pair[1]);
    link->socket = pair[0];
    if (proc->pid < 0) {
        snprintf(why, n, "cannot start the FMU's process %s: %s", argv[0], strerror(errno));
        proc->pid = 0;
        return 0;
    }
    return 1;
}
