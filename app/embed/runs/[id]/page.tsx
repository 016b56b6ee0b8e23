import type { Metadata } from 'next';
import { RunDetailView } from '@/components/history/RunDetailView';

export const metadata: Metadata = { title: 'Stream Lab run' };

/** Embeddable recorded run: no navigation, for an iframe (docs/embedding.md). */
export default async function EmbedRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunDetailView id={id} embed />;
}
