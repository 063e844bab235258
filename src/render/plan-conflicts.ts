// The line under a plan that apply would refuse (docs/spec/server.md#no-silent-duplicates,
// docs/spec/plan-and-apply.md#reviewing-changes): plan exits 1 with it, even with
// --detailed-exitcode, so a pull request's check turns red instead of passing with "changes". It
// gives apply's own reason and fix (core/conflict-refusal.ts).
import { conflictReason } from '../core/conflict-refusal.js';
import type { CreateChange } from '../core/plan.js';
import { printableLine } from './plan-fields.js';

export function conflictRefusalLine(conflicts: readonly CreateChange[]): string {
  return printableLine(`Error: apply would refuse this plan: ${conflictReason(conflicts)}.`) + '\n';
}
