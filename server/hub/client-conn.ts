/**
 * One browser connection's outbound side. Samples are batched (one flush every FLUSH_MS) and, for a
 * browser that reads too slowly, thinned in place instead of queued: what the server holds per
 * client is bounded whatever the client does. A run's first sample goes out at once: the first
 * line on the chart is what the person pressing Start waits for.
 */
import type { WebSocket } from 'ws';
import type { ProcSample, Sample, ServerMessage } from '../../lib/protocol';
import { thinHalf } from '../../lib/series';

/** 50 ms: with the page's redraw (at most every 66 ms) a sample is on screen within ~150 ms. */
export const FLUSH_MS = 50;
/** Pending samples kept per run for one client before thinning kicks in. */
export const MAX_PENDING_PER_RUN = 200;
/** Socket backlog above which sample batches wait (and get thinned) instead of being sent. */
export const SLOW_CLIENT_BYTES = 1024 * 1024;
/** Backlog at which the client is hopeless: it is disconnected and will resync on reconnect. */
export const DROP_CLIENT_BYTES = 16 * 1024 * 1024;

interface Pending {
  samples: Sample[];
  proc: ProcSample[];
  dropped: number;
}

export class ClientConn {
  private readonly pending = new Map<string, Pending>();
  /** Runs whose first sample this page already has (forgotten when the run ends). */
  private readonly started = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly ws: WebSocket) {
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
  }

  /** Sends a message now, after the samples of its run that are still pending. */
  send(message: ServerMessage): void {
    if ('run' in message && message.run) {
      this.flushRun(message.run.id);
      if (message.type === 'run.ended') this.started.delete(message.run.id);
    }
    this.write(message);
  }

  /** Sends a message already serialized (the shared snapshot): no per-client copy. */
  sendEncoded(bytes: Buffer): void {
    this.write(bytes);
  }

  /** Sends samples now, outside the batching (the tail after a snapshot). */
  sendSamples(runId: string, samples: Sample[], proc: ProcSample[]): void {
    if (samples.length) this.started.add(runId);
    if (samples.length || proc.length) this.write({ type: 'run.samples', runId, samples, proc, dropped: 0 });
  }

  queueSample(runId: string, sample: Sample): void {
    const p = this.pendingFor(runId);
    p.samples.push(sample);
    if (!this.started.has(runId)) {
      this.started.add(runId);
      this.flushRun(runId);
      return;
    }
    if (p.samples.length > MAX_PENDING_PER_RUN) {
      p.dropped += Math.ceil(p.samples.length / 2);
      p.samples = thinHalf(p.samples);
    }
  }

  queueProc(runId: string, proc: ProcSample): void {
    const p = this.pendingFor(runId);
    p.proc.push(proc);
    if (p.proc.length > MAX_PENDING_PER_RUN) p.proc = thinHalf(p.proc);
  }

  /** Drops pending samples: a snapshot about to be sent already contains them. */
  discardPending(): void {
    this.pending.clear();
  }

  /** Samples held for this client right now (tests check it stays bounded). */
  pendingCount(): number {
    let n = 0;
    for (const p of this.pending.values()) n += p.samples.length + p.proc.length;
    return n;
  }

  close(): void {
    clearInterval(this.timer);
    this.pending.clear();
    this.started.clear();
  }

  private pendingFor(runId: string): Pending {
    let p = this.pending.get(runId);
    if (!p) {
      p = { samples: [], proc: [], dropped: 0 };
      this.pending.set(runId, p);
    }
    return p;
  }

  /** Sends every pending batch now, unless the page is reading too slowly to take them. */
  flush(): void {
    if (this.ws.bufferedAmount > SLOW_CLIENT_BYTES) return; // slow reader: keep thinning, send later
    for (const runId of [...this.pending.keys()]) this.flushRun(runId);
  }

  private flushRun(runId: string): void {
    const p = this.pending.get(runId);
    if (!p) return;
    this.pending.delete(runId);
    if (p.samples.length || p.proc.length) {
      this.write({ type: 'run.samples', runId, samples: p.samples, proc: p.proc, dropped: p.dropped });
    }
  }

  private write(message: ServerMessage | Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > DROP_CLIENT_BYTES) {
      // 1013 "try again later": the page reconnects and gets a fresh snapshot.
      this.ws.close(1013, 'client too slow');
      return;
    }
    if (Buffer.isBuffer(message)) this.ws.send(message, { binary: false });
    else this.ws.send(JSON.stringify(message));
  }
}
