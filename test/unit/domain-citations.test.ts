/**
 * The domain lives in the repository (docs/domain/): code cites those pages, never the outside
 * spec it was first written from, and every cited page and anchor exists.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const FORBIDDEN: [RegExp, string][] = [
  [/domain-(stats|scores|social)\b/, 'a section of the outside spec (domain-stats / domain-scores / domain-social)'],
  [/\.\.\/shared\/(spec|data)\b/, 'a file of ../shared'],
  [/(?<!docs\/domain\/)\bbpi\.md\b/, 'the outside bpi.md'],
  // a bare section number (§3.9) is the outside spec's numbering; RFC sections (RFC 6749 §4.1.2) are fine
  [/^(?!.*\bRFC\b).*§ ?\d/, 'a section number of the outside spec'],
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sources(p);
    return /\.(ts|md)$/.test(e.name) ? [p] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');

describe('domain citations', () => {
  const files = sources(path.join(ROOT, 'src'));

  it('src/ cites docs/domain/, not the outside spec', () => {
    const found: string[] = [];
    for (const f of files) {
      fs.readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [re, what] of FORBIDDEN)
            if (re.test(line))
              found.push(
                `${path.relative(ROOT, f)}:${i + 1} cites ${what}: cite docs/domain/<page>.md#<anchor> instead`,
              );
        });
    }
    expect(found).toEqual([]);
  });

  it('every cited docs/domain page and anchor exists', () => {
    const anchors = new Map<string, Set<string>>();
    const missing: string[] = [];
    for (const f of files) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/docs\/domain\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
        const page = path.join(ROOT, 'docs/domain', m[1]);
        if (!anchors.has(page)) {
          anchors.set(
            page,
            fs.existsSync(page)
              ? new Set([...fs.readFileSync(page, 'utf8').matchAll(/^#+ (.+)$/gm)].map((h) => slug(h[1])))
              : new Set(),
          );
          if (!fs.existsSync(page)) missing.push(`${path.relative(ROOT, f)}: docs/domain/${m[1]} does not exist`);
        }
        if (m[2] && !anchors.get(page)!.has(m[2]))
          missing.push(`${path.relative(ROOT, f)}: docs/domain/${m[1]} has no heading #${m[2]}`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });
});
