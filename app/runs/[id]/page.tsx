import type { Metadata } from 'next';
import { RunDetailView } from '@/components/history/RunDetailView';

export const metadata: Metadata = { title: 'Recorded run · Stream Lab' };

/** One recorded run; the id is validated by the view (and again by the API). */
export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunDetailView id={id} />;
}
