'use client';

/**
 * One animation-frame loop for every live chart. A chart with new data asks to be drawn; each frame
 * draws the waiting charts that are on screen, oldest request first, until the frame's budget is
 * spent, so a dozen charts never draw in one long task. Each chart redraws at most every
 * MIN_REDRAW_MS: samples arrive at up to 20/s per run, the eye does not need more. A chart out of
 * view is only synced (it takes in its rows and updates its figures, no drawing).
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

const MIN_REDRAW_MS = 100;
/** Drawing stops for this frame once this much time went to charts (one chart always draws). */
const FRAME_BUDGET_MS = 10;

const waiting = new Set<Drawable>();
let frame: number | null = null;

function schedule(): void {
  frame ??= requestAnimationFrame(tick);
}

function tick(): void {
  frame = null;
  const start = performance.now();
  let pending = false;
  for (const d of waiting) {
    const now = performance.now();
    if (d.lastDrawAt > 0 && now - d.lastDrawAt < MIN_REDRAW_MS) {
      pending = true;
      continue;
    }
    if (!d.visible) {
      waiting.delete(d);
      d.lastDrawAt = now;
      d.sync();
      continue;
    }
    if (now - start > FRAME_BUDGET_MS) {
      pending = true;
      break;
    }
    waiting.delete(d);
    d.lastDrawAt = now;
    d.draw();
  }
  if (pending) schedule();
}

/** Asks for `d` to be drawn on a coming frame (once, however often it asks). */
export function requestDraw(d: Drawable): void {
  // Re-adding moves nothing: a chart keeps its place in line while it waits.
  waiting.add(d);
  schedule();
}

/** Forgets a chart that is going away. */
export function cancelDraw(d: Drawable): void {
  waiting.delete(d);
}
