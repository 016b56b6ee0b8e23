'use client';

/**
 * One holder's retainer path, from the object up to its root: on one line as the analyzer words it
 * ("Array 59.5 MB ← context of outerNext / doInnerSub / checkComplete
 * (node_modules/rxjs/…/mergeInternals.js:12) ← OperatorSubscriber ← …"), then step by step: how
 * each is held by the next (a variable, a property, an element), what it retains, and for a
 * closure Context the functions sharing it with their scripts. A holder Stream Lab's own code keeps
 * is labelled, as its allocations are.
 */
import { formatRetainerPath, shortScriptName, stepLabel, type HeapHolder, type RetainerStep } from '@/lib/heap/analysis';
import { formatMb } from '@/lib/readouts/format';
import { HarnessBadge } from './HarnessBadge';

const CONTEXT_CLASS = 'system / Context';

function StepItem({ step }: { step: RetainerStep }) {
  const context = step.className === CONTEXT_CLASS;
  const functions = step.functions ?? [];
  const more = (step.functionCount ?? functions.length) - functions.length;
  return (
    <li data-class={step.className}>
      <span className="mono">{context ? step.className : stepLabel(step)}</span> <span className="muted">retains {formatMb(step.retainedBytes)}</span>
      {step.edge && (
        <span className="muted">
          {' '}
          · held as <code>{step.edge}</code> ({step.edgeType}) by the next
        </span>
      )}
      {context && functions.length > 0 && (
        <ul className="retainer-functions">
          {functions.map((f, i) => (
            <li key={i}>
              {f.name || '(anonymous)'}{' '}
              {f.script && (
                <span className="mono retainer-where" title={f.script}>
                  {shortScriptName(f.script)}:{f.line}:{f.column}
                </span>
              )}
            </li>
          ))}
          {more > 0 && <li className="muted">+{more} more closures</li>}
        </ul>
      )}
    </li>
  );
}

export function RetainerPath({ holder }: { holder: HeapHolder }) {
  return (
    <div className="retainer">
      <p className="retainer-path" data-testid="retainer-path" data-holder-id={holder.id} data-harness={holder.harness ? 'true' : undefined}>
        {formatRetainerPath(holder.path, { maxSteps: holder.path.length, omitted: holder.pathOmitted })}
        {holder.harness && (
          <>
            {' '}
            <HarnessBadge what="kept" />
          </>
        )}
      </p>
      <details className="retainer-steps">
        <summary>
          Step by step ({holder.path.length} steps{holder.pathOmitted > 0 ? `, ${holder.pathOmitted} more left out in the middle` : ''})
        </summary>
        <ol>
          {holder.path.map((step, i) => (
            <StepItem key={i} step={step} />
          ))}
        </ol>
      </details>
    </div>
  );
}
