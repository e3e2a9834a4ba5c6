import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line (or bars) of a chart: a value per time, null where there is none. */
export interface ChartSeries {
  label: string;
  values: ReadonlyArray<number | null>;
  color: string;
  /** Drawn as bars (counts per bucket) rather than a line. */
  bars?: boolean;
  /** A second y axis (on the right) for a series of another unit. */
  right?: boolean;
}

export interface ChartProps {
  /** The chart's title, its table's caption, and what a screen reader hears first. */
  title: string;
  /** The buckets' first instants (ms since the epoch), one per value of every series. */
  times: readonly number[];
  /** The buckets as the table shows them (the time axis is drawn in the browser's zone). */
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** A value as text (the legend on hover and the table). */
  format?: (n: number) => string;
  height?: number;
}

const plain = (n: number): string => String(Math.round(n * 100) / 100);

/**
 * A uPlot chart (canvas: drawn by script, so the console's strict CSP holds; uPlot sets no inline
 * style attribute) that follows its box's width, with the values of the bucket under the pointer in
 * its legend; and the same numbers as a table beneath it for keyboard and screen-reader users.
 */
export function Chart({ title, times, labels, series, format = plain, height = 220 }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const right = series.some((s) => s.right);
    // Half a bucket of room on either side, so the first and last bars are whole (and one point is centred).
    const xs = times.map((t) => t / 1000);
    const half = (xs.length > 1 ? xs[1] - xs[0] : 86_400) / 2;
    const range: uPlot.Range.MinMax = [(xs[0] ?? 0) - half, (xs.at(-1) ?? 0) + half];
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height,
        legend: { live: true },
        cursor: { points: { size: 6 } },
        scales: { x: { time: true, range: () => range } },
        axes: [
          {},
          { values: (_u, ticks) => ticks.map(format), size: 60 },
          ...(right
            ? [{ side: 1, scale: 'right', grid: { show: false }, values: (_u: uPlot, t: number[]) => t.map(format) }]
            : []),
        ],
        series: [
          { label: 'Date', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toLocaleDateString()) },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            fill: s.bars ? `${s.color}55` : undefined,
            width: s.bars ? 1 : 2,
            scale: s.right ? 'right' : 'y',
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)),
            ...(s.bars && { paths: uPlot.paths.bars?.({ size: [0.7, 40] }) }),
          })),
        ],
      },
      [xs, ...series.map((s) => [...s.values])],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, series, height, format]);

  const span = `from ${labels[0] ?? '—'} to ${labels.at(-1) ?? '—'}`;
  const summary = `${title}, ${span}: ${series.map((s) => s.label).join(', ')}; the numbers are in the table below`;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} class="chart-box" role="img" aria-label={summary} />
      <details class="chart-table">
        <summary>{title} as a table</summary>
        <div class="scroll">
          <table>
            <caption class="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                {series.map((s) => (
                  <th key={s.label} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {series.map((s) => {
                    const v = s.values[i];
                    return (
                      <td key={s.label} data-label={s.label}>
                        {v === null || v === undefined ? '—' : format(v)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
