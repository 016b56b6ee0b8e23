/**
 * The buffer-level view: how far a run's reader is ahead of its consumer over time. Pure, so the
 * chart and the tests (which feed it real runs' samples) share it.
 */
import type { Point } from '../../../lib/series/decimate';
import type { Sample } from '../../../lib/protocol';

export interface BufferLevel {
  /** bytesRead − bytesProcessed: read from the file, not yet handed to the consumer. */
  buffered: Point[];
  /** The source stream's own buffer (readableLength), the part the stream itself holds. */
  readableLength: Point[];
}

/** Bytes read but not yet processed at this sample (never negative). */
export function bufferedBytes(sample: Sample): number {
  return Math.max(0, sample.bytesRead - sample.bytesProcessed);
}

/** Both buffer series of a run, x = ms since the run started, y = bytes. */
export function bufferLevel(samples: readonly Sample[]): BufferLevel {
  return {
    buffered: samples.map((s) => ({ x: s.t, y: bufferedBytes(s) })),
    readableLength: samples.map((s) => ({ x: s.t, y: s.readableLength })),
  };
}

/** The highest point of a series, or null when it is empty. */
export function peakOf(points: readonly Point[]): Point | null {
  let peak: Point | null = null;
  for (const p of points) if (!peak || p.y > peak.y) peak = p;
  return peak;
}

/** The run's highWaterMark in bytes, from its chunkKb parameter. */
export function highWaterMarkBytes(chunkKb: number): number {
  return chunkKb * 1024;
}
