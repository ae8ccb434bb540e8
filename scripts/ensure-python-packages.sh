#!/usr/bin/env bash
# A Python virtual environment under .build/python with the packages the OpenRPC checks use
# (Tests/OpenRPC/requirements.txt: jsonschema, exact versions), installed from PyPI when
# missing or when the requirements changed. Safe to run from several tests at once.
# Usage: scripts/ensure-python-packages.sh   (prints the environment's python on stdout)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.build/python"
requirements="$root/Tests/OpenRPC/requirements.txt"
mkdir -p "$root/.build"
exec 9>"$root/.build/python.lock"
flock 9
if ! [ -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.installed"; then
    echo "ensure-python-packages: installing $(grep -v '^#' "$requirements" | tr '\n' ' ')into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements" >&2
    cp "$requirements" "$venv/requirements.installed"
fi
echo "$venv/bin/python"
