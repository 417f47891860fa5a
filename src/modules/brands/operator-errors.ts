// Operator commands print a mistake (unknown id, duplicate email, bad ACL word) as one readable line and exit
// 1; anything else is a bug and keeps its stack trace.
import { AppError } from '../../errors.js';

export async function reportOperatorErrors(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof AppError) || error.http >= 500) throw error;
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  }
}
