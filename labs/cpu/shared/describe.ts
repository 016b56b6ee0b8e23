/** The cpu lab's params in words ("fib(40) · 4 requests · 4 at once"): the few a reader needs to tell runs apart. Pure, browser-safe. */
import type { ParamsStyle } from '../../schemas';
import type { CpuParams } from './params';
import { formatCount } from '../../../lib/readouts/format';

export function describeParams(p: CpuParams, style: ParamsStyle): string[] {
  const parts = [`fib(${p.n})`, `${formatCount(p.requests)} requests`, `${p.concurrency} at once`];
  if (p.workers !== null) parts.push(`${p.workers} workers`);
  if (p.keepAlive) parts.push('keep-alive');
  return style === 'legend' ? parts.slice(0, 2) : parts;
}
