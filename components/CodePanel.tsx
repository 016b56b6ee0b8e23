'use client';

/**
 * The code each strategy runs, as the child process runs it, with why it is push or pull. Where the
 * server allows it, each block offers "Edit a copy" (components/StrategyEditor.tsx); where not, the
 * panel says the code is read-only and how the operator can allow editing.
 */
import dynamic from 'next/dynamic';
import { useState, type CSSProperties } from 'react';
import type { StrategyInfo } from '@/lib/protocol';
import { useEditingPolicy } from '@/components/hooks/useEditingPolicy';
import { codeHeightPx, useColumns } from '@/components/code-height';

// Loaded when an editor opens: CodeMirror stays out of the dashboard's first load.
const StrategyEditor = dynamic(() => import('@/components/StrategyEditor').then((m) => m.StrategyEditor), { ssr: false });

export interface CodePanelProps {
  strategies: readonly StrategyInfo[];
  /** Ids of every strategy of the shown lab (a copy takes a new one). */
  labIds?: readonly string[];
  /** Picks the original and its saved copy in the form and starts them. */
  onRunBeside?(originalId: string, copyId: string): string | null;
}

/** One block per strategy: label, mode, library@version, explanation and the code. */
export function CodePanel({ strategies, labIds = [], onRunBeside }: CodePanelProps) {
  const policy = useEditingPolicy();
  const [editing, setEditing] = useState<string | null>(null);
  const columns = useColumns();
  const height = codeHeightPx(
    strategies.map((s) => s.code.split('\n').length),
    columns,
  );
  const style = { '--code-height': `${height}px` } as CSSProperties;
  return (
    <section className="panel code-panel" data-testid="code-panel" aria-labelledby="code-heading" style={style}>
      <h2 id="code-heading">Code</h2>
      {strategies.length === 0 && <p className="muted">Pick a strategy to see the code it runs.</p>}
      {strategies.length > 0 && policy && !policy.allowed && (
        <p className="muted" data-testid="code-read-only">
          {policy.reason}
        </p>
      )}
      {strategies.length > 0 && policy?.allowed && policy.unfenced && (
        <p className="code-unfenced" data-testid="code-unfenced" role="note">
          On this server, {policy.unfenced}.
        </p>
      )}
      <div className="code-blocks">
        {strategies.map((s) => (
          <article key={s.id} className={editing === s.id ? 'code-block editing' : 'code-block'} aria-label={`${s.label} code`}>
            <h3>
              {s.label} {s.mode && <span className={`badge mode-${s.mode}`}>{s.mode}</span>}{' '}
              <code className="library">
                {s.library}@{s.libraryVersion}
              </code>
            </h3>
            <p>{s.explanation}</p>
            {s.article && (
              <p className="muted">
                Article: peak {s.article.peakMb} MB; {s.article.note}.
              </p>
            )}
            <pre tabIndex={0} aria-label={`${s.label} source`}>
              <code>{s.code}</code>
            </pre>
            {policy?.allowed && onRunBeside && editing !== s.id && (
              <button type="button" data-testid={`edit-copy-${s.id}`} onClick={() => setEditing(s.id)}>
                Edit a copy
              </button>
            )}
            {policy?.allowed && onRunBeside && editing === s.id && (
              <StrategyEditor original={s} taken={new Set(labIds)} onClose={() => setEditing(null)} onRunBeside={onRunBeside} />
            )}
          </article>
        ))}
      </div>
    </section>
  );
}
