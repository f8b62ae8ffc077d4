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
  /** Unix seconds (time axis) or category labels (bar chart). */
  x: number[] | string[];
  series: Series[];
  kind: 'line' | 'bar';
  height?: number;
}

function options(width: number, height: number, props: Props): uPlot.Options {
  const categories = typeof props.x[0] === 'string' ? (props.x as string[]) : null;
  const bars = uPlot.paths.bars?.({ size: [0.6, 48] });
  return {
    width,
    height,
    scales: { x: { time: !categories } },
    axes: [categories ? { values: (_u, splits) => splits.map((split) => categories[split] ?? ''), gap: 6, size: 40 } : {}, { size: 70 }],
    legend: { show: true },
    series: [
      {},
      ...props.series.map((series) => ({
        label: series.label,
        stroke: series.color,
        width: 2,
        fill: props.kind === 'bar' ? `${series.color}cc` : undefined,
        paths: props.kind === 'bar' ? bars : undefined,
        points: { show: props.kind === 'line' },
      })),
    ],
  };
}

/** A uPlot chart that follows its container's width. */
export default function Chart(props: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const height = props.height ?? 260;
    const xs = typeof props.x[0] === 'string' ? props.x.map((_, index) => index) : (props.x as number[]);
    const data = [xs, ...props.series.map((series) => series.values)] as uPlot.AlignedData;
    const plot = new uPlot(options(Math.max(element.clientWidth, 300), height, props), data, element);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 300), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props]);
  return <div ref={box} className="chart" role="img" aria-label={props.summary} />;
}
