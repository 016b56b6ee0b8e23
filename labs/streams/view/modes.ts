/**
 * The stream-modes explorer's data: what GET /api/lessons/modes answers, as zod schemas with the
 * types inferred from them. Imported by the server and the browser, so nothing here imports `node:`.
 */
import { z } from 'zod';

/** readable.readableFlowing: null (no mode chosen yet), true (flowing) or false (paused). */
export const flowingSchema = z.boolean().nullable();
export type Flowing = z.infer<typeof flowingSchema>;

export const modeCaseSchema = z.object({
  /** Stable id, e.g. 'on-data'. */
  id: z.string().min(1),
  title: z.string(),
  /** One line: why the stream is in that mode. */
  explanation: z.string(),
  /** The code that was run on `s = createReadStream(file)` before measuring. */
  code: z.string(),
  /** readableFlowing as measured on this Node, right after the code ran. */
  flowing: flowingSchema,
  /** Set when the case threw or never settled; `flowing` is then what the stream said at that point. */
  error: z.string().nullable(),
  /** The article's row for this case (Node 20.11.0), when it has one. */
  article: z.object({ label: z.string(), flowing: flowingSchema }).nullable(),
});
export type ModeCase = z.infer<typeof modeCaseSchema>;

/** What the probe prints (it does not know when the server asked). */
export const probeOutputSchema = z.object({
  nodeVersion: z.string(),
  /** Helpers the cases use (nothing, devNull, stuck), read from the probe's own source. */
  helpers: z.string(),
  cases: z.array(modeCaseSchema).min(1),
});

export const modesReportSchema = probeOutputSchema.extend({
  /** Epoch ms when the probe ran. */
  measuredAt: z.number(),
  /** How long the probe process took, start to exit. */
  durationMs: z.number(),
});
export type ModesReport = z.infer<typeof modesReportSchema>;

/** 'null' | 'true' | 'false': how a value goes into a data attribute. */
export function flowingAttr(value: Flowing): 'null' | 'true' | 'false' {
  return value === null ? 'null' : value ? 'true' : 'false';
}

/** The reading a learner sees: "null", "true (flowing)", "false (paused)". */
export function describeFlowing(value: Flowing): string {
  return value === null ? 'null (no mode yet)' : value ? 'true (flowing)' : 'false (paused)';
}

/** True when the article published a value for the case and this Node measured another. */
export function differsFromArticle(c: ModeCase): boolean {
  return c.article !== null && c.article.flowing !== c.flowing;
}
