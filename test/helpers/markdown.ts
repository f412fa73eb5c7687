import fs from 'node:fs';
import path from 'node:path';

/**
 * The fenced blocks of README.md and docs/**.md, for the doc tests: test/integration/docs.test.ts
 * (GraphQL documents validated and executed, JSON parsed, in `npm test`) and
 * test/drills/docs-shell.test.ts (the shell blocks run as pasted, `npm run test:docs`).
 */

export const ROOT = path.resolve(__dirname, '../..');

export interface Block {
  file: string;
  line: number;
  lang: string;
  /** What follows the language in the fence's info string (`no-run <reason>`). */
  flags: string;
  code: string;
}

function markdownFiles(): string[] {
  const out = [path.join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(path.join(ROOT, 'docs'));
  return out;
}

/** Fenced blocks (``` at any indentation, closed by ``` at the same indentation), dedented. */
function blocksOf(file: string): Block[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open || !open[2]) continue;
    const indent = open[1];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].trimEnd() !== `${indent}\`\`\``; j++)
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    blocks.push({
      file: path.relative(ROOT, file),
      line: i + 1,
      lang: open[2].toLowerCase(),
      flags: open[3].trim(),
      code: body.join('\n'),
    });
    i = j;
  }
  return blocks;
}

/** Every fenced block of README.md and docs/**.md, README first, pages in name order. */
export const ALL = markdownFiles().flatMap(blocksOf);
export const at = (b: Block) => `${b.file}:${b.line}`;
export const isShell = (b: Block) => ['sh', 'bash', 'shell'].includes(b.lang);
export const noRun = (b: Block) => /^no-run\b/.test(b.flags);
