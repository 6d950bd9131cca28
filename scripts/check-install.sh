#!/usr/bin/env bash
# Installs ptolog the two ways a user or a hook manager does, each into a fresh prefix, and runs
# every hook of .pre-commit-hooks.yaml with its `entry` on copies of the shipped examples:
#   1. as pre-commit installs a hook repository of `language: node`: a clone of the repository,
#      built; `npm pack`; `npm install -g` of the tarball;
#   2. `npm install -g git+file://<clone>`: npm clones it, and `prepare` (scripts/prepare.mjs)
#      installs the clone's dependencies and builds it (npm's global git install gives it none).
# Fails when the package cannot be installed or a hook cannot run (exit 2 or no ptolog on PATH).
# Run by .ci/run; `bash scripts/check-install.sh` by hand. Uses the npm cache (--prefer-offline).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Runs every hook entry with the ptolog installed under prefix $1 ($2: how it was installed).
run_hooks() {
  local prefix="$1" how="$2" work="$tmp/work-$2" hooks=0 entry code
  (
    export PATH="$prefix/bin:$PATH"
    [ "$(command -v ptolog)" = "$prefix/bin/ptolog" ] || { echo "check-install ($how): ptolog is not on PATH after npm install -g" >&2; exit 1; }
    mkdir "$work"
    cp "$root"/examples/*.py "$work/"
    cd "$work"
    while IFS= read -r entry; do
      hooks=$((hooks + 1))
      set +e
      # shellcheck disable=SC2086 # the entry is a command line, split as pre-commit splits it
      $entry ./*.py >"$tmp/out" 2>&1
      code=$?
      set -e
      if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
        echo "check-install ($how): hook '$entry' exited $code:" >&2
        cat "$tmp/out" >&2
        exit 1
      fi
      echo "check-install ($how): hook '$entry' ran (exit $code)"
    done < <(sed -n 's/^ *entry: *//p' "$root/.pre-commit-hooks.yaml")
    [ "$hooks" -gt 0 ] || { echo "check-install: no hook in .pre-commit-hooks.yaml" >&2; exit 1; }
    # ptolog-apply inserted the markers: the audit hook now passes.
    ptolog audit --fail-on error ./*.py >/dev/null
    echo "check-install ($how): installed into a fresh prefix; $hooks hooks ran"
  )
}

# The committed tree, as `git clone` gives it (what pre-commit and npm's git installs see).
git clone -q "$root" "$tmp/repo"

# 1. npm pack, as pre-commit does. The clone's build uses this checkout's installed dependencies
# (the same lock file) instead of a second npm ci.
ln -s "$root/node_modules" "$tmp/repo/node_modules"
(cd "$tmp/repo" && npm run --silent build >/dev/null)
pkg="$(cd "$tmp/repo" && npm pack --ignore-scripts --silent)"
rm "$tmp/repo/node_modules"
npm install -g --prefix "$tmp/pack" --prefer-offline --no-audit --no-fund --silent "$tmp/repo/$pkg"
run_hooks "$tmp/pack" pack

# 2. From git, globally: npm clones the repository and runs its prepare there.
git clone -q "$root" "$tmp/git"
npm install -g --prefix "$tmp/from-git" --prefer-offline --no-audit --no-fund --silent "git+file://$tmp/git" >"$tmp/git.log" 2>&1 || {
  echo "check-install (git): npm install -g git+file:// failed:" >&2
  cat "$tmp/git.log" >&2
  exit 1
}
run_hooks "$tmp/from-git" git
