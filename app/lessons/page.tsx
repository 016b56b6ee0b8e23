import type { Metadata } from 'next';
import { LessonsIndex } from '@/components/lessons/LessonsIndex';

export const metadata: Metadata = { title: 'Lessons · Stream Lab' };

/** The lessons' index: links to the modes explorer and the walkthrough. */
export default function Page() {
  return <LessonsIndex />;
}
