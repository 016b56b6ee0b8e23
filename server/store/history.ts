/**
 * Run history as one unit for the server entry: the store (opened, with interrupted runs marked,
 * before the server listens), the recorder that feeds it and the HTTP routes that read it.
 */
import { join } from 'node:path';
import { MIB } from '../../lib/protocol/params';
import { dataDir } from '../data/data-files';
import { readIntSetting } from '../env';
import type { QueueListener } from '../queue/run-queue';
import { profileRoutes } from '../http/profile-routes';
import { historyRoutes } from '../http/history-routes';
import type { PageGuard, Route } from '../http/router';
import { createRunRecorder } from './run-recorder';
import { RunStore } from './run-store';

export const KEEP_LIMITS = {
  runs: { env: 'STREAM_LAB_KEEP_RUNS', min: 1, max: 100_000, default: 500 },
  mb: { env: 'STREAM_LAB_KEEP_MB', min: 1, max: 1_000_000, default: 500 },
} as const;

/** Reads a retention limit from the environment; a bad value stops startup with a message naming it. */
export function readKeepLimit(which: keyof typeof KEEP_LIMITS, env: NodeJS.ProcessEnv = process.env): number {
  return readIntSetting(KEEP_LIMITS[which], env);
}

export interface History {
  store: RunStore;
  observer: QueueListener;
  routes: Route[];
  /** /runs/<id> and /embed/runs/<id> answer 404 for a run the store doesn't hold. */
  pageGuards: PageGuard[];
  close(): Promise<void>;
}

/** The run pages, whose id must name a stored run (/runs/compare is a page of its own). */
export function runPageGuards(store: Pick<RunStore, 'record'>): PageGuard[] {
  const exists = ({ id }: Record<string, string>) => store.record(id) !== null;
  return [
    { pattern: /^\/runs\/(?!compare\/?$)(?<id>[^/]+)\/?$/, exists },
    { pattern: /^\/embed\/runs\/(?<id>[^/]+)\/?$/, exists },
  ];
}

/** Opens `<dataDir>/runs` with the configured retention. */
export async function openHistory(opts: { dir?: string; keepRuns?: number; keepMb?: number } = {}): Promise<History> {
  const store = await RunStore.open({
    dir: opts.dir ?? join(dataDir(), 'runs'),
    keepRuns: opts.keepRuns ?? readKeepLimit('runs'),
    keepBytes: (opts.keepMb ?? readKeepLimit('mb')) * MIB,
  });
  return {
    store,
    observer: createRunRecorder(store),
    routes: [...historyRoutes(store), ...profileRoutes(store)],
    pageGuards: runPageGuards(store),
    close: () => store.close(),
  };
}
