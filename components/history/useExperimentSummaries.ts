'use client';

/**
 * The summaries of the other recorded runs of a run's experiment, for verdicts that compare (the
 * HTTP lab's measures a streamed run against buffered-json). Two small requests: the list, to find
 * the experiment's runs, and their summaries (/api/summaries.json), not their samples.
 */
import { z } from 'zod';
import { HISTORY_LIMITS, runListResponseSchema, runRecordSchema } from '@/lib/history';
import type { RunState, RunSummary } from '@/lib/protocol';
import { useFetched } from './useFetched';

const recordsSchema = z.array(runRecordSchema);
const NONE: readonly RunSummary[] = [];

/** null while loading; the finished siblings' summaries once known (empty when `enabled` is false or on an error). */
export function useExperimentSummaries(run: RunState, enabled: boolean): readonly RunSummary[] | null {
  const list = useFetched(enabled ? '/api/runs' : null, runListResponseSchema);
  const ids =
    list.state === 'ready'
      ? list.data.runs
          .filter((r) => r.experimentId === run.experimentId && r.id !== run.id && r.status === 'completed')
          .slice(0, HISTORY_LIMITS.compare.max)
          .map((r) => r.id)
      : [];
  const summaries = useFetched(ids.length > 0 ? `/api/summaries.json?ids=${ids.join(',')}` : null, recordsSchema);
  if (!enabled || list.state === 'error') return NONE;
  if (list.state === 'loading') return null;
  if (ids.length === 0) return NONE;
  if (summaries.state === 'loading') return null;
  if (summaries.state === 'error') return NONE;
  return summaries.data.flatMap((r) => (r.run.summary ? [r.run.summary] : []));
}
