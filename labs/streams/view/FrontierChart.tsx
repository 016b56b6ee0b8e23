'use client';

/**
 * The frontier of finished streams runs: records per second against peak arrayBuffers, a point a
 * run in its strategy's colour, and a line through each strategy's concurrency sweep (frontier.ts
 * says which runs are joined). Up and to the left costs memory; right is faster. recharts (SVG):
 * these runs no longer change. Under the results table of the dashboard and of compared runs.
 */
import { memo, useMemo } from 'react';
import { CartesianGrid, Scatter, ScatterChart, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import type { StrategyInfo } from '@/lib/protocol';
import { strategyStyle, type LineStyle } from '@/components/charts/palette';
import { formatScaled, formatWithScale, niceTicks, pickScale, type DisplayScale } from '@/components/charts/units';
import type { ResultsTableProps } from '@/components/lab-view';
import { formatMb, formatPerSec } from '@/lib/readouts/format';
import { concurrencyText } from '../shared/describe';
import { LAB_ID } from '../shared/id';
import { frontierOf, type Frontier, type FrontierPoint } from './frontier';

const HEIGHT = 300;
const MARGIN = { top: 8, right: 16, bottom: 8, left: 4 };

/** What a row of the chart's data is: a point's place in the axes' display units, and the run. */
interface Datum {
  x: number;
  y: number;
  point: FrontierPoint;
}

interface Styled {
  label(strategy: string): string;
  style(strategy: string): LineStyle;
}

/** The run's params and figures in words: the point's accessible name and its hover box. */
export function pointText(p: FrontierPoint, label: string): string {
  const per = p.records ? 'record' : 'chunk';
  return (
    `${label}: ${formatPerSec(p.recordsPerSec)} records/s, peak arrayBuffers ${formatMb(p.peakArrayBuffers)}; ` +
    `concurrency ${concurrencyText(p.concurrency)}, ${p.consumer} consumer, ${p.sizeMb} MB file, ${p.delayMs} ms/${per}` +
    (p.outcome === 'completed' ? '' : `; ${p.outcome}`)
  );
}

/** A run's dot: filled for a completed run, hollow for one that ended otherwise (its figures are of the part it got through). */
function Dot({ cx, cy, payload, color, label }: { cx?: number; cy?: number; payload?: Datum; color: string; label: string }) {
  if (cx === undefined || cy === undefined || !payload) return <g />;
  const p = payload.point;
  return (
    <g
      data-testid="frontier-point"
      data-run-id={p.runId}
      data-strategy={p.strategy}
      data-concurrency={p.concurrency ?? 'unbounded'}
      data-records-per-sec={p.recordsPerSec}
      data-peak-array-buffers={p.peakArrayBuffers}
      data-outcome={p.outcome}
      role="img"
      aria-label={pointText(p, label)}
    >
      <circle cx={cx} cy={cy} r={5} fill={p.outcome === 'completed' ? color : '#ffffff'} stroke={color} strokeWidth={2} />
    </g>
  );
}

/** The hover box: the run's strategy, figures and params. */
function Readout({ active, payload, styled }: Pick<Partial<TooltipContentProps<number, string>>, 'active' | 'payload'> & { styled: Styled }) {
  const datum = (payload?.[0]?.payload ?? null) as Datum | null;
  if (!active || !datum) return null;
  const p = datum.point;
  const rows: Array<[string, string]> = [
    ['Records/s', formatPerSec(p.recordsPerSec)],
    ['Peak arrayBuffers', formatMb(p.peakArrayBuffers)],
    ['Concurrency', concurrencyText(p.concurrency)],
    ['Consumer', p.records ? `${p.consumer}, per record` : p.consumer],
    ['File', `${p.sizeMb} MB`],
    ['Delay', `${p.delayMs} ms`],
  ];
  return (
    <div className="frontier-readout" data-testid="frontier-readout" data-run-id={p.runId}>
      <strong style={{ color: styled.style(p.strategy).color }}>{styled.label(p.strategy)}</strong>
      {p.outcome !== 'completed' && <span> ({p.outcome})</span>}
      <dl>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Axis ticks from 0 in a display scale, ending on a labelled value at or above the largest. */
function axisOf(unit: 'bytes' | 'perSec', max: number): { scale: DisplayScale; ticks: number[] } {
  const scale = pickScale(unit, max);
  return { scale, ticks: niceTicks(max / scale.divisor) };
}

function FrontierPlot({ frontier, styled }: { frontier: Frontier; styled: Styled }) {
  const all = frontier.series.flatMap((s) => s.points);
  const x = axisOf('perSec', Math.max(...all.map((p) => p.recordsPerSec)));
  const y = axisOf('bytes', Math.max(...all.map((p) => p.peakArrayBuffers)));
  const datum = (point: FrontierPoint): Datum => ({ x: point.recordsPerSec / x.scale.divisor, y: point.peakArrayBuffers / y.scale.divisor, point });
  return (
    <ScatterChart responsive style={{ width: '100%', height: HEIGHT }} margin={MARGIN}>
      <CartesianGrid stroke="#e3e6ea" strokeDasharray="3 3" />
      <XAxis
        type="number"
        dataKey="x"
        domain={[0, x.ticks.at(-1)!]}
        ticks={x.ticks}
        tickFormatter={formatScaled}
        tick={{ fontSize: 11 }}
        height={40}
        label={{
          value: `records per second${x.scale.suffix === '/s' ? '' : ` (${x.scale.suffix.replace('/s', '')})`}`,
          position: 'insideBottom',
          fontSize: 11,
        }}
      />
      <YAxis
        type="number"
        dataKey="y"
        width={52}
        domain={[0, y.ticks.at(-1)!]}
        ticks={y.ticks}
        tickFormatter={formatScaled}
        tick={{ fontSize: 11 }}
        label={{ value: `peak arrayBuffers (${y.scale.suffix})`, angle: -90, position: 'insideLeft', offset: 8, fontSize: 11, dy: 60 }}
      />
      <Tooltip
        content={({ active, payload }) => <Readout active={active} payload={payload} styled={styled} />}
        cursor={{ strokeDasharray: '3 3' }}
        isAnimationActive={false}
      />
      {frontier.lines.map((l) => {
        const { color, dash } = styled.style(l.strategy);
        const data = l.vertices.map((v) => ({ x: v.recordsPerSec / x.scale.divisor, y: v.peakArrayBuffers / y.scale.divisor }));
        const stroke = { stroke: color, strokeWidth: 1.5, strokeDasharray: dash.length > 0 ? dash.join(' ') : undefined };
        return <Scatter key={l.key} data={data} line={stroke} shape={() => <g />} tooltipType="none" legendType="none" isAnimationActive={false} />;
      })}
      {frontier.series.map((s) => {
        const { color } = styled.style(s.strategy);
        const label = styled.label(s.strategy);
        return (
          <Scatter
            key={s.strategy}
            name={label}
            data={s.points.map(datum)}
            fill={color}
            shape={(props: { cx?: number; cy?: number; payload?: Datum }) => <Dot {...props} color={color} label={label} />}
            isAnimationActive={false}
          />
        );
      })}
    </ScatterChart>
  );
}

/** Each strategy's colour, and each line in words: its concurrencies and where they took the rate and the peak. */
function FrontierKey({ frontier, styled }: { frontier: Frontier; styled: Styled }) {
  const yScale = pickScale('bytes', Math.max(...frontier.series.flatMap((s) => s.points.map((p) => p.peakArrayBuffers))));
  return (
    <>
      <ul className="chart-legend" aria-label="Strategies">
        {frontier.series.map((s) => (
          <li key={s.strategy} data-strategy={s.strategy}>
            <svg width="10" height="10" aria-hidden="true">
              <circle cx="5" cy="5" r="4" fill={styled.style(s.strategy).color} />
            </svg>
            {styled.label(s.strategy)} ({s.points.length === 1 ? '1 run' : `${s.points.length} runs`})
          </li>
        ))}
      </ul>
      {frontier.lines.length > 0 && (
        <ul className="frontier-lines">
          {frontier.lines.map((l) => (
            <li key={l.key} data-testid="frontier-line" data-strategy={l.strategy} data-concurrencies={l.vertices.map((v) => v.concurrency).join(',')}>
              {styled.label(l.strategy)}: concurrency {l.vertices.map((v) => v.concurrency).join(' → ')}:{' '}
              {l.vertices.map((v) => formatPerSec(v.recordsPerSec)).join(' → ')} records/s,{' '}
              {l.vertices.map((v) => formatWithScale(v.peakArrayBuffers, yScale)).join(' → ')}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function FrontierChartImpl({ runs, strategies, experiments, showExperiment }: ResultsTableProps) {
  const catalog = useMemo(() => strategies.filter((s) => s.lab === LAB_ID), [strategies]);
  const frontier = useMemo(
    () =>
      frontierOf(
        runs.flatMap((r) => (r.summary?.lab === LAB_ID ? [r.summary] : [])),
        catalog.map((s) => s.id),
      ),
    [runs, catalog],
  );
  const styled = useMemo(() => stylesOf(catalog), [catalog]);
  const points = frontier.series.reduce((n, s) => n + s.points.length, 0);
  if (points === 0) return null;
  return (
    <figure className="frontier-chart" data-testid="frontier-chart" data-points={points} data-lines={frontier.lines.length}>
      <figcaption>
        <strong>Frontier:</strong> each finished run at its records per second and its peak arrayBuffers; hover a point for its params. Runs of one strategy
        that differ only by concurrency are joined in concurrency order
        {/* The dashboard shows the latest experiment's runs, and a sweep takes one experiment per concurrency. */}
        {experiments.length > 1 && !showExperiment ? ' (tick “All experiments” to join runs of several experiments)' : ''}. A hollow point did not complete.
        {frontier.withoutRecords > 0 && ` ${frontier.withoutRecords} run(s) recorded before records/s was measured are left out.`}
      </figcaption>
      <div className="chart frontier-plot">
        <FrontierPlot frontier={frontier} styled={styled} />
      </div>
      <FrontierKey frontier={frontier} styled={styled} />
    </figure>
  );
}

/** Each strategy's label and style, from the lab's catalog (the same colours as on every chart). */
function stylesOf(catalog: readonly StrategyInfo[]): Styled {
  const ids = catalog.map((s) => s.id);
  return {
    label: (id) => catalog.find((s) => s.id === id)?.label ?? id,
    style: (id) => strategyStyle(id, ids),
  };
}

/** The frontier of the given finished runs (nothing when none of them has records/s). */
export const FrontierChart = memo(FrontierChartImpl);
