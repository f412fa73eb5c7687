/**
 * No `Promise.all` over the statements of one interactive transaction anywhere in src/: a
 * transaction is one pg connection, and statements started together queue inside pg ("Calling
 * client.query() when the client is already executing a query" — deprecated, gone in pg 9).
 * Such code awaits them one after the other (src/db/in-order.ts). src/db/client.ts serialises a
 * transaction's statements anyway; this test finds the code that relied on it.
 *
 * Heuristic on the source text: the argument list of each `Promise.all(`/`Promise.allSettled(`
 * must not mention `tx.` (the name every transaction callback in src/ gives its client).
 */
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** The text between the parenthesis at `open` and its match. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

export function parallelTxCalls(text: string): number[] {
  const lines: number[] = [];
  for (const m of text.matchAll(/Promise\.all(Settled)?\(/g)) {
    const args = argumentsAt(text, m.index + m[0].length - 1);
    if (/\btx\.\w/.test(args)) lines.push(text.slice(0, m.index).split('\n').length);
  }
  return lines;
}

describe('no Promise.all inside an interactive transaction', () => {
  it('finds the pattern it looks for (self-check)', () => {
    const sample =
      'await db.$transaction(async (tx) => {\n  const [a, b] = await Promise.all([tx.user.findMany(), tx.score.count()]);\n});';
    expect(parallelTxCalls(sample)).toEqual([2]);
    expect(parallelTxCalls('await Promise.all(ids.map((id) => db.user.findUnique({ where: { id } })));')).toEqual([]);
  });

  it('src/ has none', () => {
    const found = files(SRC).flatMap((f) =>
      parallelTxCalls(fs.readFileSync(f, 'utf8')).map((l) => `${path.relative(SRC, f)}:${l}`),
    );
    expect(found).toEqual([]);
  });
});
