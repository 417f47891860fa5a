// `gable secrets rotate` (docs/secret-rotation.md): after SECRET_KEY was changed and the old key set as
// SECRET_KEY_PREVIOUS, re-encrypts every stored secret under SECRET_KEY. First a survey opens every stored value
// and refuses, writing nothing and exiting 1, when a value opens under no configured key or a previous key opens
// nothing; then batches of rows, each its own transaction. A run stopped anywhere is finished by running it again.
import { InvalidArgumentError, type Command } from 'commander';
import { withDeps } from '../platform/commands.js';

const positiveInteger = (text: string): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 100_000)
    throw new InvalidArgumentError('a whole number from 1 to 100000');
  return value;
};

export function registerSecretsCommands(program: Command): void {
  const secrets = program.command('secrets').description('the secrets stored encrypted under SECRET_KEY');
  secrets
    .command('rotate')
    .description(
      're-encrypt every stored secret under SECRET_KEY that a SECRET_KEY_PREVIOUS key sealed (resumable: run it again to finish a stopped run); afterwards the previous key may be dropped',
    )
    .option('--batch-size <rows>', 'rows re-encrypted per transaction', positiveInteger, 500)
    .action(async (options: { batchSize: number }) => {
      const [rotation, { SEALED_COLUMNS }, { progressReporter }, { keyFingerprint }] = await Promise.all([
        import('../platform/secret-rotation.js'),
        import('./sealed-columns.js'),
        import('../lib/progress.js'),
        import('../lib/crypto.js'),
      ]);
      await withDeps({}, async (deps) => {
        const { config, db, secrets: box } = deps;
        const survey = await rotation.surveySealed(db, box, config, SEALED_COLUMNS);
        const refusals = rotation.rotationRefusals(survey, config);
        if (refusals.length > 0) {
          for (const refusal of refusals) console.error(`refused: ${refusal}`);
          console.error('nothing was written.');
          process.exitCode = 1;
          return;
        }
        const left = rotation.underPreviousKeys(survey);
        console.log(
          `${survey.byKey[0]} stored secret(s) under SECRET_KEY (fingerprint ${keyFingerprint(config.secretKey)}), ` +
            `${left} under a previous key, in ${survey.rows} row(s)`,
        );
        if (left > 0) {
          const progress = progressReporter('re-encrypting');
          const started = performance.now();
          const result = await rotation.rotateSealed(db, box, SEALED_COLUMNS, {
            batchRows: options.batchSize,
            afterBatch: (done) => progress.update(done, survey.rows),
          });
          progress.stop();
          const seconds = (performance.now() - started) / 1000;
          console.log(
            `re-encrypted ${result.resealed} secret(s) in ${result.rows} row(s) in ${seconds.toFixed(1)} s` +
              (result.changedMeanwhile > 0 ? ` (${result.changedMeanwhile} rewritten meanwhile by the server)` : ''),
          );
          // A process still running with the old SECRET_KEY alone seals under it: look again rather than claim.
          const after = await rotation.surveySealed(db, box, config, SEALED_COLUMNS);
          const stale = rotation.underPreviousKeys(after) + after.unreadable;
          if (stale > 0) {
            console.error(
              `${stale} secret(s) were written under another key during the rotation: a process still runs with the ` +
                'old SECRET_KEY. Restart every gable process with the new configuration, then run this again.',
            );
            process.exitCode = 1;
            return;
          }
        }
        console.log(
          config.previousSecretKeys.length > 0
            ? 'every stored secret is under SECRET_KEY: SECRET_KEY_PREVIOUS may be dropped once the links signed before the rotation have expired (docs/secret-rotation.md)'
            : 'every stored secret is under SECRET_KEY',
        );
      });
    });
}
