/**
 * A run's life as named phases, with every allowed move in one table: what can happen to a run in
 * which phase is read here, not pieced together from flags. Illegal moves throw (a bug, not a
 * run's outcome), so a second ending can't slip through.
 *
 *   launching ──fork──▶ running ──'done' message──▶ reported ──close──▶ closed
 *       │                  │                                            ▲
 *       │                  └──stop / budget / watchdog / bad message──▶ ending ──close──┘
 *       └──stop before the fork, or the launch failed───────────────────────────────────┘
 *   running ──close without 'done' (a crash, an abort)──▶ closed
 */
import type { Outcome } from '../../lib/protocol';

export type RunPhase = 'launching' | 'running' | 'reported' | 'ending' | 'closed';

const MOVES: Readonly<Record<RunPhase, readonly RunPhase[]>> = {
  launching: ['running', 'closed'],
  running: ['reported', 'ending', 'closed'],
  // The child reported done: the outcome is its own, a late stop changes nothing.
  reported: ['closed'],
  ending: ['closed'],
  closed: [],
};

/** The outcome the runner decided from outside (first decision wins), before the child has closed. */
export interface Decision {
  outcome: Outcome;
  reason: string | null;
}

export class RunLifecycle {
  #phase: RunPhase = 'launching';
  #decision: Decision | null = null;

  get phase(): RunPhase {
    return this.#phase;
  }

  get decision(): Decision | null {
    return this.#decision;
  }

  can(to: RunPhase): boolean {
    return MOVES[this.#phase].includes(to);
  }

  go(to: RunPhase): void {
    if (!this.can(to)) throw new Error(`run lifecycle: no move from ${this.#phase} to ${to}`);
    this.#phase = to;
  }

  /**
   * Records an outside decision if the run can still take one (launching or running); returns
   * whether it did. A running run moves to ending; a launching one stays until the launch sees it.
   */
  decide(decision: Decision): boolean {
    if (this.#decision || (this.#phase !== 'launching' && this.#phase !== 'running')) return false;
    this.#decision = decision;
    if (this.#phase === 'running') this.go('ending');
    return true;
  }
}
