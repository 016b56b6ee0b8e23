'use client';

/**
 * The deadlines lab's timer scatter: every timer the service recorded (thinned to a few thousand),
 * at the time it fired and how late it was; deadline timers (a request timed out) apart from the
 * steady probe. SVG, drawn once for a run that no longer changes, with the spike shaded.
 */
import { memo, useMemo } from 'react';
import type { LatenessPoint } from '../shared/schema';
import { formatCount, formatMs } from '@/lib/readouts/format';
import { BAND_COLOR, type TimeBand } from '../../../components/charts/uplot-options';
import { formatWithScale, niceTicks, pickScale, ticksBetween } from '../../../components/charts/units';

const WIDTH = 1000;
const HEIGHT = 160;
const COLORS = { deadline: '#D55E00', probe: '#0072B2' } as const;
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

function LatenessScatterImpl({ points, band, label }: { points: readonly LatenessPoint[]; band: TimeBand | null; label: string }) {
  const { axisMs, maxMs, yTicks, deadlines } = useMemo(() => {
    const last = points.reduce((m, p) => Math.max(m, p.atMs), band?.toMs ?? 0);
    const max = points.reduce((m, p) => Math.max(m, p.latenessMs), 0);
    // The y axis ends on a labelled tick at or above the latest timer (10 ms at least).
    return {
      axisMs: Math.max(1000, last * 1.02),
      maxMs: max,
      yTicks: niceTicks(Math.max(10, max)),
      deadlines: points.filter((p) => p.kind === 'deadline').length,
    };
  }, [points, band]);
  const topMs = yTicks[yTicks.length - 1];
  const yScale = pickScale('ms', topMs);
  const x = (ms: number) => (ms / axisMs) * WIDTH;
  const y = (ms: number) => HEIGHT - (ms / topMs) * HEIGHT;
  // Round seconds (1, 2 or 5 × 10ⁿ), about four across: six labels overlapped on a narrow card ("8.3 s10.3 s").
  const ticks = ticksBetween(0, axisMs / 1000, 4).map((sec) => sec * 1000);
  return (
    <figure className="lateness-scatter" data-testid="lateness-scatter" data-points={points.length} data-deadline-points={deadlines} data-max-ms={maxMs}>
      <figcaption className="muted">
        Each timer the service fired: how late (up to {formatMs(maxMs)}) at the moment it fired; <span style={{ color: COLORS.deadline }}>●</span> a request’s
        deadline timer ({formatCount(deadlines)}), <span style={{ color: COLORS.probe }}>●</span> the steady probe{band ? '; shaded: the spike' : ''}
      </figcaption>
      <div className="scatter-plot">
        <div className="scatter-y-axis" aria-hidden="true" data-testid="lateness-y-axis">
          {yTicks.map((t) => (
            <span key={t} style={{ bottom: `${(t / topMs) * 100}%` }}>
              {formatWithScale(t, yScale)}
            </span>
          ))}
        </div>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          width="100%"
          height={HEIGHT}
          role="img"
          aria-label={`${label}: ${formatCount(points.length)} timers, up to ${formatMs(maxMs)} late`}
        >
          {band && (
            <rect
              data-testid="lateness-spike-band"
              x={x(band.fromMs)}
              y={0}
              width={Math.max(1, x(band.toMs) - x(band.fromMs))}
              height={HEIGHT}
              fill={BAND_COLOR}
            />
          )}
          {ticks.map((t) => (
            <line key={t} x1={x(t)} x2={x(t)} y1={0} y2={HEIGHT} className="timeline-grid" vectorEffect="non-scaling-stroke" />
          ))}
          {yTicks.slice(1).map((t) => (
            <line key={`y${t}`} x1={0} x2={WIDTH} y1={y(t)} y2={y(t)} className="timeline-grid" vectorEffect="non-scaling-stroke" />
          ))}
          {points.map((p, i) => (
            <rect key={i} x={x(p.atMs) - 6} y={y(p.latenessMs) - 2} width={12} height={4} fill={COLORS[p.kind]} fillOpacity={p.kind === 'deadline' ? 0.9 : 0.5}>
              <title>{`${p.kind} timer at ${seconds(p.atMs)}: ${formatMs(p.latenessMs)} late`}</title>
            </rect>
          ))}
        </svg>
      </div>
      <div className="timeline-axis scatter-x-axis" aria-hidden="true">
        {ticks.map((t) => (
          <span key={t} style={{ left: `${(t / axisMs) * 100}%` }}>
            {seconds(t)}
          </span>
        ))}
      </div>
    </figure>
  );
}

/** The lateness scatter of a finished deadlines run. */
export const LatenessScatter = memo(LatenessScatterImpl);
