import type { KindModule } from '../module.js';
import type { ToolSpec } from '../../desired.js';
import { toolKind } from './index.js';

export const toolModule: KindModule<ToolSpec> = {
  kind: toolKind,
  addressForm: 'tool.<name>',
  // A tool the agent executes is an action; one it only describes (doNotExecute) is a tool.
  graphNode: (record) => ({ kind: record.doNotExecute === true ? 'tool' : 'action' }),
  // A tool lives with the one agent that uses it; shared ones (and external.tools) in one file.
  splitPart: { withSoleReferrer: true, otherwise: 'tools.yaml', alongside: ['external'] },
};
