'use client';

/**
 * The CPU lab's request timeline: one bar per request from when it was sent to its answer's last
 * byte, coloured by the process or thread that computed it, on a seconds axis. SVG: at most 1,000
 * rects drawn once, for a run that no longer changes. A bar whose answer was wrong is outlined.
 */
import { memo, useMemo } from 'react';
import type { RequestBar } from '../shared/schema';
import { formatCount } from '@/lib/readouts/format';
import { layoutTimeline, servedByText } from './timeline-layout';

/** Legend entries shown before "+N more": fork-per-request has a process per request. */
const LEGEND_MAX = 12;
/** The SVG's own width units; it stretches to the card's width. */
const WIDTH = 1000;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;
/** A tick's label: milliseconds under a second, so a 0.02 s step is not rounded into 0.01 / 0.03. */
const tickText = (ms: number, axisMs: number) => (axisMs < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(3))} s`);

function RequestTimelineImpl({ bars, label }: { bars: readonly RequestBar[]; label: string }) {
  const layout = useMemo(() => layoutTimeline(bars), [bars]);
  const { servers, colorOf, axisMs, ticksMs, rowPx, gapPx } = layout;
  const height = bars.length * rowPx;
  const x = (ms: number) => (ms / axisMs) * WIDTH;
  const wrong = bars.filter((b) => !b.ok).length;
  return (
    <figure className="request-timeline" data-testid="request-timeline" data-bars={bars.length} data-servers={servers.length}>
      <figcaption className="muted">
        Each request from sent to answered, coloured by who computed it{wrong > 0 ? `; outlined: ${wrong} wrong answer${wrong === 1 ? '' : 's'}` : ''}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        preserveAspectRatio="none"
        width="100%"
        height={height}
        role="img"
        aria-label={`${label}: ${formatCount(bars.length)} requests over ${seconds(axisMs)}, answered by ${servers.length} process${servers.length === 1 ? '' : 'es or threads'}`}
      >
        {ticksMs.map((t) => (
          <line key={t} x1={x(t)} x2={x(t)} y1={0} y2={height} className="timeline-grid" vectorEffect="non-scaling-stroke" />
        ))}
        {bars.map((b, i) => (
          <rect
            key={i}
            data-testid="request-bar"
            data-served-by={b.servedBy}
            data-ok={b.ok ? 'true' : 'false'}
            x={x(b.startMs)}
            y={i * rowPx}
            width={Math.max(x(b.endMs) - x(b.startMs), 1)}
            height={Math.max(rowPx - gapPx, 1)}
            fill={colorOf.get(b.servedBy)}
            fillOpacity={b.ok ? 0.85 : 0.3}
            stroke={b.ok ? 'none' : '#000'}
            vectorEffect="non-scaling-stroke"
          >
            <title>{`request ${i + 1}: sent at ${seconds(b.startMs)}, first byte ${seconds(b.firstByteMs)}, answered at ${seconds(b.endMs)} by ${servedByText(b.servedBy)}${b.ok ? '' : ' (wrong answer)'}`}</title>
          </rect>
        ))}
      </svg>
      <div className="timeline-axis" aria-hidden="true">
        {ticksMs.map((t) => (
          <span key={t} style={{ left: `${(t / axisMs) * 100}%` }}>
            {tickText(t, axisMs)}
          </span>
        ))}
      </div>
      <ul className="timeline-legend" data-testid="timeline-legend">
        {servers.slice(0, LEGEND_MAX).map((s) => (
          <li key={s.id}>
            <span className="swatch" style={{ background: s.color }} />
            served by {servedByText(s.id)} ({s.requests})
          </li>
        ))}
        {servers.length > LEGEND_MAX && <li className="muted">+{servers.length - LEGEND_MAX} more</li>}
      </ul>
    </figure>
  );
}

/** The timeline of a finished CPU run's requests. */
export const RequestTimeline = memo(RequestTimelineImpl);
