// The memory chart of the dashboard: the perf report's memory categories stacked over time, as
// an SVG area chart (newest sample at the right edge).

import { h, svg } from './dom.js';
import { formatBytes } from './figures.js';

const MEMORY_CATEGORIES = ['database', 'code', 'data', 'wasmMemory', 'wasmCode', 'unclassified'];
const COLORS = ['#3b6fb6', '#e08a2c', '#4a9e5c', '#c2484d', '#8a62b8', '#9a9a9a'];

const WIDTH = 800;
const HEIGHT = 180;
/** The bands' height; the time axis labels go below. */
const PLOT_HEIGHT = HEIGHT - 16;
/** Samples the chart has room for: at one a second, two minutes. */
export const CHART_SAMPLES = 120;

/** The x of sample `i` of `count`, right-aligned so the newest is at the edge. */
function xOf(i, count) {
  return ((CHART_SAMPLES - count + i) / (CHART_SAMPLES - 1)) * WIDTH;
}

/** One stacked band: along its top edge left to right, back along its bottom edge. */
function bandPath(lower, upper, yOf) {
  const top = upper.map((v, i) => `${xOf(i, upper.length)},${yOf(v)}`);
  const bottom = lower.map((v, i) => `${xOf(i, lower.length)},${yOf(v)}`).reverse();
  return `M${top.join('L')}L${bottom.join('L')}Z`;
}

/**
 * The chart and its legend for `samples` (perf report `memory` objects, oldest first, at most
 * CHART_SAMPLES); the legend shows the newest figures.
 */
export function memoryChart(samples) {
  const totals = samples.map((m) => MEMORY_CATEGORIES.reduce((sum, c) => sum + Number(m[c]), 0));
  const top = Math.max(1, ...totals) * 1.1;
  const yOf = (v) => PLOT_HEIGHT - (v / top) * PLOT_HEIGHT;
  let lower = samples.map(() => 0);
  const bands = MEMORY_CATEGORIES.map((category, k) => {
    const upper = samples.map((m, i) => lower[i] + Number(m[category]));
    const band = svg('path', { d: bandPath(lower, upper, yOf), fill: COLORS[k], dataset: { category } }, svg('title', {}, category));
    lower = upper;
    return band;
  });
  const grid = [top, top / 2].map((v) => svg('g', { class: 'grid' },
    svg('line', { x1: 0, x2: WIDTH, y1: yOf(v), y2: yOf(v) }),
    svg('text', { x: 4, y: yOf(v) + 13 }, formatBytes(Math.round(v)))));
  const timeAxis = [svg('text', { x: 4, y: HEIGHT - 3 }, '2 minutes ago'), svg('text', { x: WIDTH - 4, y: HEIGHT - 3, 'text-anchor': 'end' }, 'now')];
  const newest = samples.at(-1);
  return h('figure', { class: 'memory-chart' },
    svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': 'resident memory by category over the last two minutes' },
      samples.length > 1 ? bands : [], grid, timeAxis),
    h('figcaption', {}, h('ul', { class: 'legend' }, MEMORY_CATEGORIES.map((category, k) =>
      h('li', {}, h('span', { class: 'swatch', style: `background:${COLORS[k]}` }), `${category} `,
        h('strong', { dataset: { memory: category } }, newest ? formatBytes(newest[category]) : '–'))))));
}
