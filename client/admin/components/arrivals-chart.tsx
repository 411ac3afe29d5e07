import { For, type JSX } from 'solid-js';
import { barRects, type Bar } from '../arrivals';
import { intlLocale, t } from '../../i18n/i18n';

/** The bars' clock in the reader's locale, one formatter per locale. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();
function formatClock(ms: number): string {
  const tag = intlLocale();
  let format = timeFormats.get(tag);
  if (!format) timeFormats.set(tag, (format = new Intl.DateTimeFormat(tag, { timeStyle: 'short' })));
  return format.format(ms);
}

/** Scans per 5 minutes as a small inline SVG; the numbers are also in a visually hidden table for screen readers. */
export function ArrivalsChart(props: { bars: Bar[]; label: string }): JSX.Element {
  const width = 360;
  const height = 80;
  const rects = () => barRects(props.bars, width, height);
  const total = () => props.bars.reduce((sum, b) => sum + b.scans, 0);
  const first = () => props.bars[0];
  const last = () => props.bars.at(-1);
  return (
    <figure class="arrivals">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('admin.arrivals.summary', { label: props.label, count: total(), minutes: props.bars.length * 5 })}
      >
        <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} class="arrivals-axis" />
        <For each={rects()}>
          {(r) => (
            <rect x={r.x} y={r.y} width={r.width} height={r.height} class="arrivals-bar">
              <title>{t('admin.arrivals.bar', { time: formatClock(r.startMs), count: r.scans })}</title>
            </rect>
          )}
        </For>
      </svg>
      <figcaption class="arrivals-caption">
        <span>{first() ? formatClock(first()!.startMs) : ''}</span>
        <span>{t('admin.arrivals.caption')}</span>
        <span>{last() ? formatClock(last()!.startMs) : ''}</span>
      </figcaption>
    </figure>
  );
}
