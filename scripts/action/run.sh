#!/usr/bin/env bash
# The agentsync GitHub Action (action.yml) in one step: run `plan`, `apply` or `diff`, write the job
# summary and the step outputs, and for a plan on a pull request create or update its comment (for a
# diff: the comment on `issue-number`, or on the pull request).
# Inputs arrive as INPUT_* variables; results go to the files a runner names in GITHUB_OUTPUT and
# GITHUB_STEP_SUMMARY. Exits 1 when agentsync failed (or the comment could not be written); a plan
# with changes (exit 2 with --detailed-exitcode) is a success.
set -uo pipefail

action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
command=${INPUT_COMMAND:-plan}
file=${INPUT_FILE:-}
workdir=${INPUT_WORKING_DIRECTORY:-.}
comment=${INPUT_COMMENT:-true}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
# The token is for the comment only: agentsync itself never sees it.
token=${INPUT_GITHUB_TOKEN:-${GITHUB_TOKEN:-}}
unset INPUT_GITHUB_TOKEN GITHUB_TOKEN
output=${GITHUB_OUTPUT:-/dev/null}

die() {
  echo "::error title=agentsync::$*" >&2
  echo "exitcode=1" >>"$output"
  echo "has-changes=false" >>"$output"
  exit 1
}

case "$command" in plan | apply | diff) ;; *) die "command must be plan, apply or diff (got \"$command\")" ;; esac
issue=${INPUT_ISSUE_NUMBER:-}
[[ -z "$issue" || "$issue" =~ ^[1-9][0-9]*$ ]] || die "issue-number must be an issue number (got \"$issue\")"
case "$comment" in true | false) ;; *) die "comment must be true or false (got \"$comment\")" ;; esac
cd "$workdir" 2>/dev/null || die "working-directory $workdir does not exist"
# No file: what agentsync itself reads then (docs/spec/manifest.md#a-manifest-in-many-files):
# agents.yaml, or an agents/ folder of parts when there is no agents.yaml. Both is ambiguous, and
# refused as agentsync refuses it: picking one would plan the other's resources away.
if [ -z "$file" ]; then
  if [ -e agents.yaml ] && [ -d agents ]; then
    die "both agents.yaml and an agents/ folder are in working-directory $workdir, and either could be the manifest; set the file input to agents.yaml or agents to say which"
  elif [ -d agents ]; then file=agents; else file=agents.yaml; fi
fi

# The manifest as the repository names it, for the summary and the comment's marker.
workspace=${GITHUB_WORKSPACE:-$PWD}
manifest=$(realpath -m --relative-to="$workspace" "$file")

# Environments: commas, spaces or newlines between names. Extra arguments: split on whitespace
# (no quoting), with globbing off so that a `*` stays a `*`.
set -f
environments_text=${INPUT_ENVIRONMENTS:-}
# shellcheck disable=SC2206
environments=(${environments_text//,/ })
# shellcheck disable=SC2206
extra=(${INPUT_ARGS:-})
set +f
args=(-f "$file")
for env in "${environments[@]}"; do args+=(-e "$env"); done
env_list=$(IFS=,; echo "${environments[*]}")
shown=$env_list
# A plan that deletes most of what the state manages is refused under --auto-approve unless allowed (docs/spec/plan-and-apply.md#mass-deletion).
case "${INPUT_ALLOW_MASS_DELETE:-false}" in
  true) [ "$command" = apply ] && args+=(--allow-mass-delete) ;;
  false) ;;
  *) die "allow-mass-delete must be true or false (got \"$INPUT_ALLOW_MASS_DELETE\")" ;;
esac
case "${INPUT_ALL_ENVIRONMENTS:-false}" in
  true) args+=(--all-environments) env_list='*' shown='all environments' ;;
  false) ;;
  *) die "all-environments must be true or false (got \"$INPUT_ALL_ENVIRONMENTS\")" ;;
esac
where="\`$manifest\`${shown:+ ($shown)}"

# plan-file: the plan saves the file that a later apply takes as it is (docs/spec/plan-and-apply.md#reviewing-changes).
plan_file=${INPUT_PLAN_FILE:-}
[ -z "$plan_file" ] || [ "$command" != diff ] || die "plan-file is for plan and apply; a diff saves no plan"
if [ -n "$plan_file" ]; then
  [ "${#environments[@]}" -le 1 ] && [ "$env_list" != '*' ] || die "plan-file needs exactly one environment (got \"$shown\")"
  if [ "$command" = apply ] && [ ! -f "$plan_file" ]; then
    die "plan-file $plan_file does not exist: apply takes only the plan that was reviewed and never plans again; make one with command: plan and plan-file on the pull request"
  fi
fi

# Which agentsync: the one asked for, the project's own (a dev dependency), else this action's copy.
if [ -n "${INPUT_CLI:-}" ]; then
  set -f
  # shellcheck disable=SC2206
  cli=($INPUT_CLI)
  set +f
elif [ -x node_modules/.bin/agentsync ]; then
  cli=(node_modules/.bin/agentsync)
elif [ -x "$workspace/node_modules/.bin/agentsync" ]; then
  cli=("$workspace/node_modules/.bin/agentsync")
