'use client';

/**
 * The stream-modes explorer: asks the server to measure readableFlowing for every case in a fresh
 * Node process and shows the table. Nothing here knows the values; they all come from the probe.
 */
import { useCallback, useEffect, useState } from 'react';
import { describeFlowing, differsFromArticle, flowingAttr, modesReportSchema, type ModesReport } from './modes';
import { describeZodError } from '@/lib/protocol/params';
import { formatClock } from '@/lib/readouts/format';
import { LessonsNav } from '../../../components/lessons/LessonsNav';
import { ModesRuntimes } from './ModesRuntimes';

type Load = { state: 'loading' } | { state: 'ready'; report: ModesReport } | { state: 'failed'; message: string };

async function fetchModes(signal: AbortSignal): Promise<ModesReport> {
  const res = await fetch('/api/lessons/modes', { signal, cache: 'no-store' });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new Error(typeof message === 'string' ? message : `the server answered ${res.status}`);
  }
  const parsed = modesReportSchema.safeParse(body);
  if (!parsed.success) throw new Error(`the server's answer is not a modes report: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

function FlowingValue({ value }: { value: ModesReport['cases'][number]['flowing'] }) {
  return <span className={`flowing flowing-${flowingAttr(value)}`}>{describeFlowing(value)}</span>;
}

export function ModesExplorer() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [previous, setPrevious] = useState<ModesReport | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchModes(controller.signal).then(
      (report) => setLoad({ state: 'ready', report }),
      (err: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const measureAgain = useCallback(() => {
    // Keep showing the last table while the new one is measured, so the page does not jump.
    if (load.state === 'ready') setPrevious(load.report);
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  }, [load]);

  const report = load.state === 'ready' ? load.report : previous;
  const differing = report?.cases.filter(differsFromArticle) ?? [];

  return (
    <>
      <LessonsNav current="modes" />
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>Stream modes: flowing or paused?</h1>
          <p>
            A Readable stream is in one of three states: <code>readableFlowing === null</code> (nobody has chosen how to read it), <code>true</code> (flowing:
            chunks are pushed to listeners as fast as they are read) or <code>false</code> (paused: chunks wait in the stream&apos;s buffer until someone calls{' '}
            <code>read()</code>). Each row below creates a fresh <code>s = fs.createReadStream(file)</code>, runs the code shown, and reads{' '}
            <code>s.readableFlowing</code> right away, in a new Node process on the server, every time you load or press the button.
          </p>
        </header>

        <section className="panel" aria-labelledby="modes-title">
          <div className="panel-header">
            <h2 id="modes-title">Measured readableFlowing</h2>
            <button type="button" data-testid="modes-measure" onClick={measureAgain} disabled={load.state === 'loading'}>
              {load.state === 'loading' ? 'Measuring…' : 'Measure again'}
            </button>
            {report && (
              <span className="muted" data-testid="modes-node">
                Node {report.nodeVersion} · measured at {formatClock(report.measuredAt)} in {report.durationMs} ms
              </span>
            )}
          </div>
          {load.state === 'failed' && (
            <p className="form-error" role="alert">
              Could not measure: {load.message}
            </p>
          )}
          {report && differing.length > 0 && (
            <p className="lesson-conclusion surprise" data-testid="modes-article-diff">
              This Node disagrees with the article (Node 20.11.0) on {differing.map((c) => `${c.article!.label} (${c.title})`).join(', ')}.
            </p>
          )}
          {report && differing.length === 0 && (
            <p className="note" data-testid="modes-article-diff">
              Every value the article published for s0–s7 (Node 20.11.0) matches what Node {report.nodeVersion} measured just now.
            </p>
          )}
          {report ? (
            <div className="modes-table-wrap">
              <table className="modes-table" data-testid="modes-table" aria-busy={load.state === 'loading'}>
                <thead>
                  <tr>
                    <th scope="col">Case</th>
                    <th scope="col">Code</th>
                    <th scope="col">readableFlowing</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {report.cases.map((c) => (
                    <tr
                      key={c.id}
                      data-testid="mode-row"
                      data-case={c.id}
                      data-flowing={flowingAttr(c.flowing)}
                      className={differsFromArticle(c) ? 'differs' : undefined}
                    >
                      <th scope="row">
                        {c.title}
                        {c.article && <span className="muted article-label"> article {c.article.label}</span>}
                      </th>
                      <td>
                        <pre className="mode-code">
                          <code>{c.code}</code>
                        </pre>
                      </td>
                      <td data-testid="mode-value">
                        <FlowingValue value={c.flowing} />
                        {c.article && c.article.flowing !== c.flowing && <span className="note"> (article: {describeFlowing(c.article.flowing)})</span>}
                        {c.error && <span className="form-error"> {c.error}</span>}
                      </td>
                      <td>{c.explanation}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            load.state === 'loading' && <p className="muted">Measuring in a fresh Node process…</p>
          )}
          {report && (
            <details className="modes-helpers">
              <summary>Helpers the cases use</summary>
              <pre>
                <code>{report.helpers}</code>
              </pre>
            </details>
          )}
        </section>
        <ModesRuntimes />
      </main>
    </>
  );
}
