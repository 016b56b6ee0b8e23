'use client';

/**
 * A profiled run's CPU profile: the flame graph and the functions by self time (file:line), read
 * from the history's stored `.cpuprofile` (which the panel also offers as a download). Shown on a
 * finished run's card and on its history page.
 */
import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import { flameTree, functionsBySelfTime, type CpuProfile } from '@/lib/profile/cpu-profile';
import type { ProfileSummary } from '@/lib/protocol';
import { formatMs, formatPercent } from '@/lib/readouts/format';
import { FlameGraph } from './FlameGraph';

/** Enough of the shape to draw from; anything else in the file is left alone. */
const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), scriptId: z.string(), url: z.string(), lineNumber: z.number(), columnNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number()).optional(),
  timeDeltas: z.array(z.number()).optional(),
});

const ROWS = 12;
/** The record is written as the run ends: a page asking at that moment may be a little early. */
const TRIES = 5;
const RETRY_MS = 600;

function useProfile(url: string): { profile: CpuProfile | null; error: string | null } {
  const [state, setState] = useState<{ url: string; profile: CpuProfile | null; error: string | null } | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      for (let i = 0; i < TRIES && !abort.signal.aborted; i++) {
        try {
          const res = await fetch(url, { signal: abort.signal });
          if (res.ok) return setState({ url, profile: profileSchema.parse(await res.json()) as CpuProfile, error: null });
          if (res.status !== 404 || i === TRIES - 1) return setState({ url, profile: null, error: `the profile could not be read (HTTP ${res.status})` });
        } catch (err) {
          if (abort.signal.aborted) return;
          return setState({ url, profile: null, error: `the profile could not be read (${(err as Error).message})` });
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    })();
    return () => abort.abort();
  }, [url]);
  return state?.url === url ? state : { profile: null, error: null };
}

export function ProfilePanel({ runId, label, summary }: { runId: string; label: string; summary: ProfileSummary }) {
  const url = `/api/runs/${encodeURIComponent(runId)}/profile.cpuprofile`;
  const { profile, error } = useProfile(url);
  const tree = useMemo(() => (profile ? flameTree(profile) : null), [profile]);
  const top = useMemo(() => (profile ? functionsBySelfTime(profile).slice(0, ROWS) : []), [profile]);
  if (summary.error)
    return (
      <p className="note" data-testid="profile-error">
        No CPU profile: {summary.error}.
      </p>
    );
  return (
    <section className="profile-panel" data-testid="profile-panel" aria-label={`CPU profile of the ${label} run`}>
      <header className="profile-header">
        <h4>CPU profile</h4>
        <span className="muted">
          {summary.samples.toLocaleString('en-US')} samples every {summary.intervalUs} µs over {formatMs(summary.sampledMs)}
        </span>
        <a className="button" href={url} download data-testid="profile-download">
          Download .cpuprofile
        </a>
      </header>
      {error && <p className="note">{error}</p>}
      {!profile && !error && <p className="muted">Reading the profile…</p>}
      {tree && <FlameGraph tree={tree} label={label} />}
      {top.length > 0 && (
        <table className="profile-functions" data-testid="profile-functions">
          <caption>Functions by self time (time on top of the stack); file:line of the compiled module the run loaded</caption>
          <thead>
            <tr>
              <th scope="col">Function</th>
              <th scope="col">File:line</th>
              <th scope="col">Self (ms)</th>
              <th scope="col">Self</th>
              <th scope="col">Total (ms)</th>
            </tr>
          </thead>
          <tbody>
            {top.map((f) => (
              <tr key={`${f.name}|${f.url}|${f.line}`} data-function={f.name}>
                <td>{f.name}</td>
                <td className="mono">{f.url ? `${f.url.split('/').slice(-2).join('/')}${f.line > 0 ? `:${f.line}` : ''}` : '–'}</td>
                <td className="num">{f.selfMs.toFixed(1)}</td>
                <td className="num">{formatPercent(f.selfShare)}</td>
                <td className="num">{f.totalMs.toFixed(1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
