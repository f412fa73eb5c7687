/**
 * SVG chart renderers (issue #14, "charts as pictures"): pure functions from the stats results
 * (src/domain/stats) to SVG text, light and dark variants, deterministic output.
 */
export * from './svg';
export * from './radar-chart';
export * from './trend-chart';
export * from './distribution-chart';
export * from './cards';
