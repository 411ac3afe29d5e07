import { For, type JSX } from 'solid-js';
import { barRects, type Bar } from '../arrivals';

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

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
        aria-label={`${props.label}: ${total()} scans in the last ${props.bars.length * 5} minutes`}
      >
        <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} class="arrivals-axis" />
        <For each={rects()}>
          {(r) => (
            <rect x={r.x} y={r.y} width={r.width} height={r.height} class="arrivals-bar">
              <title>
                {timeFormat.format(r.startMs)}: {r.scans} scans
              </title>
            </rect>
          )}
        </For>
      </svg>
      <figcaption class="arrivals-caption">
        <span>{first() ? timeFormat.format(first()!.startMs) : ''}</span>
        <span>Scans per 5 minutes</span>
        <span>{last() ? timeFormat.format(last()!.startMs) : ''}</span>
      </figcaption>
    </figure>
  );
}
