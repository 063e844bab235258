// The warning of a plan that takes most of what the state manages out of it
// (core/mass-removal.ts), in each of the plan's renderings.
import { massRemovalOf, massRemovalText, type MassRemoval } from '../core/mass-removal.js';
import type { Plan } from '../core/plan.js';

/** The warning's sentence, or undefined when the plan removes too little to need one. */
export function massRemovalWarning(plan: Pick<Plan, 'changes' | 'unreadable' | 'environment'>): string | undefined {
  const mass = massRemovalOf(plan);
  return mass === undefined ? undefined : massRemovalText(mass, plan.environment);
}

/** The JSON plan's and apply result's `massRemoval` field: the counts and the sentence. */
export function massRemovalJson(plan: Pick<Plan, 'changes' | 'unreadable' | 'environment'>): { massRemoval: MassRemoval & { message: string } } | Record<string, never> {
  const mass = massRemovalOf(plan);
  return mass === undefined ? {} : { massRemoval: { ...mass, message: massRemovalText(mass, plan.environment) } };
}