else
  # A release tag (scripts/release-tag.sh) carries the built dist/: nothing to install. Only an
  # action taken from a branch or a commit without it builds its own copy first (~20 s).
  if [ ! -f "$action_path/dist/cli/main.cjs" ]; then
    echo "this action's ref has no built dist/ (release tags have one): building it with npm ci (its prepare script builds)" >&2
    (cd "$action_path" && npm ci --no-audit --no-fund --loglevel=error && node scripts/build.mjs --if-stale) >&2 || die "could not build agentsync in $action_path"
  fi
  cli=(node "$action_path/dist/cli/main.cjs")
fi

tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentsync.XXXXXX") || die "could not create a temporary folder"
export CI=${CI:-true} NO_COLOR=${NO_COLOR:-1}

# What agentsync prints quotes the pull request's manifest and the server's answers. agentsync
# escapes them, and the runner is also told to obey no workflow command until it sees a token that
# none of that text can know (GitHub's ::stop-commands::). Our own lines go outside the region.
stop_token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
[ "${#stop_token}" -eq 32 ] || die "could not read /dev/urandom for the stop-commands token"
stop_commands() { echo "::stop-commands::$stop_token"; }
resume_commands() { echo "::$stop_token::"; }

if [ "$command" = plan ] && [ -n "$plan_file" ]; then
  # The saved plan first; its markdown comes from the file itself, so the comment shows exactly it.
  "${cli[@]}" plan "${args[@]}" --out "$plan_file" --detailed-exitcode "${extra[@]}" >"$tmp/plan.txt" 2>"$tmp/stderr.txt"
  code=$?
  if [ "$code" -eq 0 ] || [ "$code" -eq 2 ]; then
    "${cli[@]}" show "$plan_file" --format markdown >"$tmp/plan.md" 2>>"$tmp/stderr.txt" || code=1
  fi
  [ -f "$tmp/plan.md" ] || : >"$tmp/plan.md"
elif [ "$command" = plan ] || [ "$command" = diff ]; then
  # A diff compares the two environments given (docs/spec/commands.md#diff); 2 means they differ in more than intended.
  "${cli[@]}" "$command" "${args[@]}" --format markdown --detailed-exitcode "${extra[@]}" >"$tmp/plan.md" 2>"$tmp/stderr.txt"
  code=$?
fi
if [ "$command" = plan ] || [ "$command" = diff ]; then
  stop_commands
  cat "$tmp/plan.md"
  cat "$tmp/stderr.txt" >&2
  resume_commands
  if [ "$code" -eq 0 ] || [ "$code" -eq 2 ]; then
    cat "$tmp/plan.md" >>"$summary"
  else
    { printf '### agentsync %s failed for %s\n\n```text\n' "$command" "$where"; head -c 20000 "$tmp/stderr.txt"; printf '\n```\n'; } >>"$summary"
  fi
  has_changes=false
  [ "$code" -eq 2 ] && has_changes=true
else
  # With plan-file: exactly the reviewed plan; a stale one is refused (exit 1), never re-planned.
  saved=()
  [ -n "$plan_file" ] && saved=("$plan_file")
  stop_commands
  "${cli[@]}" apply "${saved[@]}" --auto-approve "${args[@]}" "${extra[@]}" 2>"$tmp/stderr.txt" | tee "$tmp/apply.txt"
  code=${PIPESTATUS[0]}
  cat "$tmp/stderr.txt" >&2
  resume_commands
  # Apply prints its plan first; any "Plan: N to create, …" with a non-zero N means it had work.
  has_changes=false
  grep -Eq 'Plan: .*\b[1-9][0-9]* to ' "$tmp/apply.txt" && has_changes=true
  {
    printf '### agentsync apply for %s\n\n```text\n' "$where"
    tail -c 50000 "$tmp/apply.txt"
    if [ "$code" -ne 0 ]; then head -c 20000 "$tmp/stderr.txt"; fi
    printf '\n```\n'
  } >>"$summary"
fi
echo "exitcode=$code" >>"$output"
echo "has-changes=$has_changes" >>"$output"

status=0
[ "$code" -eq 0 ] || [ "$code" -eq 2 ] || status=1
if [ "$command" = plan ] && [ "$comment" = true ] && [[ "${GITHUB_EVENT_NAME:-}" == pull_request* ]]; then
  GITHUB_TOKEN=$token node "$action_path/scripts/action/pr-comment.mjs" --manifest "$manifest" --environments "$env_list" \
    --plan-file "$tmp/plan.md" --error-file "$tmp/stderr.txt" --exitcode "$code" || status=1
fi
# A diff (a nightly job's) goes to the issue it names, or else to the pull request it runs on.
if [ "$command" = diff ] && [ "$comment" = true ] && { [ -n "$issue" ] || [[ "${GITHUB_EVENT_NAME:-}" == pull_request* ]]; }; then
  GITHUB_TOKEN=$token node "$action_path/scripts/action/pr-comment.mjs" --kind diff ${issue:+--issue "$issue"} --manifest "$manifest" --environments "$env_list" \
    --plan-file "$tmp/plan.md" --error-file "$tmp/stderr.txt" --exitcode "$code" || status=1
fi
exit "$status"
