// A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be a HELP, a TYPE, a
// blank line or a sample of a declared family; label values must be properly quoted and escaped; a histogram's
// buckets must be cumulative and end with +Inf equal to its _count. Throws on the first violation, naming the line.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
  /** The value of the one sample named `name` whose labels include `labels`; undefined when none matches. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample named `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value "${text}" in: ${line}`);
  return Number(text);
}

/** Labels `{a="x",b="y"}` from position 0 of `text`; returns them and the rest of the text. */
function parseLabels(text: string, line: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === '}') return { labels, rest: text.slice(i + 1) };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`unterminated labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name "${name}" in: ${line}`);
    if (name in labels) throw new Error(`label "${name}" twice in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else if (text[j] === '\n') throw new Error(`raw newline in a label value: ${line}`);
      else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`expected , or } in: ${line}`);
  }
}

/** The family a sample belongs to: histogram and summary samples carry a suffix. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      const type = types.get(base);
      if (type === 'histogram' || (type === 'summary' && suffix !== '_bucket')) return base;
    }
  }
  return undefined;
}

const includes = (labels: Record<string, string>, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([k, v]) => labels[k] === v);

export function parseExposition(text: string): Exposition {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const seen = new Set<string>();
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) {
        if (/^# (HELP|TYPE)/.test(line)) throw new Error(`malformed comment: ${line}`);
        continue; // other comments are allowed
      }
      const [, kind, name, rest] = match;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`unknown type in: ${line}`);
        if (types.has(name)) throw new Error(`TYPE twice for ${name}`);
        if (samples.some((s) => familyOf(s.name, new Map([[name, rest]])) === name)) throw new Error(`TYPE after samples of ${name}`);
        types.set(name, rest);
      } else {
        if (helps.has(name)) throw new Error(`HELP twice for ${name}`);
        helps.add(name);
      }
      continue;
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nameMatch) throw new Error(`not a sample: ${line}`);
    const name = nameMatch[0];
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, rest } = parseLabels(rest, line));
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2) throw new Error(`malformed sample: ${line}`);
    const value = parseValue(parts[0], line);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`bad timestamp in: ${line}`);
    if (familyOf(name, types) === undefined) throw new Error(`sample of an undeclared family: ${line}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`duplicate sample: ${line}`);
    seen.add(key);
    samples.push({ name, labels, value });
  }
  checkHistograms(samples, types);
  const find = (name: string, labels: Record<string, string> = {}) => samples.filter((s) => s.name === name && includes(s.labels, labels));
  return {
    samples,
    types,
    find,
    value(name, labels = {}) {
      const found = find(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

function checkHistograms(samples: Sample[], types: Map<string, string>): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
    const keyOf = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).filter(([k]) => k !== 'le').sort());
    for (const s of samples) {
      if (s.name !== `${family}_bucket` && s.name !== `${family}_count`) continue;
      const entry = series.get(keyOf(s.labels)) ?? { buckets: [] };
      series.set(keyOf(s.labels), entry);
      if (s.name.endsWith('_count')) entry.count = s.value;
      else {
        if (s.labels.le === undefined) throw new Error(`${family} bucket without le`);
        entry.buckets.push([parseValue(s.labels.le, s.labels.le), s.value]);
      }
    }
    for (const [key, { buckets, count }] of series) {
      const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
      if (sorted.at(-1)?.[0] !== Infinity) throw new Error(`${family}${key} has no +Inf bucket`);
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i][1] < sorted[i - 1][1]) throw new Error(`${family}${key} buckets are not cumulative`);
      }
      if (sorted.at(-1)![1] !== count) throw new Error(`${family}${key}: +Inf bucket ${sorted.at(-1)![1]} ≠ _count ${count}`);
    }
  }
}
