/** The hotcode lab's table in the bench CLI's output (one row per run). */
import type { HotcodeSummary } from '../shared/schema';
import type { BenchTable } from '../../types';

/** A sweep's steps, "1000:1.72 … 20000:>6.8s(stopped) 50000:skipped", and its cliff. */
function sweepText(s: HotcodeSummary): string {
  const steps = s.sweepSteps.length ? s.sweepSteps : s.sweep.map((p) => ({ ...p, status: 'measured' as const, wallMs: p.ms }));
  const text = steps
    .map(
      (st) =>
        `${st.rows}:${st.status === 'measured' ? st.ms!.toPrecision(3) : st.status === 'stopped' ? `>${((st.wallMs ?? 0) / 1000).toFixed(1)}s(stopped)` : 'skipped'}`,
    )
    .join(' ');
  const c = s.sweepCliff;
  return c ? `${text}; cliff ${c.fromRows}→${c.toRows}: ${c.atLeast ? '≥' : ''}${c.growth.toFixed(0)}×` : text;
}

/** The hot-code lab's table: each report's synchronous time, what /health waited meanwhile, a sweep's steps and exponent. */
export function benchTable(summaries: readonly HotcodeSummary[]): BenchTable {
  const header = ['strategy', 'outcome', 'rows', 'report min/max ms', 'probe p50/max ms', 'el max ms', 'sweep rows:ms', 'exponent', 'local slopes'];
  const rows = summaries.map((s) => [
    s.strategy,
    s.outcome,
    String(s.params.rows),
    `${s.reportMsMin.toFixed(1)}/${s.reportMsMax.toFixed(1)}`,
    `${s.probeP50Ms.toFixed(0)}/${s.probeMaxMs.toFixed(0)}`,
    s.eventLoopDelayMs.max.toFixed(0),
    sweepText(s),
    s.sweep.length > 1 ? s.sweepExponent.toFixed(2) : '–',
    s.sweepSlopes.length ? s.sweepSlopes.map((l) => `${l.atLeast ? '≥' : ''}${l.slope.toFixed(1)}`).join(' ') : '–',
  ]);
  return { header, rows };
}
