import type { Metadata } from 'next';
import { RunComparison } from '@/components/history/RunComparison';

export const metadata: Metadata = { title: 'Compare runs · Stream Lab' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(',') : (v ?? null));

/** /runs/compare?ids=a,b[,…]&metric=arrayBuffers */
export default async function ComparePage({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  return <RunComparison idsParam={one(q.ids)} metricParam={one(q.metric)} />;
}
