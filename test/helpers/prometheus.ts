/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for tests: every
 * line is a `# HELP`, a `# TYPE`, another comment, blank, or a sample `name{label="value",…} value
 * [timestamp]`; a sample must belong to a family declared by `# TYPE` before it (histogram samples
 * as `<name>_bucket|_sum|_count`), label names and escapes must be valid, values must be floats
 * (`NaN`, `+Inf`, `-Inf` allowed, in any letter case, as Prometheus reads them). Histograms are checked: buckets cumulative, `+Inf` = `_count`.
 * Anything else throws with the line number. (The npm parsers tried merge labelled histogram
 * series, so they cannot check per-label series.)
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function parseValue(raw: string, line: number): number {
  // Prometheus reads a value with Go's strconv.ParseFloat: NaN and Inf in any letter case (prom-client
  // writes a gauge with no sample yet — the event-loop delay between two scrapes 10 ms apart — as `Nan`)
  if (/^nan$/i.test(raw)) return NaN;
  if (/^\+?inf(inity)?$/i.test(raw)) return Infinity;
  if (/^-inf(inity)?$/i.test(raw)) return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`line ${line}: bad value '${raw}'`);
  return Number(raw);
}

function parseLabels(text: string, line: number): [Record<string, string>, string] {
  const labels: Record<string, string> = {};
  let i = 0;
  for (;;) {
    if (text[i] === '}') return [labels, text.slice(i + 1)];
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${line}: label without '='`);
    const name = text.slice(i, eq).trim();
    if (!LABEL.test(name)) throw new Error(`line ${line}: bad label name '${name}'`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`line ${line}: bad escape '\\${next}'`);
      } else value += text[j];
    }
    if (j >= text.length) throw new Error(`line ${line}: unterminated label value`);
    if (name in labels) throw new Error(`line ${line}: label '${name}' twice`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`line ${line}: expected ',' or '}' after a label`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const help = new Map<string, string>();
  const lines = text.split('\n');
  if (lines[lines.length - 1] !== '') throw new Error('the exposition must end with a newline');
  lines.forEach((raw, idx) => {
    const n = idx + 1;
    const line = raw.trimEnd();
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // other comments
      const [, kind, name, rest] = m;
      if (!NAME.test(name)) throw new Error(`line ${n}: bad metric name '${name}'`);
      if (kind === 'HELP') help.set(name, rest);
      else {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest))
          throw new Error(`line ${n}: bad type '${rest}'`);
        if (families.has(name)) throw new Error(`line ${n}: TYPE of '${name}' twice`);
        families.set(name, { name, type: rest as Family['type'], help: help.get(name) ?? '', samples: [] });
      }
      return;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{)?(.*)$/.exec(line);
    if (!m) throw new Error(`line ${n}: not a sample: ${line}`);
    const [, name, brace, after] = m;
    let labels: Record<string, string> = {};
    let tail = after;
    if (brace) [labels, tail] = parseLabels(after, n);
    const parts = tail.trim().split(/\s+/);
    if (parts.length < 1 || parts.length > 2 || parts[0] === '')
      throw new Error(`line ${n}: expected a value [and a timestamp]`);
    const value = parseValue(parts[0], n);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`line ${n}: bad timestamp`);
    const family =
      families.get(name) ??
      [...families.values()].find(
        (f) =>
          (f.type === 'histogram' || f.type === 'summary') &&
          /_(bucket|sum|count)$/.test(name) &&
          name.replace(/_(bucket|sum|count)$/, '') === f.name,
      );
    if (!family) throw new Error(`line ${n}: sample '${name}' of no declared family`);
    if (family.type === 'histogram' && name.endsWith('_bucket') && labels.le === undefined)
      throw new Error(`line ${n}: bucket without le`);
    family.samples.push({ name, labels, value });
  });
  for (const f of families.values()) {
    if (f.type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of f.samples) {
      const { le: _le, ...rest } = s.labels;
      const key = JSON.stringify(Object.entries(rest).sort());
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, samples] of series) {
      const buckets = samples.filter((s) => s.name.endsWith('_bucket'));
      const count = samples.find((s) => s.name.endsWith('_count'))?.value;
      for (let i = 1; i < buckets.length; i++)
        if (buckets[i].value < buckets[i - 1].value) throw new Error(`${f.name} ${key}: buckets not cumulative`);
      const inf = buckets.find((b) => b.labels.le === '+Inf');
      if (!inf || inf.value !== count) throw new Error(`${f.name} ${key}: +Inf bucket ${inf?.value} ≠ count ${count}`);
    }
  }
  return families;
}
