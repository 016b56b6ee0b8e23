/** The hotcode lab's params in words ("20,000 rows · 3 reports", "sweep to 100,000 rows"): the few a reader needs to tell runs apart. Pure, browser-safe. */
import type { ParamsStyle } from '../../schemas';
import type { HotcodeParams } from './params';
import { formatCount } from '../../../lib/readouts/format';

export function describeParams(p: HotcodeParams, style: ParamsStyle): string[] {
  const parts = p.sweep
    ? [`sweep to ${formatCount(p.rows)} rows`]
    : [`${formatCount(p.rows)} rows`, `${formatCount(p.requests)} report${p.requests === 1 ? '' : 's'}`];
  return style === 'legend' ? parts.slice(0, 2) : parts;
}
