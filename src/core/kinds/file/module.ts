import type { KindModule } from '../module.js';
import { fileKind } from './index.js';
import type { FileSpec } from './manifest.js';

export const fileModule: KindModule<FileSpec> = {
  kind: fileKind,
  addressForm: 'file.<key>',
  // Drawn as a knowledge source, the shape websites have.
  graphNode: (record) => ({ kind: 'website', ...(typeof record.fileName === 'string' ? { detail: record.fileName } : {}) }),
  splitPart: { file: 'files.yaml' },
  // Indexed once its bytes arrive: kb status and apply --wait follow it (app/kb-sources.ts).
  indexed: true,
};
