"""Warm start of Python bots: an interpreter started once, forked into each bot's sandbox.

:mod:`workers.warm_start` runs this file's text with the bots' interpreter (``python -E -s
-S -B -c <text> FD``) as the runner's user, with a
``SOCK_SEQPACKET`` control socket at fd FD. It imports what Python bots commonly use, once,
then serves requests. A request names a *holder*: a process bubblewrap started in a fully
built sandbox for one bot. For each request the zygote forks a *keeper*, which takes the
sandbox's uid (a root runner gives each sandbox its own), joins every
namespace of the holder (user, mount, network, IPC, UTS, cgroup, PID) and forks the *bot*
inside them. The bot then gives up everything a sandboxed process must not have, before any
line of the bot's code runs, in this order: its own session; its stdio on the runner's pipes
and every other descriptor closed; the resource limits; every capability (bounding set,
ambient, effective, permitted, inheritable); no new privileges; the seccomp filter the
bubblewrap sandboxes get. It then runs the bot's entry as ``__main__``. The keeper reports
the bot's host pid and, once it ends, its wait status on the request's report pipe.

Nothing of other bots is in the zygote's memory: requests carry no host paths, only the
holder's pid, the entry under ``/bot``, limits and environment. Each bot is a fresh fork of
a zygote that has never run bot code. A bot cannot reach its keeper: the keeper is outside
the sandbox's PID namespace. Why: a Python bot that imports ``json`` costs about 15 ms of
CPU to start, four times what joining a ready sandbox costs (see ``bench/protocol.py``).

A cold start runs this file too, inside its sandbox (``confine``: load the filter, send its
listener to the runner, exec the bot), and the runner imports :func:`answer` from it.
"""

import contextlib
import ctypes
import errno
import fcntl
import gc
import json
import os
import resource
import select
import signal
import socket
import struct
import sys
import traceback

LIBC = ctypes.CDLL(None, use_errno=True)
NS_GET_USERNS = 0xB701
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NAME, PR_CAPBSET_DROP = 1, 4, 15, 24
PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 38, 47, 4
SYS_CAPSET, SYS_SECCOMP = 126, 317  # x86-64 (the runner uses the zygote on x86-64 only)
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER = 1, 8
# ioctls of a seccomp listener: _IOWR('!', 0, struct seccomp_notif) and
# _IOWR('!', 1, struct seccomp_notif_resp)
# and _IOW('!', 2, __u64)
NOTIF_RECV, NOTIF_SEND, NOTIF_ID_VALID, NOTIF_SIZE = 0xC0502100, 0xC0182101, 0x40082102, 80
SYS_SYSINFO = 99
_process_vm_writev = LIBC.process_vm_writev
_process_vm_writev.restype = ctypes.c_ssize_t
_process_vm_writev.argtypes = (
    ctypes.c_int, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong,
)  # fmt: skip
CAPABILITY_VERSION_3 = 0x20080522
# Joined in this order: the user namespace that owns the others first (it grants the
# capabilities setns needs), the holder's own user namespace last (it may be a child of
# the owner: bubblewrap nests one to set the sandbox's uid).
NAMESPACES = ("mnt", "net", "ipc", "uts", "cgroup", "pid")
RLIMITS = ("as", "cpu", "nproc", "nofile", "fsize", "core")
# What Python bots commonly import, loaded once here for every bot forked from here
# (``random`` reseeds itself in every fork).
PRELOADED = (
    "bisect", "collections", "copy", "dataclasses", "functools", "heapq", "itertools", "math",
    "random", "re", "time", "typing",
)  # fmt: skip


def _check(result: int, what: str) -> None:
    if result != 0:
        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")


def _prctl(option: int, arg: int = 0, what: str = "prctl") -> None:
    _check(LIBC.prctl(option, ctypes.c_ulong(arg), 0, 0, 0), what)


