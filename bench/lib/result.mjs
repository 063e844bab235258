// One row of BENCHMARKS.md and bench/results.json.
import { median } from './measure.mjs';

/**
 * A ratio against a floor or ideal measured (or computed) in the same run.
 * `limit` is the largest acceptable ratio, or null when the row has no target.
 */
export function ratioRow({ id, scenario, unit, samples, baseline, baselineLabel, baselineSamples, limit, notes }) {
  const value = median(samples);
  const ratio = value !== null && baseline ? value / baseline : null;
  return {
    id,
    scenario,
    unit,
    median: round(value),
    samples: samples.map(round),
    baseline: round(baseline),
    baselineLabel,
    baselineSamples: baselineSamples?.map(round),
    ratio: ratio === null ? null : Number(ratio.toFixed(3)),
    target: limit === null ? '—' : `≤ ${limit}×`,
    met: limit === null || ratio === null ? null : ratio <= limit,
    notes: notes ?? '',
  };
}

/** A row with an absolute target, e.g. PUTs per second. */
export function absoluteRow({ id, scenario, unit, samples, target, met, notes }) {
  return { id, scenario, unit, median: round(median(samples)), samples: samples.map(round), baseline: null, baselineLabel: '', ratio: null, target, met, notes: notes ?? '' };
}

/** A scenario that could not run: kept in the table so a missing figure is never silent. */
export function notMeasuredRow({ id, scenario, target, reason }) {
  return { id, scenario, unit: '', median: null, samples: [], baseline: null, baselineLabel: '', ratio: null, target, met: null, notes: `not measured: ${reason}` };
}

function round(value) {
  if (value === null || value === undefined) return null;
  return Math.abs(value) >= 100 ? Math.round(value) : Number(value.toFixed(2));
}
