// The walk-throughs of README.md and docs/*.md that `npm run test:docs` runs (test/docs/walkthroughs.test.ts): a
// shell block (```sh or ```bash) right after a `<!-- walkthrough -->` line. A page marks a block once it runs as
// written against `npm start` on the embedded database, in a terminal where the README's block has run (API and
// TOKEN set), from the directory that holds `data/`. A block that needs the server started with something more
// says so in its mark, `<!-- walkthrough needs: microsoft-fake -->` (one of NEEDS), and the page says it before
// the block; the test then runs it against a server started that way.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const WALKTHROUGH_MARK = '<!-- walkthrough -->';
const MARK = /^<!-- walkthrough(?: needs: ([a-z-]+))? -->$/;

/** What a block may need at the server's start: `microsoft-fake`, the MICROSOFT_* of test/fakes/microsoft-server.ts. */
export const NEEDS = ['microsoft-fake'] as const;
export type Need = (typeof NEEDS)[number];

export interface Walkthrough {
  /** `docs/print-campaigns.md:38`: the page and the line of the block's first command. */
  name: string;
  code: string;
  /** What the server must have been started with, beyond `npm start`. */
  needs?: Need;
}

/** The marked blocks of one page's text, in page order. */
export function walkthroughsOf(page: string, text: string): Walkthrough[] {
  const lines = text.split('\n');
  const found: Walkthrough[] = [];
  for (let i = 0; i < lines.length; i++) {
    const mark = MARK.exec(lines[i]!.trim());
    if (!mark) continue;
    const need = mark[1];
    if (need !== undefined && !(NEEDS as readonly string[]).includes(need))
      throw new Error(`${page}:${i + 1}: unknown need ${need} (known: ${NEEDS.join(', ')})`);
    // Blank lines may stand between the mark and the block (a formatter puts one there).
    let open = i + 1;
    while (lines[open]?.trim() === '') open++;
    const fence = lines[open]?.trim();
    if (fence !== '```sh' && fence !== '```bash')
      throw new Error(`${page}:${i + 1}: ${WALKTHROUGH_MARK} must be followed by a \`\`\`sh block`);
    const end = lines.findIndex((line, j) => j > open && line.trim() === '```');
    if (end < 0) throw new Error(`${page}:${open + 1}: the block is not closed`);
    const code = lines.slice(open + 1, end).join('\n');
    found.push({ name: `${page}:${open + 2}`, code, ...(need ? { needs: need as Need } : {}) });
  }
  return found;
}

/** Every marked block: README.md first (it sets API and TOKEN), then docs/*.md by name. */
export function allWalkthroughs(root: string): Walkthrough[] {
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  return pages.flatMap((page) => walkthroughsOf(page, readFileSync(join(root, page), 'utf8')));
}