def serve(control: socket.socket) -> None:
    """Fork a keeper for every request until the runner closes the control socket."""
    # Keepers are waited for (not left to the kernel), so that their CPU time and their
    # bots' reach this process's children's times, which the runner's accounting reads.
    signal.signal(signal.SIGCHLD, _reap_keepers)
    control.send(b"ready")
    while True:
        message, fds, _, _ = socket.recv_fds(control, 1 << 16, 5)
        if not message:
            return
        if os.fork() == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            keep(json.loads(message), fds)  # never returns
        for fd in fds:
            os.close(fd)


def _reap_keepers(*_) -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def keep(request: dict, fds: list[int]) -> None:
    """The keeper: join the holder's sandbox, fork the bot there, report its pid, answer the
    system calls its filter refuses (reporting each new one), and report its end."""
    stdin, stdout, stderr, report, *hold = fds
    try:
        if request["uid"] is not None:  # a root runner's zygote: become the sandbox's user
            _become(request["uid"])
        _join(request["holder"], request["mnt"])
        if hold:  # the runner moves this process into the sandbox's cgroup, then says go
            os.write(report, f"keeper {os.getpid()}\n".encode())
            os.read(hold[0], 1)
            os.close(hold[0])
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        bot = os.fork()
        if bot == 0:
            os.close(report)
            ours.close()
            become_bot(request, stdin, stdout, stderr, theirs)  # never returns
        theirs.close()
        _drop_capabilities()  # the keeper only waits and answers from now on
        for fd in (stdin, stdout, stderr):
            os.close(fd)
        os.write(report, f"pid {bot}\n".encode())
        listener = _receive_listener(ours)
        status = _supervise(bot, listener, report, request["rlimits"]["as"][0])
        os.write(report, f"exit {status}\n".encode())
    except BaseException:  # noqa: BLE001 - anything: the runner must hear of it
        where = traceback.format_exc(limit=-1).strip().replace("\n", " | ")
        os.write(report, f"error {where}\n".encode())
    os._exit(0)


def _become(uid: int) -> None:
    """Every id ``uid`` (and gid ``uid``), no groups, no capabilities left; dumpable again,
    which a change of ids clears, so that the bot forked from here may be answered (the
    keeper writes sysinfo's answer into it) and reads its own ``/proc/self``."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _prctl(PR_SET_DUMPABLE, 1, "PR_SET_DUMPABLE")


def _receive_listener(channel: socket.socket) -> int | None:
    """The bot's seccomp listener, sent once its filter is in place (None if it died first)."""
    _, fds, _, _ = socket.recv_fds(channel, 16, 1)
    channel.close()
    return fds[0] if fds else None


def _supervise(bot: int, listener: int | None, report: int, memory: int) -> int:
    """Until the bot ends: answer every call its filter hands over (:func:`answer`), and
    report each refused call's number the first time; returns the bot's wait status."""
    done = os.pidfd_open(bot)
    poller = select.poll()
    poller.register(done, select.POLLIN)
    if listener is not None:
        poller.register(listener, select.POLLIN)
    reported = set()
    while True:
        for fd, events in poller.poll():
            if fd == done:
                return os.waitpid(bot, 0)[1]
            if events & (select.POLLHUP | select.POLLERR):
                poller.unregister(listener)
                continue
            number = answer(listener, memory)
            if number is not None and number not in reported:
                reported.add(number)
                os.write(report, f"refused {number}\n".encode())


def answer(listener: int, memory: int) -> int | None:
    """Take one notification from a filter's listener and answer it: ``sysinfo`` with the
    sandbox's own figures (``memory`` bytes, no load, one process: the host's would let two
    sandboxes signal through them), any other call EPERM. Returns a refused call's number,
    None for sysinfo or a caller that died meanwhile. The runner answers cold starts' calls
    with this too (``workers/seccomp.py``)."""
    notice = bytearray(NOTIF_SIZE)
    try:
        fcntl.ioctl(listener, NOTIF_RECV, notice)
    except OSError:  # the calling thread died meanwhile
        return None
    ident, pid, _, number, _, _, address = struct.unpack_from("=QIIiIQQ", notice)
    error = -errno.EPERM
    if number == SYS_SYSINFO:
        error = _answer_sysinfo(listener, ident, pid, address, memory)
    reply = bytearray(struct.pack("=QqiI", ident, 0, error, 0))
    with contextlib.suppress(OSError):  # the caller died meanwhile
        fcntl.ioctl(listener, NOTIF_SEND, reply)
    return None if number == SYS_SYSINFO else number


