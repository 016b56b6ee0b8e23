import type { Metadata } from 'next';
import { HttpWalkthrough } from '@/labs/http/view/Walkthrough';

export const metadata: Metadata = { title: 'HTTP responses, step by step · Stream Lab' };

/** The HTTP walkthrough: live runs of the HTTP lab over the lab socket, conclusions computed from them. */
export default function Page() {
  return <HttpWalkthrough />;
}
