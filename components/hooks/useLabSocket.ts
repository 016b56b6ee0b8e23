'use client';

/**
 * The page's one connection to the server, as React state: messages are queued as they arrive and
 * folded into LabState at most ~10 times a second, so a burst of samples costs one render.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ClientRequest, ServerMessage } from '@/lib/protocol';
import { applyServerMessages, initialLabState, type LabState } from '@/lib/lab-state';
import { initInstrumentation, noteExperimentCreated, recordDrawnSamples } from '@/components/instrumentation';
import { openLabConnection, type ConnectionState, type LabConnection } from '@/components/hooks/lab-connection';

export type { ConnectionState } from '@/components/hooks/lab-connection';

export interface LabSocket {
  state: LabState;
  connection: ConnectionState;
  /** Sends a message; false when there is no open connection. */
  send(message: ClientRequest): boolean;
  /** Says hello again after this browser's name or operator token changed. */
  reintroduce(): void;
}

/** One repaint per 100 ms at most: 6 parallel runs at 20 samples/s must not mean 120 renders/s. */
const FLUSH_INTERVAL_MS = 100;
/**
 * On a slow machine a repaint of many charts can itself take tens of ms; waiting a few times that
 * long before the next one keeps rendering to a fraction of the main thread, so input stays responsive.
 */
const RENDER_COST_FACTOR = 4;
const FLUSH_INTERVAL_MAX_MS = 1000;

type DrawnBatch = Array<{ runId: string; ats: number[] }>;

/** Connects to `/ws` on the page's host and keeps the lab state current. */
export function useLabSocket(): LabSocket {
  const [state, setState] = useState<LabState>(initialLabState);
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const connectionRef = useRef<LabConnection | null>(null);
  // Samples handed to React in the last flush; their age is measured once they are on screen.
  const drawnRef = useRef<DrawnBatch>([]);
  // When the last flush handed a batch to React, and how long the resulting render took.
  const renderTiming = useRef({ flushedAt: 0, costMs: 0 });

  useEffect(() => {
    initInstrumentation();
    let queue: ServerMessage[] = [];
    let lastFlushAt = 0;
    let flushTimer: number | undefined;

    const flush = () => {
      flushTimer = undefined;
      lastFlushAt = performance.now();
      const batch = queue;
      queue = [];
      if (batch.length === 0) return;
      renderTiming.current.flushedAt = lastFlushAt;
      for (const m of batch) {
        if (m.type === 'experiment.created') noteExperimentCreated(m.experiment);
        if (m.type === 'run.samples' && m.samples.length > 0) {
          drawnRef.current.push({ runId: m.runId, ats: m.samples.map((s) => s.at) });
        }
      }
      setState((prev) => applyServerMessages(prev, batch));
      // Connected means "showing the server's current state", which starts with its snapshot.
      if (batch.some((m) => m.type === 'snapshot')) setConnection('connected');
    };

    const connection = openLabConnection({
      onMessage(message) {
        queue.push(message);
        if (flushTimer !== undefined) return;
        const intervalMs = Math.min(FLUSH_INTERVAL_MAX_MS, Math.max(FLUSH_INTERVAL_MS, RENDER_COST_FACTOR * renderTiming.current.costMs));
        flushTimer = window.setTimeout(flush, Math.max(0, intervalMs - (performance.now() - lastFlushAt)));
      },
      onState: setConnection,
    });
    connectionRef.current = connection;
    return () => {
      window.clearTimeout(flushTimer);
      connection.close();
      connectionRef.current = null;
    };
  }, []);

  // Runs after the batch is committed, which is as close to "drawn" as React tells us.
  useEffect(() => {
    const timing = renderTiming.current;
    if (timing.flushedAt > 0) {
      timing.costMs = performance.now() - timing.flushedAt;
      timing.flushedAt = 0;
    }
    const drawn = drawnRef.current;
    if (drawn.length === 0) return;
    drawnRef.current = [];
    recordDrawnSamples(drawn);
  }, [state]);

  const send = useCallback((message: ClientRequest): boolean => connectionRef.current?.send(message) ?? false, []);

  const reintroduce = useCallback(() => connectionRef.current?.reintroduce(), []);

  return { state, connection, send, reintroduce };
}
