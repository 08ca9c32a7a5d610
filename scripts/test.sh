#!/usr/bin/env bash
# Install the test dependencies (and Debian's chromium for the browser tests), then run the
# linter and every test. CI (.ci/run) calls this same script, so a missing step fails there too.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt

if ! command -v chromium >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  sudo_if_needed=""
  [ "$(id -u)" = 0 ] || sudo_if_needed="sudo"
  $sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_if_needed apt-get install -y -qq chromium >/dev/null
fi

ruff check .
ruff format --check .
# Exit code 5 (no tests collected) fails like any other non-zero code.
python -m pytest -p no:cacheprovider "$@"
