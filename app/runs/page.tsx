import type { Metadata } from 'next';
import { RunHistory } from '@/components/history/RunHistory';
import { parseListQuery } from '@/lib/history';

export const metadata: Metadata = { title: 'Run history · Stream Lab' };

type Search = Record<string, string | string[] | undefined>;

/** Recorded runs: list, filters (from the URL: /runs?lab=…&strategy=…&outcome=…), delete, pick runs to compare. */
export default async function RunsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const raw = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  // A bad filter in a link is dropped and named on the page; the list then shows every run.
  const parsed = parseListQuery(new URLSearchParams({ lab: one(raw.lab), strategy: one(raw.strategy), outcome: one(raw.outcome) }));
  const filters = parsed.ok ? parsed.value : { lab: null, strategy: null, outcome: null };
  return (
    <RunHistory
      initialLab={filters.lab ?? ''}
      initialStrategy={filters.strategy ?? ''}
      initialOutcome={filters.outcome ?? ''}
      linkError={parsed.ok ? null : `The link's filter was ignored: ${parsed.error}.`}
    />
  );
}
