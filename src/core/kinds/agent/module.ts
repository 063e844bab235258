import type { KindModule } from '../module.js';
import type { AgentSpec } from '../../desired.js';
import { agentKind } from './index.js';

export const agentModule: KindModule<AgentSpec> = {
  kind: agentKind,
  addressForm: 'agent.<key>',
  graphNode: (record) => ({ kind: 'agent', ...(typeof record.name === 'string' ? { detail: record.name } : {}) }),
  splitPart: { each: 'agents' },
};
