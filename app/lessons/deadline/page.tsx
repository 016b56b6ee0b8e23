import type { Metadata } from 'next';
import { DeadlineWalkthrough } from '@/labs/deadline/view/Walkthrough';

export const metadata: Metadata = { title: 'Deadlines under a traffic spike, step by step · Stream Lab' };

/** The deadlines walkthrough: live runs of the deadlines lab over the lab socket, conclusions computed from them. */
export default function Page() {
  return <DeadlineWalkthrough />;
}
