/** One run's samples and /proc readings as the queue keeps them in memory: capped, thinned in place. */
import type { ProcSample, Sample } from '../../lib/protocol';
import { boundSeries } from '../../lib/series';
import type { Covered } from '../hub/snapshot';

export class RunSeries {
  samples: Sample[] = [];
  proc: ProcSample[] = [];

  addSample(sample: Sample): void {
    this.samples.push(sample);
    this.samples = bounded(this.samples);
  }

  addProc(proc: ProcSample): void {
    this.proc.push(proc);
    this.proc = bounded(this.proc);
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
