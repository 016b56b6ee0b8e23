/**
 * Every lab's client-safe schema (params, readings, figures), and the summary schema each one
 * gives: the protocol and the history parse with these. Adding a lab adds its schema here; the
 * rest of the lab (strategies, scenario, figures) is found by labs/registry.ts.
 */
import { z } from 'zod';
import type { LabForm } from '../lib/form/form-spec';
import type { MarkdownTable } from '../lib/history/markdown-table';
import type { CsvPart } from '../lib/history/summary-csv';
import type { ComparisonMetric } from '../lib/readouts/metrics';
import { commonSummaryShape } from '../lib/protocol/common';
import { cpuSchema } from './cpu/shared/schema';
import { deadlineSchema } from './deadline/shared/schema';
import { hotcodeSchema } from './hotcode/shared/schema';
import { httpSchema } from './http/shared/schema';
import { streamsSchema } from './streams/shared/schema';

/** How much a params description says: an experiment's header, a run's list line, or a chart legend's two figures. */
export type ParamsStyle = 'experiment' | 'run' | 'legend';

/** What a lab's schema module declares. */
export interface LabSchema {
  id: string;
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
  /** What the comparison charts can overlay for its runs, in its picker's order (the first opens). */
  metrics: readonly ComparisonMetric[];
  /** The lab's params in words, the lab's own part only (lib/readouts/params-text.ts adds the common knobs). */
  describe(params: Record<string, unknown>, style: ParamsStyle): string[];
}

export const LAB_SCHEMAS = [streamsSchema, httpSchema, cpuSchema, deadlineSchema, hotcodeSchema] as const satisfies readonly LabSchema[];
export type LabId = (typeof LAB_SCHEMAS)[number]['id'];
export const LAB_IDS = LAB_SCHEMAS.map((l) => l.id);
export const DEFAULT_LAB: LabId = 'streams';

/** The lab's schema, or undefined for an unknown id. */
export function labSchema(id: string): LabSchema | undefined {
  return LAB_SCHEMAS.find((l) => l.id === id);
}

/** A lab's summary: the common part, its params and its own figures, told apart by `lab`. */
function summaryOf<const Id extends string, P extends z.ZodObject, F extends z.ZodRawShape>(lab: { id: Id; params: P; figures: F }) {
  return z.object({ ...commonSummaryShape, lab: z.literal(lab.id), params: lab.params }).extend(lab.figures);
}

/** One entry per lab (a tuple, as a discriminated union needs). */
export const LAB_SUMMARY_SCHEMAS = [summaryOf(streamsSchema), summaryOf(httpSchema), summaryOf(cpuSchema), summaryOf(deadlineSchema), summaryOf(hotcodeSchema)] as const;
