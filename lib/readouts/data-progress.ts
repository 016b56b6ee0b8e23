/** What the server is preparing for runs, in words: a data file in bytes, a database table in rows. Pure. */
import type { DataStatus } from '../protocol';
import { formatCount, formatMb, formatPercent } from './format';

/** "the 150 MB data file" or "the 100,000-row author table": what is being made, in its own unit. */
export function preparedThing(d: DataStatus): string {
  return d.unit === 'rows' ? `the ${formatCount(d.sizeBytes)}-row author table` : `the ${formatMb(d.sizeBytes)} data file`;
}

/** 0..1 of it made. */
export function preparedFraction(d: DataStatus): number {
  return d.sizeBytes > 0 ? Math.min(1, d.writtenBytes / d.sizeBytes) : 0;
}

/** "Generating the 150 MB data file: 40 MB written (27%)", "Making the 100,000-row author table: 40,000 rows (40%)". */
export function progressLine(d: DataStatus): string {
  const pct = formatPercent(preparedFraction(d));
  if (d.unit === 'rows') return `Making ${preparedThing(d)}: ${formatCount(d.writtenBytes)} rows (${pct})`;
  return `Generating ${preparedThing(d)}: ${formatMb(d.writtenBytes)} written (${pct})`;
}

/** "The 150 MB data file could not be generated: disk full", "The 100,000-row author table could not be made." */
export function failureLine(d: DataStatus): string {
  const thing = preparedThing(d);
  const verb = d.unit === 'rows' ? 'made' : 'generated';
  return `${thing[0].toUpperCase()}${thing.slice(1)} could not be ${verb}${d.message ? `: ${d.message}` : '.'}`;
}
