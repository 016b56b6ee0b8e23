import type { Metadata } from 'next';
import { RunHistory } from '@/components/history/RunHistory';

export const metadata: Metadata = { title: 'Run history · Stream Lab' };

/** Recorded runs: list, filters, delete, pick runs to compare. */
export default function RunsPage() {
  return <RunHistory />;
}
