'use client';

/**
 * A sweep's time against rows on log–log axes, with the fitted line time = c·rows^k: a straight
 * line whose slope is the exponent (1 for linear work, 2 for quadratic). Each segment between two
 * steps is labelled with its own slope, a cliff (a slope far above the fit) is drawn in red, and a
 * step the watchdog stopped is an open triangle at the CPU it had used (a lower bound). SVG, no
 * library: a handful of points. Drawn on a finished hot-code run's card and on its history page.
 */
import type { HotcodeSummary } from '../shared/schema';
import { cliffText, exponentText } from './verdict';
import { formatCount, formatMs, formatSeconds } from '@/lib/readouts/format';

const W = 360;
const H = 180;
// Right padding for the last x tick's label ("100,000" is centred on the axis's end).
const PAD = { left: 52, right: 24, top: 10, bottom: 30 };

/** A decade tick: "10 ms", "100 s" (short enough for the axis; formatMs would say "1 min 40 s"). */
function tickMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

/** Powers of ten covering [lo, hi]. */
function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
}

export function SweepChart({ summary, label }: { summary: HotcodeSummary; label: string }) {
  const points = summary.sweep.filter((p) => p.ms > 0);
  if (points.length < 2) return null;
  const stopped = summary.sweepSteps
    .filter((st) => st.status === 'stopped' && (st.ms ?? 0) > 0)
    .map((st) => ({ rows: st.rows, ms: st.ms!, wallMs: st.wallMs ?? 0 }));
  const skipped = summary.sweepSteps.filter((st) => st.status === 'skipped');
  const cliff = summary.sweepCliff;
  const all = [...points, ...stopped];
  const xs = decades(Math.min(...all.map((p) => p.rows)), Math.max(...all.map((p) => p.rows)));
  const ys = decades(Math.min(...all.map((p) => p.ms)), Math.max(...all.map((p) => p.ms)));
  const [x0, x1, y0, y1] = [Math.log10(xs[0]), Math.log10(xs[xs.length - 1]), Math.log10(ys[0]), Math.log10(ys[ys.length - 1])];
  const px = (rows: number) => PAD.left + ((Math.log10(rows) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (ms: number) => H - PAD.bottom - ((Math.log10(ms) - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
  // The fitted line through the points' centre of mass in log space, with the fitted slope.
  const k = summary.sweepExponent;
  const mx = points.reduce((s, p) => s + Math.log10(p.rows), 0) / points.length;
  const my = points.reduce((s, p) => s + Math.log10(p.ms), 0) / points.length;
  const fitAt = (rows: number) => 10 ** (my + k * (Math.log10(rows) - mx));
  const [first, last] = [points[0].rows, points[points.length - 1].rows];
  const at = (rows: number) => all.find((p) => p.rows === rows)!;
  return (
    <figure
      className="sweep-chart"
      data-testid="sweep-chart"
      data-exponent={k.toFixed(3)}
      data-stopped={stopped.length}
      data-skipped={skipped.length}
      data-cliff-rows={cliff ? cliff.toRows : undefined}
    >
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Report CPU time against rows, log–log, of the ${label} run: ${exponentText(k)}`}>
        {xs.map((x) => (
          <g key={`x${x}`}>
            <line x1={px(x)} x2={px(x)} y1={PAD.top} y2={H - PAD.bottom} stroke="#e3e6eb" />
            <text x={px(x)} y={H - PAD.bottom + 14} textAnchor="middle" fontSize="10">
              {formatCount(x)}
            </text>
          </g>
        ))}
        {ys.map((y) => (
          <g key={`y${y}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={py(y)} y2={py(y)} stroke="#e3e6eb" />
            <text x={PAD.left - 4} y={py(y) + 3} textAnchor="end" fontSize="10">
              {tickMs(y)}
            </text>
          </g>
        ))}
        <line x1={px(first)} y1={py(fitAt(first))} x2={px(last)} y2={py(fitAt(last))} stroke="#D55E00" strokeDasharray="6 3" />
        {summary.sweepSlopes.map((l) => {
          const [a, b] = [at(l.fromRows), at(l.toRows)];
          if (!a || !b) return null;
          const isCliff = cliff !== null && cliff.toRows === l.toRows;
          return (
            <g key={`s${l.toRows}`} data-testid="sweep-slope" data-slope={l.slope.toFixed(2)} data-cliff={isCliff || undefined}>
              <line
                x1={px(a.rows)}
                y1={py(a.ms)}
                x2={px(b.rows)}
                y2={py(b.ms)}
                stroke={isCliff ? '#C0392B' : '#0072B2'}
                strokeWidth={isCliff ? 2.5 : 1}
                strokeDasharray={l.atLeast ? '3 2' : undefined}
              />
              <text x={(px(a.rows) + px(b.rows)) / 2 - 4} y={(py(a.ms) + py(b.ms)) / 2 - 4} textAnchor="end" fontSize="9" fill={isCliff ? '#C0392B' : '#555'}>
                {`${l.atLeast ? '≥' : ''}${l.slope.toFixed(1)}`}
              </text>
            </g>
          );
        })}
        {points.map((p) => (
          <circle key={p.rows} cx={px(p.rows)} cy={py(p.ms)} r={3.5} fill="#0072B2">
            <title>{`${formatCount(p.rows)} rows: ${formatMs(p.ms)}`}</title>
          </circle>
        ))}
        {stopped.map((p) => (
          <path
            key={`x${p.rows}`}
            data-testid="sweep-stopped"
            d={`M ${px(p.rows)} ${py(p.ms) - 6} l 5 9 l -10 0 z`}
            fill="none"
            stroke="#C0392B"
            strokeWidth={1.5}
          >
            <title>{`${formatCount(p.rows)} rows: stopped after ${formatSeconds(p.wallMs)}, ${formatMs(p.ms)} of CPU by then (at least)`}</title>
          </path>
        ))}
        <text x={(PAD.left + W - PAD.right) / 2} y={H - 4} textAnchor="middle" fontSize="10">
          rows (log)
        </text>
      </svg>
      <figcaption>
        Report CPU time (log) against rows (log): {exponentText(k)}; dashed: the fitted c·rows<sup>k</sup>; numbers: each segment&apos;s own slope.
        {cliff && <span className="sweep-cliff"> Cliff: {cliffText(cliff)}.</span>}
        {stopped.map((p) => (
          <span key={p.rows}>
            {' '}
            {formatCount(p.rows)} rows: &gt; {formatSeconds(p.wallMs)} (stopped).
          </span>
        ))}
        {skipped.length > 0 && (
          <span>
            {' '}
            Skipped: {skipped.map((st) => `${formatCount(st.rows)} rows${st.projectedMs ? ` (projected ${formatSeconds(st.projectedMs)})` : ''}`).join(', ')}.
          </span>
        )}
      </figcaption>
    </figure>
  );
}
