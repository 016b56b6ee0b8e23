/**
 * A chart as an image file, in the browser: the recharts <svg> is cloned into a standalone SVG
 * (white background, title, and a legend drawn in SVG, because the page's legend is HTML), and
 * that SVG is drawn onto a canvas for PNG. No server round trip, no dependency.
 */

export interface LegendEntry {
  label: string;
  color: string;
  dashed?: boolean;
}

const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
const TITLE_H = 28;
const LEGEND_ROW_H = 18;

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Lays legend entries out in rows that fit the width (text width estimated at 6.6 px per char at 12 px). */
function legendSvg(entries: readonly LegendEntry[], width: number, top: number): { svg: string; height: number } {
  let x = 12;
  let y = top + 12;
  const parts: string[] = [];
  for (const e of entries) {
    const w = 26 + e.label.length * 6.6 + 16;
    if (x + w > width && x > 12) {
      x = 12;
      y += LEGEND_ROW_H;
    }
    parts.push(
      `<line x1="${x}" y1="${y - 4}" x2="${x + 20}" y2="${y - 4}" stroke="${escapeXml(e.color)}" stroke-width="2.5"${e.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
      `<text x="${x + 26}" y="${y}" font-size="12" fill="#1d2330">${escapeXml(e.label)}</text>`,
    );
    x += w;
  }
  return { svg: parts.join(''), height: y - top + 8 };
}

/** The legend entries a chart shows (its visible series, then reference lines), read from its legend's data-*. */
export function legendFromChart(container: HTMLElement): LegendEntry[] {
  const items = container.querySelectorAll<HTMLElement>('.chart-legend [data-label]');
  return [...items]
    .filter((el) => el.dataset.hidden !== 'true')
    .map((el) => ({ label: el.dataset.label ?? '', color: el.dataset.color ?? '#000000', dashed: el.dataset.dashed === 'true' }));
}

/** A standalone SVG document of the chart drawn inside `container`; throws if it has not been drawn. */
export function chartToSvg(container: HTMLElement, title: string, legend: readonly LegendEntry[]): { svg: string; width: number; height: number } {
  const surface = container.querySelector<SVGSVGElement>('svg.recharts-surface');
  if (!surface) throw new Error('the chart has not been drawn yet');
  const box = surface.getBoundingClientRect();
  const width = Math.round(box.width);
  const chartH = Math.round(box.height);
  const clone = surface.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('x', '0');
  clone.setAttribute('y', String(TITLE_H));
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(chartH));
  clone.removeAttribute('style');
  const inner = new XMLSerializer().serializeToString(clone);
  const leg = legendSvg(legend, width, TITLE_H + chartH + 4);
  const height = TITLE_H + chartH + 4 + leg.height;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<text x="12" y="19" font-size="14" font-weight="600" fill="#1d2330">${escapeXml(title)}</text>` +
    inner +
    leg.svg +
    `</svg>`;
  return { svg, width, height };
}

/** Rasterises an SVG document at `scale`× (2 = sharp on slides and high-density screens). */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
