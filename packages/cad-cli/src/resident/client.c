/*
 * The `cad` command's client of the resident engine (docs/decisions/0024-resident-cad-engine.md).
 *
 * A Node process needs ~0.1 s on this hardware before it runs a line of the engine; a native
 * program starts in ~1 ms. This client hands the command to the engine process that the user's
 * earlier `cad` runs left running, relays its output and exits with its status, so a small
 * drawing costs the conversion itself. Whenever that is not possible (no engine running, engine
 * busy with another command, engine older than the sources, different settings), it runs the
 * command itself by exec'ing `node bin/cad.cjs` with the same arguments: the result is the same,
 * only slower.
 *
 * Built by the engine process with the system's C compiler (src/resident/client-build.ts), which
 * bakes in CAD_SOCKET (default socket path), CAD_NODE (the Node binary) and CAD_ENTRY (bin/cad.cjs).
 * The wire format is src/resident/protocol.ts's; keep the two in step (PROTOCOL_VERSION).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef CAD_SOCKET
#error "CAD_SOCKET (the default socket path) must be defined"
#endif
#ifndef CAD_NODE
#define CAD_NODE "node"
#endif
#ifndef CAD_ENTRY
#error "CAD_ENTRY (the path of bin/cad.cjs) must be defined"
#endif

#define PROTOCOL_MAGIC "xcad-cad/1"
/* How long the engine may take to acknowledge a command before it counts as busy, ms. */
#define DEFAULT_ACK_MS 300
/* Largest frame the engine sends (its output is relayed in pieces far smaller than this). */
#define MAX_FRAME (64u << 20)

extern char **environ;

static int argc_g;
static char **argv_g;
static volatile sig_atomic_t engine_pid = 0;

/* Runs the command in a Node process of its own: the same result, without the resident engine. */
static void run_cold(const char *reason) {
  char **args = calloc((size_t)argc_g + 2, sizeof(char *));
  if (!args) {
    fputs("cad: out of memory\n", stderr);
    exit(1);
  }
  args[0] = (char *)CAD_NODE;
  args[1] = (char *)CAD_ENTRY;
  for (int i = 1; i < argc_g; i++) args[i + 1] = argv_g[i];
  setenv("CAD_SERVER_FALLBACK", reason, 1);
  signal(SIGPIPE, SIG_DFL);
  execv(CAD_NODE, args);
  /* The Node that built this client is gone (upgraded, moved): the one on PATH. */
  args[0] = (char *)"node";
  execvp("node", args);
  fprintf(stderr, "cad: cannot start node: %s\n", strerror(errno));
  exit(1);
}

static int write_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Reads exactly n bytes; 0 on success, -1 on error or end of stream. */
static int read_all(int fd, void *data, size_t n) {
  char *p = data;
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* A growable byte buffer for the request. */
struct buf {
  char *data;
  size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + n) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) run_cold("client-memory");
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
}

/* A NUL-terminated string field. */
static void put_str(struct buf *b, const char *s) { put(b, s, strlen(s) + 1); }

static void put_num(struct buf *b, long n) {
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%ld", n);
  put_str(b, tmp);
}

/* The variables the engine reads: CAD_* and XCAD_*. */
static int engine_var(const char *entry) { return strncmp(entry, "CAD_", 4) == 0 || strncmp(entry, "XCAD_", 5) == 0; }

/* The socket's folder must be ours and closed to others, or it is not used. */
static int folder_is_private(const char *path) {
  char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
  const char *slash = strrchr(path, '/');
  if (!slash || (size_t)(slash - path) >= sizeof dir) return 0;
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  memcpy(dir, path, n);
  dir[n] = '\0';
  struct stat st;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  return st.st_uid == getuid() && (st.st_mode & 077) == 0;
}

/* The engine marks a command it runs in <socket>.busy (its pid): a client that finds the mark of a
 * live engine runs the command on its own at once instead of waiting for an answer that cannot
 * come until the command ends. A mark left by an engine that died is ignored. */
static int engine_busy(const char *socket_path) {
  char mark[4096 + 8];
  if (snprintf(mark, sizeof mark, "%s.busy", socket_path) >= (int)sizeof mark) return 0;
  int fd = open(mark, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32];
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  long pid = strtol(text, NULL, 10);
  return pid > 0 && kill((pid_t)pid, 0) == 0;
}

/* Ctrl+C (or a kill) while the engine runs the command stops the engine too, as it would stop a
 * process of its own: no output is finished after the user gave up on it. */
