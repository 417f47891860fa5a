// How marked walk-throughs are found: the block after the mark, its page and line; a mark without a block fails.
import { describe, expect, it } from 'vitest';
import { walkthroughsOf, WALKTHROUGH_MARK } from './walkthroughs.js';

describe('walkthroughsOf', () => {
  it('takes the shell block right after each mark, named by its page and first line', () => {
    const page = [
      '# Title',
      WALKTHROUGH_MARK,
      '```sh',
      'echo one',
      'echo two',
      '```',
      '',
      '```sh',
      'echo unmarked',
      '```',
    ];
    expect(walkthroughsOf('docs/x.md', page.join('\n'))).toEqual([{ name: 'docs/x.md:4', code: 'echo one\necho two' }]);
  });

  it('reads what a block needs from its mark, and refuses a need it does not know', () => {
    const page = (mark: string) => [mark, '```sh', 'echo linked', '```'].join('\n');
    expect(walkthroughsOf('docs/x.md', page('<!-- walkthrough needs: microsoft-fake -->'))).toEqual([
      { name: 'docs/x.md:3', code: 'echo linked', needs: 'microsoft-fake' },
    ]);
    expect(() => walkthroughsOf('docs/x.md', page('<!-- walkthrough needs: a-printer -->'))).toThrow(
      'docs/x.md:1: unknown need a-printer',
    );
  });

  it('refuses a mark that is not followed by a shell block, or a block that is not closed', () => {
    expect(() => walkthroughsOf('docs/x.md', [WALKTHROUGH_MARK, 'text'].join('\n'))).toThrow('docs/x.md:1');
    expect(() => walkthroughsOf('docs/x.md', [WALKTHROUGH_MARK, '```sh', 'echo'].join('\n'))).toThrow(
      'docs/x.md:2: the block is not closed',
    );
  });
});
