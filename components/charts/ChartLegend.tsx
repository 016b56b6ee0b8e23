'use client';

/** The legend of a chart: one button per series (click hides or shows it), then the reference lines. */
import type { ChartLine } from './chart-lines';
import type { ReferenceLine } from './uplot-options';
import { REFERENCE_COLOR } from './uplot-options';

function Swatch({ color, dash, thick }: { color: string; dash?: readonly number[]; thick?: boolean }) {
  return (
    <svg width="22" height="8" aria-hidden="true">
      <line x1="0" y1="4" x2="22" y2="4" stroke={color} strokeWidth={thick ? 3 : 2} strokeDasharray={dash && dash.length > 0 ? dash.join(' ') : undefined} />
    </svg>
  );
}

export interface ChartLegendProps {
  lines: readonly ChartLine<unknown>[];
  hidden: ReadonlySet<string>;
  onToggle(key: string): void;
  referenceLines: readonly ReferenceLine[];
}

/** Series buttons carry their style as data-* so an export can redraw the legend as it is shown. */
export function ChartLegend({ lines, hidden, onToggle, referenceLines }: ChartLegendProps) {
  return (
    <ul className="chart-legend" aria-label="Series">
      {lines.map((l) => {
        const off = hidden.has(l.key);
        return (
          <li key={l.key}>
            <button
              type="button"
              className="chart-legend-item"
              aria-pressed={!off}
              title={off ? `Show ${l.label}` : `Hide ${l.label}`}
              data-series-key={l.key}
              data-hidden={off ? 'true' : 'false'}
              data-color={l.color}
              data-dashed={l.dash && l.dash.length > 0 ? 'true' : 'false'}
              data-label={l.label}
              onClick={() => onToggle(l.key)}
            >
              <Swatch color={l.color} dash={l.dash} thick={l.emphasis} />
              {l.label}
            </button>
          </li>
        );
      })}
      {referenceLines.map((r) => (
        <li key={`ref-${r.label}`} className="chart-legend-reference" data-color={r.color ?? REFERENCE_COLOR} data-dashed="true" data-label={r.label}>
          <Swatch color={r.color ?? REFERENCE_COLOR} dash={[4, 2]} />
          {r.label}
        </li>
      ))}
    </ul>
  );
}
