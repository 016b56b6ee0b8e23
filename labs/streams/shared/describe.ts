/**
 * The streams lab's params in words ("32 MB file · 2 ms/chunk · 64 KB chunks · http consumer ·
 * concurrency 8 · records"): the few a reader needs to tell runs apart. Pure, browser-safe.
 */
import type { ParamsStyle } from '../../schemas';
import { LIMITS, streamsKnobs, type StreamsParams } from './params';

/** The consumer knobs that are not at their default, in words: the sleep consumer, one call at a time, whole chunks say nothing. */
function knobParts(p: StreamsParams, style: ParamsStyle): string[] {
  const k = streamsKnobs(p);
  const parts: string[] = [];
  if (k.consumer !== 'sleep') parts.push(style === 'legend' ? k.consumer : `${k.consumer} consumer`);
  if (k.concurrency !== LIMITS.concurrency.default) parts.push(`concurrency ${k.concurrency}`);
  if (k.records) parts.push('records');
  // The API's own knobs, only where they shape the run and only beyond the legend's few words.
  if (style !== 'legend' && k.consumer === 'http') {
    parts.push(`API p99 ${k.apiP99Ms} ms`);
    if (k.apiErrorRate > 0) parts.push(`${Number((k.apiErrorRate * 100).toFixed(1))}% API errors`);
  }
  return parts;
}

export function describeParams(p: StreamsParams, style: ParamsStyle): string[] {
  // With records on, each consumer call is one CSV line, so the delay is per record.
  const per = p.records ? 'record' : 'chunk';
  const parts =
    style === 'legend'
      ? [`${p.sizeMb} MB`, `${p.delayMs} ms`]
      : [style === 'experiment' ? `${p.sizeMb} MB file` : `${p.sizeMb} MB`, `${p.delayMs} ms/${per}`, `${p.chunkKb} KB chunks`];
  if (style !== 'legend' && p.cpuUs > 0) parts.push(style === 'experiment' ? `${p.cpuUs} µs CPU/${per}` : `${p.cpuUs} µs CPU`);
  return [...parts, ...knobParts(p, style)];
}

/** A summary's concurrency in words: the number, "unbounded" for a strategy with no bound (null), "–" for a run recorded before it was. */
export function concurrencyText(concurrency: number | null | undefined): string {
  if (concurrency === undefined) return '–';
  return concurrency === null ? 'unbounded' : String(concurrency);
}
