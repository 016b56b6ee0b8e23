/** The message an embed posts to its host page with its content's height (components/embed/EmbedHeight.tsx). */
export const EMBED_HEIGHT_MESSAGE = 'stream-lab:height';

/**
 * What a host page adds once, after its Stream Lab frames: each frame marked data-stream-lab takes
 * the height its content reports. Without it (or with scripts off) the frame keeps its height
 * attribute: the fixed-height fallback (docs/embedding.md).
 */
export const EMBED_RESIZE_SCRIPT =
  `<script>addEventListener('message',function(e){var d=e.data;if(!d||d.type!=='${EMBED_HEIGHT_MESSAGE}'||typeof d.height!=='number')return;` +
  `document.querySelectorAll('iframe[data-stream-lab]').forEach(function(f){if(f.contentWindow===e.source)f.style.height=Math.min(d.height,20000)+'px'})})</script>`;
