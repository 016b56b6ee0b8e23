/** The deadline lab's params in words ("2 → 8 req/s · K 50 · 3 ms/object · deadline 1200 ms"): the few a reader needs to tell runs apart. Pure, browser-safe. */
import type { ParamsStyle } from '../../schemas';
import type { DeadlineParams } from './params';
import { formatCount } from '../../../lib/readouts/format';

export function describeParams(p: DeadlineParams, style: ParamsStyle): string[] {
  const parts = [`${p.baselineRps} → ${p.spikeRps} req/s`, `K ${p.objects}`, `${p.cpuMs} ms/object`, `deadline ${formatCount(p.deadlineMs)} ms`];
  return style === 'legend' ? parts.slice(0, 2) : parts;
}
