import type { KindModule } from '../module.js';
import type { BuilderAgentSpec } from './manifest.js';
import { builderAgentKind } from './index.js';

export const builderAgentModule: KindModule<BuilderAgentSpec> = {
  kind: builderAgentKind,
  addressForm: 'builderAgent.<key>',
  graphNode: (record) => ({ kind: 'agent', ...(typeof record.name === 'string' ? { detail: record.name } : {}) }),
  splitPart: { each: 'builder-agents' },
};
