"""``python seccomp_exec.py PROFILE.json COMMAND...``: run COMMAND under an OCI seccomp profile
(the JSON format Docker, containerd and Kubernetes read), applied as a container runtime
applies it: the default action, then each rule's names with its action and errno. Names this
architecture does not have are skipped, as runc skips them."""

import json
import os
import sys

import pyseccomp as seccomp


def action(name: str, errno_ret: int | None):
    if name == "SCMP_ACT_ALLOW":
        return seccomp.ALLOW
    if name == "SCMP_ACT_ERRNO":
        return seccomp.ERRNO(errno_ret if errno_ret is not None else 1)
    if name == "SCMP_ACT_KILL":
        return seccomp.KILL
    raise SystemExit(f"seccomp_exec: action {name} is not supported here")


def load(profile: dict) -> None:
    rules = seccomp.SyscallFilter(action(profile["defaultAction"], profile.get("defaultErrnoRet")))
    for rule in profile.get("syscalls", []):
        for name in rule["names"]:
            try:
                rules.add_rule(action(rule["action"], rule.get("errnoRet")), name)
            except (RuntimeError, ValueError):
                continue  # not a system call of this architecture
    rules.load()


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        load(json.load(file))
    os.execvp(sys.argv[2], sys.argv[2:])
