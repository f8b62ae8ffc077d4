import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: Array<number | null>;
  color: string;
}

interface Props {
  /** Read by screen readers instead of the canvas; the same figures are in a table beside the chart. */
  summary: string;
  /** One label per bar group, already formatted the way the page writes it (a name, a day, a month). */
  labels: string[];
  series: Series[];
  /** A value with its unit, for the value axis and the tooltip ("€1,200.00", "12 transactions"). */
  format: (value: number) => string;
  /** The value axis's title: its unit or currency ("EUR", "Transactions"). */
  unit: string;
  height?: number;
}

/** Category labels longer than this are cut on the axis (the tooltip and the table keep them whole). */
const AXIS_LABEL_CHARS = 16;
/** Share of a category's width the bars of one group take together; the rest is the gap between groups. */
const GROUP_WIDTH = 0.8;

const cut = (label: string) => (label.length > AXIS_LABEL_CHARS ? `${label.slice(0, AXIS_LABEL_CHARS - 1)}…` : label);

/**
 * The value scale always holds zero, so a bar's length is its value: 2 and 8 read as a quarter, not a ninth (issue 45,
 * the providers' axis started at 1.3). Padded by a tenth beyond the data on the side away from zero.
 */
function valueRange(_u: uPlot, dataMin: number | null, dataMax: number | null): uPlot.Range.MinMax {
  const low = Math.min(0, dataMin ?? 0);
  const high = Math.max(0, dataMax ?? 0);
  if (low === high) return [0, 1];
  const [paddedLow, paddedHigh] = uPlot.rangeNum(low, high, 0.1, true);
  return [low === 0 ? 0 : paddedLow, high === 0 ? 0 : paddedHigh];
}

/** Bars of series `index` of `count`, side by side inside their group so that the group is centred on its label. */
function barsOf(index: number, count: number): uPlot.Series.PathBuilder | undefined {
  const size = GROUP_WIDTH / count;
  const align = count === 1 ? 0 : index === 0 ? -1 : 1;
  return uPlot.paths.bars?.({ size: [size, 64 / count], align: count > 2 ? 0 : align, gap: 1, each: recordBar });
}

/**
 * Each drawn bar's box in canvas pixels, kept on the chart's element with the plot's box and the value scale after
 * every draw (`data-bars`, `data-plot`, `data-y-min`, `data-count` of categories): the browser tests read what was drawn, not what was meant.
 */
const drawn = new WeakMap<uPlot, number[][]>();
function recordBar(u: uPlot, seriesIdx: number, _idx: number, left: number, top: number, width: number, height: number): void {
  drawn.get(u)?.push([seriesIdx, left, top, width, height]);
}

function tooltipHook(tip: HTMLDivElement, props: Props) {
  return (u: uPlot) => {
    const index = u.cursor.idx;
    if (index === null || index === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
      tip.hidden = true;
      return;
    }
    tip.replaceChildren();
    const title = document.createElement('strong');
    title.textContent = props.labels[index] ?? '';
    tip.append(title);
    for (const series of props.series) {
      const line = document.createElement('div');
      const value = series.values[index];
      line.textContent = `${series.label}: ${value === null || value === undefined ? 'none' : props.format(value)}`;
      tip.append(line);
    }
    tip.hidden = false;
    const width = u.over.clientWidth;
    tip.style.left = `${Math.min(u.cursor.left + 12, Math.max(0, width - tip.offsetWidth))}px`;
    tip.style.top = `${Math.max(0, (u.cursor.top ?? 0) - tip.offsetHeight - 8)}px`;
  };
}

function options(width: number, height: number, props: Props, tip: HTMLDivElement, element: HTMLElement): uPlot.Options {
  const count = props.labels.length;
  return {
    width,
    height,
    legend: { show: false },
    cursor: { points: { show: false }, drag: { x: false, y: false } },
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(count, 1) - 0.5] },
      y: { range: valueRange },
    },
    axes: [
      {
        values: (_u, splits) => splits.map((split) => (Number.isInteger(split) ? cut(props.labels[split] ?? '') : '')),
        incrs: [1, 2, 3, 4, 5, 7, 10, 14, 15, 20, 30, 50, 100],
        space: 84,
        gap: 6,
        size: 40,
      },
      { label: props.unit, labelSize: 20, values: (_u, splits) => splits.map(props.format), size: 90 },
    ],
    series: [
      {},
      ...props.series.map((series, index) => ({
        label: series.label,
        stroke: series.color,
        width: 1,
        fill: `${series.color}cc`,
        paths: barsOf(index, props.series.length),
        points: { show: false },
      })),
    ],
    hooks: {
      drawClear: [(u) => void drawn.set(u, [])],
      draw: [
        (u) => {
          element.dataset.bars = JSON.stringify(drawn.get(u) ?? []);
          element.dataset.plot = JSON.stringify(u.bbox);
          element.dataset.yMin = String(u.scales.y?.min ?? '');
          element.dataset.count = String(count);
        },
      ],
      setCursor: [tooltipHook(tip, props)],
    },
  };
}

/**
 * A uPlot bar chart over categories that follows its container's width: the value axis from zero with its unit,
 * edge bars whole (the category scale runs half a category beyond the first and last), a legend of the series
 * and a tooltip with units instead of uPlot's live legend (whose idle state reads "Time: --").
 */
export default function Chart(props: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const height = props.height ?? 260;
    const tip = document.createElement('div');
    tip.className = 'chart-tip';
    tip.hidden = true;
    const data = [props.labels.map((_, index) => index), ...props.series.map((series) => series.values)] as uPlot.AlignedData;
    const plot = new uPlot(options(Math.max(element.clientWidth, 200), height, props, tip, element), data, element);
    plot.over.append(tip);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props]);
  return (
    <figure className="chart-figure">
      <div ref={box} className="chart" role="img" aria-label={props.summary} data-chart="bar" />
      <figcaption className="chart-legend">
        {props.series.map((series) => (
          <span key={series.label}>
            <span className="chart-swatch" style={{ background: series.color }} />
            {series.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
