declare module 'parse-prometheus-text-format' {
  /** Parses Prometheus text exposition into prom2json-shaped families (values as strings). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
