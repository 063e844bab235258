// The plan of several environments as one markdown document
// (docs/spec/state.md#output-with-several-environments): one summary table for all of them, then
// each environment's own markdown plan (plan-markdown.ts) in a collapsible block. The whole
// document stays under GitHub's comment limit: the environments share the budget.
import type { Plan } from '../core/plan.js';
import { hasChanges } from '../core/plan.js';
import type { EnvironmentOutcome } from './multi-env.js';
import { failureText } from './multi-env.js';
import { summaryLine } from './plan-fields.js';
import { planToJson } from './plan-json.js';
import { codeSpan, htmlText, markdownText } from './markdown-safe.js';
import { DEFAULT_MARKDOWN_MAX_LENGTH, renderPlanMarkdown } from './plan-markdown.js';

/** Room kept for the closing note when environments have to be left out. */
const NOTE_RESERVE = 300;
/** Below this, an environment's plan is not worth showing cut: its block points to the full plan instead. */
const SMALLEST_SHARE = 1_000;

export function renderMultiPlanMarkdown(outcomes: readonly EnvironmentOutcome<Plan>[], { maxLength = DEFAULT_MARKDOWN_MAX_LENGTH }: { maxLength?: number } = {}): string {
  const head = [`### agentsync plan for ${outcomes.length} environments`, '', ...summaryTable(outcomes), ''].join('\n');
  const shells = outcomes.map(detailsShell);
  let left = maxLength - head.length - NOTE_RESERVE - shells.reduce((sum, shell) => sum + shell.open.length + shell.close.length + 1, 0);
  const blocks: string[] = [];
  outcomes.forEach((outcome, i) => {
    const share = Math.floor(left / (outcomes.length - i));
    const content = blockContent(outcome, share);
    left -= content.length;
    blocks.push(`${shells[i]?.open ?? ''}${content}${shells[i]?.close ?? ''}`);
  });
  // Only a very long list of environments gets here: keep whole blocks while they fit, then say what is missing.
  const out = [head];
  let length = head.length;
  for (const [i, block] of blocks.entries()) {
    if (length + 1 + block.length > maxLength - NOTE_RESERVE) {
      out.push(`_… ${blocks.length - i} more environments not shown; run \`agentsync plan -e NAME\` for each._\n`);
      break;
    }
    out.push(block);
    length += 1 + block.length;
  }
  return out.join('\n');
}

function summaryTable(outcomes: readonly EnvironmentOutcome<Plan>[]): string[] {
  const summaries = outcomes.map((o) => (o.value && !o.failure ? planToJson(o.value).summary : undefined));
  const withReplace = summaries.some((s) => (s?.replace ?? 0) > 0);
  const withDelete = summaries.some((s) => (s?.delete ?? 0) > 0);
  const titles = ['Create', 'Update', ...(withReplace ? ['Replace'] : []), ...(withDelete ? ['Delete'] : []), 'Forget', 'Unchanged'];
  const rows = outcomes.map((outcome, i) => {
    const s = summaries[i];
    const name = codeSpan(outcome.environment.name);
    if (!s) return `| ${name} | **${markdownText(failureText(outcome.failure))}** |`;
    return `| ${name} | ${[s.create, s.update, ...(withReplace ? [s.replace] : []), ...(withDelete ? [s.delete] : []), s.forget, s.noop].join(' | ')} |`;
  });
  return [`| Environment | ${titles.join(' | ')} |`, `| :-- | ${titles.map(() => '--:').join(' | ')} |`, ...rows];
}

function detailsShell(outcome: EnvironmentOutcome<Plan>): { open: string; close: string } {
  const name = `<code>${htmlText(outcome.environment.name)}</code>`;
  const plan = outcome.failure ? undefined : outcome.value;
  const what = plan ? (hasChanges(plan) ? summaryLine(plan.summary, plan.prune, plan.moves?.length) : 'No changes.') : 'failed';
  return { open: `<details><summary>${name}: ${htmlText(what)}</summary>\n\n`, close: '\n</details>\n' };
}

function blockContent(outcome: EnvironmentOutcome<Plan>, share: number): string {
  const plan = outcome.failure ? undefined : outcome.value;
  if (!plan) return `> [!CAUTION]\n> ${markdownText(failureText(outcome.failure))}\n`;
  if (share < SMALLEST_SHARE) return `_The plan of ${codeSpan(outcome.environment.name)} does not fit here; run \`agentsync plan -e ${outcome.environment.name}\` to see it._\n`;
  return renderPlanMarkdown(plan, { maxLength: share });
}
