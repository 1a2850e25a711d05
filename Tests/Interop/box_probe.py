#!/usr/bin/env python3
"""A red-team MCP server for the process box: each call tries one way out and says whether it
worked ("done: …") or not ("stopped: …", with the error).

Standard library only (it also runs as an ordinary user, with the system's Python), raw
JSON-RPC over stdio: one tool, `probe`, with arguments {"action": A, "target": T}.
"""

import ctypes
import errno
import json
import os
import socket
import sys
import threading
import time

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def syscall(number, *arguments):
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in arguments])
    if result < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result


ARCH = os.uname().machine
NR = {
    "x86_64": {"io_uring_setup": 425, "keyctl": 250, "inotify_init1": 294},
    "aarch64": {"io_uring_setup": 425, "keyctl": 219, "inotify_init1": 26},
}[ARCH]


def stopped(error):
    return "stopped: %s" % error


def tfo(target):
    host, port = target.rsplit(" ", 1)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sent = sock.sendto(b"tfo-bytes", socket.MSG_FASTOPEN, (host, int(port)))
        return "done: sent %d bytes with MSG_FASTOPEN" % sent


def io_uring(_):
    params = ctypes.create_string_buffer(120)
    fd = syscall(NR["io_uring_setup"], 4, ctypes.addressof(params))
    os.close(fd)
    return "done: io_uring_setup gave descriptor %d" % fd


def daemons(token):
    # A child that sleeps, and a double-forked daemon in a session of its own; both renamed
    # (argv[0]) so that the test can find them among the system's processes.
    # Both hold the write end of a close-on-exec pipe: end of file once both have executed.
    ready, held = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.execv("/bin/sleep", [token + "-child", "300"])
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for descriptor in (0, 1, 2):
                os.dup2(devnull, descriptor)
            os.execv("/bin/sleep", [token + "-daemon", "300"])
        os._exit(0)
    os.close(held)
    os.waitpid(first, 0)
    os.read(ready, 1)
    os.close(ready)
    return "done: started %s-child and %s-daemon" % (token, token)


def keyring(_):
    found = []
    for name, special in (("session", -3), ("user", -4)):
        key = syscall(NR["keyctl"], 0, special, 0)  # KEYCTL_GET_KEYRING_ID
        found.append("%s keyring %d" % (name, key))
    return "done: " + ", ".join(found)


def read(path):
    with open(path, "rb") as handle:
        return "done: read %r" % handle.read(200)


def metadata(target):
    operation, path = target.split(" ", 1)
    if operation == "chmod":
        os.chmod(path, 0o4755)
    elif operation == "chown":
        os.chown(path, 0, 0)
    elif operation == "utime":
        os.utime(path, (0, 0))
    elif operation == "setxattr":
        os.setxattr(path, "user.probe", b"x")
    return "done: %s %s" % (operation, path)


def inotify(path):
    descriptor = libc.inotify_init1(0)
    if descriptor < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1: " + os.strerror(ctypes.get_errno()))
    watch = libc.inotify_add_watch(descriptor, path.encode(), 0x00000100 | 0x00000020)  # IN_CREATE | IN_OPEN
    os.close(descriptor)
    if watch < 0:
        raise OSError(ctypes.get_errno(), "inotify_add_watch: " + os.strerror(ctypes.get_errno()))
    return "done: watching %s" % path


def descriptor(number):
    return "done: read %r" % os.read(int(number), 200)


def udp(target):
    host, port = target.rsplit(" ", 1)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.sendto(b"udp-bytes", (host, int(port)))
    return "done: sent a datagram to %s" % target


def unix(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path if not path.startswith("@") else "\0" + path[1:])
        sock.sendall(b"unix-bytes")
    return "done: connected to %s" % path


def netlink(_):
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0):
        return "done: made a netlink route socket"


def vsock(_):
    with socket.socket(40, socket.SOCK_STREAM):  # AF_VSOCK
        return "done: made a vsock socket"


def socket_pair(_):
    first, second = socket.socketpair()
    first.sendall(b"x")
    data = second.recv(1)
    first.close()
    second.close()
    return "done: a socket pair carried %r" % data


def processes(count):
    started, children = 0, []
    try:
        for _ in range(int(count)):
            pid = os.fork()
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            children.append(pid)
            started += 1
        result = "done: started %d" % started
    except OSError as error:
        result = "stopped: started %d, then %s" % (started, error)
    for pid in children:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return result


