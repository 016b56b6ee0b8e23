/** One run's samples, /proc readings and live extras as the queue keeps them in memory: capped, thinned in place. */
import { mergeLive, type LiveState, type LiveUpdate, type ProcSample, type Sample } from '../../lib/protocol';
import { boundSeries } from '../../lib/series';
import type { Covered } from '../hub/snapshot';

export class RunSeries {
  samples: Sample[] = [];
  proc: ProcSample[] = [];
  live: LiveState = {};

  addSample(sample: Sample): void {
    this.samples.push(sample);
    this.samples = bounded(this.samples);
  }

  addProc(proc: ProcSample): void {
    this.proc.push(proc);
    this.proc = bounded(this.proc);
  }

  addLive(update: LiveUpdate): void {
    this.live = mergeLive(this.live, update);
  }

  /** The `at` of the newest sample and reading (what a snapshot of them covers). */
  covered(): Covered extends Map<string, infer V> ? V : never {
    return { sampleAt: this.samples.at(-1)?.at ?? -Infinity, procAt: this.proc.at(-1)?.at ?? -Infinity };
  }
}

function bounded<T>(series: T[]): T[] {
  const out = boundSeries(series);
  return out === series ? series : [...out];
}
