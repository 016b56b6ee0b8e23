/**
 * A run's or an experiment's parameters in words: its lab's own part (the lab's schema says it,
 * labs/<lab>/shared/describe.ts) and the knobs every lab has. Pure.
 */
import { labSchema, type ParamsStyle } from '../../labs/schemas';
import type { LabParams } from '../protocol';

type Tagged = { lab: string; params: LabParams };

function labParts(x: Tagged, style: ParamsStyle): string[] {
  return labSchema(x.lab)?.describe(x.params as Record<string, unknown>, style) ?? [];
}

/** What the Runs header says about an experiment: "150 MB file · 10 ms/chunk · 64 KB chunks · budget 1024 MB · one at a time". */
export function experimentParamsText(e: Tagged & { parallel: boolean }): string {
  const p = e.params;
  const parts = labParts(e, 'experiment');
  parts.push(p.budgetMb === null ? 'no budget' : `budget ${p.budgetMb} MB`);
  if (p.retained) parts.push('retained mode');
  parts.push(e.parallel ? 'parallel' : 'one at a time');
  return parts.join(' · ');
}

/** "32 MB · 2 ms/chunk · 64 KB chunks", "1,000 rows · 20 requests · 4 at once": a run's parameters in lists and titles. */
export function runParamsText(run: Tagged): string {
  const parts = labParts(run, 'run');
  if (run.params.retained) parts.push('retained');
  return parts.join(' · ');
}

/** "32 MB, 2 ms", "1,000 rows, 4 at once": the two figures a comparison's legend tells runs apart by. */
export function legendParamsText(run: Tagged): string {
  return labParts(run, 'legend').join(', ');
}