def threads(count):
    started, stop = 0, threading.Event()
    workers = []
    try:
        for _ in range(int(count)):
            worker = threading.Thread(target=stop.wait, daemon=True)
            worker.start()
            workers.append(worker)
            started += 1
        result = "done: started %d" % started
    except RuntimeError as error:
        result = "stopped: started %d, then %s" % (started, error)
    stop.set()
    for worker in workers:
        worker.join()
    return result


def memory(target):
    count, mib = (int(x) for x in target.split(" "))
    children = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            block = bytearray(mib << 20)
            for index in range(0, len(block), 4096):
                block[index] = 1
            time.sleep(2)
            os._exit(0)
        children.append(pid)
    survived = 0
    for pid in children:
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            survived += 1
    verdict = "done" if survived == count else "stopped"
    return "%s: %d of %d processes kept %d MiB each" % (verdict, survived, count, mib)


def files(target):
    directory, count, mib = target.split(" ")
    written, children = [], []
    for index in range(int(count)):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            total = 0
            try:
                with open(os.path.join(directory, "fill-%d" % index), "wb") as handle:
                    chunk = b"\0" * (1 << 20)
                    for _ in range(int(mib)):
                        handle.write(chunk)
                        handle.flush()
                        total += len(chunk)
            except OSError:
                pass
            os.write(write_end, str(total).encode())
            os._exit(0)
        os.close(write_end)
        children.append((pid, read_end))
    for pid, read_end in children:
        os.waitpid(pid, 0)
        written.append(int(os.read(read_end, 64) or b"0"))
        os.close(read_end)
    total = sum(written) >> 20
    wanted = int(count) * int(mib)
    return "%s: wrote %d MiB of %d" % ("done" if total >= wanted else "stopped", total, wanted)


def environment(name):
    value = os.environ.get(name)
    return "done: %s=%s" % (name, value) if value is not None else "stopped: %s is not set" % name


def scan(secret):
    places = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        for part in ("cmdline", "environ"):
            try:
                with open("/proc/%s/%s" % (entry, part), "rb") as handle:
                    if secret.encode() in handle.read():
                        places.append("%s/%s" % (entry, part))
            except OSError:
                pass
    return "done: found in %s" % (", ".join(places) or "nothing")


WATCH = {"stop": None, "found": [], "passes": 0, "thread": None}


def watch_start(secret):
    # Scans every process's command line and environment, again and again, until
    # watch-stop: what a daemon left behind by an earlier box could do while later boxes
    # are launched.
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            found = scan(secret)
            if not found.endswith("nothing"):
                WATCH["found"].append(found)
            WATCH["passes"] += 1

    WATCH.update(stop=stop, found=[], passes=0, thread=threading.Thread(target=loop, daemon=True))
    WATCH["thread"].start()
    return "done: watching"


def watch_stop(_):
    WATCH["stop"].set()
    WATCH["thread"].join()
    found = sorted(set(WATCH["found"]))
    if found:
        return "done: after %d passes, %s" % (WATCH["passes"], "; ".join(found))
    return "stopped: not found in %d passes" % WATCH["passes"]


def identity(_):
    return "done: pid %d uid %d" % (os.getpid(), os.getuid())


ACTIONS = {
    "tfo": tfo, "io_uring": io_uring, "daemons": daemons, "keyring": keyring, "read": read, "metadata": metadata,
    "inotify": inotify, "descriptor": descriptor, "udp": udp, "unix": unix, "netlink": netlink, "vsock": vsock,
    "socketpair": socket_pair, "processes": processes, "threads": threads, "memory": memory, "files": files,
    "env": environment, "scan": scan, "identity": identity, "watch-start": watch_start, "watch-stop": watch_stop,
}


def answer(message):
    method = message.get("method")
    if method == "initialize":
        return {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "box-probe", "version": "1"}}
    if method == "tools/list":
        schema = {"type": "object", "properties": {"action": {"type": "string"}, "target": {"type": "string"}}}
        return {"tools": [{"name": "probe", "description": "Tries one way out of the box.", "inputSchema": schema}]}
    if method == "tools/call":
        arguments = message["params"].get("arguments", {})
        action = ACTIONS.get(arguments.get("action"))
        try:
            text = action(arguments.get("target", "")) if action else "unknown action"
        except OSError as error:
            text = stopped("%s (errno %s)" % (error.strerror or error, error.errno))
        except Exception as error:  # noqa: BLE001 - every failure is an answer
            text = stopped(repr(error))
        return {"content": [{"type": "text", "text": text}], "isError": False}
    if method == "ping":
        return {}
    return None


def main():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message:
            continue
        result = answer(message)
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        if result is None:
            reply["error"] = {"code": -32601, "message": "Method not found"}
        else:
            reply["result"] = result
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
