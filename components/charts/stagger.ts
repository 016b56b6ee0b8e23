'use client';

/**
 * Spreads chart redraws over animation frames: when many live charts change at once, each one
 * redraws on its own frame instead of all in one long task, so clicks and typing get in between.
 */
import { useEffect, useRef, useState } from 'react';

/** Charts waiting for their frame, in the order they asked (a Set keeps insertion order). */
const waiting = new Set<() => void>();
let frame: number | null = null;

function drain(): void {
  frame = null;
  const next = waiting.values().next();
  if (next.done) return;
  waiting.delete(next.value);
  next.value();
  if (waiting.size > 0) frame = requestAnimationFrame(drain);
}

/**
 * The latest `value`, adopted on this component's turn (at most one component per frame). A value
 * that changes again while waiting keeps its place in the line, so no chart is starved.
 */
export function useStaggered<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const apply = useRef<(() => void) | null>(null);

  useEffect(() => {
    latest.current = value;
    if (Object.is(value, shown) || apply.current) return;
    const adopt = () => {
      apply.current = null;
      setShown(latest.current);
    };
    apply.current = adopt;
    waiting.add(adopt);
    frame ??= requestAnimationFrame(drain);
  }, [value, shown]);

  useEffect(
    () => () => {
      if (apply.current) waiting.delete(apply.current);
    },
    [],
  );
  return shown;
}
