'use client';

/** Loads a validated JSON resource and reloads it on demand; aborts when the url changes. */
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { fetchJson } from './api';

export type Fetched<T> = { state: 'loading' } | { state: 'error'; error: string } | { state: 'ready'; data: T };

/** null url = nothing to load (e.g. the ids were invalid); `identified`: the request says which browser asks (fetchJson). */
export function useFetched<T>(url: string | null, schema: z.ZodType<T>, identified = false): Fetched<T> & { reload(): void } {
  const [result, setResult] = useState<{ url: string | null; seq: number; value: Fetched<T> }>({ url: null, seq: -1, value: { state: 'loading' } });
  const [seq, setSeq] = useState(0);

  useEffect(() => {
    if (url === null) return;
    const abort = new AbortController();
    fetchJson(url, schema, abort.signal, identified).then(
      (data) => setResult({ url, seq, value: { state: 'ready', data } }),
      (err: unknown) => {
        if (!abort.signal.aborted) setResult({ url, seq, value: { state: 'error', error: err instanceof Error ? err.message : String(err) } });
      },
    );
    return () => abort.abort();
  }, [url, schema, seq, identified]);

  const reload = useCallback(() => setSeq((n) => n + 1), []);
  // A result for another url is stale: show loading until the new one arrives, but keep the old
  // data while the same url reloads, so a table does not flash empty after a delete.
  const value: Fetched<T> = result.url === url ? result.value : { state: 'loading' };
  return { ...value, reload };
}
