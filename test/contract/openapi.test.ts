// The contract checker itself: it must find operations from concrete paths, accept what the
// reference allows and reject, readably, what it does not. Otherwise every test built on it could
// pass by accident.
import { describe, expect, it } from 'vitest';
import { documentedStatuses, findOperation, validateComponent, validateRequestBody, validateResponse } from './openapi.js';

const tool = {
  name: 'get_weather',
  displayName: 'Weather',
  executionText: 'Checking',
  description: 'd',
  parameters: { type: 'object', properties: { city: { type: 'string', description: 'City' } } },
};

describe('findOperation', () => {
  it.each([
    ['PUT', '/ai-agents/tools/get_weather', '/ai-agents/tools/{name}'],
    ['PUT', '/v3/ai-agents/tools/get_weather', '/ai-agents/tools/{name}'],
    ['PUT', 'http://127.0.0.1:4010/v3/ai-agents/tools/get_weather?x=1', '/ai-agents/tools/{name}'],
    ['PUT', '/ai-agents/tools/{name}', '/ai-agents/tools/{name}'],
    ['GET', '/ai-agents/tools/', '/ai-agents/tools'],
    ['PATCH', '/ai-agents/agents/0b7c', '/ai-agents/agents/{id}'],
    // A literal segment beats a parameter: this is the scrape operation, not {sourceType}/{uniqueId}/….
    ['POST', '/ai-agents/agent-builder/knowledge-base/website/scrape', '/ai-agents/agent-builder/knowledge-base/website/scrape'],
    ['POST', '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process', '/ai-agents/agent-builder/knowledge-base/website/{parentUniqueId}/discovered-urls/process'],
  ])('A: %s %s is %s', (method, path, template) => {
    expect(findOperation('A', method, path)?.template).toBe(template);
  });

  it('knows which operations each version documents', () => {
    expect(findOperation('O', 'POST', '/ai-agents/tools')).toBeUndefined();
    expect(findOperation('A', 'POST', '/ai-agents/tools')).toBeDefined();
    expect(findOperation('A', 'GET', '/ai-agents/agents/abc')).toBeUndefined();
    expect(documentedStatuses('A', 'PUT', '/ai-agents/tools/x')).toEqual([200, 400, 401, 404, 500]);
    expect(documentedStatuses('O', 'PUT', '/ai-agents/tools/x')).toEqual([200]);
  });
});

describe('validateRequestBody', () => {
  it('accepts a valid tool body in both versions', () => {
    expect(validateRequestBody('PUT', '/ai-agents/tools/get_weather', tool)).toEqual([]);
    expect(validateRequestBody('POST', '/ai-agents/tools', tool)).toEqual([]);
  });

  it('names the version, the operation and the failing field', () => {
    const problems = validateRequestBody('PUT', '/ai-agents/tools/get_weather', { ...tool, name: '9lives', parameters: {} });
    expect(problems).toContain('A PUT /ai-agents/tools/{name} request body: /name must match pattern "^[a-zA-Z_$][a-zA-Z0-9_$-]*$"');
    expect(problems).toContain("O PUT /ai-agents/tools/{name} request body: /parameters must have required property 'type'");
  });

  it('follows $refs, checks nested maps and enums', () => {
    const noDescription = { ...tool, parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    expect(validateRequestBody('POST', '/ai-agents/tools', noDescription)).toEqual(["A POST /ai-agents/tools request body: /parameters/properties/city must have required property 'description'"]);
    const agent = { name: 'a', isActive: true, integrateWith: 'gpt', integrationType: 'robot', tools: [], actions: [] };
    expect(validateRequestBody('POST', '/ai-agents/agents', agent, { versions: ['A'] })).toEqual([
      'A POST /ai-agents/agents request body: /integrationType must be equal to one of the allowed values ("llm", "agent")',
    ]);
  });

  it('reports where the versions disagree, and can check one of them', () => {
    const llmAgent = { name: 'a', isActive: true, integrateWith: 'gpt', integrationType: 'llm', tools: [], actions: [] };
    expect(validateRequestBody('POST', '/ai-agents/agents', llmAgent, { versions: ['A'] })).toEqual([]);
    expect(validateRequestBody('POST', '/ai-agents/agents', llmAgent).some((line) => line.startsWith('O '))).toBe(true);
  });

  it('treats a missing required body and an undocumented operation as problems', () => {
    expect(validateRequestBody('POST', '/ai-agents/tools', undefined)).toEqual(['A POST /ai-agents/tools request body: a body is required']);
    expect(validateRequestBody('POST', '/ai-agents/widgets', {})).toEqual(['POST /ai-agents/widgets: no reference version (A, O) documents this operation']);
    expect(validateRequestBody('POST', '/ai-agents/tools', tool, { versions: ['O'] })).toEqual(['POST /ai-agents/tools: no reference version (O) documents this operation']);
  });
});

describe('validateResponse', () => {
  const record = { _id: 'app_t', appId: 'app', name: 't', type: 'action', displayName: 'T', executionText: 't', doNotExecute: false, tool: { name: 't' } };

  it('checks the timestamp forms of A (ISO strings) and O (integers)', () => {
    const iso = { ...record, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' };
    const epoch = { ...record, createdAt: 1735689600000, updatedAt: 1735689600000 };
    expect(validateResponse('PUT', '/ai-agents/tools/t', 200, iso, { versions: ['A'] })).toEqual([]);
    expect(validateResponse('PUT', '/ai-agents/tools/t', 200, epoch, { versions: ['O'] })).toEqual([]);
    expect(validateResponse('PUT', '/ai-agents/tools/t', 200, epoch, { versions: ['A'] })).toContain('A PUT /ai-agents/tools/{name} 200 answer: /createdAt must be string');
    expect(validateResponse('PUT', '/ai-agents/tools/t', 200, { ...iso, createdAt: 'yesterday' }, { versions: ['A'] })).toContain(
      'A PUT /ai-agents/tools/{name} 200 answer: /createdAt must match format "date-time"',
    );
  });

  it('checks error bodies and flags undocumented statuses', () => {
    expect(validateResponse('PUT', '/ai-agents/tools/t', 404, { statusCode: 404, message: 'no', error: 'Not Found' })).toEqual([]);
    expect(validateResponse('PUT', '/ai-agents/tools/t', 404, { error: { code: 'ERR_TOOL_NOT_FOUND' } })).toEqual([
      "A PUT /ai-agents/tools/{name} 404 answer: / must have required property 'statusCode'",
      "A PUT /ai-agents/tools/{name} 404 answer: / must have required property 'message'",
      'A PUT /ai-agents/tools/{name} 404 answer: /error must be string',
    ]);
    expect(validateResponse('PUT', '/ai-agents/tools/t', 429, {})).toEqual(['PUT /ai-agents/tools/t: status 429 is not documented in A, O']);
  });

  it('accepts any body for a status declared without one', () => {
    expect(validateResponse('POST', '/ai-agents/agent-builder/knowledge-base/website/w/discovered-urls/process', 404, 'anything', { versions: ['A'] })).toEqual([]);
  });

  it('checks component schemas by name', () => {
    expect(validateComponent('A', 'ErrorResponse', { statusCode: 400, message: 'm', error: 'Bad Request' })).toEqual([]);
    expect(validateComponent('A', 'DeletedResponse', { success: true })).toEqual(["A DeletedResponse: / must have required property 'deleted'"]);
    expect(validateComponent('O', 'SuccessBooleanResponse', {})).toEqual(['O has no component schema SuccessBooleanResponse']);
  });
});
