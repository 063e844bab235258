// What `diff` prints, one view per --format, chosen once (render/views.ts): a person's text, the
// JSON document, or markdown for a pull request.
import type { EnvironmentsDiff } from '../core/env-diff/types.js';
import { renderDiffJson } from './diff-json.js';
import { renderDiffMarkdown } from './diff-markdown.js';
import { renderDiffText } from './diff-text.js';

export type DiffView = (diff: EnvironmentsDiff, options: { color: boolean }) => string;

export const DIFF_VIEWS: Readonly<Record<'text' | 'json' | 'markdown', DiffView>> = {
  text: (diff, { color }) => renderDiffText(diff, { color }),
  json: (diff) => renderDiffJson(diff),
  markdown: (diff) => renderDiffMarkdown(diff),
};
