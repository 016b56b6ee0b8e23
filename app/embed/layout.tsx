import type { ReactNode } from 'react';
import { EmbedHeight } from '@/components/embed/EmbedHeight';

/** Every embed reports its content's height to the page framing it (components/embed/EmbedHeight.tsx). */
export default function EmbedLayout({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <EmbedHeight />
    </>
  );
}
