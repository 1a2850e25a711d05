#!/usr/bin/env bash
# Type-checks each Contracts/*.swift file, on its own, against the built
# PortableFoundationModels module (Apple's FoundationModels API re-implemented
# for platforms without it). The contracts are written against Apple's API as
# Apple declares it; a file that type-checks proves the portable module keeps
# Apple's names and signatures for everything that file uses.
#
# Usage (from anywhere in the repository; nothing outside it is needed):
#   swift build --target PortableFoundationModels
#   bash Contracts/check.sh                  # every Contracts/*.swift
#   bash Contracts/check.sh Contracts/X.swift  # only the files given
#
# Exit 0: every contract type-checks. Exit 1: a contract failed, or the module
# is not built. The contracts are never run, only type-checked.
#
# Do not edit a contract to make it pass: change the portable module instead.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

if ! bin="$(cd "$root" && swift build --show-bin-path 2>/dev/null)" || [ -z "$bin" ]; then
  echo "contracts: 'swift build --show-bin-path' failed in $root" >&2
  exit 1
fi

includes=()
found=no
for dir in "$bin/Modules" "$bin"; do
  [ -d "$dir" ] || continue
  includes+=(-I "$dir")
  [ -e "$dir/PortableFoundationModels.swiftmodule" ] && found=yes
done
if [ "$found" = no ]; then
  echo "contracts: PortableFoundationModels is not built (no PortableFoundationModels.swiftmodule under $bin)." >&2
  echo "contracts: build it first:  swift build --target PortableFoundationModels" >&2
  exit 1
fi

if [ "$#" -gt 0 ]; then
  files=("$@")
else
  shopt -s nullglob
  files=("$here"/*.swift)
  shopt -u nullglob
fi
if [ "${#files[@]}" -eq 0 ]; then
  echo "contracts: no contract files in $here" >&2
  exit 1
fi

passed=()
failed=()
for file in "${files[@]}"; do
  name="$(basename "$file")"
  if output="$(swiftc -typecheck -swift-version 6 -warnings-as-errors "${includes[@]}" "$file" 2>&1)"; then
    echo "pass: $name"
    passed+=("$name")
  else
    echo "FAIL: $name"
    printf '%s\n' "$output" | sed 's/^/    /'
    failed+=("$name")
  fi
done

echo "contracts: ${#passed[@]} passed, ${#failed[@]} failed (against $bin)"
if [ "${#failed[@]}" -gt 0 ]; then
  for name in "${failed[@]}"; do echo "contracts: FAILED $name" >&2; done
  exit 1
fi
echo "contracts: PortableFoundationModels matches every FoundationModels API contract"