def _answer_sysinfo(listener: int, ident: int, pid: int, address: int, memory: int) -> int:
    """Write the sandbox's ``struct sysinfo`` at ``address`` in ``pid``: 0, or -errno."""
    fields = struct.pack("=q3Q6QHH4xQQI4x", 0, 0, 0, 0, memory, memory, 0, 0, 0, 0, 1, 0, 0, 0, 1)
    try:  # still the caller (not a pid reused since the notice): checked before writing
        fcntl.ioctl(listener, NOTIF_ID_VALID, struct.pack("=Q", ident))
    except OSError:
        return -errno.ESRCH
    buffer = ctypes.create_string_buffer(fields, len(fields))
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), len(fields))
    remote = (ctypes.c_void_p * 2)(address, len(fields))
    written = _process_vm_writev(pid, local, 1, remote, 1, 0)
    return 0 if written == len(fields) else -errno.EFAULT


def _join(holder: int, expected_mnt: str) -> None:
    """Enter every namespace of ``holder`` (a process in a finished sandbox).

    Everything is read from ``/proc`` before the mount namespace is joined: the sandbox's
    ``/proc`` shows only its own PID namespace, which the keeper never enters."""
    handles = {name: os.open(f"/proc/{holder}/ns/{name}", os.O_RDONLY) for name in NAMESPACES}
    user = os.open(f"/proc/{holder}/ns/user", os.O_RDONLY)
    owner = fcntl.ioctl(handles["mnt"], NS_GET_USERNS)
    # The runner read this before asking: a holder pid reused by another process since
    # then shows another mount namespace here, and nothing is joined.
    if _identity(handles["mnt"]) != expected_mnt:
        raise RuntimeError("the sandbox's holder is gone")
    nested = _identity(user) != _identity(owner)
    _check(LIBC.setns(owner, 0), "setns user (owner)")
    for name in NAMESPACES:
        _check(LIBC.setns(handles[name], 0), f"setns {name}")
    if nested:
        _check(LIBC.setns(user, 0), "setns user")
    for fd in (owner, user, *handles.values()):
        os.close(fd)


def _identity(fd: int) -> str:
    return os.readlink(f"/proc/self/fd/{fd}")


