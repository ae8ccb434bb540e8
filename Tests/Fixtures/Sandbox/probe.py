#!/usr/bin/python3
"""A hostile extension for the sandbox's tests: makes one attempt, named by SANDBOX_ATTEMPT
("KIND ARGUMENT"), and prints "ok", "refused ERRNO-NAME" or "count N" on one line.

  read PATH       open PATH and read it
  list PATH       list the directory PATH
  write PATH      create or truncate PATH and write to it
  tcp HOST:PORT   connect over TCP
  udp -           open a UDP socket
  abstract NAME   connect to the abstract Unix socket NAME
  signal PID      kill(PID, SIGTERM)
  ptrace PID      PTRACE_ATTACH to PID
  files N         open /dev/null up to N times; prints how many opened
  forks N         fork up to N children that wait; prints how many started
  nnp -           prints NoNewPrivs from /proc/self/status
  setsid -        a child leaves the process group for a session of its own (the leader
                  itself may not: EPERM for a group leader everywhere)
"""
import ctypes
import errno
import os
import signal
import socket
import sys
import time

kind, _, argument = os.environ.get("SANDBOX_ATTEMPT", "").partition(" ")


def attempt():
    if kind == "read":
        with open(argument) as file:
            file.read()
    elif kind == "list":
        os.listdir(argument)
    elif kind == "write":
        with open(argument, "w") as file:
            file.write("written by a sandboxed extension\n")
    elif kind == "tcp":
        host, _, port = argument.rpartition(":")
        socket.create_connection((host, int(port)), timeout=5).close()
    elif kind == "udp":
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
    elif kind == "abstract":
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect("\0" + argument)
        connection.close()
    elif kind == "signal":
        os.kill(int(argument), signal.SIGTERM)
    elif kind == "ptrace":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, int(argument), 0, 0) != 0:  # PTRACE_ATTACH
            raise OSError(ctypes.get_errno(), "ptrace")
    elif kind == "files":
        opened = []
        try:
            for _ in range(int(argument)):
                opened.append(os.open("/dev/null", os.O_RDONLY))
        except OSError:
            pass
        return "count %d" % len(opened)
    elif kind == "forks":
        children = []
        try:
            for _ in range(int(argument)):
                pid = os.fork()
                if pid == 0:
                    time.sleep(3)
                    os._exit(0)
                children.append(pid)
        except OSError:
            pass
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        return "count %d" % len(children)
    elif kind == "setsid":
        child = os.fork()
        if child == 0:
            try:
                os.setsid()
                os._exit(0)
            except OSError as error:
                os._exit(error.errno)
        _, status = os.waitpid(child, 0)
        if os.WEXITSTATUS(status) != 0:
            raise OSError(os.WEXITSTATUS(status), "setsid")
    elif kind == "nnp":
        for line in open("/proc/self/status"):
            if line.startswith("NoNewPrivs:"):
                return "count " + line.split()[1]
        return "count -1"
    else:
        return "unknown attempt " + repr(kind)
    return "ok"


try:
    print(attempt())
except OSError as error:
    print("refused " + errno.errorcode.get(error.errno, str(error.errno)))
sys.stdout.flush()
