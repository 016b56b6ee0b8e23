/**
 * What a lab's table in a Markdown export is made of (each lab's own is labs/<lab>/shared/markdown.ts),
 * and the cell formatters they share. Pure; imports only types, so a lab's shared half can use it.
 */
import { formatMbNumber } from '../readouts/format';
import type { SummaryRow } from './summary-csv';
import type { RunRecord } from '.';

export interface MarkdownTable {
  head: string[];
  align: string[];
  /** The lab's own cells of a run, between its outcome and the Node version. */
  cells(r: RunRecord, row: SummaryRow): string[];
}

export const mb = (v: unknown) => (typeof v === 'number' ? formatMbNumber(v) : '–');
export const fixed = (v: unknown, digits: number) => (typeof v === 'number' ? v.toFixed(digits) : '–');
export const text = (v: unknown) => (v === null || v === undefined ? '–' : String(v));
