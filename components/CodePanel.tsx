/** The code each strategy runs, as the child process runs it, with why it is push or pull. */
import type { StrategyInfo } from '@/lib/protocol';

export interface CodePanelProps {
  strategies: readonly StrategyInfo[];
}

/** One block per strategy: label, mode, library@version, explanation and the code. */
export function CodePanel({ strategies }: CodePanelProps) {
  return (
    <section className="panel code-panel" data-testid="code-panel" aria-labelledby="code-heading">
      <h2 id="code-heading">Code</h2>
      {strategies.length === 0 && <p className="muted">Pick a strategy to see the code it runs.</p>}
      <div className="code-blocks">
        {strategies.map((s) => (
          <article key={s.id} className="code-block" aria-label={`${s.label} code`}>
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
          </article>
        ))}
      </div>
    </section>
  );
}
