'use client';

/**
 * The page's one connection to the server. Samples go straight into live feeds that the charts
 * draw from on animation frames; React state (runs, figures, progress) is updated from queued
 * messages at a human rate: at once for what changes the page's shape (a run appears or ends),
 * otherwise at most 4 times a second, so six or twelve streaming runs never re-render the page per batch.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ClientRequest, ServerMessage } from '@/lib/protocol';
import { applyServerMessages, initialLabState, seriesPlan, THINNED_POINTS, withRecordedSeries, type LabState } from '@/lib/lab-state';
import { runDetailSchema } from '@/lib/history';
import { fetchJson } from '@/components/history/api';
import { initInstrumentation, noteExperimentCreated, noteSamplesReceived } from '@/components/instrumentation';
import { LiveFeeds } from '@/components/charts/sample-source';
import { openLabConnection, type ConnectionState, type LabConnection } from '@/components/hooks/lab-connection';

export type { ConnectionState } from '@/components/hooks/lab-connection';

export interface LabSocket {
  state: LabState;
  connection: ConnectionState;
  /** Every run's samples as they arrive, outside React state (for live charts). */
  feeds: LiveFeeds;
  /** Sends a message; false when there is no open connection. */
  send(message: ClientRequest): boolean;
  /** Says hello again after this browser's name or operator token changed. */
  reintroduce(): void;
  /** Reads finished runs' series back from history when the page holds none (once per run). */
  restore(runIds: readonly string[]): void;
  /** Why history gave no samples for a run (none recorded, or the read failed): its card says so. */
  unrecorded: Readonly<Record<string, string>>;
}

/** Messages after which the page thins or frees older runs' series (see lab-state's seriesPlan). */
const REPLANS = new Set<ServerMessage['type']>(['snapshot', 'experiment.created', 'hello.ok']);

/** Figures, progress bars and tables follow the samples at most this often. */
export const FIGURES_INTERVAL_MS = 250;
/** A run appearing or ending is shown this soon, gathering the messages of a burst (12 runs queued at once). */
const SHAPE_DELAY_MS = 16;

/** Messages that change what is on the page, not just its figures. */
function changesShape(m: ServerMessage): boolean {
  return m.type !== 'run.samples' && m.type !== 'data.progress';
}

/** Connects to `/ws` on the page's host and keeps the lab state current. */
export function useLabSocket(): LabSocket {
  const [state, setState] = useState<LabState>(initialLabState);
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const connectionRef = useRef<LabConnection | null>(null);
  const feeds = useMemo(() => new LiveFeeds(), []);

  // Runs whose recorded series were asked for (restore), so each is fetched once while the page holds it.
  const asked = useRef(new Set<string>());

  useEffect(() => {
    initInstrumentation();
    let queue: ServerMessage[] = [];
    let lastFlushAt = 0;
    let flushTimer: number | undefined;
    let flushDue = Infinity;

    const flush = () => {
      flushTimer = undefined;
      flushDue = Infinity;
      lastFlushAt = performance.now();
      const batch = queue;
      queue = [];
      if (batch.length === 0) return;
      setState((prev) => {
        const next = applyServerMessages(prev, batch);
        if (batch.some((m) => REPLANS.has(m.type))) {
          const plan = seriesPlan(next);
          feeds.retain(plan);
          // A restored series freed again can be asked for again, or its card would say "Reading…" for good.
          for (const id of plan.freed) asked.current.delete(id);
        }
        return next;
      });
      // Connected means "showing the server's current state", which starts with its snapshot.
      if (batch.some((m) => m.type === 'snapshot')) setConnection('connected');
    };

    const connection = openLabConnection({
      onMessage(message) {
        // Charts and timing see these at once; React state catches up on the next flush.
        if (message.type === 'experiment.created') noteExperimentCreated(message.experiment);
        if (message.type === 'run.samples') {
          noteSamplesReceived(message.runId);
          feeds.append(message.runId, message.samples);
        }
        if (message.type === 'snapshot') feeds.reset(message.samples);
        queue.push(message);
        const now = performance.now();
        const due = changesShape(message) ? now + SHAPE_DELAY_MS : Math.max(now, lastFlushAt + FIGURES_INTERVAL_MS);
        if (due >= flushDue) return;
        window.clearTimeout(flushTimer);
        flushDue = due;
        flushTimer = window.setTimeout(flush, due - now);
      },
      onState: setConnection,
    });
    connectionRef.current = connection;
    return () => {
      window.clearTimeout(flushTimer);
      connection.close();
      connectionRef.current = null;
    };
  }, [feeds]);

  const send = useCallback((message: ClientRequest): boolean => connectionRef.current?.send(message) ?? false, []);

  const reintroduce = useCallback(() => connectionRef.current?.reintroduce(), []);

  const [unrecorded, setUnrecorded] = useState<Readonly<Record<string, string>>>({});
  const none = useCallback((id: string, why: string) => setUnrecorded((prev) => ({ ...prev, [id]: why })), []);
  const restore = useCallback(
    (runIds: readonly string[]) => {
      for (const id of runIds) {
        if (asked.current.has(id)) continue;
        asked.current.add(id);
        // A run still being recorded or never recorded answers 404: its card keeps saying so.
        fetchJson(`/api/runs/${encodeURIComponent(id)}?points=${THINNED_POINTS}`, runDetailSchema)
          .then((detail) => {
            if (detail.samples.length === 0) return none(id, 'No samples were recorded for this run');
            if (feeds.feed(id).rows().length === 0) feeds.feed(id).replace(detail.samples);
            setState((prev) => withRecordedSeries(prev, id, detail.samples, detail.proc));
          })
          .catch((error: Error) => none(id, `This run’s samples could not be read from history: ${error.message}`));
      }
    },
    [feeds, none],
  );

  return { state, connection, feeds, send, reintroduce, restore, unrecorded };
}
