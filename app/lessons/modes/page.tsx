import type { Metadata } from 'next';
import { ModesExplorer } from '@/labs/streams/view/ModesExplorer';

export const metadata: Metadata = { title: 'Stream modes · Stream Lab' };

/** Stream-modes explorer: every value is measured by the server when the page asks. */
export default function Page() {
  return <ModesExplorer />;
}
