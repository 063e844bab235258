// `agentsync show`'s line above a saved plan: which file, when and by which version it was made,
// and how to apply exactly it.
import { printableText } from './plan-fields.js';

export interface SavedPlanOrigin {
  path: string;
  createdAt?: unknown;
  agentsyncVersion?: unknown;
}

export function savedPlanHeader({ path, createdAt, agentsyncVersion }: SavedPlanOrigin): string {
  const made = [typeof createdAt === 'string' ? `made ${createdAt}` : '', typeof agentsyncVersion === 'string' ? `by agentsync ${agentsyncVersion}` : ''].filter((s) => s !== '').join(' ');
  return printableText(`Saved plan ${path}${made === '' ? '' : ` (${made})`}. Apply exactly it with: agentsync apply ${path}`) + '\n\n';
}
