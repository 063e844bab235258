# Policies for agentsync plans, for conftest (https://www.conftest.dev) or `opa eval`.
# The input is a JSON plan: `agentsync plan --json`, or a saved plan file (`plan --out plan.json`).
# Every change carries its whole `before` and `after` record; sensitive values read "(sensitive)".
#
#   agentsync plan --out plan.json
#   conftest test --policy examples/policy plan.json
package main

import rego.v1

changed(change) if change.action in {"create", "update"}

# Deleting an agent removes it for every user at once: do that by hand, not from a merged PR.
deny contains msg if {
	some change in input.changes
	change.type == "agent"
	change.action == "delete"
	msg := sprintf("%s: this plan deletes an agent; remove it by hand or drop --prune", [change.address])
}

# A model chooses tools by their description.
deny contains msg if {
	some change in input.changes
	change.type == "tool"
	changed(change)
	not change.after.doNotExecute
	count(change.after.description) < 20
	msg := sprintf("%s: the description needs at least 20 characters (has %d)", [change.address, count(change.after.description)])
}

# An external agent receives user messages and credentials: only over HTTPS.
deny contains msg if {
	some change in input.changes
	change.type == "agent"
	changed(change)
	url := change.after.integrationMeta.baseUrl
	not startswith(url, "https://")
	msg := sprintf("%s: integrationMeta.baseUrl must be https:// (is %s)", [change.address, url])
}

# Credentials must come from ${secret:NAME}: then the plan shows them as "(sensitive)".
deny contains msg if {
	some change in input.changes
	change.type == "agent"
	changed(change)
	some name, value in change.after.integrationMeta.headers
	lower(name) == "authorization"
	value != "(sensitive)"
	msg := sprintf("%s: the Authorization header is written in the manifest; use ${secret:NAME}", [change.address])
}

# A model change is allowed, but the reviewer should see it.
warn contains msg if {
	some change in input.changes
	change.type == "agent"
	change.action == "update"
	change.before.integrateWith != change.after.integrateWith
	msg := sprintf("%s: the model changes from %s to %s", [change.address, change.before.integrateWith, change.after.integrateWith])
}
