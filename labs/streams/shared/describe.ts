/** The streams lab's params in words ("32 MB file · 2 ms/chunk · 64 KB chunks"): the few a reader needs to tell runs apart. Pure, browser-safe. */
import type { ParamsStyle } from '../../schemas';
import type { StreamsParams } from './params';

export function describeParams(p: StreamsParams, style: ParamsStyle): string[] {
  const parts =
    style === 'legend'
      ? [`${p.sizeMb} MB`, `${p.delayMs} ms`]
      : [style === 'experiment' ? `${p.sizeMb} MB file` : `${p.sizeMb} MB`, `${p.delayMs} ms/chunk`, `${p.chunkKb} KB chunks`];
  if (style !== 'legend' && p.cpuUs > 0) parts.push(style === 'experiment' ? `${p.cpuUs} µs CPU/chunk` : `${p.cpuUs} µs CPU`);
  return parts;
}
