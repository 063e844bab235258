import type { KindModule } from '../module.js';
import type { ToolSpec } from '../../desired.js';
import { toolKind } from './index.js';

export const toolModule: KindModule<ToolSpec> = {
  kind: toolKind,
  addressForm: 'tool.<name>',
  // A tool the agent executes is an action; one it only describes (doNotExecute) is a tool.
  graphNode: (record) => ({ kind: record.doNotExecute === true ? 'tool' : 'action' }),
};
