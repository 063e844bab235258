import type { KindModule } from '../module.js';
import type { WebsiteSpec } from '../../desired.js';
import { websiteKind } from './index.js';
import { websiteObserver } from './observe.js';

export const websiteModule: KindModule<WebsiteSpec> = {
  kind: websiteKind,
  addressForm: 'website.<key>',
  observe: websiteObserver as KindModule<WebsiteSpec>['observe'],
  graphNode: () => ({ kind: 'website' }),
  splitPart: { file: 'websites.yaml' },
};
