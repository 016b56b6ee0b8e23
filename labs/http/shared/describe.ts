/** The http lab's params in words ("1,000-row table · 20 requests · 4 clients at once"): the few a reader needs to tell runs apart. Pure, browser-safe. */
import type { ParamsStyle } from '../../schemas';
import type { HttpParams } from './params';
import { formatCount } from '../../../lib/readouts/format';

export function describeParams(p: HttpParams, style: ParamsStyle): string[] {
  if (style === 'legend') return [`${formatCount(p.rows)} rows`, `${p.concurrency} at once`];
  const parts =
    style === 'run'
      ? [`${formatCount(p.rows)} rows`, `${formatCount(p.requests)} requests`, `${p.concurrency} at once`]
      : [
          `${formatCount(p.rows)}-row table`,
          `${formatCount(p.requests)} requests`,
          `${p.concurrency} clients at once`,
          `${formatCount(p.batchRows)} rows per write`,
        ];
  if (p.slowClients > 0) parts.push(`${p.slowClients} slow client${p.slowClients === 1 ? '' : 's'} at ${formatCount(p.slowKbps)} KB/s`);
  return parts;
}
