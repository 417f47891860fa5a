// Progress of a long command (imports, seeds): a bar on a terminal; on a pipe or in CI, a line every ~10 %.
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressReporter(label: string): Progress {
  if (process.stdout.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left` },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (done, total) => {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update: (done, total) => {
      const decile = Math.floor((done / Math.max(1, total)) * 10);
      if (decile === lastDecile) return;
      lastDecile = decile;
      console.log(`${label}: ${Math.round((done / Math.max(1, total)) * 100)}%`);
    },
    stop: () => undefined,
  };
}
