import type { Metadata } from 'next';
import { CpuWalkthrough } from '@/labs/cpu/view/Walkthrough';

export const metadata: Metadata = { title: 'CPU-bound requests, step by step · Stream Lab' };

/** The CPU walkthrough: live runs of the CPU lab over the lab socket, conclusions computed from them. */
export default function Page() {
  return <CpuWalkthrough />;
}
