/**
 * Where chart lines get their rows, outside React state: a fixed array (a recorded run) or a live
 * feed that the socket appends to as messages arrive. Charts pull from a source when they draw;
 * the source only tells them that something changed.
 */
import type { Sample } from '@/lib/protocol';
import { boundSeries, MAX_SAMPLES_PER_RUN } from '@/lib/series';
import { THINNED_POINTS, type SeriesPlan } from '@/lib/lab-state';

export interface SampleSource<R = Sample> {
  /** Run id for live feeds (the benchmark times samples of these), null otherwise. */
  readonly runId: string | null;
  /** Rows so far, oldest first; the array may grow in place, never reorder. */
  rows(): readonly R[];
  /** Bumped when rows were replaced rather than appended (thinned, resynced): readers start over. */
  generation(): number;
  /** Calls `listener` after rows change; returns the unsubscriber. */
  subscribe(listener: () => void): () => void;
}

const noop = () => undefined;

/** A source that never changes. */
export function staticSource<R>(rows: readonly R[]): SampleSource<R> {
  return { runId: null, rows: () => rows, generation: () => 0, subscribe: () => noop };
}

/** Rows, a generation and listeners: what every changing source keeps. */
abstract class ChangingSource<R> implements SampleSource<R> {
  protected abstract list: readonly R[];
  protected gen = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly runId: string | null) {}

  rows(): readonly R[] {
    return this.list;
  }

  generation(): number {
    return this.gen;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected notify(): void {
    for (const l of this.listeners) l();
  }
}

/** One run's samples as they arrive. */
export class LiveFeed extends ChangingSource<Sample> {
  protected list: Sample[] = [];

  constructor(readonly runId: string) {
    super(runId);
  }

  /** Appends in place; past the page's cap the history is thinned (see boundSeries). */
  append(samples: readonly Sample[]): void {
    if (samples.length === 0) return;
    for (const s of samples) this.list.push(s);
    if (this.list.length > MAX_SAMPLES_PER_RUN) this.replace(boundSeries(this.list));
    else this.notify();
  }

  /** Replaces everything (a snapshot after a reconnect). */
  replace(samples: readonly Sample[]): void {
    this.list = [...samples];
    this.gen += 1;
    this.notify();
  }
}

/** Every run's live feed, keyed by run id; feeds exist before their first sample so charts can wait on them. */
export class LiveFeeds {
  private readonly feeds = new Map<string, LiveFeed>();

  /** The feed of a run, made empty if it does not exist yet. */
  feed(runId: string): LiveFeed {
    let f = this.feeds.get(runId);
    if (!f) {
      f = new LiveFeed(runId);
      this.feeds.set(runId, f);
    }
    return f;
  }

  append(runId: string, samples: readonly Sample[]): void {
    if (samples.length > 0) this.feed(runId).append(samples);
  }

  /** A snapshot: every listed run's samples replaced, runs not listed emptied. */
  reset(samples: Readonly<Record<string, readonly Sample[]>>): void {
    for (const [id, feed] of this.feeds) if (!(id in samples)) feed.replace([]);
    for (const [id, s] of Object.entries(samples)) this.feed(id).replace(s);
  }

  /** Thins or frees feeds as the page's state does (lab-state's seriesPlan). */
  retain({ thinned, freed }: SeriesPlan): void {
    for (const [id, feed] of this.feeds) {
      if (freed.has(id)) {
        feed.replace([]);
        this.feeds.delete(id);
      } else if (thinned.has(id) && feed.rows().length > THINNED_POINTS) {
        feed.replace(boundSeries(feed.rows(), THINNED_POINTS));
      }
    }
  }
}

/**
 * A source over an array that a caller replaces as it grows (React state holding samples): a new
 * array that extends the old one counts as appended rows, anything else as replaced rows.
 */
export class ArraySource<R> extends ChangingSource<R> {
  protected list: readonly R[];

  constructor(rows: readonly R[], runId: string | null = null) {
    super(runId);
    this.list = rows;
  }

  set(rows: readonly R[]): void {
    if (rows === this.list) return;
    const old = this.list;
    const appended = rows.length >= old.length && (old.length === 0 || rows[old.length - 1] === old[old.length - 1]);
    if (!appended) this.gen += 1;
    this.list = rows;
    this.notify();
  }
}
