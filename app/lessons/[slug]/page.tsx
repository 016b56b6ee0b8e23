import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LESSONS } from '@/labs/lessons';
import { findLesson } from '@/labs/views';

interface Props {
  params: Promise<{ slug: string }>;
}

/** Every lab's lessons, rendered at build time. */
export function generateStaticParams() {
  return LESSONS.map((l) => ({ slug: l.slug }));
}

/** A lesson not in any lab's view is a 404, not another lesson. */
export const dynamicParams = false;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const lesson = findLesson((await params).slug);
  return { title: lesson?.title ?? 'No such lesson · Stream Lab' };
}

/** /lessons/<slug>: the lesson a lab's view names (labs/<lab>/view/index.tsx `lessons`). */
export default async function Page({ params }: Props) {
  const lesson = findLesson((await params).slug);
  if (!lesson) notFound();
  return <lesson.Page />;
}
