/**
 * The parent side of a profiled run: drives V8's CPU profiler in the run's process over its
 * inspector WebSocket (Chrome DevTools protocol: Profiler.enable, setSamplingInterval, start,
 * stop). The inspector answers on its own thread, so a stop reaches a process whose main thread is
 * busy (measured: Profiler.stop answered in 3 ms during a busy loop). Only 127.0.0.1 is ever dialled.
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { COMMON_LIMITS } from '../../lib/protocol/params';
import { frameName, functionsBySelfTime, VM_ENTRIES, type CpuProfile } from '../../lib/profile/cpu-profile';
import type { ProfileSummary } from '../../lib/protocol';
import { sendToChild } from '../child/protocol';

/** How long one protocol call may take before the profile is given up. */
const CALL_TIMEOUT_MS = 5000;
/** Functions kept in the summary (the whole profile is stored beside the record). */
const TOP_FUNCTIONS = 15;

/** One inspector session: `call` sends a method and resolves with its result; `onEvent` hears the protocol's events. */
export interface InspectorSession {
  call(method: string, params?: object, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Hears every event (a message without an id), e.g. HeapProfiler.addHeapSnapshotChunk; returns its remover. */
  onEvent(listener: (method: string, params: Record<string, unknown>) => void): () => void;
  close(): void;
}

/** `socket`: already connected to the inspector (a namespaced run hands one over, server/child/inspect.ts); else a TCP connection to the URL's port. */
export async function connect(url: string, socket?: Socket): Promise<InspectorSession> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'ws:' || parsed.hostname !== '127.0.0.1') {
    socket?.destroy();
    throw new Error(`refusing to profile through ${parsed.host}: only 127.0.0.1`);
  }
  // A handshake that never completes (not an inspector at that port) fails rather than hanging the run's end.
  const ws = new WebSocket(url, { maxPayload: 512 * 1024 * 1024, handshakeTimeout: CALL_TIMEOUT_MS, ...(socket && { createConnection: () => socket }) });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const pending = new Map<number, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  const listeners = new Set<(method: string, params: Record<string, unknown>) => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    if (m.id === undefined && m.method) for (const l of listeners) l(m.method, m.params ?? {});
    const p = m.id !== undefined ? pending.get(m.id) : undefined;
    if (!p) return; // an event, not an answer
    pending.delete(m.id!);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result ?? {});
  });
  ws.on('error', () => undefined);
  ws.on('close', () => {
    for (const p of pending.values()) p.reject(new Error('the run’s inspector closed'));
    pending.clear();
  });
  return {
    call(method, params = {}, timeoutMs = CALL_TIMEOUT_MS) {
      // ws drops a send on a closed socket without a word: fail at once rather than at the timeout.
      if (ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('the run’s inspector closed'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method} got no answer within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        pending.set(id, { resolve: (v) => (clearTimeout(timer), resolve(v)), reject: (e) => (clearTimeout(timer), reject(e)) });
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      listeners.clear();
      ws.terminate();
    },
  };
}

/** What the runner gets from a profiled run: the stored profile and its brief for the summary. */
export interface ProfileResult {
  profile: CpuProfile | null;
  summary: ProfileSummary;
}

/** The brief of a profile for the run's summary. */
export function summarizeProfile(profile: CpuProfile, intervalUs: number): ProfileSummary {
  const top = functionsBySelfTime(profile).slice(0, TOP_FUNCTIONS);
  return { intervalUs, samples: profile.samples?.length ?? 0, sampledMs: (profile.endTime - profile.startTime) / 1000, top, error: null };
}

/**
 * Names the functions on top of the stack during each long task: the profile's samples whose time
 * falls in the task's window. Both clocks are the monotonic clock in µs (V8's TimeTicks and
 * process.hrtime on Linux). Without a profile the tasks keep an empty list.
 */
export function nameLongTasks(
  tasks: ReadonlyArray<{ endUs: number; durationMs: number }>,
  profile: CpuProfile | null,
): Array<{ endUs: number; durationMs: number; top: string[] }> {
  if (!profile?.samples || !profile.timeDeltas) return tasks.map((t) => ({ ...t, top: [] }));
  const names = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const times: number[] = [];
  let at = profile.startTime;
  for (const d of profile.timeDeltas) times.push((at += d));
  return tasks.map((task) => {
    const from = task.endUs - task.durationMs * 1000;
    const counts = new Map<string, number>();
    profile.samples!.forEach((node, i) => {
      const name = names.get(node) ?? '';
      if (times[i] >= from && times[i] <= task.endUs && !VM_ENTRIES.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    const top = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([n]) => n);
    return { ...task, top };
  });
}
