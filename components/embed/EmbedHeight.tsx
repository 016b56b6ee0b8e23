'use client';

/**
 * Inside an iframe, tells the host page how tall the embed's content is whenever it changes, so the
 * host's few lines of script (EMBED_RESIZE_SCRIPT) size the frame to it: no inner scrollbar, no gap.
 * Only a number leaves the frame; the host checks the message came from its own frame.
 */
import { useEffect } from 'react';
import { EMBED_HEIGHT_MESSAGE } from './resize-script';

/** The bottom of the lowest element of the body, in document pixels, plus the body's bottom margin. */
function contentHeight(): number {
  const bottoms = [...document.body.children].map((c) => c.getBoundingClientRect().bottom);
  const margin = parseFloat(getComputedStyle(document.body).marginBottom) || 0;
  return Math.ceil(Math.max(0, ...bottoms) + window.scrollY + margin);
}

export function EmbedHeight() {
  useEffect(() => {
    if (window.parent === window) return;
    let last = 0;
    const post = () => {
      const height = contentHeight();
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: EMBED_HEIGHT_MESSAGE, height }, '*');
    };
    const observer = new ResizeObserver(post);
    observer.observe(document.body);
    for (const child of document.body.children) observer.observe(child);
    post();
    return () => observer.disconnect();
  }, []);
  return null;
}
