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

  constructor(private readonly fileBytes: number) {}

  addSample(s: Sample): void {
    this.peakBufferedBytes = Math.max(this.peakBufferedBytes, s.bytesRead - s.bytesProcessed);
    this.peakInFlight = Math.max(this.peakInFlight, s.inFlight);
    this.last = s;
  }

  addFinal(extras: Record<string, number>): void {
    this.peakInFlight = Math.max(this.peakInFlight, extras.peakInFlight ?? 0);
  }

  figures(durationMs: number) {
    const bytesProcessed = this.last?.bytesProcessed ?? 0;
    return {
      fileBytes: this.fileBytes,
      bytesRead: this.last?.bytesRead ?? 0,
      bytesProcessed,
      chunks: this.last?.chunks ?? 0,
      mbPerSec: durationMs > 0 ? bytesProcessed / MIB / (durationMs / 1000) : 0,
      peakBufferedBytes: this.peakBufferedBytes,
      peakInFlight: this.peakInFlight,
    };
  }

  /** Every byte of the file must have reached the consumer. */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null } {
    const lost = this.fileBytes - (this.last?.bytesProcessed ?? 0);
    if (lost <= 0) return { outcome: 'completed', reason: null };
    return { outcome: 'data-lost', reason: `the run ended with ${lost} of ${this.fileBytes} bytes never processed` };
  }
}
