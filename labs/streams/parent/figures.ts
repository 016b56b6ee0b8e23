/**
 * The streams lab's figures, folded from a run's samples by the parent: how much was read and
 * processed, how far the reader ran ahead, how many consumer calls overlapped. Pure.
 */
import { MIB } from '../../../lib/protocol/params';
import type { Sample } from '../../../lib/protocol';
import type { FigureRecorder } from '../../types';

export class StreamsFigures implements FigureRecorder {
  private last: Sample | null = null;
  private peakBufferedBytes = 0;
  private peakInFlight = 0;
  private peakApiQueued = 0;
  /** The latest full GC's reading among the samples (the lab's gcLeft* readings), or null: none ran. */
  private gcLeft: { arrayBuffers: number; heapUsed: number; bytesRead: number } | null = null;
  private extras: Record<string, number> = {};
  private note: string | null = null;

  constructor(private readonly fileBytes: number) {}

  addSample(s: Sample): void {
    this.peakBufferedBytes = Math.max(this.peakBufferedBytes, s.bytesRead - s.bytesProcessed);
    this.peakInFlight = Math.max(this.peakInFlight, s.inFlight);
    this.peakApiQueued = Math.max(this.peakApiQueued, s.apiQueued ?? 0);
    if (s.gcLeftArrayBuffers !== undefined && s.gcLeftHeapUsed !== undefined && s.gcLeftBytesRead !== undefined) {
      this.gcLeft = { arrayBuffers: s.gcLeftArrayBuffers, heapUsed: s.gcLeftHeapUsed, bytesRead: s.gcLeftBytesRead };
    }
    this.last = s;
  }

  addFinal(extras: Record<string, number>, note?: string | null): void {
    this.peakInFlight = Math.max(this.peakInFlight, extras.peakInFlight ?? 0);
    this.extras = extras;
    this.note = note ?? null;
  }

  figures(durationMs: number) {
    const bytesProcessed = this.last?.bytesProcessed ?? 0;
    const records = this.extras.records ?? this.last?.records ?? 0;
    // The parent times a run from the child's 'ready' to its 'done'; a run of a few milliseconds on a
    // starved machine can have both messages read in one turn (0 ms, and 0 records/s: busy 43). The
    // child's own clock (the last sample's t) still saw it take time. With neither (the run never
    // started) there is no rate: null, not 0.
    const ms = Math.max(durationMs, this.last?.t ?? 0);
    const perSec = (n: number) => (ms > 0 ? n / (ms / 1000) : null);
    const x = this.extras;
    return {
      fileBytes: this.fileBytes,
      bytesRead: this.last?.bytesRead ?? 0,
      bytesProcessed,
      chunks: this.last?.chunks ?? 0,
      mbPerSec: perSec(bytesProcessed / MIB),
      peakBufferedBytes: this.peakBufferedBytes,
      peakInFlight: this.peakInFlight,
      records,
      recordsPerSec: perSec(records),
      ...(x.concurrency !== undefined && { concurrency: x.concurrency < 0 ? null : x.concurrency }),
      // The consumer's own figures, only where it has them (the http consumer's, the postgres one's).
      ...(x.apiCalls !== undefined && {
        apiCalls: x.apiCalls,
        apiErrors: x.apiErrors ?? 0,
        apiP50Ms: x.apiP50Ms ?? 0,
        apiP99Ms: x.apiP99Ms ?? 0,
        peakApiQueued: this.peakApiQueued,
      }),
      ...(x.dbRows !== undefined && { dbRows: x.dbRows, insertsPerSec: perSec(x.dbRows) }),
      ...(x.consumerStartMs !== undefined && { consumerStartMs: x.consumerStartMs, consumerCheckMs: x.consumerCheckMs ?? 0 }),
      gcLeftArrayBuffers: this.gcLeft?.arrayBuffers ?? null,
      gcLeftHeapUsed: this.gcLeft?.heapUsed ?? null,
      gcLeftBytesRead: this.gcLeft?.bytesRead ?? null,
      endGcArrayBuffers: x.endGcArrayBuffers ?? null,
      endGcHeapUsed: x.endGcHeapUsed ?? null,
    };
  }

  /** Every byte of the file must have reached the consumer, and the consumer must have them all (its own count). */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null } {
    if (this.extras.consumerLost) return { outcome: 'data-lost', reason: this.note ?? 'the consumer counted fewer items than were sent' };
    const lost = this.fileBytes - (this.last?.bytesProcessed ?? 0);
    // A completed run keeps the consumer's note (the API's errors answered) as its reason: else no summary would tell it.
    if (lost <= 0) return { outcome: 'completed', reason: this.note };
    return { outcome: 'data-lost', reason: `the run ended with ${lost} of ${this.fileBytes} bytes never processed` };
  }
}
