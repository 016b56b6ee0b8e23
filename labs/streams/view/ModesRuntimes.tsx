'use client';

/**
 * The stream-modes cases on every installed Node runtime, side by side (GET
 * /api/lessons/modes/runtimes): the rows where some runtime measured another readableFlowing are
 * marked, and the sentence above the table names them. Measured when asked, never cached.
 */
import { useState } from 'react';
import { describeFlowing, flowingAttr, type ModesReport } from './modes';
import { casesAcrossRuntimes, modesRuntimesSchema, runtimesModesVerdict } from './modes-runtimes';
import { describeZodError } from '@/lib/protocol/params';

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; reports: ModesReport[] } | { state: 'failed'; message: string };

async function fetchAll(): Promise<ModesReport[]> {
  const res = await fetch('/api/lessons/modes/runtimes', { cache: 'no-store' });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new Error(typeof message === 'string' ? message : `the server answered ${res.status}`);
  }
  const parsed = modesRuntimesSchema.safeParse(body);
  if (!parsed.success) throw new Error(`the server's answer is not a list of modes reports: ${describeZodError(parsed.error)}`);
  return parsed.data.reports;
}

export function ModesRuntimes() {
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const measure = () => {
    setLoad({ state: 'loading' });
    fetchAll().then(
      (reports) => setLoad({ state: 'ready', reports }),
      (err: unknown) => setLoad({ state: 'failed', message: err instanceof Error ? err.message : String(err) }),
    );
  };
  const reports = load.state === 'ready' ? load.reports : null;
  return (
    <section className="panel" aria-labelledby="modes-runtimes-title" data-testid="modes-runtimes">
      <div className="panel-header">
        <h2 id="modes-runtimes-title">On each installed Node</h2>
        <button type="button" data-testid="modes-runtimes-measure" onClick={measure} disabled={load.state === 'loading'}>
          {load.state === 'loading' ? 'Measuring…' : 'Measure on every runtime'}
        </button>
      </div>
      <p className="muted">The same cases, each runtime in its own fresh process, one after another (runtimes: npm run runtimes -- add 22 24).</p>
      {load.state === 'failed' && (
        <p className="form-error" role="alert">
          Could not measure: {load.message}
        </p>
      )}
      {reports && (
        <>
          <p className={casesAcrossRuntimes(reports).some((c) => c.differs) ? 'lesson-conclusion surprise' : 'note'} data-testid="modes-runtimes-verdict">
            {runtimesModesVerdict(reports)}
          </p>
          <div className="modes-table-wrap">
            <table className="modes-table" data-testid="modes-runtimes-table">
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  {reports.map((r) => (
                    <th scope="col" key={r.nodeVersion}>
                      Node {r.nodeVersion}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {casesAcrossRuntimes(reports).map((c) => (
                  <tr key={c.id} data-case={c.id} data-differs={c.differs} className={c.differs ? 'differs' : undefined}>
                    <th scope="row">{c.title}</th>
                    {c.values.map((v, i) => (
                      <td key={reports[i].nodeVersion}>
                        <span className={`flowing flowing-${flowingAttr(v)}`}>{describeFlowing(v)}</span>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
