/** What the server is preparing for runs, in words: a data file in bytes, a database table in rows. Pure. */
import type { DataStatus } from '../protocol';
import { formatCount, formatMb, formatPercent } from './format';

/** "the 150 MB data file", "the 100,000-row author table" or "the PostgreSQL database": what is being made, in its own unit. */
export function preparedThing(d: DataStatus): string {
  switch (d.unit) {
    case 'rows':
      return `the ${formatCount(d.sizeBytes)}-row author table`;
    case 'database':
      return 'the PostgreSQL database';
    case 'bytes':
      return `the ${formatMb(d.sizeBytes)} data file`;
  }
}

/** 0..1 of it made. */
export function preparedFraction(d: DataStatus): number {
  return d.sizeBytes > 0 ? Math.min(1, d.writtenBytes / d.sizeBytes) : 0;
}

/** "Generating the 150 MB data file: 40 MB written (27%)", "Making the 100,000-row author table: 40,000 rows (40%)". */
export function progressLine(d: DataStatus): string {
  // A database is made in one step (initdb, the first time): nothing to count.
  if (d.unit === 'database') return `Making ${preparedThing(d)}`;
  const pct = formatPercent(preparedFraction(d));
  if (d.unit === 'rows') return `Making ${preparedThing(d)}: ${formatCount(d.writtenBytes)} rows (${pct})`;
  return `Generating ${preparedThing(d)}: ${formatMb(d.writtenBytes)} written (${pct})`;
}

/** "The 150 MB data file could not be generated: disk full", "The 100,000-row author table could not be made." */
export function failureLine(d: DataStatus): string {
  const thing = preparedThing(d);
  const verb = d.unit === 'bytes' ? 'generated' : 'made';
  return `${thing[0].toUpperCase()}${thing.slice(1)} could not be ${verb}${d.message ? `: ${d.message}` : '.'}`;
}
