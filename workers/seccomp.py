"""The system calls a bot may make: one default-deny seccomp filter per language runtime.

Filters are generated with libseccomp (through ``pyseccomp``, a ctypes binding of the C
library; Debian's ``python3-seccomp`` is not importable from the workers' virtualenv) and
exported as the classic BPF program the kernel reads, which bubblewrap loads with
``--seccomp`` and a warm start's bot loads itself (``workers/zygote.py``). Each filter:

- allows the calls an ordinary program of that runtime makes (files, memory, threads,
  signals, pipes, polling, clocks; ``clone`` without namespace flags; sockets of the
  families AF_UNIX, AF_INET and AF_INET6 only, which reach nothing but the sandbox's own
  loopback);
- **refuses and reports** the calls only an attack makes (:data:`REPORTED`: ptrace, other
  processes' memory, the kernel keyring, io_uring, userfaultfd, bpf, perf events, every
  namespace and mount call, module and kexec calls, other socket families, personality
  flags, clearing the parent-death signal). These return ``SECCOMP_RET_USER_NOTIF``: a
  warm start's keeper, or for a cold start a thread of the runner (:func:`listen`: the
  sandbox's first process loads the filter and sends it the listener), answers EPERM and
  the runner records the call for the seat; ``sysinfo`` goes there too and is answered
  with the sandbox's own figures, not the host's load, processes and free memory;
- answers EPERM to ``setsid``/``setpgid`` (every process of a bot stays in the group the
  runner pauses) and ENOSYS to ``clone3`` (its flags cannot be inspected; the C library
  falls back to ``clone``) and to every call not listed at all.

Runtimes differ in one place: Node.js (libuv) may probe io_uring at start and fall back
when it is refused, so for Node bots io_uring is refused silently rather than reported.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import platform
import select
import socket
import tempfile
import threading

RUNTIMES = ("python", "node", "native")
log = logging.getLogger("workers.sandbox")

# An ordinary process's calls, for every runtime (names as on x86-64; a name this
# architecture lacks is skipped).
ALLOWED = (
    # files and descriptors
    "read", "write", "open", "openat", "close", "close_range", "stat", "fstat", "lstat",
    "newfstatat", "statx", "lseek", "pread64", "pwrite64", "readv", "writev", "preadv",
    "pwritev", "preadv2", "pwritev2", "access", "faccessat", "faccessat2", "dup", "dup2",
    "dup3", "fcntl", "flock", "fsync", "fdatasync", "truncate", "ftruncate", "fallocate",
    "fadvise64", "readahead", "getdents", "getdents64", "getcwd", "chdir", "fchdir",
    "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "creat", "link",
    "linkat", "unlink", "unlinkat", "symlink", "symlinkat", "readlink", "readlinkat",
    "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown", "umask",
    "utime", "utimes", "utimensat", "futimesat", "statfs", "fstatfs", "sendfile",
    "splice", "tee", "vmsplice", "copy_file_range", "sync_file_range", "sync", "syncfs",
    "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr",
    "ioctl", "pipe", "pipe2", "memfd_create",
    # memory
    "brk", "mmap", "mprotect", "munmap", "mremap", "msync", "mincore", "madvise",
    "mlock", "mlock2", "munlock", "mlockall", "munlockall", "pkey_alloc", "pkey_free",
    "pkey_mprotect", "membarrier",
    # System V IPC (in the sandbox's own IPC namespace, charged to its memory cgroup)
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl",
    "msgget", "msgsnd", "msgrcv", "msgctl",
    # processes, threads and signals (within the sandbox's PID namespace)
    "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid",
    "kill", "tkill", "tgkill", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn",
    "rt_sigpending", "rt_sigtimedwait", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
    "rt_sigsuspend", "sigaltstack", "pause", "restart_syscall", "set_tid_address",
    "set_robust_list", "get_robust_list", "futex", "futex_waitv", "rseq", "arch_prctl",
    "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam",
    "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min",
    "sched_rr_get_interval", "sched_getattr", "getpriority", "setpriority",
    "getpid", "getppid", "gettid", "getpgrp", "getpgid", "getsid", "getuid", "geteuid",
    "getgid", "getegid", "getgroups", "getresuid", "getresgid", "capget",
    "getrlimit", "setrlimit", "prlimit64", "getrusage", "times", "uname",
    "getcpu", "getrandom",
    # waiting and clocks
    "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
    "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2", "signalfd",
    "signalfd4", "timerfd_create", "timerfd_settime", "timerfd_gettime", "nanosleep",
    "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "time",
    "alarm", "getitimer", "setitimer",
    # sockets of the allowed families (socket and socketpair are checked below)
    "connect", "accept", "accept4", "bind", "listen", "shutdown", "getsockname",
    "getpeername", "setsockopt", "getsockopt", "sendto", "recvfrom", "sendmsg", "recvmsg",
    "sendmmsg", "recvmmsg",
)  # fmt: skip

# Refused and reported: what an ordinary bot never calls, an attack does.
REPORTED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd",
    "kcmp", "add_key", "keyctl", "request_key", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "userfaultfd", "bpf", "perf_event_open", "unshare", "setns",
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "name_to_handle_at",
    "open_by_handle_at", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "swapon", "swapoff", "reboot", "acct", "quotactl", "syslog",
    "iopl", "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "sethostname", "setdomainname", "vhangup", "fanotify_init", "lookup_dcookie",
    "seccomp",
)  # fmt: skip
_IO_URING = ("io_uring_setup", "io_uring_enter", "io_uring_register")

AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
_FAMILIES_REPORTED_EQ = (0, 3, 4, 5, 6, 7, 8, 9)  # every family below AF_INET6 but the two
_NAMESPACE_FLAGS = (
    0x7E020080  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
)
_PR_SET_PDEATHSIG = 1
_PERSONALITY_QUERY, _PER_LINUX = 0xFFFFFFFF, 0


def available() -> bool:
    """True where filters can be built (x86-64 with libseccomp): elsewhere the sandbox runs
    without one, as :func:`workers.sandbox.check_backend` reports."""
    return platform.machine() == "x86_64" and _library() is not None


def required_but_missing() -> bool:
    """True on x86-64 when libseccomp or pyseccomp is missing (the sandbox refuses to run)."""
    return platform.machine() == "x86_64" and _library() is None


@functools.cache
def _library():
    try:
        import pyseccomp
    except (ImportError, OSError):  # the package, or libseccomp itself, is missing
        return None
    return pyseccomp


@functools.cache
def program(runtime: str) -> bytes:
    """The filter for ``runtime`` (one of :data:`RUNTIMES`) as classic BPF, built once."""
    if runtime not in RUNTIMES:
        raise ValueError(f"no seccomp filter for runtime {runtime!r}; one of {RUNTIMES}")
    sc = _library()
    rules = sc.SyscallFilter(sc.ERRNO(errno.ENOSYS))
    rules.set_attr(sc.Attr.ACT_BADARCH, sc.ERRNO(errno.EPERM))  # i386 and x32 calls
    for name in ALLOWED:
        _add(rules, sc.ALLOW, name)
    # Node's io_uring and clone3 are left to the default answer, ENOSYS (libseccomp refuses
    # a rule whose action is the default's).
    silent = _IO_URING if runtime == "node" else ()
    for name in REPORTED:
        if name not in silent:
            _add(rules, sc.NOTIFY, name)
    for name in ("setsid", "setpgid"):
        _add(rules, sc.ERRNO(errno.EPERM), name)
    # Answered by the listener with the sandbox's own figures, not the host's (load,
    # processes, free memory: two sandboxes could signal through them); C libraries and
    # runtimes ask for it at start.
    _add(rules, sc.NOTIFY, "sysinfo")
    _add(rules, sc.ALLOW, "clone", sc.Arg(0, sc.MASKED_EQ, _NAMESPACE_FLAGS, 0))
    for bit in range(32):
        if _NAMESPACE_FLAGS & (1 << bit):
            _add(rules, sc.NOTIFY, "clone", sc.Arg(0, sc.MASKED_EQ, 1 << bit, 1 << bit))
    for call in ("socket", "socketpair"):
        for family in (AF_UNIX, AF_INET, AF_INET6):
            _add(rules, sc.ALLOW, call, sc.Arg(0, sc.EQ, family))
        for family in _FAMILIES_REPORTED_EQ:
            _add(rules, sc.NOTIFY, call, sc.Arg(0, sc.EQ, family))
        _add(rules, sc.NOTIFY, call, sc.Arg(0, sc.GT, AF_INET6))
    # personality(): the query and the default persona only (no ADDR_NO_RANDOMIZE, ...)
    for persona in (_PERSONALITY_QUERY, _PER_LINUX):
        _add(rules, sc.ALLOW, "personality", sc.Arg(0, sc.EQ, persona))
    _add(rules, sc.NOTIFY, "personality", sc.Arg(0, sc.GT, _PER_LINUX))  # the query: above
    # PR_SET_PDEATHSIG is how a process would stop dying with the sandbox's PID 1's parent.
    _add(rules, sc.NOTIFY, "prctl", sc.Arg(0, sc.EQ, _PR_SET_PDEATHSIG))
    _add(rules, sc.ALLOW, "prctl", sc.Arg(0, sc.NE, _PR_SET_PDEATHSIG))
    with tempfile.TemporaryFile() as out:
        rules.export_bpf(out)
        out.seek(0)
        return out.read()


def _add(rules, action, name: str, *args) -> None:
    with contextlib.suppress(ValueError):  # not a call of this architecture
        rules.add_rule(action, name, *args)


@functools.cache
def call_name(number: int) -> str:
    """The name of system call ``number`` on this machine (``"ptrace"``), for fault messages."""
    sc = _library()
    if sc is not None:
        try:
            return sc.resolve_syscall(sc.system_arch(), number).decode()
        except (ValueError, RuntimeError, OSError):
            pass
    return f"system call {number}"


def runtime_of(language: str) -> str:
    """The filter's runtime for a bot's manifest language."""
    return {"python": "python", "node": "node"}.get(language, "native")


def memfd(runtime: str) -> int:
    """A memfd holding ``runtime``'s filter, for ``bwrap --seccomp``."""
    fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program(runtime))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


