#!/usr/bin/env bash
# Cuts release tag v<version> (package.json) for the GitHub Action. main never carries dist/ (it is
# in .gitignore); the tag does: it points at a commit whose parent is HEAD and whose tree is HEAD's
# plus the built bundles the action runs (dist/cli/*.cjs and the vendored undici and pg) and the
# package's (dist/index.js, dist/types/). So `uses: OWNER/agentsync@v0.1.0` runs with no `npm ci`.
# The branch, the index and the working tree are left as they were; the major tag (v0) moves to
# the new release. Nothing is pushed unless --push is given.
#
#   scripts/release-tag.sh [--no-build] [--push [REMOTE]]
#     --no-build   use the dist/ already built (CI's own build, or a test)
#     --push       push the new tag and move the major tag on REMOTE (default origin)
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "release-tag: $*" >&2; exit 1; }

build=true push=false remote=origin
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    --push) push=true; if [ $# -gt 1 ] && [ "${2#-}" = "$2" ]; then remote=$2; shift; fi ;;
    *) die "unknown argument $1 (use --no-build, --push [REMOTE])" ;;
  esac
  shift
done

version=$(node -p 'require("./package.json").version')
tag="v$version"
major="v${version%%.*}"
[ -z "$(git status --porcelain --untracked-files=no)" ] || die "the working tree has uncommitted changes; commit them first"
! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || die "tag $tag already exists"

if [ "$build" = true ]; then
  npm ci --no-audit --no-fund --loglevel=error
  npm run --silent build
fi
shipped=(dist/cli/main.cjs dist/cli/agentsync.cjs dist/cli/vendor dist/index.js dist/types)
for path in "${shipped[@]}"; do [ -e "$path" ] || die "$path is missing: build first (npm ci && npm run build) or drop --no-build"; done
[ "$(node dist/cli/main.cjs --version)" = "$version" ] || die "dist/ was built for another version than $version; build again"

# HEAD's tree plus dist/, through a throwaway index so that nothing checked out changes.
index=$(mktemp)
trap 'rm -f "$index"' EXIT
export GIT_INDEX_FILE=$index
git read-tree HEAD
git add --force -- "${shipped[@]}"
tree=$(git write-tree)
unset GIT_INDEX_FILE
commit=$(git commit-tree "$tree" -p HEAD -m "Release $tag: the built dist/ for the GitHub Action")
git tag -a "$tag" "$commit" -m "agentsync $version"
git tag -f -a "$major" "$commit" -m "agentsync $version (latest $major)" >/dev/null
echo "tagged $tag and $major at $commit (dist/ included; $(git rev-parse --abbrev-ref HEAD) unchanged)"

if [ "$push" = true ]; then
  git push "$remote" "refs/tags/$tag"
  git push --force "$remote" "refs/tags/$major"
fi
