import type { Metadata } from 'next';
import { RunComparison } from '@/components/history/RunComparison';

export const metadata: Metadata = { title: 'Stream Lab comparison' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(',') : (v ?? null));

/** Embeddable comparison of recorded runs: /embed/compare?ids=a,b&metric=rss */
export default async function EmbedComparePage({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  return <RunComparison idsParam={one(q.ids)} metricParam={one(q.metric)} embed />;
}
