// The order an exported manifest writes a resource's keys in: the public reference's own order
// (CreateAgentDTO, ToolDto, ParametersDto in the OpenAPI), in the manifest's names, so an export
// reads like the documentation and like the dashboard. Keys not listed follow, sorted, so the same
// document always gives the same bytes.
const AGENT_ORDER = ['name', 'icon', 'isActive', 'integrateWith', 'integrationType', 'integrationMeta', 'actions', 'tools', 'platformTools', 'instruction', 'suggestions', 'metaData'];
const TOOL_ORDER = ['displayName', 'description', 'executionText', 'name', 'doNotExecute', 'parameters'];
const PARAMETERS_ORDER = ['type', 'properties', 'required'];

/** The key order for the map at `path` (from the document's root), or undefined for plain sorted keys. */
export function exportKeyOrder(path: readonly string[]): readonly string[] | undefined {
  const [section, , field] = path;
  if (path.length === 2 && section === 'agents') return AGENT_ORDER;
  if (path.length === 2 && section === 'tools') return TOOL_ORDER;
  if (path.length === 3 && section === 'tools' && field === 'parameters') return PARAMETERS_ORDER;
  return undefined;
}
