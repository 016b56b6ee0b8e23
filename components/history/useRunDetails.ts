'use client';

/** Loads several recorded runs at once (a comparison), thinned for drawing. */
import { useEffect, useState } from 'react';
import { runDetailSchema, type RunDetail } from '@/lib/history';
import { fetchJson } from './api';
import type { Fetched } from './useFetched';

/** A comparison draws up to 8 runs on one ~1000 px chart: 2000 samples each is plenty before decimation. */
const COMPARE_POINTS = 2000;

export function useRunDetails(ids: readonly string[] | null): Fetched<RunDetail[]> {
  const key = ids?.join(',') ?? null;
  const [result, setResult] = useState<{ key: string | null; value: Fetched<RunDetail[]> }>({ key: null, value: { state: 'loading' } });
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    Promise.all(key.split(',').map((id) => fetchJson(`/api/runs/${id}?points=${COMPARE_POINTS}`, runDetailSchema, abort.signal))).then(
      (data) => setResult({ key, value: { state: 'ready', data } }),
      (err: unknown) => {
        if (!abort.signal.aborted) setResult({ key, value: { state: 'error', error: err instanceof Error ? err.message : String(err) } });
      },
    );
    return () => abort.abort();
  }, [key]);
  return result.key === key ? result.value : { state: 'loading' };
}
