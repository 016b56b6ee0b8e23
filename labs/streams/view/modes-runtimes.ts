/**
 * The stream-modes cases measured on several Node runtimes side by side: which cases get a
 * different readableFlowing on some runtime. Pure, client-safe.
 */
import { z } from 'zod';
import { describeFlowing, modesReportSchema, type Flowing, type ModesReport } from './modes';

/** What GET /api/lessons/modes/runtimes answers: one report per runtime, the server's first. */
export const modesRuntimesSchema = z.object({ reports: z.array(modesReportSchema).min(1) });

export interface CaseAcrossRuntimes {
  id: string;
  title: string;
  /** One value per report, in the reports' order. */
  values: Flowing[];
  /** Some runtime measured another value (or the case failed on one). */
  differs: boolean;
}

/** Each case (as the first report lists them) with every runtime's value. */
export function casesAcrossRuntimes(reports: readonly ModesReport[]): CaseAcrossRuntimes[] {
  return reports[0].cases.map((c) => {
    const values = reports.map((r) => r.cases.find((x) => x.id === c.id)?.flowing ?? null);
    const failed = reports.some((r) => r.cases.find((x) => x.id === c.id)?.error != null);
    return { id: c.id, title: c.title, values, differs: failed || values.some((v) => v !== values[0]) };
  });
}

/** One sentence: where the runtimes disagree, from the measured values. */
export function runtimesModesVerdict(reports: readonly ModesReport[]): string {
  const versions = reports.map((r) => `Node ${r.nodeVersion}`);
  if (reports.length < 2) return `Only ${versions[0] ?? 'the server’s Node'} is installed: add another with npm run runtimes -- add 22 to compare.`;
  const differing = casesAcrossRuntimes(reports).filter((c) => c.differs);
  if (differing.length === 0) return `${versions.join(', ')} give the same readableFlowing in all ${reports[0].cases.length} cases.`;
  const detail = differing.map((c) => `${c.title} (${c.values.map((v, i) => `${versions[i]}: ${describeFlowing(v)}`).join(', ')})`);
  return `${versions.join(', ')} disagree on ${differing.length} case${differing.length > 1 ? 's' : ''}: ${detail.join('; ')}.`;
}
