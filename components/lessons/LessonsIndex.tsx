/** The lessons' landing page: what each lesson teaches and a link to it. */
import Link from 'next/link';
import { LESSONS } from '@/labs/lessons';
import { LessonsNav } from './LessonsNav';

export function LessonsIndex() {
  return (
    <>
      <LessonsNav current="index" />
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>Lessons</h1>
          <p>
            The dashboard shows <em>that</em> a push reader such as RxJS <code>from(stream)</code> buffers the whole file. These lessons show <em>why</em>, with
            values measured live on this server.
          </p>
        </header>
        <ul className="lessons-list">
          {LESSONS.map((l) => (
            <li key={l.slug} className="panel">
              <h2>
                <Link href={`/lessons/${l.slug}`}>{l.heading}</Link>
              </h2>
              <p>{l.blurb}</p>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
