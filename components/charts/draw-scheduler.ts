'use client';

/**
 * One animation-frame loop for every live chart. A chart with new data asks to be drawn; each frame
 * draws the waiting charts that are on screen, oldest request first, until the frame's budget is
 * spent, so charts redraw in short tasks spread over frames: on a busy machine a task's time
 * stretches, and many short ones stay under 50 ms where one round of all charts did not (measured,
 * see docs/results.md). Each chart redraws at most every REDRAW_INTERVAL_MS; its first draw with
 * data never waits. A chart out of view is only synced (takes in its rows, updates its figures).
 */

export interface Drawable {
  /** False while scrolled out of view: it stays waiting and is drawn when it comes back. */
  visible: boolean;
  /** performance.now() of its last draw or sync, 0 before the first (the first draw never waits). */
  lastDrawAt: number;
  draw(): void;
  /** Takes in new rows without drawing (while out of view). */
  sync(): void;
}

/**
 * Samples arrive at up to 20/s per run; ~15 redraws a second look continuous, and with the
 * server's 50 ms batches keep a sample's age on screen under 150 ms (docs/results.md §7).
 */
export const REDRAW_INTERVAL_MS = 66;
/** A frame stops drawing once this much time went to charts (one chart always draws). */
const FRAME_BUDGET_MS = 6;

const waiting = new Set<Drawable>();
let frame: number | null = null;

/** Draw counts and times, read by `npm run bench:ui` from window.__chartDraws. */
const stats = { draws: 0, totalMs: 0, maxMs: 0, frames: 0, maxFrameMs: 0 };

function schedule(): void {
  frame ??= requestAnimationFrame(tick);
}

function tick(): void {
  frame = null;
  const start = performance.now();
  let pending = false;
  let drew = false;
  for (const d of waiting) {
    const now = performance.now();
    if (d.lastDrawAt > 0 && now - d.lastDrawAt < REDRAW_INTERVAL_MS) {
      pending = true;
      continue;
    }
    if (drew && now - start > FRAME_BUDGET_MS) {
      pending = true;
      break;
    }
    waiting.delete(d);
    d.lastDrawAt = now;
    if (!d.visible) {
      d.sync();
      continue;
    }
    d.draw();
    drew = true;
    const ms = performance.now() - now;
    stats.draws += 1;
    stats.totalMs += ms;
    stats.maxMs = Math.max(stats.maxMs, ms);
  }
  if (drew) {
    stats.frames += 1;
    stats.maxFrameMs = Math.max(stats.maxFrameMs, performance.now() - start);
  }
  if (pending || waiting.size > 0) schedule();
}

/** Asks for `d` to be drawn on a coming frame (once, however often it asks). */
export function requestDraw(d: Drawable): void {
  // Re-adding moves nothing: a chart keeps its place in line while it waits.
  waiting.add(d);
  if (typeof window !== 'undefined') (window as { __chartDraws?: typeof stats }).__chartDraws = stats;
  schedule();
}

/** Forgets a chart that is going away. */
export function cancelDraw(d: Drawable): void {
  waiting.delete(d);
}