static void on_signal(int sig) {
  pid_t pid = (pid_t)engine_pid;
  if (pid > 0) kill(pid, SIGTERM);
  signal(sig, SIG_DFL);
  raise(sig);
}

static uint32_t be32(const unsigned char *p) { return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3]; }

int main(int argc, char **argv) {
  argc_g = argc;
  argv_g = argv;
  const char *off = getenv("CAD_SERVER");
  if (off && strcmp(off, "0") == 0) run_cold("off");

  const char *path = getenv("CAD_SERVER_SOCKET");
  if (!path || !*path) path = CAD_SOCKET;
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr.sun_path || !folder_is_private(path)) run_cold("no-server");
  if (engine_busy(path)) run_cold("busy");
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) run_cold("no-server");
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    close(fd);
    run_cold("no-server");
  }
  signal(SIGPIPE, SIG_IGN);

  /* The request: magic, working folder, umask, arguments, the engine's environment variables. */
  struct buf req = {0};
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) run_cold("no-cwd");
  mode_t mask = umask(0);
  umask(mask);
  put_str(&req, PROTOCOL_MAGIC);
  put_str(&req, cwd);
  put_num(&req, (long)mask);
  put_num(&req, (long)argc - 1);
  for (int i = 1; i < argc; i++) put_str(&req, argv[i]);
  long nenv = 0;
  for (char **e = environ; *e; e++) nenv += engine_var(*e);
  put_num(&req, nenv);
  for (char **e = environ; *e; e++)
    if (engine_var(*e)) put_str(&req, *e);
  unsigned char head[5];
  head[0] = 'q';
  head[1] = (unsigned char)(req.len >> 24);
  head[2] = (unsigned char)(req.len >> 16);
  head[3] = (unsigned char)(req.len >> 8);
  head[4] = (unsigned char)req.len;
  if (write_all(fd, head, 5) != 0 || write_all(fd, req.data, req.len) != 0) {
    close(fd);
    run_cold("no-server");
  }
  free(req.data);

  /* The acknowledgement: the engine is free and takes the command ('a' + its pid), or says why
   * not ('f' + reason). An engine busy converting cannot answer at once: after the wait, the
   * command runs on its own, and the engine, finding the connection closed, drops it. */
  int ack_ms = DEFAULT_ACK_MS;
  const char *wait = getenv("CAD_SERVER_WAIT_MS");
  if (wait && *wait) ack_ms = atoi(wait);
  struct pollfd pfd = {fd, POLLIN, 0};
  int ready;
  do ready = poll(&pfd, 1, ack_ms);
  while (ready < 0 && errno == EINTR);
  if (ready <= 0 || read_all(fd, head, 5) != 0) {
    close(fd);
    run_cold("busy");
  }
  uint32_t len = be32(head + 1);
  if (head[0] == 'f') {
    char reason[64] = "refused";
    if (len < sizeof reason && read_all(fd, reason, len) == 0) reason[len] = '\0';
    close(fd);
    run_cold(reason);
  }
  unsigned char pidbuf[4];
  if (head[0] != 'a' || len != 4 || read_all(fd, pidbuf, 4) != 0) {
    close(fd);
    run_cold("protocol");
  }
  engine_pid = (sig_atomic_t)be32(pidbuf);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  if (write_all(fd, "g", 1) != 0) {
    close(fd);
    run_cold("no-server");
  }

  /* The command's output, then its exit status. */
  int relayed = 0;
  char *frame = NULL;
  size_t cap = 0;
  for (;;) {
    if (read_all(fd, head, 5) != 0) break;
    len = be32(head + 1);
    if (len > MAX_FRAME) break;
    if (len > cap) {
      char *f = realloc(frame, len);
      if (!f) break;
      frame = f;
      cap = len;
    }
    if (len && read_all(fd, frame, len) != 0) break;
    if (head[0] == 'x' && len == 1) return (unsigned char)frame[0];
    if (head[0] == 'o' || head[0] == 'e') {
      write_all(head[0] == 'o' ? 1 : 2, frame, len);
      relayed = 1;
    }
  }
  /* The engine stopped mid-command (it ran out of memory, or was killed). Before any output the
   * command simply runs on its own; after some, it cannot be taken back. */
  close(fd);
  engine_pid = 0;
  if (!relayed) run_cold("lost");
  fputs("cad: internal error: the resident engine stopped during the command (run it again, or with CAD_SERVER=0)\n", stderr);
  return 1;
}
