'use client';

import { useEffect, useState } from 'react';
import { ArraySource, type SampleSource } from '@/components/charts/sample-source';

/** A chart source that follows an array held in React state (one source for the component's life). */
export function useArraySource<R>(rows: readonly R[]): SampleSource<R> {
  const [source] = useState(() => new ArraySource(rows));
  useEffect(() => source.set(rows), [source, rows]);
  return source;
}
