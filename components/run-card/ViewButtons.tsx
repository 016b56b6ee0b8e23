'use client';

/** The buttons above a run card's chart that choose what it shows (memory, CPU, latency…). */
export interface ViewButtonsProps<V extends string> {
  label: string;
  views: ReadonlyArray<{ id: V; label: string }>;
  value: V;
  onChange(view: V): void;
}

export function ViewButtons<V extends string>({ label, views, value, onChange }: ViewButtonsProps<V>) {
  return (
    <div className="chart-view" role="group" aria-label={`${label}: chart shows`}>
      {views.map((v) => (
        <button key={v.id} type="button" aria-pressed={value === v.id} data-testid={`run-view-${v.id}`} onClick={() => onChange(v.id)}>
          {v.label}
        </button>
      ))}
    </div>
  );
}
