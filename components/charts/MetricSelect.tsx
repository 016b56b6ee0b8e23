'use client';

/** The "Metric" picker of the comparison charts: one option per metric of the labs compared. */
import { defaultMetrics, isComparisonMetric, METRIC_LABELS, type ComparisonMetric } from '@/lib/readouts/metrics';

export interface MetricSelectProps {
  /** id of the <select>, which its label points at. */
  id: string;
  testId: string;
  value: ComparisonMetric;
  onChange(metric: ComparisonMetric): void;
  /** The metrics offered, in order; the streams lab's by default. */
  metrics?: readonly ComparisonMetric[];
}

/** A labelled <select> of the comparison metrics; ignores values that are not one. */
export function MetricSelect({ id, testId, value, onChange, metrics = defaultMetrics() }: MetricSelectProps) {
  return (
    <>
      <label htmlFor={id}>Metric</label>
      <select
        id={id}
        data-testid={testId}
        value={value}
        onChange={(e) => {
          if (isComparisonMetric(e.target.value)) onChange(e.target.value);
        }}
      >
        {metrics.map((m) => (
          <option key={m} value={m}>
            {METRIC_LABELS[m]}
          </option>
        ))}
      </select>
    </>
  );
}
