#!/usr/bin/env bash
# Install the test dependencies (and Debian's chromium for the browser tests), then run the
# linter and every test. CI (.ci/run) calls this same script, so a missing step fails there too.
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions the suite last passed with (constraints.txt, written by scripts/pin.py).
python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt -c constraints.txt

# Debian's chromium (browser tests), CJK fonts, redis-server and nginx (tests/test_replicas.py runs
# nginx in the foreground with its own configuration and prefix; no system service is used).
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
# redis-server for the class rooms' shared store (tests/redis_server.py runs it in the foreground).
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing="$missing redis-server"
# Japanese and Chinese glyphs for the language tests' screenshots (test-artifacts/i18n-*.png).
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$missing fonts-noto-cjk"
# Node.js and npm: the browser code's type check and linter (package.json), and a test running fill().
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  echo "Installing Debian's$missing for the tests..."
  sudo_if_needed=""
  [ "$(id -u)" = 0 ] || sudo_if_needed="sudo"
  $sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_if_needed apt-get install -y -qq $missing >/dev/null
fi

# The checker and linter of the browser code, at the versions package-lock.json pins.
npm ci --no-audit --no-fund --loglevel=error

ruff check .
ruff format --check .
lint-imports --no-cache  # the layers of ui/ and the import rules (pyproject.toml [tool.importlinter])
npx --no-install tsc -p tsconfig.json  # ui/**/*.js as ES modules, type-checked from their JSDoc (checkJs)
npx --no-install eslint ui
python -m mypy  # playground/ (every def typed, bodies checked) and the ui modules [tool.mypy] in pyproject.toml lists
# Exit code 5 (no tests collected) fails like any other non-zero code. The slowest tests are listed
# so that every CI log shows where its time goes. Two workers, each taking whole test files
# (--dist loadfile: a file's server and browser fixtures are started once, in one worker): the
# browser tests wait on a server and a browser much of the time, so two share the machine's cores
# (47 minutes in one process, 30 in two; BENCHMARKS.md). No test may depend on running alone:
# the tests that load the CPU on purpose (tests/browser.py cpu_burners) wait for states, not times.
python -m pytest -p no:cacheprovider -n 2 --dist loadfile --durations=30 "$@"
