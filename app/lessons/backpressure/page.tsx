import type { Metadata } from 'next';
import { BackpressureWalkthrough } from '@/labs/streams/view/Walkthrough';

export const metadata: Metadata = { title: 'Push vs pull, step by step · Stream Lab' };

/** The guided walkthrough: live runs over the lab socket, conclusions computed from them. */
export default function Page() {
  return <BackpressureWalkthrough />;
}
