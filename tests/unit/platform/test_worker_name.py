"""A worker process's name on the games it claims."""

import os
import socket

import pytest

from arena.games.tasks import worker_name


def test_a_process_keeps_one_name_that_starts_with_its_host_and_pid():
    name = worker_name()
    assert name == worker_name()
    assert name.startswith(f"{socket.gethostname()}:{os.getpid()}:")


@pytest.mark.slow
def test_a_forked_process_draws_a_name_of_its_own():
    parent = worker_name()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reports its name and leaves at once
        os.write(write, worker_name().encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    child = os.read(read, 200).decode()
    os.close(read)
    assert child.startswith(f"{socket.gethostname()}:{pid}:")
    assert child != parent
