#!/usr/bin/env bash
# Installs ptolog as pre-commit installs a hook repository of `language: node` (a clone of the
# repository, built; `npm pack`; `npm install -g` of the tarball into a fresh prefix), then runs
# every hook of .pre-commit-hooks.yaml with its `entry` on copies of the shipped examples.
# Fails when the package cannot be installed or a hook cannot run (exit 2 or no ptolog on PATH).
# Run by .ci/run; `bash scripts/check-install.sh` by hand. Uses the npm cache (--prefer-offline).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The committed tree, as `git clone` gives it (what pre-commit and npm's git installs see).
git clone -q "$root" "$tmp/repo"
# The clone's build uses this checkout's installed dependencies (the same lock file) instead of a second npm ci.
ln -s "$root/node_modules" "$tmp/repo/node_modules"
(cd "$tmp/repo" && npm run --silent build >/dev/null)
pkg="$(cd "$tmp/repo" && npm pack --ignore-scripts --silent)"
rm "$tmp/repo/node_modules"
npm install -g --prefix "$tmp/prefix" --prefer-offline --no-audit --no-fund --silent "$tmp/repo/$pkg"
export PATH="$tmp/prefix/bin:$PATH"
[ "$(command -v ptolog)" = "$tmp/prefix/bin/ptolog" ] || { echo "check-install: ptolog is not on PATH after npm install -g" >&2; exit 1; }

mkdir "$tmp/work"
cp "$root"/examples/*.py "$tmp/work/"
cd "$tmp/work"
hooks=0
while IFS= read -r entry; do
  hooks=$((hooks + 1))
  set +e
  # shellcheck disable=SC2086 # the entry is a command line, split as pre-commit splits it
  $entry ./*.py >"$tmp/out" 2>&1
  code=$?
  set -e
  if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
    echo "check-install: hook '$entry' exited $code:" >&2
    cat "$tmp/out" >&2
    exit 1
  fi
  echo "check-install: hook '$entry' ran (exit $code)"
done < <(sed -n 's/^ *entry: *//p' "$root/.pre-commit-hooks.yaml")
[ "$hooks" -gt 0 ] || { echo "check-install: no hook in .pre-commit-hooks.yaml" >&2; exit 1; }
# ptolog-apply inserted the markers: the audit hook now passes.
ptolog audit --fail-on error ./*.py >/dev/null
echo "check-install: installed from npm pack into a fresh prefix; $hooks hooks ran"
