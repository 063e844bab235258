import type { KindModule } from '../module.js';
import { textKind } from './index.js';
import type { TextSpec } from './manifest.js';

export const textModule: KindModule<TextSpec> = {
  kind: textKind,
  addressForm: 'text.<key>',
  graphNode: (record) => ({ kind: 'text', ...(typeof record.title === 'string' ? { detail: record.title } : {}) }),
  splitPart: { file: 'texts.yaml' },
  // Each text in a markdown file of its own, as a team would keep it: kb/<key>.md.
  splitFile: { field: 'text', fileField: 'file', folder: 'kb', extension: '.md' },
  indexed: true,
};
