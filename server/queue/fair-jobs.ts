/**
 * The waiting jobs of a room, fair by owner: each browser's jobs keep their order, and the next
 * job comes from the next browser in turn (round-robin), so one browser queueing ten experiments
 * does not make everyone else wait behind all ten. Pure bookkeeping.
 */
export interface Job {
  owner: string;
  /** Runs that start together (one run, or a whole parallel experiment). */
  runIds: string[];
}

export class FairJobs {
  private readonly byOwner = new Map<string, Job[]>();
  /** Owners in turn order; the next job comes from the first. */
  private turn: string[] = [];

  add(job: Job): void {
    const list = this.byOwner.get(job.owner);
    if (list) list.push(job);
    else {
      this.byOwner.set(job.owner, [job]);
      this.turn.push(job.owner);
    }
  }

  /** The next job, taken out; its owner moves to the back of the turn. */
  next(): Job | undefined {
    const owner = this.turn.shift();
    if (owner === undefined) return undefined;
    const list = this.byOwner.get(owner)!;
    const job = list.shift()!;
    if (list.length > 0) this.turn.push(owner);
    else this.byOwner.delete(owner);
    return job;
  }

  /** Every waiting job in the order they would start if nothing were added. */
  order(): Job[] {
    const queues = this.turn.map((o) => [...this.byOwner.get(o)!]);
    const out: Job[] = [];
    while (queues.some((q) => q.length > 0)) {
      for (const q of queues) {
        const job = q.shift();
        if (job) out.push(job);
      }
    }
    return out;
  }

  clear(): void {
    this.byOwner.clear();
    this.turn = [];
  }
}