class Listening:
    """A cold-started sandbox's filter as the runner sees it: the socket its listener comes
    through, then the listener, and the calls refused so far (first seen first)."""

    def __init__(self, channel: socket.socket, memory: int):
        self.channel: socket.socket | None = channel
        self.listener: int | None = None
        self.memory = memory  # what sysinfo tells the sandbox it has
        self.refused: list[int] = []

    def descriptors(self) -> list[int]:
        fds = [self.listener] if self.listener is not None else []
        return fds + ([self.channel.fileno()] if self.channel is not None else [])


class _Supervisor:
    """A thread of the runner that answers the filters of its cold-started sandboxes, as a
    warm start's keeper answers its bot's (``zygote.answer``): a refused call waits in the
    kernel until it is answered, so this never waits on the game."""

    def __init__(self):
        self.owner = os.getpid()
        self._lock = threading.Lock()
        self._poller = select.epoll()
        self._by_fd: dict[int, Listening] = {}
        threading.Thread(target=self._serve, name="seccomp-listener", daemon=True).start()

    def add(self, channel: socket.socket, memory: int) -> Listening:
        entry = Listening(channel, memory)
        with self._lock:
            self._by_fd[channel.fileno()] = entry
            self._poller.register(channel.fileno(), select.EPOLLIN)
        return entry

    def remove(self, entry: Listening) -> None:
        """Stop answering ``entry`` (its sandbox is gone) and close its descriptors."""
        with self._lock:
            for fd in entry.descriptors():
                self._by_fd.pop(fd, None)
                with contextlib.suppress(OSError, ValueError):
                    self._poller.unregister(fd)
            if entry.listener is not None:
                os.close(entry.listener)
                entry.listener = None
            if entry.channel is not None:
                entry.channel.close()
                entry.channel = None

    def _serve(self) -> None:
        while True:
            for fd, events in self._poller.poll():
                with self._lock:  # remove() closes nothing while it is read here
                    entry = self._by_fd.get(fd)
                    if entry is None:
                        continue
                    try:
                        self._handle(entry, fd, events)
                    except Exception:  # noqa: BLE001 - this thread must outlive any one call
                        log.exception("sandbox.seccomp.listener %s", {"fd": fd})

    def _handle(self, entry: Listening, fd: int, events: int) -> None:
        from .zygote import answer

        if entry.channel is not None and fd == entry.channel.fileno():
            try:
                _, fds, _, _ = socket.recv_fds(entry.channel, 16, 1, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return  # not yet
            except OSError:
                fds = []
            if fds:
                entry.listener = fds[0]
                os.set_inheritable(entry.listener, False)
                self._by_fd[entry.listener] = entry
                self._poller.register(entry.listener, select.EPOLLIN)
            self._by_fd.pop(fd, None)  # one message, or its end: the channel is done
            self._poller.unregister(fd)
            entry.channel.close()
            entry.channel = None
            return
        if events & select.EPOLLIN:
            number = answer(fd, entry.memory)
            if number is not None and number not in entry.refused:
                entry.refused.append(number)
        elif events & (select.EPOLLHUP | select.EPOLLERR):  # every process of it is gone
            self._poller.unregister(fd)


_SUPERVISOR: _Supervisor | None = None


def listen(channel: socket.socket, memory: int) -> Listening:
    """Answer, from this process, the filter whose listener a cold start sends over
    ``channel``; :func:`stop_listening` once its sandbox is gone."""
    global _SUPERVISOR
    if _SUPERVISOR is None or _SUPERVISOR.owner != os.getpid():
        _SUPERVISOR = _Supervisor()  # (a forked runner starts its own thread)
    return _SUPERVISOR.add(channel, memory)


def stop_listening(entry: Listening) -> None:
    if _SUPERVISOR is not None and _SUPERVISOR.owner == os.getpid():
        _SUPERVISOR.remove(entry)
