import type { Metadata } from 'next';
import { toQueryString } from '@/components/history/api';
import { EmbedExperiment } from '@/components/embed/EmbedExperiment';

export const metadata: Metadata = { title: 'Stream Lab experiment' };

/** Embeddable preset experiment with a Start button: same parameters as a shared lab link. */
export default async function EmbedExperimentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <EmbedExperiment query={toQueryString(await searchParams)} />;
}
