/**
 * Every lab's client-safe schema (params, readings, figures), and the summary schema each one
 * gives: the protocol and the history parse with these. The labs are the folders in labs/ (found by
 * scripts/lab-index.mjs, which writes labs/generated/); the rest of a lab (strategies, scenario,
 * figures) is found by labs/registry.ts, its page half by labs/views.ts.
 */
import { z } from 'zod';
import type { LabForm } from '../lib/form/form-spec';
import type { MarkdownTable } from '../lib/history/markdown-table';
import type { CsvPart } from '../lib/history/summary-csv';
import type { ComparisonMetric } from '../lib/readouts/metrics';
import { FOUND_SCHEMAS, FOUND_SUMMARY_SCHEMAS } from './generated/schemas';

/** How much a params description says: an experiment's header, a run's list line, or a chart legend's two figures. */
export type ParamsStyle = 'experiment' | 'run' | 'legend';

/** One of a lab's own columns in the history list: a number of its runs' summaries, by path ("peak.arrayBuffers"). */
export interface HistoryColumn {
  key: string;
  header: string;
  unit: 'bytes' | 'ms' | 'count' | 'times' | 'number';
}

/** What a lab's schema module declares. */
export interface LabSchema {
  id: string;
  /** Place in the lab switch and lists (lower first; ties by id). */
  order: number;
  /** What the page calls the lab (the lab switch, headings): a few words. */
  name: string;
  title: string;
  params: z.ZodObject;
  defaults: Record<string, unknown>;
  readings: readonly string[];
  figures: Record<string, z.ZodType>;
  progress: { done: string; total: string } | null;
  /** The lab's experiment form (labs/<lab>/shared/form.ts). */
  form: LabForm;
  /** The lab's own columns in a Markdown export of recorded runs (labs/<lab>/shared/markdown.ts). */
  markdownTable: MarkdownTable;
  /** The lab's columns in the CSV export (labs/<lab>/shared/csv.ts), and its cells of a run's row. */
  csv: CsvPart;
  /** Its own columns in the history list when the list shows only its runs (the common ones are every lab's). */
  historyColumns: readonly HistoryColumn[];
  /** What the comparison charts can overlay for its runs, in its picker's order (the first opens). */
  metrics: readonly ComparisonMetric[];
  /**
   * What its strategies can be there to show, role → a line saying it (labs/<lab>/shared/roles.ts);
   * each strategy declares one and the verdict reads it. null: the lab's verdict needs no roles.
   */
  roles: Readonly<Record<string, string>> | null;
  /**
   * This lab's work holds the run's main thread by design (a report, fib on the loop, a spike, a
   * buffered response): its runs get a thread that reads V8's heap while the loop is blocked
   * (server/child/block-heap.ts). Not every lab: the thread costs ~10 MB of RSS, which would blur
   * the RSS figures of a lab about memory.
   */
  watchesBlockedHeap?: boolean;
  /** The lab's params in words, the lab's own part only (lib/readouts/params-text.ts adds the common knobs). */
  describe(params: Record<string, unknown>, style: ParamsStyle): string[];
}

type FoundSchemas = typeof FOUND_SCHEMAS;
// Each folder's schema is held to the shape above here, once, so a lab that lacks a part fails typecheck naming it.
const CHECKED: readonly LabSchema[] = FOUND_SCHEMAS;

/** Every lab's schema, in the lab switch's order. */
export const LAB_SCHEMAS = [...CHECKED].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id)) as unknown as FoundSchemas;
export type LabId = FoundSchemas[number]['id'];
export const LAB_IDS: readonly LabId[] = LAB_SCHEMAS.map((l) => l.id);
/** The lab the page opens on and the one a record without a `lab` field belongs to (the one-lab era's). */
export const DEFAULT_LAB: LabId = 'streams';

/** The lab's schema, or undefined for an unknown id. */
export function labSchema(id: string): LabSchema | undefined {
  return LAB_SCHEMAS.find((l) => l.id === id);
}

/** One summary schema per lab (a tuple, as a discriminated union needs). */
export const LAB_SUMMARY_SCHEMAS = FOUND_SUMMARY_SCHEMAS;
