import type { Metadata } from 'next';
import { HotcodeWalkthrough } from '@/labs/hotcode/view/Walkthrough';

export const metadata: Metadata = { title: 'Hot code, step by step · Stream Lab' };

/** The hot-code walkthrough: live runs of the hot-code lab over the lab socket, conclusions computed from them. */
export default function Page() {
  return <HotcodeWalkthrough />;
}