def become_bot(request: dict, stdin: int, stdout: int, stderr: int, keeper: socket.socket) -> None:
    """In the sandbox: shed every privilege, hand the keeper the filter's listener, then run
    the bot's entry as ``__main__`` (Python) or exec its command (any other runtime)."""
    code = 127
    try:
        os.setsid()  # its own session and group: the runner pauses and kills that group
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, "PR_SET_PDEATHSIG")
        for target, fd in enumerate((stdin, stdout, stderr)):
            os.dup2(fd, target)
        kept = keeper.fileno()  # closed once the filter's listener went through it
        os.closerange(3, kept)
        os.closerange(kept + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        for name in RLIMITS:
            soft, hard = request["rlimits"][name]
            resource.setrlimit(getattr(resource, f"RLIMIT_{name.upper()}"), (soft, hard))
        _drop_capabilities()
        _prctl(PR_SET_NO_NEW_PRIVS, 1, "PR_SET_NO_NEW_PRIVS")
        listener = _install_seccomp(bytes.fromhex(request["seccomp"]))
        socket.send_fds(keeper, [b"listener"], [listener])
        os.close(listener)
        keeper.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        if request.get("exec"):
            os.execve(request["exec"][0], request["exec"], request["env"])
        _show_as(request["entry"])
    except BaseException:  # noqa: BLE001 - a sandbox that is not complete never runs a bot
        traceback.print_exc()
        os._exit(code)
    os._exit(_run_as_main(request["entry"]))


def _drop_capabilities() -> None:
    for cap in range(64):
        if LIBC.prctl(PR_CAPBSET_DROP, ctypes.c_ulong(cap), 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL:
                break  # past the last capability this kernel knows
            _check(-1, f"PR_CAPBSET_DROP {cap}")
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, "PR_CAP_AMBIENT")
    header = struct.pack("=Ii", CAPABILITY_VERSION_3, 0)
    data = bytes(24)  # two sets of (effective, permitted, inheritable), all empty
    _check(LIBC.syscall(SYS_CAPSET, header, data), "capset")


def _install_seccomp(program: bytes) -> int:
    """Load the filter; the listener through which the keeper answers its refused calls."""

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    instructions = ctypes.create_string_buffer(program, len(program))
    fprog = Program(len(program) // 8, ctypes.addressof(instructions))
    listener = LIBC.syscall(
        SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, ctypes.byref(fprog)
    )
    if listener < 0:
        _check(-1, "seccomp")
    return listener


def _show_as(entry: str) -> None:
    """``ps`` and ``/proc/<pid>/cmdline`` show the bot (``python3 /bot/bot.py``), not the
    zygote: the command line is rewritten in place, in the memory the kernel reads it from."""
    with open("/proc/self/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    start, end = int(fields[45]), int(fields[46])
    text = f"python3\0{entry}\0".encode()[: end - start]
    ctypes.memmove(start, text + bytes(end - start - len(text)), end - start)
    name = ctypes.create_string_buffer(b"bot")
    _prctl(PR_SET_NAME, ctypes.addressof(name), "PR_SET_NAME")


def _run_as_main(entry: str) -> int:
    """Run ``entry`` the way ``python entry`` would and return its exit status.

    The bot gets a fresh ``__main__`` module; this file's own namespace stays as it was."""
    import atexit

    sys.argv = [entry]
    sys.path[0] = entry.rpartition("/")[0] or "."
    main = type(sys)("__main__")
    main.__file__ = entry
    main.__cached__ = None
    sys.modules["__main__"] = main
    status = 0
    try:
        with open(entry, "rb") as source:
            exec(compile(source.read(), entry, "exec"), main.__dict__)
    except SystemExit as done:
        status = _exit_status(done.code)
    except BaseException:  # noqa: BLE001 - as the interpreter does: print and fail
        traceback.print_exc()
        status = 1
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # wait for the bot's non-daemon threads, as at a normal exit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            status = status or 120
    return status


def _exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def confine(channel: int, program: int, argv: list[str]) -> None:
    """A cold start's first step, as bubblewrap's command inside the finished sandbox: no new
    privileges, the filter (read from the descriptor ``program``) with a listener, which goes
    to the runner over the socket ``channel`` (the runner answers the calls it refuses),
    then every other descriptor closed and the bot's command exec'd. (A cold sandbox has no
    capabilities to drop: bubblewrap dropped them.)"""
    try:
        _prctl(PR_SET_NO_NEW_PRIVS, 1, "PR_SET_NO_NEW_PRIVS")
        with os.fdopen(program, "rb") as source:
            listener = _install_seccomp(source.read())
        with socket.socket(fileno=channel) as runner:
            socket.send_fds(runner, [b"listener"], [listener])
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        os.execv(argv[0], argv)
    except BaseException:  # noqa: BLE001 - a sandbox that is not complete never runs a bot
        traceback.print_exc()
        os._exit(127)


if __name__ == "__main__" and sys.argv[1] == "confine":
    confine(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
elif __name__ == "__main__":
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, "PR_SET_PDEATHSIG")  # dies with the runner
    if os.getppid() == 1:
        sys.exit(0)
    for module in PRELOADED:
        __import__(module)
    # Everything loaded so far moves to the collector's permanent generation: a bot's
    # collections never walk (and so never write to, copying) the zygote's shared pages.
    gc.freeze()
    serve(socket.socket(fileno=int(sys.argv[1])))
