'use client';

/**
 * One holder's retainer path on one line, from the object up to its root: "Array 59.5 MB ← context
 * of outerNext / doInnerSub / checkComplete (rxjs/…/mergeInternals.js:12) ← OperatorSubscriber ← …".
 * Each step says how the next one holds it (a variable, a property, an element) in its title.
 */
import { stepView, type RetainerStep } from '@/lib/heap/analysis-view';
import { formatMb } from '@/lib/readouts/format';

/** "held as buffer (context)": how the next step refers to this one. */
function heldAs(step: RetainerStep): string | undefined {
  return step.edge ? `held by the next as ${step.edge} (${step.edgeType}); retains ${formatMb(step.retainedBytes)}` : undefined;
}

function Step({ step, first }: { step: RetainerStep; first: boolean }) {
  const view = stepView(step);
  return (
    <span className="retainer-step" data-class={step.className} title={heldAs(step)}>
      {view.text}
      {first && <strong> {formatMb(step.retainedBytes)}</strong>}
      {view.functions.map((g, i) => (
        <span key={i} className="retainer-functions">
          {i > 0 ? ',' : ''} {g.names}
          {g.where && <span className="retainer-where"> ({g.where})</span>}
        </span>
      ))}
    </span>
  );
}

export function RetainerPath({ path }: { path: readonly RetainerStep[] }) {
  return (
    <p className="retainer-path" data-testid="retainer-path">
      {path.map((step, i) => (
        <span key={i}>
          {i > 0 && <span className="retainer-arrow"> ← </span>}
          <Step step={step} first={i === 0} />
        </span>
      ))}
    </p>
  );
}
